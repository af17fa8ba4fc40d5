/**
 * Two counters of one store relaying to the merchant's gateway (a second engine behind the fault
 * proxy): the offline total holds for the store whichever counters approve at once, and the store's
 * one queue is forwarded by one counter at a time, each entry once.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TransactionResponse } from '../../shared/api/schemas';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { startPostgresServer, type PostgresServer } from '../support/postgres-server';
import { postsSince, swipe } from '../support/relay';
import { startUpstreamGateway, type UpstreamGateway } from '../support/upstream-gateway';

let server: PostgresServer;
let upstream: UpstreamGateway;
const running: TestGateway[] = [];

beforeAll(async () => {
  [server, upstream] = await Promise.all([startPostgresServer(), startUpstreamGateway()]);
}, 60_000);
afterAll(async () => {
  await upstream?.close();
  await server?.close();
});
afterEach(async () => {
  await upstream.proxy.line('up');
  await Promise.all(running.splice(0).map((gateway) => gateway.close()));
});

/** Two counters on one fresh database, relaying to the gateway, with store and forward on. */
async function store(settings: [string, string][] = []): Promise<[TestGateway, TestGateway]> {
  const url = await server.createDatabase();
  const front = await startTestGateway({ engine: { store: { url, lane: 'front' } } });
  running.push(front);
  const bar = await startTestGateway({ engine: { store: { url, lane: 'bar' } } });
  running.push(bar);
  await front.gateway.engine.settings.change([
    ['upstream_url', upstream.url],
    ['upstream_api_key', upstream.key],
    ['upstream_ca_file', upstream.caFile],
    ['upstream_timeout_seconds', '2'],
    ['offline_enabled', 'true'],
    ['processor', 'upstream'],
    ...settings,
  ]);
  // The store's settings reach the other counter within a second or so.
  await expect.poll(() => bar.gateway.engine.settings.get('processor'), { timeout: 10_000 }).toBe('upstream');
  return [front, bar];
}

const CARD = { pan: '4539578763621486', expMmyy: '1230' };
const offlineSale = (t: TestGateway, amount: string): Promise<TransactionResponse> =>
  t.client.createTransaction({ type: 'SALE', amount, ...swipe(CARD) });

describe('a store relaying to the gateway', () => {
  it('holds the offline total for the store whichever counters approve at once', async () => {
    const [front, bar] = await store([
      ['offline_max_amount', '10.00'],
      ['offline_max_total', '10.00'],
    ]);
    await upstream.proxy.line('refuse');
    const racing = await Promise.all([offlineSale(front, '6.00'), offlineSale(bar, '6.00')]);
    expect(racing.map((answer) => answer.result).sort()).toEqual(['Approved', 'Error']);
    expect(racing.find((answer) => answer.result === 'Error')?.error_code).toBe('9013');
    const other = racing[0]?.result === 'Approved' ? bar : front;
    expect((await offlineSale(other, '4.00')).offline).toBe('true');
    expect(await offlineSale(front, '0.01')).toMatchObject({ result: 'Error', error_code: '9013' });
    expect((await front.gateway.engine.ledger.forwards.summary()).offlineSalesCents).toBe(1000);
  });

  it("forwards the store's one queue, one counter at a time, each entry once", async () => {
    const [front, bar] = await store();
    await upstream.proxy.line('refuse');
    const answers = [
      await offlineSale(front, '1.10'),
      await offlineSale(bar, '2.20'),
      await offlineSale(front, '3.30'),
      await offlineSale(bar, '4.40'),
    ];
    expect(answers.every((answer) => answer.offline === 'true')).toBe(true);
    const seen = upstream.proxy.seen.length;
    await upstream.proxy.line('up');
    const rounds = await Promise.all([
      front.gateway.engine.forwarder.drain(),
      bar.gateway.engine.forwarder.drain(),
    ]);
    expect(rounds.map((round) => round.waiting)).toEqual([0, 0]);
    const posts = postsSince(upstream, seen);
    expect(posts.map((post) => post.body.amount)).toEqual(['1.10', '2.20', '3.30', '4.40']);
    for (const post of posts)
      expect(
        await upstream.gateway.client.listTransactions({ order_id: String(post.body.order_number) }),
      ).toHaveLength(1);
    const listed = await front.client.listTransactions({ offline: 'true' });
    expect(listed.map((item) => item.forward_state)).toEqual([
      'forwarded',
      'forwarded',
      'forwarded',
      'forwarded',
    ]);
  });
});
