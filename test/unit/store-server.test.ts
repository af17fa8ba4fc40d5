/**
 * The ledger on a store server shared by several counters, against a real PostgreSQL server: its
 * migrations, lanes, the rules under concurrent writes from different counters, and what a counter
 * does while the server is gone.
 */
import { createServer, type Server, type Socket } from 'node:net';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { voidEffects } from '../../electron/gateway/domain/effects';
import { applyEffects } from '../../electron/gateway/operations/recording';
import {
  openPool,
  StoreBusyError,
  StoreUnreachableError,
} from '../../electron/gateway/store/postgres/connection';
import { PostgresLedger } from '../../electron/gateway/store/postgres/ledger';
import {
  migrateStore,
  NewerStoreSchemaError,
  storeSchemaVersion,
} from '../../electron/gateway/store/postgres/migrate';
import {
  POSTGRES_MIGRATIONS,
  POSTGRES_SCHEMA_VERSION,
} from '../../electron/gateway/store/postgres/migrations';
import { LATEST_SCHEMA_VERSION, MIGRATIONS } from '../../electron/gateway/store/sqlite/migrations';
import type { LedgerTransaction } from '../../electron/gateway/store/transaction-rows';
import type { LedgerWrite } from '../../electron/gateway/store/ledger-store';
import { ID_BLOCK } from '../../electron/gateway/store/sql/dialect';
import { addRow, T0 } from '../support/ledger-rows';
import { startPostgresServer, type PostgresServer } from '../support/postgres-server';

let server: PostgresServer;
beforeAll(async () => {
  server = await startPostgresServer();
});
afterAll(() => server?.close());

/** Everything opened by a test, closed after it. */
const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((each) => each.close()));
});

async function openLedger(url: string, lane: string): Promise<PostgresLedger> {
  const ledger = await PostgresLedger.open({ url, lane });
  opened.push(ledger);
  return ledger;
}

/** A promise settled from outside, for a test to wait on a state rather than a time. */
function signal(): { promise: Promise<undefined>; resolve(): void } {
  let resolve = () => {};
  const promise = new Promise<undefined>((settle) => {
    resolve = () => settle(undefined);
  });
  return { promise, resolve: () => resolve() };
}

/** A plain client on the database, to look at what the ledger wrote. */
async function inspect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  // A broken connection fails the query that was using it; the event alone needs no handling.
  client.on('error', () => undefined);
  await client.connect();
  opened.push({ close: () => client.end() });
  return client;
}

async function count(client: pg.Client, sql: string, params: unknown[] = []): Promise<number> {
  const { rows } = await client.query<{ n: string }>(sql, params);
  return Number(rows[0]?.n);
}

/**
 * Every transaction counted once in its block of ids, and no block counting one that is not there:
 * the counts deep pages are found by (schema step 11).
 */
async function expectCountedBlocks(client: pg.Client): Promise<void> {
  const { rows } = await client.query(`
    SELECT block, counted, stored FROM
      (SELECT block, sum(rows) AS counted FROM transaction_blocks GROUP BY block) c
      FULL JOIN (SELECT id / ${ID_BLOCK} AS block, count(*) AS stored FROM transactions GROUP BY 1) s USING (block)
    WHERE counted IS DISTINCT FROM stored`);
  expect(rows).toEqual([]);
}

/** Each lane's share of each batch, summed over the writers that kept it. */
const LANE_SHARES = `
  SELECT lane, sum(sales_count)::int AS sales_count, sum(sales_total)::int AS sales_total,
         sum(refund_count)::int AS refund_count, sum(refund_total)::int AS refund_total,
         sum(tip_total)::int AS tip_total
  FROM batch_lanes GROUP BY batch_id, lane ORDER BY batch_id, lane`;

