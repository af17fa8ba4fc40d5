/**
 * Two counters of one store relaying to the merchant's gateway (a second engine behind the fault
 * proxy): the offline total holds for the store whichever counters approve at once, and the store's
 * one queue is forwarded by one counter at a time, each entry once.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TransactionResponse } from '../../shared/api/schemas';
import { LOCKS } from '../../electron/gateway/store/postgres/ledger-sql';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { startPostgresServer, type PostgresServer } from '../support/postgres-server';
import { TRANSACTION_POSTS } from '../support/fault-proxy';
import { heldAtTheLine, postsSince, relaySettings, swipe } from '../support/relay';
import { startUpstreamGateway, type UpstreamGateway } from '../support/upstream-gateway';

let server: PostgresServer;
let upstream: UpstreamGateway;
const running: TestGateway[] = [];
/** The database of the last store made. */
let storeUrl = '';

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
  storeUrl = url;
  const front = await startTestGateway({ engine: { store: { url, lane: 'front' } } });
  running.push(front);
  const bar = await startTestGateway({ engine: { store: { url, lane: 'bar' } } });
  running.push(bar);
  await front.gateway.engine.settings.change(relaySettings(upstream, { offline: true, settings }));
  // The store's settings reach the other counter within a second or so.
  await expect.poll(() => bar.gateway.engine.settings.get('processor')).toBe('upstream');
  return [front, bar];
}

const CARD = { pan: '4539578763621486', expMmyy: '1230' };
const offlineSale = (t: TestGateway, amount: string): Promise<TransactionResponse> =>
  t.client.createTransaction({ type: 'SALE', amount, ...swipe(CARD) });

const VISA = { card: '4111111111111111', exp_date: '1230' } as const;

describe('one request per decision across counters', () => {
  it('two counters voiding one sale: one is approved, and the gateway saw one', async () => {
    const [front, bar] = await store();
    const sale = await front.client.createTransaction({ type: 'SALE', amount: '14.00', ...VISA });
    const seen = upstream.proxy.seen.length;
    const answers = await Promise.all(
      [front, bar, front, bar].map((t) => t.client.createTransaction({ type: 'VOID', id: sale.id ?? '' })),
    );
    expect(answers.filter((answer) => answer.result === 'Approved')).toHaveLength(1);
    expect(postsSince(upstream, seen)).toHaveLength(1);
  });

  it('ten captures of one AUTH from two counters: one is approved, and the gateway saw one', async () => {
    const [front, bar] = await store();
    const auth = await front.client.createTransaction({ type: 'AUTH', amount: '30.00', ...VISA });
    const seen = upstream.proxy.seen.length;
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        (index % 2 ? bar : front).client.createTransaction({
          type: 'CAPTURE',
          id: auth.id ?? '',
          amount: '30.00',
        }),
      ),
    );
    expect(answers.filter((answer) => answer.result === 'Approved')).toHaveLength(1);
    expect(postsSince(upstream, seen)).toHaveLength(1);
  });

  it('an Idempotency-Key retried at another counter while the gateway decides is in flight, then replayed: the gateway saw one', async () => {
    const [front, bar] = await store();
    // One API key of the store, used by a program that retried at the other counter.
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json',
      api_key: front.key,
      'idempotency-key': `store-retry-${randomUUID()}`,
    };
    const body = JSON.stringify({ type: 'SALE', amount: '16.00', ...VISA });
    const send = (t: TestGateway) => t.request('transactions', { method: 'POST', headers, body });
    const seen = upstream.proxy.seen.length;
    // The first request stays at the gateway, unanswered, while the retry arrives at the other counter.
    upstream.proxy.fault({ kind: 'hold' }, { match: TRANSACTION_POSTS });
    const first = send(front);
    await heldAtTheLine(upstream, first, seen);
    const early = await send(bar);
    expect(early.status).toBe(409);
    expect(early.json<{ error: string }>()?.error).toBe('idempotency_key_in_flight');
    // The gateway decides; its answer is lost, and the first counter looks it up.
    await upstream.proxy.releaseHeld();
    const answered = await first;
    expect(answered.status).toBe(200);
    const approved = answered.json<TransactionResponse>();
    expect(approved?.result).toBe('Approved');
    const retried = await send(bar);
    expect(retried.status).toBe(200);
    expect(retried.headers['idempotent-replayed']).toBe('true');
    expect(retried.json<TransactionResponse>()?.id).toBe(approved?.id);
    expect(postsSince(upstream, seen)).toHaveLength(1);
  });
});

/** How many sessions of the store wait for a hold of this kind (an advisory lock's first key). */
async function waitingFor(kind: number): Promise<number> {
  const client = new pg.Client({ connectionString: storeUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ waiting: string }>(
      "SELECT count(*) AS waiting FROM pg_locks WHERE locktype = 'advisory' AND classid = $1 AND NOT granted",
      [kind],
    );
    return Number(rows[0]?.waiting);
  } finally {
    await client.end();
  }
}

