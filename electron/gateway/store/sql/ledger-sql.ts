/**
 * The ledger's statements, each written once for both stores (dialect.ts says what differs): the
 * reads a write's rules need, the new row and the effects of domain/effects.ts, the batch, the
 * answers kept under Idempotency-Keys, and the audit log. Each store's ledger runs them with the
 * parameters in the order written here.
 */
import type { BatchDelta } from '../../domain/batch';
import { NAME_KEY_COLUMNS, TRANSACTION_COLUMNS } from '../transaction-rows';
import { inDialect, type SqlDialect } from './dialect';
import { openBatchSql } from './list-sql';

/** An entry of the audit log, kept or dropped with the rest of its write. */
export const APPEND_AUDIT_SQL =
  'INSERT INTO audit_log (at, actor, action, subject, detail) VALUES (?, ?, ?, ?, ?)';

/** Every column a new transaction sets, in the order of `insertParams` (transaction-rows.ts). */
const INSERTED_COLUMNS = [
  ...Object.values(TRANSACTION_COLUMNS)
    .filter((column) => !('inserted' in column))
    .map((column) => column.name),
  ...Object.values(NAME_KEY_COLUMNS),
];

/** The columns a new transaction's insert names: `insertParams`' order, then its lane where the store keeps lanes. */
export function insertedColumns(dialect: SqlDialect): string[] {
  return dialect.keepsLanes ? [...INSERTED_COLUMNS, 'lane'] : INSERTED_COLUMNS;
}

/** Each counter a batch and each of its lanes' shares keep: its column, and the field of a delta that changes it. */
const COUNTER_FIELDS = {
  sales_count: 'salesCount',
  sales_total: 'salesTotal',
  refund_count: 'refundCount',
  refund_total: 'refundTotal',
  tip_total: 'tipTotal',
} as const satisfies Record<string, keyof BatchDelta>;

export type Counter = keyof typeof COUNTER_FIELDS;

/** The counters' columns, in the order of a delta's values (`deltaValues`). */
export const COUNTERS = Object.keys(COUNTER_FIELDS) as Counter[];

/** What a delta adds to each counter, in the order of `COUNTERS`. */
export function deltaValues(delta: BatchDelta): number[] {
  return COUNTERS.map((column) => delta[COUNTER_FIELDS[column]]);
}

/** What a delta adds to each counter, by column. */
export function deltaByCounter(delta: BatchDelta): Record<Counter, number> {
  const values = {} as Record<Counter, number>;
  for (const column of COUNTERS) values[column] = delta[COUNTER_FIELDS[column]];
  return values;
}

/** The SQL type of a batch counter: counts are integers, totals are cents. */
export function counterType(column: Counter): 'integer' | 'bigint' {
  return column.endsWith('count') ? 'integer' : 'bigint';
}

/** A lane's share of a batch met again: the delta added to it. */
export const ADD_TO_SHARE = `ON CONFLICT (batch_id, lane, writer) DO UPDATE SET ${COUNTERS.map(
  (column) => `${column} = share.${column} + excluded.${column}`,
).join(', ')}`;

/**
 * The ledger's statements in one store's SQL. Parameters, in order:
 * - `insert`: `insertParams(transaction)`, then the lane where the store keeps lanes;
 * - `applyDelta`: `deltaValues(delta)`, then, where the store keeps lanes, the lane whose
 *   share it is and the writer's name, then the batch id;
 * - `markVoided`: the void's id, the voided transaction's id; it returns the voided row's lane;
 * - `closeBatch`: when it was settled, the confirmation code, `upstreamColumns(upstream)` (the
 *   gateway's batch, or nulls), then the batch id.
 */
