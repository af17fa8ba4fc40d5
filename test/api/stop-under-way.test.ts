/**
 * An engine told to stop while a payment is under way: the payment ends first. A sale the merchant's
 * gateway approves as the engine stops is answered to the program that asked and kept in the ledger,
 * and one whose program has gone is kept all the same; only then is the ledger closed. Before, the
 * stop cut every connection and closed the ledger under the payment, so a card the gateway charged
 * had no record at the counter.
 */
import type { ClientRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openEngine } from '../../electron/gateway/open-store';
import { TRANSACTION_POSTS } from '../support/fault-proxy';
import { VISA, type TestGateway } from '../support/gateway';
import { startRelay } from '../support/relay';
import { post } from '../support/transactions';
import { startUpstreamGateway, type UpstreamGateway } from '../support/upstream-gateway';

let upstream: UpstreamGateway;
beforeAll(async () => {
  upstream = await startUpstreamGateway();
});
afterAll(async () => {
  await upstream?.close();
});

let relay: TestGateway | undefined;
afterEach(async () => {
  upstream.proxy.clearFaults();
  await relay?.close();
  relay = undefined;
});

/** The transactions the stopped engine's ledger holds, read by an engine opened on it afresh. */
async function ledgerAfterStop(t: TestGateway) {
  const engine = await openEngine(t.dataDir, t.store ? { store: t.store } : {});
  try {
    return await engine.reads.listTransactions(
      {},
      { orderBy: 'id', descending: false, limit: 100, offset: 0 },
    );
  } finally {
    await engine.close();
  }
}

/** A program's SALE on a connection of its own, which it may drop before the answer comes. */
function startSale(t: TestGateway, amount: string): ClientRequest {
  const outgoing = httpsRequest({
    host: '127.0.0.1',
    port: t.gateway.port,
    path: '/rest/v1/transactions',
    method: 'POST',
    headers: { api_key: t.key, 'content-type': 'application/json', accept: 'application/json' },
    agent: false,
    ca: t.gateway.certificatePem,
    servername: 'localhost',
  });
  outgoing.on('error', () => undefined);
  outgoing.end(JSON.stringify({ type: 'SALE', amount, ...VISA }));
  return outgoing;
}

/** Starts a sale that the line holds on its way to the gateway; resolves once the line has it, with its answer to come. */
async function saleHeldOnTheLine(t: TestGateway, amount: string) {
  const from = upstream.proxy.seen.length;
  upstream.proxy.fault({ kind: 'hold', answer: true }, { match: TRANSACTION_POSTS });
  const answer = post(t, 'json', { type: 'SALE', amount, ...VISA });
  // Whatever becomes of the answer, the test reads it; an unread rejection would end the run.
  answer.catch(() => undefined);
  await upstream.proxy.waitFor(({ method, body }) => method === 'POST' && body.includes(amount), from);
  return { answer };
}

describe('a stop while a payment is under way', () => {
  it('answers the sale the gateway approves meanwhile, and keeps it, before the ledger closes', async () => {
    relay = await startRelay(upstream, { timeoutSeconds: 10 });
    const { answer } = await saleHeldOnTheLine(relay, '31.17');
    const stopped = relay.gateway.close();
    await upstream.proxy.releaseHeld();
    const sale = await answer;
    expect(sale).toMatchObject({ result: 'Approved' });
    await stopped;
    const kept = await ledgerAfterStop(relay);
    expect(kept.map(({ id, result, amount }) => ({ id, result, amount }))).toContainEqual({
      id: Number(sale.id),
      result: 'Approved',
      amount: 3117,
    });
  });

  it('keeps a sale the gateway approved after its program went away', async () => {
    relay = await startRelay(upstream, { timeoutSeconds: 10 });
    const from = upstream.proxy.seen.length;
    upstream.proxy.fault({ kind: 'hold', answer: true }, { match: TRANSACTION_POSTS });
    const program = startSale(relay, '32.18');
    await upstream.proxy.waitFor(({ method, body }) => method === 'POST' && body.includes('32.18'), from);
    program.destroy();
    const stopped = relay.gateway.close();
    const [atGateway] = await upstream.proxy.releaseHeld();
    await stopped;
    const approvedThere = JSON.parse(atGateway ?? '{}') as { result?: string; id?: string };
    expect(approvedThere.result).toBe('Approved');
    const kept = await ledgerAfterStop(relay);
    expect(kept.map(({ amount, result, upstreamId }) => ({ amount, result, upstreamId }))).toContainEqual({
      amount: 3218,
      result: 'Approved',
      upstreamId: approvedThere.id,
    });
  });
});