describe('one close with the gateway across counters', () => {
  it('two counters closing at once: the gateway is asked to close once, and the other finds none open', async () => {
    // Long enough that the first close's lost answer is looked up after the gateway has closed.
    const [front, bar] = await store([['upstream_timeout_seconds', '10']]);
    await front.client.createTransaction({ type: 'SALE', amount: '21.00', ...VISA });
    const closes = (from: number) =>
      upstream.proxy.seen.slice(from).filter((request) => request.method === 'PUT');
    const seen = upstream.proxy.seen.length;
    upstream.proxy.fault({ kind: 'hold' }, { match: ({ method }) => method === 'PUT' });
    const first = front.client.closeOpenBatch();
    await heldAtTheLine(upstream, first, seen);
    const second = bar.client.closeOpenBatch();
    // The other counter's close waits for the first's (LOCKS.close), or, without the hold, reaches
    // the gateway too.
    await expect.poll(async () => (await waitingFor(8)) > 0 || closes(seen).length > 1).toBe(true);
    await upstream.proxy.releaseHeld();
    const [closed, none] = await Promise.all([first, second]);
    expect(closed?.status).toBe('CLOSED');
    expect(none).toBeUndefined();
    expect(closes(seen)).toHaveLength(1);
  });
});

describe("a close with the gateway and the store's other counters", () => {
  it('a sale another counter has at the gateway when the close begins: the close waits for its answer, and both sides hold it', async () => {
    const [front, bar] = await store([['upstream_timeout_seconds', '2']]);
    await front.client.createTransaction({ type: 'SALE', amount: '21.00', ...VISA });
    // The gateway takes the sale at the other counter, and its answer is kept from that counter.
    upstream.proxy.fault({ kind: 'withhold' }, { match: TRANSACTION_POSTS });
    const sale = bar.client.createTransaction({ type: 'SALE', amount: '5.00', ...VISA });
    await expect.poll(async () => (await upstream.gateway.client.openBatch())?.sales_count).toBe('2');
    const closed = await front.client.closeOpenBatch();
    expect(await sale).toMatchObject({ result: 'Approved' });
    expect(closed).toMatchObject({
      status: 'CLOSED',
      sales_count: '2',
      sales_total: '26.00',
      upstream_sales_total: '26.00',
      reconciled: 'true',
    });
  });

  it('a sale another counter sends while the close is at the gateway waits for it, and opens the next batch on both sides', async () => {
    const [front, bar] = await store();
    await front.client.createTransaction({ type: 'SALE', amount: '21.00', ...VISA });
    const seen = upstream.proxy.seen.length;
    upstream.proxy.fault({ kind: 'hold' }, { match: ({ method }) => method === 'PUT' });
    const close = front.client.closeOpenBatch();
    await heldAtTheLine(upstream, close, seen);
    const sale = bar.client.createTransaction({ type: 'SALE', amount: '5.00', ...VISA });
    await expect.poll(() => waitingFor(8)).toBeGreaterThan(0);
    expect(postsSince(upstream, seen)).toHaveLength(0);
    await upstream.proxy.releaseHeld();
    const closed = await close;
    expect(closed).toMatchObject({ sales_count: '1', upstream_sales_count: '1', reconciled: 'true' });
    expect(await sale).toMatchObject({ result: 'Approved' });
    expect(await bar.client.openBatch()).toMatchObject({ sales_count: '1', sales_total: '5.00' });
    expect(await upstream.gateway.client.openBatch()).toMatchObject({
      sales_count: '1',
      sales_total: '5.00',
    });
  });
});

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

  it("takes an offline sale the gateway declined out of its own counter's share, whichever counter forwarded it", async () => {
    const [front, bar] = await store();
    await front.gateway.engine.forwarder.stop();
    await upstream.proxy.line('refuse');
    expect((await offlineSale(front, '3.00')).offline).toBe('true');
    const refused = await front.client.createTransaction({
      type: 'SALE',
      amount: '5.00',
      ...swipe({ pan: '4000000000000002', expMmyy: '1230' }),
    });
    expect(refused.offline).toBe('true');
    await upstream.proxy.line('up');
    expect((await bar.gateway.engine.forwarder.drain()).waiting).toBe(0);
    expect((await front.client.listTransactions({ id: refused.id ?? '' }))[0]?.forward_state).toBe(
      'declined',
    );
    const shares = (await front.client.openBatch())?.lanes?.map((share) => [
      share.lane,
      share.sales_count,
      share.sales_total,
    ]);
    expect(shares).toEqual([['front', '1', '3.00']]);
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

/**
 * Holds the store's lock of what waits to be forwarded from a session of the test's own, as an
 * offline approval does from its first read of the total to its commit; resolves with its release.
 */
async function holdWhatWaits(): Promise<() => Promise<void>> {
  const client = new pg.Client({ connectionString: storeUrl });
  await client.connect();
  await client.query('BEGIN');
  await client.query('SELECT pg_advisory_xact_lock($1, 0)', [LOCKS.offlineTotal]);
  return async () => {
    await client.query('COMMIT');
    await client.end();
  };
}

describe('a change of processor while another counter sells offline', () => {
  it('an offline approval under way when the processor changes is counted, and the change is refused', async () => {
    const [front, bar] = await store();
    await upstream.proxy.line('refuse');
    const release = await holdWhatWaits();
    const sale = offlineSale(bar, '5.00');
    await expect.poll(() => waitingFor(LOCKS.offlineTotal)).toBe(1);
    let settled = false;
    const change = front.gateway.engine.settings.setFromText('processor', 'simulator').finally(() => {
      settled = true;
    });
    change.catch(() => undefined);
    // The change counts what waits behind the approval under way, not before it.
    await expect.poll(async () => settled || (await waitingFor(LOCKS.offlineTotal)) === 2).toBe(true);
    expect(settled).toBe(false);
    await release();
    expect(await sale).toMatchObject({ result: 'Approved', offline: 'true' });
    await expect(change).rejects.toThrow(
      /^processor cannot leave upstream while 1 transaction made offline still waits to be forwarded/,
    );
    expect(front.gateway.engine.settings.get('processor')).toBe('upstream');
  });

  it('a sale that reaches its offline approval after the processor changed is not approved offline', async () => {
    const [front, bar] = await store();
    await upstream.proxy.line('refuse');
    const release = await holdWhatWaits();
    const change = front.gateway.engine.settings.setFromText('processor', 'simulator');
    await expect.poll(() => waitingFor(LOCKS.offlineTotal)).toBe(1);
    const sale = offlineSale(bar, '5.00');
    await expect.poll(() => waitingFor(LOCKS.offlineTotal)).toBe(2);
    await release();
    await change;
    const answer = await sale;
    expect(answer.result).toBe('Error');
    expect(answer.offline).not.toBe('true');
    expect((await front.gateway.engine.ledger.forwards.summary()).count).toBe(0);
    await expect.poll(() => bar.gateway.engine.settings.get('processor')).toBe('simulator');
  });
});

describe('a counter that has not heard of a change of settings yet', () => {
  it('approves offline within the limits as stored', async () => {
    const [, bar] = await store([
      ['offline_max_amount', '10.00'],
      ['offline_max_total', '10.00'],
    ]);
    await upstream.proxy.line('refuse');
    // The limits are lowered; the counter has not heard it yet.
    const session = new pg.Client({ connectionString: storeUrl });
    await session.connect();
    try {
      await session.query(
        "UPDATE settings SET value = '4.00' WHERE key IN ('offline_max_amount', 'offline_max_total')",
      );
    } finally {
      await session.end();
    }
    expect(bar.gateway.engine.settings.get('offline_max_total')).toBe(1000);
    const refused = await offlineSale(bar, '6.00');
    expect(refused.result).toBe('Error');
    expect(refused.offline).not.toBe('true');
    expect((await offlineSale(bar, '4.00')).offline).toBe('true');
  });

  it('decides from the stored processor: what waits is counted, and no swipe key is taken beside the gateway', async () => {
    const [front, bar] = await store();
    await upstream.proxy.line('refuse');
    expect((await offlineSale(bar, '5.00')).offline).toBe('true');
    // The counters hear that the processor is the simulator; it is then the gateway again, and the
    // counters have not heard it yet.
    const session = new pg.Client({ connectionString: storeUrl });
    await session.connect();
    try {
      await session.query("UPDATE settings SET value = 'simulator' WHERE key = 'processor'");
      await session.query("SELECT pg_notify('tender_admin', 'settings')");
      await expect.poll(() => front.gateway.engine.settings.get('processor')).toBe('simulator');
      await session.query("UPDATE settings SET value = 'upstream' WHERE key = 'processor'");
    } finally {
      await session.end();
    }
    const { settings } = front.gateway.engine;
    await expect(settings.setFromText('processor', 'simulator')).rejects.toThrow(
      /^processor cannot leave upstream while 1 transaction made offline still waits to be forwarded/,
    );
    await expect(settings.setFromText('swipe_bdk', '00112233445566778899AABBCCDDEEFF')).rejects.toThrow(
      /^swipe_bdk cannot be set while processor is upstream/,
    );
    const stored = new pg.Client({ connectionString: storeUrl });
    await stored.connect();
    try {
      const { rows } = await stored.query<{ key: string; value: string }>(
        "SELECT key, value FROM settings WHERE key IN ('processor', 'swipe_bdk') ORDER BY key",
      );
      expect(rows.filter((row) => row.value !== '')).toEqual([{ key: 'processor', value: 'upstream' }]);
    } finally {
      await stored.end();
    }
  });
});