export function ledgerStatements(dialect: SqlDialect) {
  const columns = insertedColumns(dialect);
  const counted = COUNTERS.map((column) => `${column} = ${column} + ?`).join(', ');
  return inDialect(dialect, {
    find: 'SELECT * FROM transactions WHERE id = ?',
    // The key a write is made with, found only while live: a counter's copy may be a moment behind.
    liveKey: `SELECT id FROM api_keys WHERE id = ? AND revoked_at IS NULL AND ${dialect.keyInUse}`,
    // Inside a write, the transaction a follow-up names: locked until the write ends, so the checks
    // of domain/rules.ts hold at its commit.
    findToChange: `SELECT * FROM transactions WHERE id = ?${dialect.forUpdate}`,
    insert: `INSERT INTO transactions (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
    swipeSeen: 'SELECT id FROM transactions WHERE swipe_ksn = ?',
    // An offline sale the gateway declined once forwarded keeps its offline approval in its history
    // but charged nothing, so it is no earlier charge to duplicate.
    sameCardCharge: `
      SELECT * FROM transactions${dialect.indexedBy('transactions_by_card_hash')}
      WHERE card_hash = ? AND amount = ? AND created_at >= ?
        AND type IN ('Sale', 'Auth', 'Forced Sale') AND result = 'Approved' AND voided_by IS NULL
        AND (forward_state IS NULL OR forward_state <> 'declined')
      ORDER BY created_at DESC, id DESC LIMIT 1`,
    // The lane a void's batch delta is taken from: that of the counter that made the voided row.
    markVoided: `UPDATE transactions SET voided_by = ? WHERE id = ? AND voided_by IS NULL RETURNING ${
      dialect.keepsLanes ? 'lane' : "'' AS lane"
    }`,
    markCaptured: 'UPDATE transactions SET captured_by = ? WHERE id = ? AND captured_by IS NULL',
    reopenCapture: 'UPDATE transactions SET captured_by = NULL WHERE id = ? AND captured_by = ?',
    addRefunded: 'UPDATE transactions SET refunded_amount = refunded_amount + ? WHERE id = ?',

    openBatch: openBatchSql(dialect),
    findBatch: `SELECT * FROM ${dialect.batchTotals} WHERE id = ?`,
    // The highest id plus one, so batch ids run without a gap whichever store or counter opens one.
    // Two counters opening one at once: one insert wins, the other inserts nothing (the unique index
    // of the open batch, or the id) and reads the batch the first opened.
    createBatch: `
      INSERT INTO batches (id, status, opened_at)
      SELECT COALESCE(max(id), 0) + 1, 'OPEN', ? FROM batches${dialect.beforeUpsert}
      ON CONFLICT DO NOTHING RETURNING *`,
    // With lanes, an open batch's counters are its shares, one row per lane and writer: a write adds
    // to its own row and never waits for another writer's.
    applyDelta: dialect.keepsLanes
      ? `INSERT INTO batch_lanes AS share (${COUNTERS.join(', ')}, lane, writer, batch_id)
         SELECT ${COUNTERS.map((column) => `CAST(? AS ${counterType(column)})`).join(', ')},
                CAST(? AS text), CAST(? AS text), id
         FROM batches WHERE id = ? AND status = 'OPEN'${dialect.beforeUpsert}
         ${ADD_TO_SHARE}`
      : `UPDATE batches SET ${counted} WHERE id = ? AND status = 'OPEN'`,
    // With lanes, the close writes the sum of the shares into the batch's own row.
    closeBatch: dialect.keepsLanes
      ? `UPDATE batches SET status = 'CLOSED', settled_at = ?, confirmation_code = ?,
           upstream_batch_id = ?, upstream_totals = ?, reconciled = ?,
           (${COUNTERS.join(', ')}) = (
             SELECT ${COUNTERS.map(
               (column) =>
                 `CAST(COALESCE(sum(${column}), 0) AS ${column.endsWith('count') ? 'integer' : 'bigint'})`,
             ).join(', ')}
             FROM batch_lanes WHERE batch_id = batches.id)
         WHERE id = ? RETURNING *`
      : `UPDATE batches SET status = 'CLOSED', settled_at = ?, confirmation_code = ?,
           upstream_batch_id = ?, upstream_totals = ?, reconciled = ?
         WHERE id = ? RETURNING *`,

    findAnswer: 'SELECT fingerprint, response FROM idempotency_keys WHERE api_key_id = ? AND key = ?',
    // An answer stored first by another engine of the store is kept: this insert then fails on the
    // primary key, and its write with it (each store names that AnswerStoredMeanwhileError).
    rememberAnswer: `
      INSERT INTO idempotency_keys (api_key_id, key, fingerprint, response, created_at)
      VALUES (?, ?, ?, ?, ?)`,
    forgetAnswers: 'DELETE FROM idempotency_keys WHERE created_at < ?',

    appendAudit: APPEND_AUDIT_SQL,
  });
}

export type LedgerStatements = ReturnType<typeof ledgerStatements>;