describe('migrations on the store server', () => {
  it('have the same numbers as SQLite’s', () => {
    expect(POSTGRES_MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((m) => m.version));
    expect(POSTGRES_SCHEMA_VERSION).toBe(LATEST_SCHEMA_VERSION);
  });

  it('counters starting at once on an empty database migrate it once, and none is refused', async () => {
    const url = await server.createDatabase();
    await Promise.all(['lane-1', 'lane-2', 'lane-3'].map((lane) => openLedger(url, lane)));
    const client = await inspect(url);
    const { rows } = await client.query<{ version: number }>(
      'SELECT version FROM schema_migrations ORDER BY version',
    );
    expect(rows.map((row) => row.version)).toEqual(POSTGRES_MIGRATIONS.map((m) => m.version));
    expect(await storeSchemaVersion(client)).toBe(POSTGRES_SCHEMA_VERSION);
  });

  it('a database migrated by a newer Tender is refused rather than changed', async () => {
    const url = await server.createDatabase();
    await openLedger(url, 'lane-1');
    const client = await inspect(url);
    await client.query("INSERT INTO schema_migrations (version, description) VALUES (99, 'newer')");
    await expect(PostgresLedger.open({ url, lane: 'lane-1' })).rejects.toThrow(NewerStoreSchemaError);
  });

  it('a step may run longer than a payment’s time limit', async () => {
    const url = await server.createDatabase();
    const pool = openPool({ url, statementTimeoutMs: 200 });
    opened.push({ close: () => pool.end() });
    const slow = { version: POSTGRES_SCHEMA_VERSION + 1, description: 'slow', sql: 'SELECT pg_sleep(1.5)' };
    await migrateStore(pool, [...POSTGRES_MIGRATIONS, slow]);
    const client = await inspect(url);
    expect(await storeSchemaVersion(client)).toBe(POSTGRES_SCHEMA_VERSION + 1);
    // The ledger's own connections keep their limit.
    await expect(pool.query('SELECT pg_sleep(1)')).rejects.toThrow(/statement timeout/);
  });

  it('a failed step leaves the database where it was, and the next start is not kept waiting', async () => {
    const url = await server.createDatabase();
    const pool = new pg.Pool({ connectionString: url });
    opened.push({ close: () => pool.end() });
    const broken = { version: POSTGRES_SCHEMA_VERSION + 1, description: 'broken', sql: 'CREATE TABLE x (;' };
    await expect(migrateStore(pool, [...POSTGRES_MIGRATIONS, broken])).rejects.toThrow(/syntax error/);
    const client = await inspect(url);
    expect(await storeSchemaVersion(client)).toBe(POSTGRES_SCHEMA_VERSION);
    await migrateStore(pool);
    expect(await storeSchemaVersion(client)).toBe(POSTGRES_SCHEMA_VERSION);
  });
});

