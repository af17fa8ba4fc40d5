/**
 * The lists read from a store server come in the same rows and the same order as from SQLite: the
 * same ledger is written to both, and every order, direction, filter and page is compared. On a
 * larger ledger, no list reads the whole transactions table.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewRow } from '../../electron/gateway/operations/recording';
import { AuditLog } from '../../electron/gateway/store/sqlite/audit-log';
import { openDatabase, type Connection } from '../../electron/gateway/store/sqlite/database';
import { SqliteLedger } from '../../electron/gateway/store/sqlite/ledger';
import type { LedgerStore } from '../../electron/gateway/store/ledger-store';
import {
  BATCH_ORDER_COLUMNS,
  batchListQuery,
  TRANSACTION_ORDER_COLUMNS,
  transactionListQuery,
  type BatchFilter,
  type TransactionFilter,
} from '../../electron/gateway/store/sql/list-sql';
import { PostgresLedger } from '../../electron/gateway/store/postgres/ledger';
import { ID_BLOCK, numbered, POSTGRES_DIALECT } from '../../electron/gateway/store/sql/dialect';
import { PostgresReadPool } from '../../electron/gateway/store/postgres/read-pool';
import { LedgerReads } from '../../electron/gateway/store/sql/ledger-reads';
import { ReadTimeoutError } from '../../electron/gateway/store/store-errors';
import { addRow, T0 } from '../support/ledger-rows';
import { startPostgresServer, type PostgresServer } from '../support/postgres-server';

let server: PostgresServer;
let dir: string;
let sqlite: Connection;
let url: string;
let lanes: PostgresLedger[];
let readPool: PostgresReadPool;
let reads: LedgerReads;

const NAMES = ['Élodie', 'élodie', 'Zoë', 'adam', 'Adam', null] as const;

/** Row i of the ledger both stores are given: nulls, case and accents in the sorted columns. */
function rowFields(i: number): Partial<NewRow> {
  const rejected = i % 11 === 5;
  const type = (['Sale', 'Sale', 'Refund', 'Forced Sale', 'Auth'] as const)[i % 5] as NewRow['type'];
  return {
    type: rejected && i % 2 === 0 ? null : type,
    result: rejected ? 'Rejected' : i % 13 === 7 ? 'Declined' : 'Approved',
    amount: rejected && i % 3 === 0 ? null : 500 + (i % 9) * 250,
    tipAmount: i % 4 === 0 ? 100 : 0,
    firstName: NAMES[i % NAMES.length] ?? null,
    lastName: NAMES[(i * 7) % NAMES.length] ?? null,
    invoice: i % 3 === 0 ? null : `INV-${i % 8}`,
    orderNumber: i % 4 === 1 ? null : `ORD-${(i * 5) % 9}`,
    serverId: i % 5 === 2 ? null : `S${i % 3}`,
    cashier: i % 4 === 3 ? null : (['Ada', 'Bo'][i % 2] ?? null),
    cardLastFour: i % 6 === 0 ? null : ['1111', '4242', '0005'][i % 3],
    authorizationCode: i % 7 === 3 ? null : `A${(i * 3) % 10}`,
    createdAt: T0 + ((i * 37) % 50) * 1000,
  };
}

/**
 * Which row (its i) each store gave each id. Each store takes its own ids (a store server's may leave
 * one unused), so lists are compared row by row, by the i each row was written for.
 */
const written = { sqlite: new Map<number, number>(), server: new Map<number, number>() };

async function writeLedger(ledger: LedgerStore, i: number, rows: Map<number, number>): Promise<void> {
  await ledger.write(async (write) => {
    const fields = rowFields(i);
    const row = await addRow(write, fields.result === 'Approved' ? fields : { ...fields, batchId: null });
    rows.set(row.id, i);
    if (i % 4 === 0)
      await write.appendAudit({
        at: T0 + i,
        actor: 'Ada',
        action: 'refund',
        subject: `transaction ${i}`,
        detail: '',
      });
  });
  if (i % 17 === 16)
    await ledger.write(async (write) => {
      const open = await write.openBatch();
      if (open) await write.closeBatch(open.id, T0 + 100_000 - i * 1000, `C${i}`);
    });
}

