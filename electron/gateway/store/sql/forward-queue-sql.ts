/**
 * The store-and-forward queue's statements, written once for both stores with `?` parameters (a
 * store server numbers them). What only one store does to erase a swipe's remnants is beside each.
 */
export const FORWARD_QUEUE_SQL = {
  queue: 'INSERT INTO forward_queue (transaction_id, queued_at, form, attempts) VALUES (?, ?, ?, ?)',
  keepSwipe: 'INSERT INTO forward_swipes (transaction_id, encrypted_track_data) VALUES (?, ?)',
  summary: `
    SELECT count(*) AS count, COALESCE(sum(t.amount), 0) AS cents, min(q.queued_at) AS oldest_at,
      COALESCE(sum(CASE WHEN t.type = 'Sale' THEN t.amount ELSE 0 END), 0) AS offline_sales_cents,
      min(CASE WHEN t.type = 'Sale' THEN q.queued_at END) AS oldest_offline_sale_at
    FROM forward_queue q JOIN transactions t ON t.id = q.transaction_id
    WHERE q.settled_at IS NULL`,
  /** How many entries wait, for a change of processor or swipe key to count inside its write. */
  waitingCount: 'SELECT count(*) AS count FROM forward_queue WHERE settled_at IS NULL',
  /** A setting as stored (none: its default), for an offline approval to check in its write. */
  storedSetting: 'SELECT value FROM settings WHERE key = ?',
  noteAttempt: `
    UPDATE forward_queue SET attempts = attempts + 1, last_attempt_at = ?
    WHERE transaction_id = ? AND settled_at IS NULL`,
  noteNotSent: `
    UPDATE forward_queue SET attempts = attempts - 1, last_attempt_at = ?
    WHERE transaction_id = ? AND settled_at IS NULL AND attempts > 0`,
  noteSendEnded:
    'UPDATE forward_queue SET last_attempt_at = ? WHERE transaction_id = ? AND settled_at IS NULL',
  settleEntry:
    'UPDATE forward_queue SET settled_at = ?, answer = ? WHERE transaction_id = ? AND settled_at IS NULL',
  settleUnsentEntry: `
    UPDATE forward_queue SET settled_at = ?, answer = ?
    WHERE transaction_id = ? AND settled_at IS NULL AND attempts = 0`,
  settleTransaction:
    'UPDATE transactions SET forward_state = ?, upstream_id = COALESCE(?, upstream_id) WHERE id = ?',
  deleteSwipe: 'DELETE FROM forward_swipes WHERE transaction_id = ?',
  acknowledge: `
    UPDATE forward_queue SET acknowledged_at = ?, acknowledged_by = ?
    WHERE transaction_id = ? AND acknowledged_at IS NULL
      AND transaction_id IN (SELECT id FROM transactions WHERE forward_state = 'declined')`,
  addCheck: 'INSERT INTO gateway_checks (reference, transaction_id, since) VALUES (?, ?, ?)',
  resolveCheck: 'UPDATE gateway_checks SET resolved_at = ?, outcome = ? WHERE reference = ?',
  waiting: `
    SELECT q.transaction_id, q.queued_at, q.form, q.attempts, q.last_attempt_at,
      s.encrypted_track_data AS swipe
    FROM forward_queue q LEFT JOIN forward_swipes s ON s.transaction_id = q.transaction_id
    WHERE q.settled_at IS NULL ORDER BY q.transaction_id LIMIT ?`,
  declined: `
    SELECT t.id, t.amount, t.created_at, t.card_last_four, t.email, q.answer
    FROM forward_queue q JOIN transactions t ON t.id = q.transaction_id
    WHERE t.forward_state = 'declined' AND q.acknowledged_at IS NULL
    ORDER BY t.id LIMIT 100`,
  pendingChecks:
    'SELECT reference, transaction_id, since FROM gateway_checks WHERE resolved_at IS NULL ORDER BY since LIMIT ?',
} as const;

export interface SummaryRow {
  count: number | string;
  cents: number | string;
  oldest_at: number | string | null;
  offline_sales_cents: number | string;
  oldest_offline_sale_at: number | string | null;
}

export interface WaitingRow {
  transaction_id: number;
  queued_at: number;
  form: string;
  attempts: number;
  last_attempt_at: number | string | null;
  swipe: string | null;
}

export interface DeclinedRow {
  id: number;
  amount: number;
  created_at: number;
  card_last_four: string | null;
  email: string | null;
  answer: string;
}

export interface CheckRow {
  reference: string;
  transaction_id: number;
  since: number;
}

const number = (value: number | string | null | undefined): number | null =>
  value === null || value === undefined ? null : Number(value);

/** A summary row as either store returns it (a store server's sums and counts come as text). */
export function toSummary(row: SummaryRow | undefined) {
  return {
    count: number(row?.count) ?? 0,
    cents: number(row?.cents) ?? 0,
    oldestAt: number(row?.oldest_at),
    offlineSalesCents: number(row?.offline_sales_cents) ?? 0,
    oldestOfflineSaleAt: number(row?.oldest_offline_sale_at),
  };
}

export const toQueued = (row: WaitingRow) => ({
  transactionId: Number(row.transaction_id),
  queuedAt: Number(row.queued_at),
  form: row.form,
  swipe: row.swipe,
  attempts: Number(row.attempts),
  lastAttemptAt: number(row.last_attempt_at),
});

export const toDeclined = (row: DeclinedRow) => ({
  transactionId: Number(row.id),
  amount: Number(row.amount),
  createdAt: Number(row.created_at),
  lastFour: row.card_last_four,
  email: row.email,
  answer: row.answer,
});

export const toCheck = (row: CheckRow) => ({
  reference: row.reference,
  transactionId: Number(row.transaction_id),
  since: Number(row.since),
});