describe('lanes', () => {
  it.each(['', 'counter 2', 'a-very-long-lane-name', 'caisse-é', 'lane;drop'])(
    'a lane named %j is refused before anything is written',
    async (lane) => {
      await expect(PostgresLedger.open({ url: server.url('postgres'), lane })).rejects.toThrow(
        /cannot name a lane/,
      );
    },
  );

  it('every row carries the lane of the counter that wrote it, and each lane’s share adds up to the batch', async () => {
    const url = await server.createDatabase();
    const front = await openLedger(url, 'front');
    const patio = await openLedger(url, 'patio-2');
    await front.write((write) => addRow(write, { amount: 1000, tipAmount: 100 }));
    await patio.write((write) => addRow(write, { amount: 700 }));
    await patio.write((write) => addRow(write, { type: 'Refund', amount: 200 }));
    await front.write((write) => addRow(write, { result: 'Declined', batchId: null }));
    const client = await inspect(url);
    const { rows } = await client.query<{ id: string; lane: string }>(
      'SELECT id, lane FROM transactions ORDER BY id',
    );
    expect(rows.map((row) => [Number(row.id), row.lane])).toEqual([
      [1, 'front'],
      [2, 'patio-2'],
      [3, 'patio-2'],
      [4, 'front'],
    ]);
    const shares = await client.query(LANE_SHARES);
    expect(shares.rows).toEqual([
      { lane: 'front', sales_count: 1, sales_total: 1000, refund_count: 0, refund_total: 0, tip_total: 100 },
      { lane: 'patio-2', sales_count: 1, sales_total: 700, refund_count: 1, refund_total: 200, tip_total: 0 },
    ]);
    expect(await front.write((write) => write.openBatch())).toMatchObject({
      salesCount: 2,
      salesTotal: 1700,
      refundCount: 1,
      refundTotal: 200,
      tipTotal: 100,
    });
    await expect(
      client.query("INSERT INTO batch_lanes (batch_id, lane) VALUES (1, 'no spaces')"),
    ).rejects.toThrow(/check constraint/);
  });

  it('a void takes a sale back from the share of the counter that made it, whichever counter voids it', async () => {
    const url = await server.createDatabase();
    const front = await openLedger(url, 'front');
    const patio = await openLedger(url, 'patio');
    const sold = await front.write((write) => addRow(write, { amount: 1200, tipAmount: 100 }));
    await patio.write((write) => addRow(write, { amount: 700 }));
    await patio.write(async (write) => {
      const target = (await write.find(sold.id)) as LedgerTransaction;
      const voidRow = await addRow(write, {
        type: 'Void',
        originalId: sold.id,
        amount: target.amount,
        batchId: null,
      });
      await applyEffects(write, voidEffects(target, voidRow.id));
    });
    const client = await inspect(url);
    const shares = await client.query(LANE_SHARES);
    expect(shares.rows).toEqual([
      { lane: 'front', sales_count: 0, sales_total: 0, refund_count: 0, refund_total: 0, tip_total: 0 },
      { lane: 'patio', sales_count: 1, sales_total: 700, refund_count: 0, refund_total: 0, tip_total: 0 },
    ]);
    expect(await front.write((write) => write.openBatch())).toMatchObject({
      salesCount: 1,
      salesTotal: 700,
      tipTotal: 0,
    });
  });

  it('the audit log refuses to be changed or emptied', async () => {
    const url = await server.createDatabase();
    const ledger = await openLedger(url, 'front');
    await ledger.write((write) =>
      write.appendAudit({
        at: T0,
        actor: 'Manager Ada',
        action: 'void',
        subject: 'transaction 1',
        detail: '',
      }),
    );
    const client = await inspect(url);
    await expect(client.query("UPDATE audit_log SET actor = 'someone else'")).rejects.toThrow(/append-only/);
    await expect(client.query('DELETE FROM audit_log')).rejects.toThrow(/append-only/);
    await expect(client.query('TRUNCATE audit_log')).rejects.toThrow(/append-only/);
  });
});

