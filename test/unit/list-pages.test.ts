/**
 * Deep pages of the transaction list: reached without stepping over the rows before them where the
 * order allows it, and always the same rows as the query that steps over every skipped row.
 */
import Database from 'better-sqlite3';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRANSACTION_ORDER_FIELDS } from '../../shared/api/schemas';
import { SQLITE_DIALECT } from '../../electron/gateway/store/sql/dialect';
import { LedgerReads } from '../../electron/gateway/store/sql/ledger-reads';
import {
  transactionListQuery,
  type Page,
  type TRANSACTION_ORDER_COLUMNS,
  type TransactionFilter,
} from '../../electron/gateway/store/sql/list-sql';
import { ReadPool } from '../../electron/gateway/store/sqlite/read-pool';
import { seedLedger } from '../bench/seed-ledger';

const ROWS = 6_000;

let dir: string;
let dense: string;
let gapped: string;
let db: Database.Database;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tender-pages-'));
  dense = join(dir, 'dense.db');
  seedLedger(dense, { settledTransactions: ROWS - 500, openTransactions: 500, endAt: Date.now(), days: 30 });
  // A ledger whose ids leave a gap below the newest: the engine never writes one, but pages must
  // stay right if a ledger ever had it.
  gapped = join(dir, 'gapped.db');
  copyFileSync(dense, gapped);
  const gaps = new Database(gapped);
  gaps.prepare('UPDATE transactions SET id = id + 1000 WHERE id = ?').run(ROWS);
  gaps.close();
  db = new Database(dense, { readonly: true });
});
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

type OrderField = keyof typeof TRANSACTION_ORDER_COLUMNS;

function pageOf(orderBy: OrderField, descending: boolean, number: number, size = 25): Page<OrderField> {
  return { orderBy, descending, limit: size, offset: (number - 1) * size };
}

/** The page as SQL defines it: sorted, then every row before the page stepped over. */
function steppedIds(file: Database.Database, filter: TransactionFilter, page: Page<OrderField>): number[] {
  const { sql, params } = transactionListQuery(filter, page);
  return (file.prepare(sql).all(...params) as { id: number }[]).map((row) => row.id);
}

function plan(sql: string, params: unknown[]): string[] {
  return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map(
    (row) => row.detail,
  );
}

const PAGES = [1, 2, 97, ROWS / 25 - 1, ROWS / 25, ROWS / 25 + 1, 40_000];

describe('deep pages in id order', () => {
  it('page 40,000 of 25 seeks its first row by id instead of stepping over the rows before it', () => {
    const { sql, params } = transactionListQuery({}, pageOf('id', true, 40_000), { dense: true });
    const steps = plan(sql, params);
    expect(steps.some((step) => /^SEARCH transactions USING INTEGER PRIMARY KEY/.test(step))).toBe(true);
    expect(steps.filter((step) => /^SCAN /.test(step))).toEqual([]);
  });

  it.each([true, false])('descending %s: every page holds the same rows, in order, as stepping', (desc) => {
    for (const size of [1, 7, 25, 100]) {
      for (const number of PAGES) {
        const page = pageOf('id', desc, number, size);
        const { sql, params } = transactionListQuery({}, page, { dense: true });
        const rows = db.prepare(sql).all(...params);
        const stepped = db
          .prepare(`SELECT * FROM transactions ORDER BY id ${desc ? 'DESC' : 'ASC'} LIMIT ? OFFSET ?`)
          .all(page.limit, page.offset);
        expect(rows, `page ${number} of ${size}`).toEqual(stepped);
      }
    }
  });
});

describe('pages read through the reader threads', () => {
  let readers: { dense: LedgerReads; gapped: LedgerReads; pools: ReadPool[] };
  beforeAll(() => {
    const pools = [new ReadPool(dense), new ReadPool(gapped)] as const;
    readers = {
      dense: new LedgerReads(pools[0], SQLITE_DIALECT),
      gapped: new LedgerReads(pools[1], SQLITE_DIALECT),
      pools: [...pools],
    };
  });
  afterAll(async () => {
    for (const pool of readers.pools) await pool.close();
  });

  it.each(['dense', 'gapped'] as const)('a %s ledger pages exactly as stepping does', async (which) => {
    const file = new Database(which === 'dense' ? dense : gapped, { readonly: true });
    try {
      for (const desc of [true, false]) {
        for (const number of PAGES) {
          const page = pageOf('id', desc, number);
          const listed = await readers[which].listTransactions({}, page);
          expect(
            listed.map((row) => row.id),
            `${which} page ${number}`,
          ).toEqual(steppedIds(file, {}, page));
        }
      }
    } finally {
      file.close();
    }
  });

  it.each(TRANSACTION_ORDER_FIELDS.filter((field) => field !== 'id'))(
    'order_by %s keeps the rows of stepping, deep pages included',
    async (field) => {
      for (const number of [1, 150, ROWS / 25]) {
        const page = pageOf(field, true, number);
        const listed = await readers.dense.listTransactions({}, page);
        expect(listed.map((row) => row.id)).toEqual(steppedIds(db, {}, page));
      }
    },
  );

  it('a filtered list keeps the rows of stepping', async () => {
    const filter: TransactionFilter = { type: 'Sale' };
    for (const number of [1, 40, 41]) {
      const page = pageOf('id', true, number, 50);
      const listed = await readers.dense.listTransactions(filter, page);
      expect(listed.map((row) => row.id)).toEqual(steppedIds(db, filter, page));
    }
  });
});
