/**
 * The duplicate check runs before every charge, inside its write: it reads only the card's own rows
 * through the card-hash index, whatever else it leaves out (voided charges, and offline sales the
 * gateway declined once forwarded).
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SQLITE_DIALECT } from '../../electron/gateway/store/sql/dialect';
import { ledgerStatements } from '../../electron/gateway/store/sql/ledger-sql';
import { seedLedger } from '../bench/seed-ledger';

let dir: string;
let db: Database.Database;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tender-duplicate-plan-'));
  seedLedger(join(dir, 'plan.db'), {
    settledTransactions: 2_000,
    openTransactions: 100,
    endAt: Date.now(),
    days: 5,
  });
  db = new Database(join(dir, 'plan.db'), { readonly: true });
});
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

it('the same-card lookup searches the card-hash index by card and time, newest first, without a sort', () => {
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