describe('counters racing on one store', () => {
  /** The writes of a capture as the capture operation makes them: the check, then the effects. */
  function capture(ledger: PostgresLedger, authId: number): Promise<number | 'refused'> {
    return ledger.write(async (write) => {
      const auth = await write.find(authId);
      if (!auth || auth.capturedBy !== null || auth.voidedBy !== null) return 'refused';
      const row = await addRow(write, { type: 'Capture', originalId: authId, amount: auth.amount });
      await write.markCaptured(authId, row.id);
      return row.id;
    });
  }

  function refund(ledger: PostgresLedger, originalId: number, cents: number): Promise<number | 'refused'> {
    return ledger.write(async (write) => {
      const original = await write.find(originalId);
      if (!original || (original.amount ?? 0) - original.refundedAmount < cents) return 'refused';
      const row = await addRow(write, { type: 'Refund', originalId, amount: cents });
      await write.addRefunded(originalId, cents);
      return row.id;
    });
  }

  function voidOf(ledger: PostgresLedger, targetId: number): Promise<number | 'refused'> {
    return ledger.write(async (write) => {
      const target = await write.find(targetId);
      if (!target || target.voidedBy !== null || target.batchId === null) return 'refused';
      const batch = await write.findBatch(target.batchId);
      if (batch?.status !== 'OPEN') return 'refused';
      const row = await addRow(write, { type: 'Void', originalId: targetId, batchId: null });
      await write.markVoided(targetId, row.id);
      await write.applyBatchDelta(target.batchId, {
        salesCount: -1,
        salesTotal: -(target.amount ?? 0),
        refundCount: 0,
        refundTotal: 0,
        tipTotal: -target.tipAmount,
      });
      return row.id;
    });
  }

  function closeOpen(ledger: PostgresLedger, at: number): Promise<number | undefined> {
    return ledger.write(async (write) => {
      const open = await write.openBatch();
      if (!open) return undefined;
      return (await write.closeBatch(open.id, at, String(at))).id;
    });
  }

  it('an authorization raced by two counters is captured exactly once', async () => {
    const url = await server.createDatabase();
    const lanes = [await openLedger(url, 'lane-1'), await openLedger(url, 'lane-2')];
    const auth = await (lanes[0] as PostgresLedger).write((write) => addRow(write, { type: 'Auth' }));
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, i) => capture(lanes[i % 2] as PostgresLedger, auth.id)),
    );
    const captures = outcomes.filter((outcome) => outcome !== 'refused');
    expect(captures).toHaveLength(1);
    expect((await (lanes[1] as PostgresLedger).find(auth.id))?.capturedBy).toBe(captures[0]);
    const client = await inspect(url);
    expect(await count(client, "SELECT count(*) AS n FROM transactions WHERE type = 'Capture'")).toBe(1);
    await expectCountedBlocks(client);
  });

  it('refunds raced by three counters never add up to more than the original', async () => {
    const url = await server.createDatabase();
    const lanes = [
      await openLedger(url, 'lane-1'),
      await openLedger(url, 'lane-2'),
      await openLedger(url, 'lane-3'),
    ];
    const first = lanes[0] as PostgresLedger;
    const original = await first.write((write) => addRow(write, { amount: 10_000 }));
    await closeOpen(first, T0 + 1);
    const outcomes = await Promise.all(
      Array.from({ length: 30 }, (_, i) => refund(lanes[i % 3] as PostgresLedger, original.id, 1500)),
    );
    expect(outcomes.filter((outcome) => outcome !== 'refused')).toHaveLength(6);
    expect((await first.find(original.id))?.refundedAmount).toBe(9000);
    const client = await inspect(url);
    expect(
      await count(
        client,
        "SELECT sum(amount) AS n FROM transactions WHERE type = 'Refund' AND original_id = $1",
        [original.id],
      ),
    ).toBe(9000);
    await expectCountedBlocks(client);
  });

  it('a sale raced by two counters is voided once and leaves its batch once', async () => {
    const url = await server.createDatabase();
    const lanes = [await openLedger(url, 'lane-1'), await openLedger(url, 'lane-2')];
    const target = await (lanes[0] as PostgresLedger).write((write) => addRow(write, { amount: 4000 }));
    await (lanes[1] as PostgresLedger).write((write) => addRow(write, { amount: 1000 }));
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, i) => voidOf(lanes[i % 2] as PostgresLedger, target.id)),
    );
    expect(outcomes.filter((outcome) => outcome !== 'refused')).toHaveLength(1);
    expect(await (lanes[0] as PostgresLedger).write((write) => write.openBatch())).toMatchObject({
      salesCount: 1,
      salesTotal: 1000,
    });
  });

  it('sales and batch closes from two counters at once: one open batch, totals equal to their rows, ids dense', async () => {
    const url = await server.createDatabase();
    const lanes = [await openLedger(url, 'lane-1'), await openLedger(url, 'lane-2')];
    const work: Promise<unknown>[] = [];
    for (let i = 0; i < 60; i += 1) {
      const ledger = lanes[i % 2] as PostgresLedger;
      work.push(
        i % 7 === 6
          ? closeOpen(ledger, T0 + i)
          : ledger.write((write) => addRow(write, { amount: 100 + i, tipAmount: i % 3 })),
      );
    }
    await Promise.all(work);
    const client = await inspect(url);
    expect(
      await count(client, "SELECT count(*) AS n FROM batches WHERE status = 'OPEN'"),
    ).toBeLessThanOrEqual(1);
    // Every batch's counters, and each lane's share, equal the rows that joined it.
    const mismatched = await client.query(`
      SELECT b.id FROM batch_totals b
      LEFT JOIN (SELECT batch_id, count(*) AS n, sum(amount) AS total, sum(tip_amount) AS tips
                 FROM transactions WHERE type = 'Sale' GROUP BY batch_id) t ON t.batch_id = b.id
      WHERE b.sales_count <> COALESCE(t.n, 0) OR b.sales_total <> COALESCE(t.total, 0)
         OR b.tip_total <> COALESCE(t.tips, 0)
      UNION ALL
      SELECT s.batch_id FROM (
        SELECT batch_id, lane, sum(sales_count) AS sales_count, sum(sales_total) AS sales_total
        FROM batch_lanes GROUP BY batch_id, lane) s
      LEFT JOIN (SELECT batch_id, lane, count(*) AS n, sum(amount) AS total
                 FROM transactions WHERE type = 'Sale' GROUP BY batch_id, lane) t
        ON t.batch_id = s.batch_id AND t.lane = s.lane
      WHERE s.sales_count <> COALESCE(t.n, 0) OR s.sales_total <> COALESCE(t.total, 0)`);
    expect(mismatched.rows).toEqual([]);
    expect(await count(client, 'SELECT count(*) AS n FROM transactions')).toBe(60 - Math.floor(60 / 7));
    await expectCountedBlocks(client);
  });

  it('the same card and amount charged at two counters at once passes the duplicate check once', async () => {
    const url = await server.createDatabase();
    const lanes = [await openLedger(url, 'lane-1'), await openLedger(url, 'lane-2')];
    const cardHash = 'c'.repeat(64);
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (lanes[i % 2] as PostgresLedger).write(async (write) => {
          if (await write.findSameCardCharge({ cardHash, amount: 1800, since: T0 })) return 'refused';
          return (await addRow(write, { cardHash, amount: 1800 })).id;
        }),
      ),
    );
    expect(outcomes.filter((outcome) => outcome !== 'refused')).toHaveLength(1);
  });

  it('one Idempotency-Key raced by two counters keeps one answer and one row', async () => {
    const url = await server.createDatabase();
    const lanes = [await openLedger(url, 'lane-1'), await openLedger(url, 'lane-2')];
    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        (lanes[i % 2] as PostgresLedger).write(async (write) => {
          const row = await addRow(write, { amount: 4200, invoice: `attempt-${i}` });
          await write.rememberAnswer(7, 'order-42', { fingerprint: 'f', response: `{"id":"${row.id}"}` }, T0);
          return row.id;
        }),
      ),
    );
    const kept = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
    expect(kept).toHaveLength(1);
    expect(await (lanes[1] as PostgresLedger).findAnswer(7, 'order-42')).toEqual({
      fingerprint: 'f',
      response: `{"id":"${kept[0]}"}`,
    });
    const client = await inspect(url);
    expect(await count(client, 'SELECT count(*) AS n FROM transactions')).toBe(1);
    expect(await count(client, 'SELECT sales_count AS n FROM batch_totals')).toBe(1);
  });

  it('writes arriving together at one counter share one commit, and one that throws is undone alone', async () => {
    const url = await server.createDatabase();
    const ledger = await openLedger(url, 'lane-1');
    const groupsBefore = ledger.committed.groups;
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        ledger.write(async (write) => {
          const row = await addRow(write, { amount: 100 + i });
          if (i === 5) throw new Error('the processor answered nothing');
          return row.id;
        }),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toHaveLength(1);
    expect(outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []))).toEqual(
      Array.from({ length: 19 }, (_, i) => i + 1),
    );
    expect(ledger.committed.groups - groupsBefore).toBe(1);
    const client = await inspect(url);
    expect(await count(client, 'SELECT sales_count AS n FROM batch_totals')).toBe(19);
    expect(await count(client, 'SELECT count(*) AS n FROM transactions WHERE amount = 105')).toBe(0);
    await expectCountedBlocks(client);
  });

  it('a lane claimed by a ledger that has closed takes no notice of its connection ending', async () => {
    const url = await server.createDatabase();
    const ledger = await PostgresLedger.open({ url, lane: 'lane-1' });
    await ledger.claimLane();
    const { client } = (ledger as unknown as { laneClaim: { client: pg.PoolClient } }).laneClaim;
    await ledger.close();
    // As the server reports a connection it ends (a database dropped, a server stopping) after the
    // ledger let it go.
    expect(() =>
      client.emit('error', new Error('terminating connection due to administrator command')),
    ).not.toThrow();
    const again = await openLedger(url, 'lane-1');
    await expect(again.claimLane()).resolves.toBeUndefined();
  });

  it('the sales of one group reach the server in one statement, their rows and their share of the batch together', async () => {
    const url = await server.createDatabase();
    const ledger = await openLedger(url, 'lane-1');
    // The first sale opens the batch, which the next group then begins with.
    await ledger.write((write) => addRow(write, { amount: 100 }));
    const groupsBefore = ledger.committed.groups;
    const sent: string[] = [];
    const original = pg.Client.prototype.query;
    const spy = vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (
      this: pg.Client,
      ...args: unknown[]
    ) {
      const [config] = args as [string | { name?: string; text: string }];
      sent.push(typeof config === 'string' ? config : (config.name ?? config.text));
      return (original as (...each: unknown[]) => unknown).apply(this, args) as never;
    });
    try {
      await Promise.all(
        Array.from({ length: 20 }, (_, i) => ledger.write((write) => addRow(write, { amount: 200 + i }))),
      );
    } finally {
      spy.mockRestore();
    }
    expect(ledger.committed.groups - groupsBefore).toBe(1);
    expect(sent.filter((name) => name === 'tender_write_held')).toHaveLength(1);
    // Nothing is sent for each sale: the group's statements are its own, however many sales it holds.
    expect(sent.length).toBeLessThan(20);
    const client = await inspect(url);
    expect(await count(client, 'SELECT count(*) AS n FROM transactions')).toBe(21);
    expect(await count(client, 'SELECT sales_count AS n FROM batch_totals')).toBe(21);
    expect(await count(client, 'SELECT sales_total AS n FROM batch_totals')).toBe(100 + 20 * 200 + 190);
    await expectCountedBlocks(client);
  });

  it('a write whose statement the schema refuses after the write returned is undone alone, and the writes after it in its group stand without it', async () => {
    const url = await server.createDatabase();
    const ledger = await openLedger(url, 'lane-1');
    const groupsBefore = ledger.committed.groups;
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        // The insert is sent without waiting for it: the schema refuses write 5's amount only after
        // that write has returned and the next ones have begun.
        ledger.write(async (write) => (await addRow(write, { amount: i === 5 ? -1 : 100 + i })).id),
      ),
    );
    expect(outcomes[5]).toMatchObject({ status: 'rejected', reason: { code: '23514' } });
    expect(outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []))).toEqual(
      Array.from({ length: 19 }, (_, i) => i + 1),
    );
    expect(ledger.committed.groups - groupsBefore).toBe(1);
    const client = await inspect(url);
    expect(await count(client, 'SELECT sales_count AS n FROM batch_totals')).toBe(19);
    expect(await count(client, 'SELECT sales_total AS n FROM batch_totals')).toBe(
      Array.from({ length: 20 }, (_, i) => 100 + i).reduce((sum, amount) => sum + amount, 0) - 105,
    );
    await expectCountedBlocks(client);
  });

  it('within one group, each write sees the open batch as the writes before it left it, a closed one and a new one, and never what an undone write did', async () => {
    const url = await server.createDatabase();
    const ledger = await openLedger(url, 'lane-1');
    const groupsBefore = ledger.committed.groups;
    const openCounts = (write: LedgerWrite) =>
      write
        .openBatch()
        .then((batch) => batch && { id: batch.id, sales: batch.salesCount, total: batch.salesTotal });
    const outcomes = await Promise.allSettled([
      ledger.write((write) => addRow(write, { amount: 100 })),
      ledger.write(async (write) => {
        const open = await write.openBatch();
        return open && write.closeBatch(open.id, T0, 'C1');
      }),
      ledger.write(openCounts),
      ledger.write((write) => addRow(write, { amount: 200 })),
      ledger.write((write) => addRow(write, { amount: -1 })),
      ledger.write(async (write) => {
        await addRow(write, { amount: 400 });
        throw new Error('the processor answered nothing');
      }),
      ledger.write((write) => addRow(write, { amount: 300 })),
      ledger.write(openCounts),
    ]);
    expect(ledger.committed.groups - groupsBefore).toBe(1);
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'rejected',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
    expect(outcomes[1]).toMatchObject({ value: { id: 1, status: 'CLOSED', salesCount: 1, salesTotal: 100 } });
    expect(outcomes[2]).toMatchObject({ value: undefined });
    expect(outcomes[7]).toMatchObject({ value: { id: 2, sales: 2, total: 500 } });
    const client = await inspect(url);
    expect(await count(client, 'SELECT sales_total AS n FROM batch_totals WHERE id = 2')).toBe(500);
    expect(await count(client, "SELECT count(*) AS n FROM batches WHERE status = 'OPEN'")).toBe(1);
    await expectCountedBlocks(client);
  });

  it('a counter whose last batch another counter closed meanwhile writes its next sale into the new batch', async () => {
    const url = await server.createDatabase();
    const [front, bar] = [await openLedger(url, 'front'), await openLedger(url, 'bar')];
    const first = await front.write((write) => addRow(write, { amount: 1000 }));
    expect(first.batchId).toBe(1);
    expect(await closeOpen(bar, T0 + 5)).toBe(1);
    const [second, third] = await Promise.all([
      front.write((write) => addRow(write, { amount: 2000 })),
      front.write((write) => addRow(write, { amount: 3000 })),
    ]);
    expect([second.batchId, third.batchId]).toEqual([2, 2]);
    const client = await inspect(url);
    const { rows } = await client.query<{ id: string; sales_count: number; sales_total: string }>(
      'SELECT id, sales_count, sales_total FROM batch_totals ORDER BY id',
    );
    expect(rows.map((row) => [Number(row.id), row.sales_count, Number(row.sales_total)])).toEqual([
      [1, 1, 1000],
      [2, 2, 5000],
    ]);
    await expectCountedBlocks(client);
  });

  it('an original held across an outside call keeps the other counters’ requests for it waiting, and no write', async () => {
    const url = await server.createDatabase();
    const [front, bar] = [await openLedger(url, 'front'), await openLedger(url, 'bar')];
    const sold = await front.write((write) => addRow(write, { amount: 1000 }));
    const events: string[] = [];
    const outside = signal();
    const holding = signal();
    const first = front.holdOriginal(sold.id, async () => {
      events.push('front holds');
      holding.resolve();
      await outside.promise;
      events.push('front lets go');
    });
    await holding.promise;
    const second = bar.holdOriginal(sold.id, async () => {
      events.push('bar holds');
    });
    const client = await inspect(url);
    for (;;) {
      const waiting = await count(
        client,
        "SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted",
      );
      if (waiting === 1) break;
    }
    // A write of another transaction goes through while the original is held.
    await bar.write((write) => addRow(write, { amount: 500 }));
    events.push('bar wrote');
    outside.resolve();
    await Promise.all([first, second]);
    expect(events).toEqual(['front holds', 'bar wrote', 'front lets go', 'bar holds']);
  });

  it('behind the lock, the schema itself refuses a second live capture and a second void', async () => {
    const url = await server.createDatabase();
    const ledger = await openLedger(url, 'lane-1');
    const auth = await ledger.write((write) => addRow(write, { type: 'Auth' }));
    await ledger.write((write) => addRow(write, { type: 'Capture', originalId: auth.id }));
    await expect(
      ledger.write((write) => addRow(write, { type: 'Capture', originalId: auth.id })),
    ).rejects.toThrow(/transactions_one_live_capture/);
    await ledger.write((write) => addRow(write, { type: 'Void', originalId: 2 }));
    await expect(ledger.write((write) => addRow(write, { type: 'Void', originalId: 2 }))).rejects.toThrow(
      /transactions_one_void/,
    );
  });
});