beforeAll(async () => {
  server = await startPostgresServer();
  url = await server.createDatabase();
  lanes = [
    await PostgresLedger.open({ url, lane: 'lane-a' }),
    await PostgresLedger.open({ url, lane: 'lane-b' }),
  ];
  readPool = new PostgresReadPool({ url });
  reads = new LedgerReads(readPool, POSTGRES_DIALECT);
  dir = mkdtempSync(join(tmpdir(), 'tender-lists-'));
  sqlite = openDatabase(join(dir, 'ledger.db'));
  const sqliteLedger = new SqliteLedger(sqlite, new AuditLog(sqlite));
  for (let i = 0; i < 60; i += 1) {
    await writeLedger(sqliteLedger, i, written.sqlite);
    await writeLedger(lanes[i % 2] as PostgresLedger, i, written.server);
  }
});

afterAll(async () => {
  await Promise.all([...(lanes ?? []).map((ledger) => ledger.close()), readPool?.close()]);
  sqlite?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  await server?.close();
});

function sqliteTransactionIds(
  filter: TransactionFilter,
  page: Parameters<typeof transactionListQuery>[1],
): number[] {
  const { sql, params } = transactionListQuery(filter, page, { dense: true });
  return (sqlite.prepare(sql).all(...params) as { id: number }[]).map((row) => rowOf(written.sqlite, row.id));
}

function rowOf(rows: Map<number, number>, id: number): number {
  const i = rows.get(id);
  if (i === undefined) throw new Error(`no row was written with id ${id}`);
  return i;
}

const FILTERS: TransactionFilter[] = [
  {},
  { firstName: 'ÉLODIE' },
  { type: 'Sale', from: T0 + 10_000, before: T0 + 40_000 },
  { invoice: 'INV-3' },
  { amount: 1000 },
  { batchId: 2 },
  { result: 'Rejected' },
  { cashier: 'Ada' },
];

describe('lists from the store server', () => {
  it.each(Object.keys(TRANSACTION_ORDER_COLUMNS) as (keyof typeof TRANSACTION_ORDER_COLUMNS)[])(
    'transactions ordered by %s, either way, with every filter and a later page, match SQLite',
    async (orderBy) => {
      for (const filter of FILTERS)
        for (const descending of [false, true])
          for (const [limit, offset] of [
            [100, 0],
            [7, 5],
          ] as const) {
            const page = { orderBy, descending, limit, offset };
            const fromServer = (await reads.listTransactions(filter, page)).map((t) =>
              rowOf(written.server, t.id),
            );
            expect(fromServer, JSON.stringify({ filter, page })).toEqual(sqliteTransactionIds(filter, page));
          }
    },
  );

  it('batches in every order and with every filter match SQLite', async () => {
    const filters: BatchFilter[] = [
      {},
      { status: 'CLOSED' },
      { from: T0 + 60_000, before: T0 + 90_000 },
      { holding: { lastFour: '4242', type: 'Refund' } },
    ];
    for (const filter of filters)
      for (const orderBy of Object.keys(BATCH_ORDER_COLUMNS) as (keyof typeof BATCH_ORDER_COLUMNS)[])
        for (const descending of [false, true]) {
          const page = { orderBy, descending, limit: 50, offset: 0 };
          const { sql, params } = batchListQuery(filter, page);
          expect(await reads.listBatches(filter, page), JSON.stringify({ filter, page })).toEqual(
            (sqlite.prepare(sql).all(...params) as { id: number }[]).map((row) =>
              expect.objectContaining({ id: row.id }),
            ),
          );
        }
  });

  it('a transaction, the open batch and the audit log read the same as from SQLite', async () => {
    const sqliteLedger = new SqliteLedger(sqlite, new AuditLog(sqlite));
    const idOf = (rows: Map<number, number>, i: number) =>
      [...rows].find(([, written]) => written === i)?.[0] ?? 0;
    for (const i of [0, 16, 59]) {
      // The store server's rows also say which counter wrote them; SQLite's keep no lane.
      const { lane, ...row } = (await reads.transaction(idOf(written.server, i))) ?? {};
      expect({ ...row, id: i }).toEqual({ ...(await sqliteLedger.find(idOf(written.sqlite, i))), id: i });
      expect(lane).toBe(i % 2 === 0 ? 'lane-a' : 'lane-b');
    }
    expect(await reads.transaction(Math.max(...written.server.keys()) + 1)).toBeUndefined();
    const open = await reads.openBatch();
    expect(open).toEqual(await sqliteLedger.write((write) => write.openBatch()));
    expect(await reads.recentAudit(5, 2)).toEqual(new AuditLog(sqlite).recent(5, 2));
  });

  it('a list filtered by lane holds only that counter’s transactions, and the lanes of a batch add up to it', async () => {
    const page = { orderBy: 'id' as const, descending: false, limit: 100, offset: 0 };
    const laneB = await reads.listTransactions({ lane: 'lane-b' }, page);
    expect(laneB.map((t) => rowOf(written.server, t.id))).toEqual(
      Array.from({ length: 30 }, (_, i) => 2 * i + 1),
    );
    const open = await reads.openBatch();
    if (!open) throw new Error('no open batch');
    const { batch, lanes: shares } = await reads.batchWithLanes(open);
    expect(batch).toEqual(open);
    expect(shares.map((share) => share.lane)).toEqual(['lane-a', 'lane-b']);
    for (const counter of ['salesCount', 'salesTotal', 'refundCount', 'refundTotal', 'tipTotal'] as const)
      expect(shares.reduce((sum, share) => sum + share[counter], 0)).toBe(open[counter]);
    expect(() => transactionListQuery({ lane: 'lane-b' }, page)).toThrow(/keeps no lane/);
  });

  it('a read past its time limit is stopped and says so', async () => {
    const hastyPool = new PostgresReadPool({ url, statementTimeoutMs: 300 });
    const hasty = new LedgerReads(hastyPool, POSTGRES_DIALECT);
    const locker = new pg.Client({ connectionString: url });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE transactions IN ACCESS EXCLUSIVE MODE');
      await expect(
        hasty.listTransactions({}, { orderBy: 'amount', descending: false, limit: 10, offset: 0 }),
      ).rejects.toThrow(ReadTimeoutError);
    } finally {
      await locker.query('ROLLBACK');
      await locker.end();
      await hastyPool.close();
    }
  });
});

