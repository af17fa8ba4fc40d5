/**
 * The ledger's statements (../sql/ledger-sql.ts) as the store server's connections run them, named,
 * with the few only it has; and the reads a write and a lookup share.
 */
import type pg from 'pg';

import { toBatch, type BatchRecord, type BatchRowShape } from '../batch-rows';
import type { SameCardCharge } from '../ledger-store';
import { POSTGRES_DIALECT } from '../sql/dialect';
import { ledgerStatements } from '../sql/ledger-sql';
import { toTransaction, type LedgerTransaction, type TransactionRowShape } from '../transaction-rows';

/**
 * Named statements: each connection prepares one the first time it runs it, and reuses the plan. The
 * text of each is fixed; only the parameters change.
 */
export function statement(name: string, text: string): (values?: unknown[]) => pg.QueryConfig {
  return (values = []) => ({ name: `tender_${name}`, text, values });
}

/** A set of statements in PostgreSQL's SQL, each named `<prefix>_<name>`. */
export function named<Names extends string>(
  prefix: string,
  statements: { readonly [Name in Names]: string },
): { readonly [Name in Names]: (values?: unknown[]) => pg.QueryConfig } {
  return Object.fromEntries(
    Object.entries<string>(statements).map(([name, text]) => [name, statement(`${prefix}_${name}`, text)]),
  ) as { [Name in Names]: (values?: unknown[]) => pg.QueryConfig };
}

export const SQL = {
  ...named('ledger', ledgerStatements(POSTGRES_DIALECT)),
  lockHead: statement('lock_head', 'SELECT last_transaction_id FROM ledger_head FOR UPDATE'),
  moveHead: statement('move_head', 'UPDATE ledger_head SET last_transaction_id = $1'),
  makeCardHashKey: statement(
    'make_card_hash_key',
    'INSERT INTO card_hash_key (id, secret) VALUES (1, $1) ON CONFLICT (id) DO NOTHING',
  ),
  cardHashKey: statement('card_hash_key', 'SELECT secret FROM card_hash_key WHERE id = 1'),
};

export async function findTransaction(
  db: pg.Pool | pg.ClientBase,
  id: number,
): Promise<LedgerTransaction | undefined> {
  const row = (await db.query<TransactionRowShape>(SQL.find([id]))).rows[0];
  return row && toTransaction(row);
}

export async function findSameCardCharge(
  db: pg.Pool | pg.ClientBase,
  { cardHash, amount, since }: SameCardCharge,
): Promise<LedgerTransaction | undefined> {
  const row = (await db.query<TransactionRowShape>(SQL.sameCardCharge([cardHash, amount, since]))).rows[0];
  return row && toTransaction(row);
}

export async function findBatch(db: pg.Pool | pg.ClientBase, id: number): Promise<BatchRecord | undefined> {
  const row = (await db.query<BatchRowShape>(SQL.findBatch([id]))).rows[0];
  return row && toBatch(row);
}
