/** The store server ledger's named statements, and the reads a write and a lookup share. */
import type pg from 'pg';

import { toBatch, type BatchRecord, type BatchRowShape } from '../batch-rows';
import type { SameCardCharge } from '../ledger-store';
import { OPEN_BATCH_SQL } from '../sql/list-sql';
import {
  insertTransactionSql,
  toTransaction,
  type LedgerTransaction,
  type TransactionRowShape,
} from '../transaction-rows';
import { numbered } from './connection';

/**
 * Named statements: each connection prepares one the first time it runs it, and reuses the plan. The
 * text of each is fixed; only the parameters change.
 */
export function statement(name: string, text: string): (values?: unknown[]) => pg.QueryConfig {
  return (values = []) => ({ name: `tender_${name}`, text, values });
}

export const SQL = {
  lockHead: statement('lock_head', 'SELECT last_transaction_id FROM ledger_head FOR UPDATE'),
  moveHead: statement('move_head', 'UPDATE ledger_head SET last_transaction_id = $1'),
  find: statement('find', 'SELECT * FROM transactions WHERE id = $1'),
  insert: statement(
    'insert',
    insertTransactionSql((position) => `$${position}`, ['lane']),
  ),
  findAnswer: statement(
    'find_answer',
    'SELECT fingerprint, response FROM idempotency_keys WHERE api_key_id = $1 AND key = $2',
  ),
  rememberAnswer: statement(
    'remember_answer',
    `INSERT INTO idempotency_keys (api_key_id, key, fingerprint, response, created_at)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
  ),
  forgetAnswers: statement('forget_answers', 'DELETE FROM idempotency_keys WHERE created_at < $1'),
  swipeSeen: statement('swipe_seen', 'SELECT id FROM transactions WHERE swipe_ksn = $1'),
  sameCardCharge: statement(
    'same_card_charge',
    `SELECT * FROM transactions
     WHERE card_hash = $1 AND amount = $2 AND created_at >= $3
       AND type IN ('Sale', 'Auth', 'Forced Sale') AND result = 'Approved' AND voided_by IS NULL
     ORDER BY created_at DESC, id DESC LIMIT 1`,
  ),
  markVoided: statement(
    'mark_voided',
    'UPDATE transactions SET voided_by = $1 WHERE id = $2 AND voided_by IS NULL RETURNING lane',
  ),
  markCaptured: statement(
    'mark_captured',
    'UPDATE transactions SET captured_by = $1 WHERE id = $2 AND captured_by IS NULL',
  ),
  reopenCapture: statement(
    'reopen_capture',
    'UPDATE transactions SET captured_by = NULL WHERE id = $1 AND captured_by = $2',
  ),
  addRefunded: statement(
    'add_refunded',
    'UPDATE transactions SET refunded_amount = refunded_amount + $1 WHERE id = $2',
  ),
  openBatch: statement('open_batch', numbered(OPEN_BATCH_SQL)),
  findBatch: statement('find_batch', 'SELECT * FROM batches WHERE id = $1'),
  // Under the head lock no other write can take the same id: batch ids run without a gap too.
  createBatch: statement(
    'create_batch',
    "INSERT INTO batches (id, status, opened_at) SELECT COALESCE(max(id), 0) + 1, 'OPEN', $1 FROM batches RETURNING *",
  ),
  // The batch's counters and its lane's share, in one statement: both change, or neither.
  applyDelta: statement(
    'apply_delta',
    `WITH batch AS (
       UPDATE batches SET
         sales_count = sales_count + $3, sales_total = sales_total + $4,
         refund_count = refund_count + $5, refund_total = refund_total + $6,
         tip_total = tip_total + $7
       WHERE id = $1 AND status = 'OPEN'
       RETURNING id)
     INSERT INTO batch_lanes AS share (batch_id, lane, sales_count, sales_total, refund_count, refund_total, tip_total)
       SELECT id, $2, $3, $4, $5, $6, $7 FROM batch
     ON CONFLICT (batch_id, lane) DO UPDATE SET
       sales_count = share.sales_count + excluded.sales_count,
       sales_total = share.sales_total + excluded.sales_total,
       refund_count = share.refund_count + excluded.refund_count,
       refund_total = share.refund_total + excluded.refund_total,
       tip_total = share.tip_total + excluded.tip_total`,
  ),
  closeBatch: statement(
    'close_batch',
    "UPDATE batches SET status = 'CLOSED', settled_at = $1, confirmation_code = $2 WHERE id = $3 RETURNING *",
  ),
  makeCardHashKey: statement(
    'make_card_hash_key',
    'INSERT INTO card_hash_key (id, secret) VALUES (1, $1) ON CONFLICT (id) DO NOTHING',
  ),
  cardHashKey: statement('card_hash_key', 'SELECT secret FROM card_hash_key WHERE id = 1'),
  appendAudit: statement(
    'append_audit',
    'INSERT INTO audit_log (at, actor, action, subject, detail) VALUES ($1, $2, $3, $4, $5)',
  ),
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
