/**
 * Several counters on one store server, over the real HTTPS API: two and three engines, each with its
 * own data dir, lane and API key, on one real PostgreSQL database. They race sales, captures,
 * refunds, voids, closes, duplicates and Idempotency-Keys against one another, and every invariant of
 * the single counter holds for the store as a whole; each batch's lanes add up to it and to the rows
 * of each lane. A store server that stops answers POST /transactions with an Error and nothing
 * recorded, lists with 503, and the counters resume by themselves once it is back.
 */
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Batch, TransactionListItem, TransactionResponse } from '../../shared/api/schemas';
import { ERROR_CODES } from '../../electron/gateway/domain/codes';
import { LaneInUseError, StoreUnreachableError } from '../../electron/gateway/store/store-errors';
import { simulatedSwipeString } from '../../electron/reader/simulator';
import { startTestGateway, VISA, type TestGateway } from '../support/gateway';
import { auditBatches, expectedTotals, listAll, rowProblems, type GetJson } from '../support/ledger-audit';
import { startPostgresServer, type PostgresServer } from '../support/postgres-server';

let server: PostgresServer;
const running: TestGateway[] = [];

beforeAll(async () => {
  server = await startPostgresServer();
});

afterAll(async () => {
  await server?.close();
});

afterEach(async () => {
  await Promise.all(running.splice(0).map((gateway) => gateway.close()));
});

/** Engines on one fresh database, one per lane. */
async function counters(lanes: string[], duplicateWindowMinutes = 0): Promise<TestGateway[]> {
  return countersOn(await server.createDatabase(), lanes, duplicateWindowMinutes);
}

/** Engines on the database at `url`, one per lane. */
async function countersOn(url: string, lanes: string[], duplicateWindowMinutes = 0): Promise<TestGateway[]> {
  const started: TestGateway[] = [];
  // One after another: the first migrates the database and makes the store's card-hash secret.
  for (const lane of lanes) {
    const gateway = await startTestGateway({ engine: { store: { url, lane } }, duplicateWindowMinutes });
    running.push(gateway);
    started.push(gateway);
  }
  return started;
}

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };

async function post(
  t: TestGateway,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<TransactionResponse & { replayed: boolean }> {
  const response = await t.request('transactions', {
    method: 'POST',
    headers: { api_key: t.key, ...JSON_HEADERS, ...headers },
    body: JSON.stringify(body),
  });
  if (response.status !== 200) throw new Error(`POST answered ${response.status}: ${response.body}`);
  return {
    ...response.json<TransactionResponse>(),
    replayed: response.headers['idempotent-replayed'] === 'true',
  };
}

const sale = (amount: string, card = VISA.card) => ({ type: 'SALE', amount, card, exp_date: VISA.exp_date });

const getter =
  (t: TestGateway): GetJson =>
  async <T>(path: string) => {
    const response = await t.request(path, { headers: { api_key: t.key, accept: 'application/json' } });
    if (response.status === 204) return undefined;
    if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}: ${response.body}`);
    return response.json<T>();
  };

async function closeBatch(t: TestGateway): Promise<Batch | undefined> {
  const response = await t.request('batches/open', {
    method: 'PUT',
    headers: { api_key: t.key, accept: 'application/json' },
  });
  if (response.status === 204) return undefined;
  if (response.status !== 200)
    throw new Error(`PUT /batches/open answered ${response.status}: ${response.body}`);
  return response.json<Batch>();
}

/** Each lane's share of every batch against the rows that lane made in it. */
async function laneProblems(get: GetJson): Promise<string[]> {
  const problems: string[] = [];
  for (const batch of await listAll<Batch>(get, 'batches')) {
    const rows = await listAll<TransactionListItem>(get, 'transactions', { batch_id: batch.id });
    const lanes = batch.lanes ?? [];
    for (const share of lanes) {
      const expected = expectedTotals(rows.filter((row) => row.lane === share.lane));
      const { lane, ...stated } = share;
      if (JSON.stringify(stated) !== JSON.stringify(expected))
        problems.push(
          `batch ${batch.id} lane ${lane} says ${JSON.stringify(stated)}, its rows ${JSON.stringify(expected)}`,
        );
    }
    for (const lane of new Set(rows.filter((row) => row.result === 'Approved').map((row) => row.lane))) {
      if (!lanes.some((share) => share.lane === lane))
        problems.push(`batch ${batch.id} has no share for lane ${lane}`);
    }
  }
  return problems;
}

async function storeProblems(t: TestGateway): Promise<string[]> {
  const get = getter(t);
  const rows = await listAll<TransactionListItem>(get, 'transactions');
  return [...rowProblems(rows), ...(await auditBatches(get)), ...(await laneProblems(get))];
}

describe('several counters on one store server', () => {
  it('every counter sees the one ledger: lanes on items, the lane filter, one open batch with each lane beside it', async () => {
    const [front, bar] = (await counters(['front', 'bar'])) as [TestGateway, TestGateway];
    const first = await post(front, sale('10.00'));
    const second = await post(bar, sale('2.50'));
    expect([first.result, second.result]).toEqual(['Approved', 'Approved']);

    for (const t of [front, bar]) {
      const get = getter(t);
      const items = await listAll<TransactionListItem>(get, 'transactions');
      expect(items.map((item) => [item.id, item.lane])).toEqual([
        [second.id, 'bar'],
        [first.id, 'front'],
      ]);
      const onlyBar = await listAll<TransactionListItem>(get, 'transactions', { lane: 'bar' });
      expect(onlyBar.map((item) => item.id)).toEqual([second.id]);
      expect(await get('transactions?lane=patio')).toBeUndefined();
      const open = await get<Batch>('batches/open');
      expect(open).toMatchObject({ sales_count: '2', sales_total: '12.50' });
      expect(open?.lanes).toEqual([
        {
          lane: 'bar',
          sales_count: '1',
          sales_total: '2.50',
          refund_count: '0',
          refund_total: '0.00',
          total_count: '1',
          net_amount: '2.50',
          tip_total: '0.00',
        },
        {
          lane: 'front',
          sales_count: '1',
          sales_total: '10.00',
          refund_count: '0',
          refund_total: '0.00',
          total_count: '1',
          net_amount: '10.00',
          tip_total: '0.00',
        },
      ]);
    }

    const xml = await bar.request('batches/open', {
      headers: { api_key: bar.key, accept: 'application/xml' },
    });
    expect(xml.body).toContain(
      '<lanes><lane>bar</lane><sales_count>1</sales_count><sales_total>2.50</sales_total>',
    );
    expect(xml.body).toContain('<lanes><lane>front</lane>');

    const bad = await front.request('transactions?lane=no%20such', {
      headers: { api_key: front.key, accept: 'application/json' },
    });
    expect(bad.status).toBe(400);
  });

  it('a second engine given a lane another engine serves is refused, and the lane is free again once that one stops', async () => {
    const url = await server.createDatabase();
    const [front] = await countersOn(url, ['front']);
    if (!front) throw new Error('no counter started');
    const refused = startTestGateway({ engine: { store: { url, lane: 'front' } } });
    await expect(refused).rejects.toBeInstanceOf(LaneInUseError);
    await expect(refused).rejects.toThrow(
      'Another counter is serving the lane "front" on this store server.',
    );
    // Another lane of the same store starts beside it.
    const [bar] = await countersOn(url, ['bar']);
    expect(await post(bar as TestGateway, { type: 'SALE', amount: '4.00', ...VISA })).toMatchObject({
      result: 'Approved',
    });
    // The first keeps serving its lane, then lets it go when it stops.
    expect(await post(front, { type: 'SALE', amount: '5.00', ...VISA })).toMatchObject({
      result: 'Approved',
    });
    running.splice(running.indexOf(front), 1);
    await front.close();
    const [again] = await countersOn(url, ['front']);
    expect(await post(again as TestGateway, { type: 'SALE', amount: '6.00', ...VISA })).toMatchObject({
      result: 'Approved',
    });
  });

  it('a void from another counter takes the sale back from the share of the counter that made it', async () => {
    const [front, bar] = (await counters(['front', 'bar'])) as [TestGateway, TestGateway];
    const made = await post(front, sale('7.00'));
    await post(bar, sale('3.00'));
    const voided = await post(bar, { type: 'VOID', id: made.id });
    expect(voided.result).toBe('Approved');
    const open = await getter(front)<Batch>('batches/open');
    expect(open?.lanes?.map((share) => [share.lane, share.sales_count, share.sales_total])).toEqual([
      ['bar', '1', '3.00'],
      ['front', '0', '0.00'],
    ]);
    expect(await storeProblems(front)).toEqual([]);
  });

  it('three counters racing captures, refunds, voids and closes on the same transactions keep every invariant', async () => {
    const lanes = (await counters(['front', 'bar', 'patio'])) as [TestGateway, TestGateway, TestGateway];
    const [front] = lanes;
    // Sales to refund later (settled by a close), and tabs to capture.
    const settled = await Promise.all(lanes.map((t, index) => post(t, sale(`${20 + index}.00`))));
    expect(await closeBatch(front)).toMatchObject({ status: 'CLOSED', sales_count: '3' });

    for (let round = 0; round < 4; round += 1) {
      const tabs = await Promise.all(
        lanes.map((t) =>
          post(t, { type: 'AUTH', amount: '15.00', card: VISA.card, exp_date: VISA.exp_date }),
        ),
      );
      const sales = await Promise.all(lanes.map((t) => post(t, sale('9.00'))));
      const races = await Promise.all([
        // Every counter captures every tab at once: one capture per AUTH is approved.
        ...tabs.flatMap((tab) => lanes.map((t) => post(t, { type: 'CAPTURE', id: tab.id, amount: '15.00' }))),
        // Every counter voids every open sale at once: one void per sale is approved.
        ...sales.flatMap((made) => lanes.map((t) => post(t, { type: 'VOID', id: made.id }))),
        // Every counter refunds 8.00 of each settled sale at once: never above what it had.
        ...settled.flatMap((made) =>
          lanes.map((t) => post(t, { type: 'REFUND', id: made.id, amount: '8.00' })),
        ),
        // A close from one counter in the middle of it all.
        closeBatch(lanes[round % 3] as TestGateway).then(() => ({ result: 'close' }) as never),
      ]);
      const captures = races.slice(0, 9);
      const voids = races.slice(9, 18);
      expect(captures.filter((answer) => answer.result === 'Approved')).toHaveLength(3);
      expect(voids.filter((answer) => answer.result === 'Approved').length).toBeLessThanOrEqual(3);
    }

    const get = getter(front);
    const rows = await listAll<TransactionListItem>(get, 'transactions');
    for (const made of settled) {
      const refunds = rows.filter(
        (row) => row.type === 'Refund' && row.original_id === made.id && row.result === 'Approved',
      );
      // 20.00, 21.00 and 22.00: two refunds of 8.00 fit, a third never does.
      expect(refunds).toHaveLength(2);
    }
    expect(new Set(rows.map((row) => row.lane))).toEqual(new Set(['front', 'bar', 'patio']));
    expect(await storeProblems(front)).toEqual([]);
  });

  it('the duplicate check knows a card charged at another counter', async () => {
    const [front, bar] = (await counters(['front', 'bar'], 2)) as [TestGateway, TestGateway];
    const first = await post(front, sale('42.00'));
    expect(first.result).toBe('Approved');
    const again = await post(bar, sale('42.00'));
    expect(again).toMatchObject({
      result: 'Rejected',
      error_code: ERROR_CODES.POSSIBLE_DUPLICATE,
      duplicate_of: first.id,
    });
    expect((await post(bar, { ...sale('42.00'), duplicate_override: true })).result).toBe('Approved');
  });

  it('an AUTH of one card at two counters at once: the duplicate check lets one through', async () => {
    const [front, bar] = (await counters(['front', 'bar'], 10)) as [TestGateway, TestGateway];
    for (let round = 1; round <= 6; round++) {
      const auth = { type: 'AUTH', amount: `${round}.25`, ...VISA };
      const answers = await Promise.all([post(front, auth), post(bar, auth)]);
      expect(answers.map((answer) => answer.result).sort()).toEqual(['Approved', 'Rejected']);
      expect(answers.find((answer) => answer.result === 'Rejected')?.error_code).toBe(
        ERROR_CODES.POSSIBLE_DUPLICATE,
      );
    }
  });

  it('one swipe sent as AUTH to two counters at once: one approved, the other refused as a replay', async () => {
    const url = await server.createDatabase();
    const [front, bar] = (await countersOn(url, ['front', 'bar'])) as [TestGateway, TestGateway];
    const card = { pan: '4111111111111111', expMmyy: '1230', firstName: 'PAT', lastName: 'MORGAN' };
    for (let round = 1; round <= 6; round++) {
      const auth = {
        type: 'AUTH',
        amount: `${round}.50`,
        encrypted_track_data: simulatedSwipeString(card, { counter: 200 + round }),
        track_format: 'MAGTEK',
      };
      const answers = await Promise.all([post(front, auth), post(bar, auth)]);
      expect(answers.map((answer) => answer.result).sort()).toEqual(['Approved', 'Rejected']);
      expect(answers.find((answer) => answer.result === 'Rejected')?.error_code).toBe('8029');
    }
    // Each row counted in transaction_blocks (how deep pages are found) is there.
    const database = new pg.Client({ connectionString: url });
    await database.connect();
    try {
      const { rows } = await database.query<{ counted: string; written: string }>(
        'SELECT (SELECT sum(rows) FROM transaction_blocks)::text AS counted, count(*)::text AS written FROM transactions',
      );
      expect(rows[0]?.counted).toBe(rows[0]?.written);
    } finally {
      await database.end();
    }
  });

  it('sixteen voids with Idempotency-Keys at once at one counter are all answered', async () => {
    const [front, bar] = (await counters(['front', 'bar'])) as [TestGateway, TestGateway];
    const sales = await Promise.all(
      Array.from({ length: 16 }, (_, index) => post(bar, sale(`${index + 1}.00`))),
    );
    const voids = await Promise.all(
      sales.map((each, index) =>
        post(front, { type: 'VOID', id: each.id }, { 'idempotency-key': `void-${index}` }),
      ),
    );
    expect(voids.map((answer) => answer.result)).toEqual(sales.map(() => 'Approved'));
  });

  it("each counter's Idempotency-Keys are its own, and a retry at the same counter replays its answer", async () => {
    const [front, bar] = (await counters(['front', 'bar'])) as [TestGateway, TestGateway];
    const key = { 'idempotency-key': 'order-17' };
    const [atFront, atBar] = await Promise.all([
      post(front, sale('5.00'), key),
      post(bar, sale('5.00'), key),
    ]);
    expect([atFront.result, atBar.result]).toEqual(['Approved', 'Approved']);
    expect(atFront.id).not.toBe(atBar.id);
    const retries = await Promise.all([post(front, sale('5.00'), key), post(bar, sale('5.00'), key)]);
    expect(retries.map((answer) => [answer.id, answer.replayed])).toEqual([
      [atFront.id, true],
      [atBar.id, true],
    ]);
    expect(await listAll<TransactionListItem>(getter(front), 'transactions')).toHaveLength(2);
  });

  it('an Idempotency-Key raced by two counters with the same API key charges once, and both answer the one transaction', async () => {
    const url = await server.createDatabase();
    const front = await startTestGateway({ engine: { store: { url, lane: 'front' } } });
    running.push(front);
    // API keys are the store's: the first counter's key opens the second one's API too.
    const bar = await startTestGateway({ engine: { store: { url, lane: 'bar' } } });
    running.push(bar);
    const sameKey = { ...bar, key: front.key };
    const orders = Array.from({ length: 12 }, (_, i) => `order-${i}`);
    // Each key is answered at one counter; the other replays that answer, or, while the first is still
    // being answered, is refused as in flight (as a retry at the same counter would be) and replays it
    // when retried.
    const attempt = async (t: TestGateway, body: Record<string, unknown>, order: string) => {
      const headers = { api_key: t.key, ...JSON_HEADERS, 'idempotency-key': order };
      for (;;) {
        const sent = await t.request('transactions', { method: 'POST', headers, body: JSON.stringify(body) });
        if (sent.status === 409) {
          expect(sent.json<{ error: string }>()?.error).toBe('idempotency_key_in_flight');
          continue;
        }
        expect(sent.status).toBe(200);
        return {
          ...sent.json<TransactionResponse>(),
          replayed: sent.headers['idempotent-replayed'] === 'true',
        };
      }
    };
    const answers = await Promise.all(
      orders.map((order, i) =>
        Promise.all([
          attempt(front, sale(`${10 + i}.00`), order),
          attempt(sameKey, sale(`${10 + i}.00`), order),
        ]),
      ),
    );
    for (const [atFront, atBar] of answers) {
      expect(atFront.result).toBe('Approved');
      expect(atBar.id).toBe(atFront.id);
      expect([atFront.replayed, atBar.replayed].filter(Boolean)).toHaveLength(1);
    }
    const rows = await listAll<TransactionListItem>(getter(front), 'transactions');
    expect(rows).toHaveLength(orders.length);
    // The same key with another body is refused at either counter, whichever answered first.
    const reused = await front.request('transactions', {
      method: 'POST',
      headers: { api_key: front.key, ...JSON_HEADERS, 'idempotency-key': 'order-0' },
      body: JSON.stringify(sale('99.00')),
    });
    expect(reused.status).toBe(422);
    expect(await storeProblems(front)).toEqual([]);
  });

  it('a store server that stops: an Error with nothing recorded, 503 for lists, and the counters resume by themselves', async () => {
    const [front, bar] = (await counters(['front', 'bar'])) as [TestGateway, TestGateway];
    expect((await post(front, sale('1.00'))).result).toBe('Approved');
    await server.stop();
    try {
      // Waited for, not timed: a sale that hung on the stopped server would run into the test's limit.
      const answer = await post(front, sale('2.00'));
      expect(answer).toMatchObject({ result: 'Error', error_code: ERROR_CODES.STORE_UNREACHABLE });
      expect(answer.id).toBeUndefined();
      const keyed = await post(bar, sale('3.00'), { 'idempotency-key': 'during-outage' });
      expect(keyed).toMatchObject({ result: 'Error', error_code: ERROR_CODES.STORE_UNREACHABLE });

      const list = await bar.request('transactions', {
        headers: { api_key: bar.key, accept: 'application/json' },
      });
      expect(list.status).toBe(503);
      expect(list.json()).toMatchObject({ error: 'store_unreachable' });
      const close = await bar.request('batches/open', {
        method: 'PUT',
        headers: { api_key: bar.key, accept: 'application/json' },
      });
      expect(close.status).toBe(503);
    } finally {
      await server.start();
    }
    // Back: the next payments go through at both counters with no restart, and the outage left nothing.
    // A stop slow enough to outlast the counters' trust in their keys has them hear the server first.
    while (!vouchesFor(front) || !vouchesFor(bar)) await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await post(front, sale('4.00'))).result).toBe('Approved');
    const retried = await post(bar, sale('3.00'), { 'idempotency-key': 'during-outage' });
    expect(retried).toMatchObject({ result: 'Approved', replayed: false });
    const rows = await listAll<TransactionListItem>(getter(bar), 'transactions');
    expect(rows.map((row) => row.amount)).toEqual(['3.00', '4.00', '1.00']);
    expect(await storeProblems(bar)).toEqual([]);
  });

  it('a sale sent once a counter can no longer vouch for its keys is an Error with nothing recorded, as before, not a 503', async () => {
    const [front] = (await counters(['front'])) as [TestGateway];
    expect((await post(front, sale('1.00'))).result).toBe('Approved');
    await server.stop();
    try {
      // Waited for: five seconds after the counter last heard the server, it stops trusting its keys.
      while (vouchesFor(front)) await new Promise((resolve) => setTimeout(resolve, 20));
      for (const format of ['json', 'xml'] as const) {
        const answer = await front.request('transactions', {
          method: 'POST',
          headers: {
            api_key: front.key,
            'content-type': `application/${format}`,
            accept: `application/${format}`,
          },
          body:
            format === 'json'
              ? JSON.stringify(sale('2.00'))
              : `<transaction><type>SALE</type><amount>2.00</amount><card>${VISA.card}</card><exp_date>${VISA.exp_date}</exp_date></transaction>`,
        });
        expect(answer.status, answer.body).toBe(200);
        expect(answer.body).toContain(ERROR_CODES.STORE_UNREACHABLE);
        expect(answer.body).not.toMatch(/<id>|"id"/);
      }
    } finally {
      await server.start();
    }
    // Back: once it has heard the server again, the counter takes its keys as checked and sells.
    while (!vouchesFor(front)) await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await post(front, sale('3.00'))).result).toBe('Approved');
    const rows = await listAll<TransactionListItem>(getter(front), 'transactions');
    expect(rows.map((row) => row.amount)).toEqual(['3.00', '1.00']);
  });
});

describe('a counter that keeps its own ledger', () => {
  it('shows its one lane, local, on items and batches, and filters by it', async () => {
    const t = await startTestGateway();
    running.push(t);
    const made = await post(t, sale('6.00'));
    const get = getter(t);
    expect(
      (await listAll<TransactionListItem>(get, 'transactions', { lane: 'local' })).map((i) => [i.id, i.lane]),
    ).toEqual([[made.id, 'local']]);
    expect(await get('transactions?lane=front')).toBeUndefined();
    const open = await get<Batch>('batches/open');
    expect(open?.lanes).toEqual([
      {
        lane: 'local',
        sales_count: '1',
        sales_total: '6.00',
        refund_count: '0',
        refund_total: '0.00',
        total_count: '1',
        net_amount: '6.00',
        tip_total: '0.00',
      },
    ]);
  });
});

/** Whether the counter still takes its keys as checked: it does until its snapshot of them goes stale. */
function vouchesFor(t: TestGateway): boolean {
  try {
    t.gateway.engine.keys.authenticate(t.key);
    return true;
  } catch (error) {
    if (error instanceof StoreUnreachableError) return false;
    throw error;
  }
}