describe('when the store server crashes under load', () => {
  it('nothing answered is lost, batches equal their rows, and writing resumes after recovery', async () => {
    const url = await server.createDatabase();
    const lanes = [await openLedger(url, 'lane-1'), await openLedger(url, 'lane-2')];
    const answered = new Map<number, number>();
    let killed: Promise<void> | undefined;
    const sellUntilTheCrash = async (ledger: PostgresLedger, seed: number) => {
      for (let i = 0; ; i += 1) {
        const amount = 100 + ((seed * 7919 + i * 31) % 900);
        try {
          const row = await ledger.write((write) => addRow(write, { amount }));
          answered.set(row.id, amount);
          if (answered.size >= 60) killed ??= server.kill();
        } catch (error) {
          if (!killed) throw error;
          return;
        }
      }
    };
    await Promise.all(
      Array.from({ length: 6 }, (_, seed) => sellUntilTheCrash(lanes[seed % 2] as PostgresLedger, seed)),
    );
    await killed;
    await server.start();

    const client = await inspect(url);
    const { rows } = await client.query<{ id: string; amount: string }>(
      'SELECT id, amount FROM transactions',
    );
    const stored = new Map(rows.map((row) => [Number(row.id), Number(row.amount)]));
    for (const [id, amount] of answered) expect(stored.get(id), `transaction ${id}`).toBe(amount);
    await expectCountedBlocks(client);
    const totals = await client.query(`
      SELECT b.sales_count = count(t.id) AND b.sales_total = COALESCE(sum(t.amount), 0) AS equal
      FROM batch_totals b LEFT JOIN transactions t ON t.batch_id = b.id GROUP BY b.id, b.sales_count, b.sales_total`);
    expect(totals.rows.every((row: { equal: boolean }) => row.equal)).toBe(true);
    // The sequence may skip ids a crash took from it; never one it handed out.
    const next = await (lanes[0] as PostgresLedger).write((write) => addRow(write));
    expect(next.id).toBeGreaterThan(Math.max(...stored.keys()));
  });
});

