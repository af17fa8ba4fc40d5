/**
 * No list query scans the transactions table: each filter and order has an index to use. Nor does
 * the duplicate check, which runs inside every charge's write.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRANSACTION_ORDER_FIELDS } from '../../shared/api/schemas';
import { transactionListQuery, type TransactionFilter } from '../../electron/gateway/store/sql/list-sql';
import { SQLITE_DIALECT } from '../../electron/gateway/store/sql/dialect';
import { ledgerStatements } from '../../electron/gateway/store/sql/ledger-sql';
import { seedLedger } from '../bench/seed-ledger';

let dir: string;
let db: Database.Database;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tender-plans-'));
  seedLedger(join(dir, 'plans.db'), {
    settledTransactions: 20_000,
    openTransactions: 500,
    endAt: Date.now(),
    days: 60,
  });
  db = new Database(join(dir, 'plans.db'), { readonly: true });
});
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

function plan(
  filter: TransactionFilter,
  orderBy: (typeof TRANSACTION_ORDER_FIELDS)[number] = 'id',
): string[] {
  const { sql, params } = transactionListQuery(filter, { orderBy, descending: true, limit: 25, offset: 0 });
  return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map(
    (row) => row.detail,
  );
}

const FILTERS: Record<string, TransactionFilter> = {
  id: { id: 500 },
  amount: { amount: 1234 },
  type: { type: 'Refund' },
  result: { result: 'Declined' },
  last_four: { lastFour: '4242' },
  authorization_code: { authorizationCode: 'ABC123' },
  invoice: { invoice: 'INV00000042' },
  order_id: { orderNumber: 'X1' },
  first_name: { firstName: 'ann' },
  last_name: { lastName: 'smith' },
  server_id: { serverId: '07' },
  cashier: { cashier: 'Dana' },
  batch_id: { batchId: 3 },
  'date range': { from: Date.now() - 2 * 86_400_000, before: Date.now() - 86_400_000 },
};

describe('list query plans', () => {
  it.each(Object.entries(FILTERS))('the %s filter searches an index', (_name, filter) => {
    const steps = plan(filter);
    expect(
      steps.some((step) => /^SEARCH transactions USING (COVERING )?(INDEX|INTEGER PRIMARY KEY)/.test(step)),
    ).toBe(true);
    expect(steps.filter((step) => /^SCAN transactions$/.test(step))).toEqual([]);
  });

  it.each(TRANSACTION_ORDER_FIELDS.filter((field) => field !== 'id'))(
    'order_by %s walks an index',
    (field) => {
      const steps = plan({}, field);
      expect(steps.some((step) => /^SCAN transactions USING (COVERING )?INDEX/.test(step))).toBe(true);
      expect(steps.filter((step) => /^SCAN transactions$/.test(step))).toEqual([]);
    },
  );

  it("a cashier's page is read in id order from the cashier's index, without sorting all their rows", () => {
    const steps = plan({ cashier: 'Dana' });
    expect(steps).toContain('SEARCH transactions USING COVERING INDEX transactions_by_cashier (cashier=?)');
    expect(steps).not.toContain('USE TEMP B-TREE FOR ORDER BY');
  });

  it('the default order reads the newest rows first and stops at the page', () => {
    expect(plan({})).toContain('SCAN transactions');
    expect(plan({})).not.toContain('USE TEMP B-TREE FOR ORDER BY');
  });
});

describe('the duplicate check', () => {
  // Whatever it leaves out (voided charges, offline sales the gateway declined once forwarded), it
  // reads only the card's own rows.
  it('searches the card-hash index by card and time, newest first, without a sort', () => {
    const { sameCardCharge } = ledgerStatements(SQLITE_DIALECT);
    const steps = (
      db.prepare(`EXPLAIN QUERY PLAN ${sameCardCharge}`).all('hash', 1234, Date.now() - 120_000) as {
        detail: string;
      }[]
    ).map((row) => row.detail);
    expect(steps).toEqual([
      'SEARCH transactions USING INDEX transactions_by_card_hash (card_hash=? AND created_at>?)',
    ]);
  });
});