describe('list query plans on the store server', () => {
  let planner: pg.Client;
  beforeAll(async () => {
    const planned = await server.createDatabase();
    await (await PostgresLedger.open({ url: planned, lane: 'lane-a' })).close();
    planner = new pg.Client({ connectionString: planned });
    await planner.connect();
    // 20,000 transactions over 60 days, with the NULLs and spread of a real ledger, then statistics.
    await planner.query(`
      INSERT INTO batches (id, status, opened_at, settled_at, confirmation_code)
        SELECT b, 'CLOSED', ${T0} + b::bigint * 86400000, ${T0} + b::bigint * 86400000 + 3600000, 'C' || b
        FROM generate_series(1, 60) AS b;
      INSERT INTO transactions (id, lane, type, result, display_message, amount, card_last_four,
          authorization_code, invoice, order_number, first_name_key, last_name_key, server_id,
          cashier, batch_id, original_id, created_at)
        SELECT i, 'lane-' || (i % 3), (ARRAY['Sale', 'Auth', 'Refund', 'Void', 'Capture'])[1 + i % 5],
          CASE WHEN i % 17 = 0 THEN 'Declined' ELSE 'Approved' END, 'Approved',
          CASE WHEN i % 50 = 0 THEN NULL ELSE 100 + i % 5000 END, lpad((i % 9999)::text, 4, '0'),
          CASE WHEN i % 17 = 0 THEN NULL ELSE 'A' || (i % 100000) END,
          CASE WHEN i % 3 = 0 THEN NULL ELSE 'INV' || lpad(i::text, 8, '0') END,
          CASE WHEN i % 4 = 0 THEN NULL ELSE 'X' || (i % 900) END,
          CASE WHEN i % 5 = 0 THEN NULL ELSE 'name' || (i % 300) END,
          CASE WHEN i % 7 = 0 THEN NULL ELSE 'last' || (i % 700) END,
          CASE WHEN i % 6 = 0 THEN NULL ELSE lpad((i % 20)::text, 2, '0') END,
          (ARRAY['Ada', 'Bo', 'Cy', 'Di'])[1 + i % 4], 1 + i % 60, CASE WHEN i % 5 = 2 THEN i - 1 ELSE NULL END, ${T0} + i::bigint * 259000
        FROM generate_series(1, 20000) AS i;
      SELECT setval('transaction_ids', 20000);
      INSERT INTO transaction_blocks (block, writer, rows)
        SELECT id / ${ID_BLOCK}, 'planned', count(*) FROM transactions GROUP BY id / ${ID_BLOCK};`);
    // Statistics, and the visibility map autovacuum keeps, by which a page is read from an index alone.
    await planner.query('VACUUM (ANALYZE)');
  });
  afterAll(() => planner?.end());

  async function plan(
    filter: TransactionFilter,
    orderBy: keyof typeof TRANSACTION_ORDER_COLUMNS,
  ): Promise<string> {
    const { sql, params } = transactionListQuery(
      filter,
      { orderBy, descending: true, limit: 25, offset: 0 },
      { dense: true },
      POSTGRES_DIALECT,
    );
    const { rows } = await planner.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${numbered(sql)}`, params);
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  }

  const FILTERS_BY_NAME: Record<string, TransactionFilter & { lane?: string }> = {
    id: { id: 500 },
    amount: { amount: 1234 },
    type: { type: 'Refund' },
    result: { result: 'Declined' },
    last_four: { lastFour: '4242' },
    authorization_code: { authorizationCode: 'A4242' },
    invoice: { invoice: 'INV00000042' },
    order_id: { orderNumber: 'X1' },
    first_name: { firstName: 'name1' },
    last_name: { lastName: 'last1' },
    server_id: { serverId: '07' },
    batch_id: { batchId: 3 },
    cashier: { cashier: 'Ada' },
    lane: { lane: 'lane-1' },
    'date range': { from: T0 + 86_400_000, before: T0 + 2 * 86_400_000 },
  };

  it.each(Object.entries(FILTERS_BY_NAME))('the %s filter searches an index', async (_name, filter) => {
    expect(await plan(filter, 'id')).not.toMatch(/Seq Scan on transactions/);
  });

  it.each([false, true])(
    'a deep page of the whole list (descending %s) is the page stepping gives, and steps over one block of ids at most',
    async (descending) => {
      const page = { orderBy: 'id' as const, descending, limit: 25, offset: 15_000 };
      const { sql, params } = transactionListQuery({}, page, { dense: false }, POSTGRES_DIALECT);
      const stepped = await planner.query<{ id: string }>(
        `SELECT id FROM transactions ORDER BY id ${descending ? 'DESC' : 'ASC'} LIMIT 25 OFFSET 15000`,
      );
      const found = await planner.query<{ id: string }>(numbered(sql), params);
      expect(found.rows.map((row) => row.id)).toEqual(stepped.rows.map((row) => row.id));
      const { rows } = await planner.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN (ANALYZE, TIMING OFF) ${numbered(sql)}`,
        params,
      );
      const steps = rows.map((row) => row['QUERY PLAN']).join('\n');
      const steppedOver = [
        ...steps.matchAll(/Index Only Scan.* on transactions[^\n]*actual rows=(\d+)/g),
      ].map((match) => Number(match[1]));
      expect(steppedOver.length).toBeGreaterThan(0);
      for (const count of steppedOver) expect(count).toBeLessThanOrEqual(ID_BLOCK + 25);
      expect(steps).not.toMatch(/Seq Scan on transactions/);
    },
  );

  it("a deep page of one cashier's transactions is read from the cashier's index in id order", async () => {
    const { sql, params } = transactionListQuery(
      { cashier: 'Ada' },
      { orderBy: 'id', descending: true, limit: 25, offset: 2500 },
      { dense: true },
      POSTGRES_DIALECT,
    );
    const { rows } = await planner.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${numbered(sql)}`, params);
    const steps = rows.map((row) => row['QUERY PLAN']).join('\n');
    // Not the whole ledger stepped back from its newest row, with everyone else's rows skipped.
    expect(steps).toMatch(/Index (Only )?Scan Backward using transactions_by_cashier/);
    expect(steps).not.toMatch(/Filter: \(cashier = /);
  });

  it.each(Object.keys(TRANSACTION_ORDER_COLUMNS) as (keyof typeof TRANSACTION_ORDER_COLUMNS)[])(
    'order_by %s walks an index, NULLs first as on SQLite',
    async (orderBy) => {
      const steps = await plan({}, orderBy);
      expect(steps).not.toMatch(/Seq Scan on transactions/);
      expect(steps).toMatch(/Index (Only )?Scan/);
    },
  );
});