describe('when the store server cannot be reached', () => {
  // Each failure below is waited for, never timed: a write that hung instead of failing would run
  // into the test's limit. The limits' own figures are the pool's (store/postgres/connection.ts).
  it('a write fails with nothing recorded, and the ledger resumes by itself once the server is back', async () => {
    const url = await server.createDatabase();
    const ledger = await openLedger(url, 'lane-1');
    await ledger.write((write) => addRow(write));
    await server.stop();
    try {
      await expect(ledger.write((write) => addRow(write))).rejects.toThrow(StoreUnreachableError);
      await expect(ledger.find(1)).rejects.toThrow(StoreUnreachableError);
    } finally {
      await server.start();
    }
    const next = await ledger.write((write) => addRow(write));
    expect(next.id).toBe(2);
    expect((await ledger.find(2))?.id).toBe(2);
  });

  it('a write kept waiting for a lock past its time limit fails as busy, and the next goes through', async () => {
    const url = await server.createDatabase();
    const ledger = await PostgresLedger.open({ url, lane: 'lane-1', statementTimeoutMs: 500 });
    opened.push(ledger);
    const first = await ledger.write((write) => addRow(write));
    // Another counter closing the open batch, and no longer answering, holds it alone.
    const hung = await inspect(url);
    await hung.query('BEGIN');
    await hung.query("SELECT pg_advisory_xact_lock(1, id::integer) FROM batches WHERE status = 'OPEN'");
    const started = Date.now();
    await expect(ledger.write((write) => addRow(write))).rejects.toThrow(StoreBusyError);
    // It waited for the lock as long as its limit allows; a busy machine can only make that longer.
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
    // A write that counts into no batch does not wait for it.
    expect(
      (await ledger.write((write) => addRow(write, { result: 'Declined', batchId: null }))).id,
    ).toBeGreaterThan(first.id);
    await hung.query('ROLLBACK');
    expect((await ledger.write((write) => addRow(write))).id).toBeGreaterThan(first.id);
  });

  it('a closed port is refused at once', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as { port: number };
    await new Promise((resolve) => probe.close(resolve));
    await expect(
      PostgresLedger.open({ url: `postgresql://tender@127.0.0.1:${port}/ledger`, lane: 'lane-1' }),
    ).rejects.toThrow(StoreUnreachableError);
  });

  it('a server that accepts the connection and never answers is given up within the connect timeout', async () => {
    const sockets: Socket[] = [];
    const silent: Server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    try {
      const started = Date.now();
      await expect(
        PostgresLedger.open({
          url: `postgresql://tender@127.0.0.1:${port}/ledger`,
          lane: 'lane-1',
          connectTimeoutMs: 1000,
        }),
      ).rejects.toThrow(StoreUnreachableError);
      // Given up at the connect timeout, not for some other reason before it.
      expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
