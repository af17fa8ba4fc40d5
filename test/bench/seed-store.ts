/**
 * Fills a store server's ledger with realistic history fast, as seed-ledger.ts does for a counter's
 * SQLite file: a day's settled batch after another, then the open batch, written by three counters
 * (lanes) and eight cashiers. The rows are made by PostgreSQL itself, one INSERT ... SELECT over
 * generate_series, each row a pure function of its id (a keyed hash of it), so the same options give
 * the same ledger and nothing crosses the network but the statements. Sales, forced sales, refunds,
 * declines and rejections; authorizations each captured by the next row with a tip; voids of the
 * sale just before, from the same batch. Every constraint of the schema holds and is checked as the
 * rows go in; the batches' counters, each lane's share and each block's count of rows are then
 * summed from their rows, so they equal them. The transactions' secondary indexes are dropped while inserting and built after.
 */
import pg from 'pg';
import { openPool } from '../../electron/gateway/store/postgres/connection';
import { migrateStore } from '../../electron/gateway/store/postgres/migrate';

export interface StoreSeedOptions {
  /** Transactions in settled batches. */
  settledTransactions: number;
  /** Transactions left in the open batch. */
  openTransactions: number;
  /** The history ends here (epoch ms)... */
  endAt: number;
  /** ...and spans this many days, one batch a day. */
  days: number;
  /** Another seed gives another ledger of the same shape. */
  seed?: number;
}

/** The counters of the seeded store, and who works at them. */
export const SEED_LANES = ['front', 'bar', 'patio'] as const;
export const SEED_CASHIERS = ['Ana', 'Ben', 'Carla', 'Dev', 'Emma', 'Farid', 'Grace', 'Hugo'] as const;

const FIRST_NAMES = ['ANN', 'BEN', 'CARLA', 'DEV', 'EMMA', 'FARID', 'GRACE', 'HUGO', 'IRIS', 'JONAS'];
const LAST_NAMES = ['ADAMS', 'BROWN', 'CHEN', 'DIAZ', 'EVANS', 'GARCIA', 'KIM', 'LOPEZ', 'PATEL', 'WONG'];

const textArray = (items: readonly string[]) => `ARRAY[${items.map((item) => `'${item}'`).join(', ')}]`;

/**
 * The rows, from $1 total, $2 settled, $3 rows per settled batch, $4 the first row's time and $5 the
 * time between rows. `kind` decides the rest: an odd row may be an Auth, and then the even row after
 * it is its Capture; a Void takes back the plain Sale just before it when both are in one batch.
 */
const ROWS_SQL = `
  WITH numbered AS (
    SELECT n,
      pg_temp.u(n, 1) AS roll,
      pg_temp.u(n - 1, 1) AS prev_roll,
      n % 2 = 1 AND n < $1 AND pg_temp.u(n, 1) >= 0.08 AND pg_temp.u(n, 1) < 0.18 AS auth,
      n % 2 = 0 AND pg_temp.u(n - 1, 1) >= 0.08 AND pg_temp.u(n - 1, 1) < 0.18 AS capture,
      CASE WHEN n <= $2 THEN (n - 1) / $3 + 1 ELSE ($2 - 1) / $3 + 2 END AS batch,
      CASE WHEN n - 1 <= $2 THEN (n - 2) / $3 + 1 ELSE ($2 - 1) / $3 + 2 END AS prev_batch
    FROM generate_series(1, $1::bigint) AS n
  ), kinds AS (
    SELECT n, batch, capture,
      CASE
        WHEN auth THEN 'Auth'
        WHEN capture THEN 'Capture'
        WHEN roll < 0.06 THEN 'Declined'
        WHEN roll < 0.08 THEN 'Rejected'
        WHEN roll < 0.18 THEN 'Sale'
        WHEN roll < 0.20 THEN 'Refund'
        -- The row before is a plain Sale when its roll is past every other kind and it is no Capture.
        WHEN roll < 0.22 AND n > 1 AND prev_roll >= 0.25 AND batch = prev_batch
          AND NOT (n % 2 = 1 AND pg_temp.u(n - 2, 1) >= 0.08 AND pg_temp.u(n - 2, 1) < 0.18) THEN 'Void'
        WHEN roll < 0.25 THEN 'Forced Sale'
        ELSE 'Sale'
      END AS kind
    FROM numbered
  ), shaped AS (
    SELECT k.*,
      -- A Capture or a Void is about the row before it: same card, same customer.
      CASE WHEN kind IN ('Capture', 'Void') THEN n - 1 ELSE n END AS src,
      100 + floor(pg_temp.u(n, 2) * 30000)::bigint AS own_amount,
      100 + floor(pg_temp.u(n - 1, 2) * 30000)::bigint AS prev_amount,
      lead(kind) OVER (ORDER BY n) AS next_kind
    FROM kinds k
  )
  INSERT INTO transactions (id, lane, type, result, result_code, error_code, display_message, amount,
    tip_amount, authorization_code, avs_result_code, csc_result_code, card_last_four,
    card_length, card_brand, entry_mode, swipe_ksn, card_hash, invoice, order_number, purchase_order,
    server_id, cashier, first_name, last_name, first_name_key, last_name_key, original_id, batch_id,
    voided_by, captured_by, created_at)
  SELECT n,
    (${textArray(SEED_LANES)})[1 + floor(pg_temp.u(n, 3) * ${SEED_LANES.length})::int],
    CASE WHEN kind IN ('Declined', 'Rejected') THEN 'Sale' ELSE kind END,
    CASE kind WHEN 'Declined' THEN 'Declined' WHEN 'Rejected' THEN 'Rejected' ELSE 'Approved' END,
    CASE kind WHEN 'Declined' THEN '0005' WHEN 'Rejected' THEN NULL ELSE '0000' END,
    CASE kind WHEN 'Rejected' THEN '8000' END,
    CASE kind WHEN 'Declined' THEN 'Declined by the card issuer.'
      WHEN 'Rejected' THEN 'Field Validation: card expired' ELSE 'Approved' END,
    CASE kind
      WHEN 'Capture' THEN prev_amount + floor(prev_amount * 0.18)::bigint
      WHEN 'Void' THEN prev_amount
      WHEN 'Refund' THEN own_amount / 2 + 1
      ELSE own_amount
    END,
    CASE WHEN kind = 'Capture' THEN floor(prev_amount * 0.18)::bigint ELSE 0 END,
    CASE WHEN kind NOT IN ('Declined', 'Rejected')
      THEN upper(lpad(to_hex(hashint8extended(n, 7) & 16777215), 6, '0')) END,
    CASE WHEN kind <> 'Rejected' THEN 'Z' END,
    CASE WHEN kind <> 'Rejected' THEN 'M' END,
    lpad(floor(pg_temp.u(src, 5) * 10000)::text, 4, '0'),
    CASE WHEN card = 2 THEN 15 ELSE 16 END,
    (ARRAY['visa', 'mastercard', 'amex', 'discover'])[1 + card],
    CASE WHEN swiped THEN 'swiped' ELSE 'keyed' END,
    -- Each swipe's KSN is its own; a Capture or a Void reads no card.
    CASE WHEN swiped AND kind NOT IN ('Capture', 'Void') THEN 'FFFF98765' || lpad(to_hex(n), 11, '0') END,
    CASE WHEN kind NOT IN ('Rejected') THEN md5(card || ':' || floor(pg_temp.u(src, 5) * 10000)) END,
    'INV' || lpad(n::text, 8, '0'),
    CASE WHEN pg_temp.u(n, 8) < 0.3 THEN upper(to_hex(hashint8extended(n, 9) & 281474976710655)) END,
    'PO' || lpad(n::text, 10, '0'),
    lpad((1 + floor(pg_temp.u(n, 10) * 20))::text, 2, '0'),
    (${textArray(SEED_CASHIERS)})[1 + floor(pg_temp.u(n, 11) * ${SEED_CASHIERS.length})::int],
    first_name, last_name, lower(first_name), lower(last_name),
    CASE WHEN kind IN ('Capture', 'Void') THEN n - 1 END,
    CASE WHEN kind NOT IN ('Auth', 'Declined', 'Rejected') THEN batch END,
    CASE WHEN next_kind = 'Void' THEN n + 1 END,
    CASE WHEN kind = 'Auth' THEN n + 1 END,
    $4::bigint + round(n * $5::float8)::bigint
  FROM (
    SELECT s.*,
      floor(pg_temp.u(src, 4) * 4)::int AS card,
      pg_temp.u(src, 6) < 0.8 AS swiped,
      (${textArray(FIRST_NAMES)})[1 + floor(pg_temp.u(src, 12) * ${FIRST_NAMES.length})::int] AS first_name,
      (${textArray(LAST_NAMES)})[1 + floor(pg_temp.u(src, 13) * ${LAST_NAMES.length})::int] AS last_name
    FROM shaped s
  ) AS rows`;

/** What an approved, unvoided sale or refund adds to its batch (domain/batch.ts), summed. */
const COUNTED = `result = 'Approved' AND voided_by IS NULL AND batch_id IS NOT NULL`;
const SUMS = `
  count(*) FILTER (WHERE type IN ('Sale', 'Forced Sale', 'Capture'))::int AS sales_count,
  COALESCE(sum(amount) FILTER (WHERE type IN ('Sale', 'Forced Sale', 'Capture')), 0) AS sales_total,
  count(*) FILTER (WHERE type = 'Refund')::int AS refund_count,
  COALESCE(sum(amount) FILTER (WHERE type = 'Refund'), 0) AS refund_total,
  COALESCE(sum(tip_amount) FILTER (WHERE type IN ('Sale', 'Forced Sale', 'Capture')), 0) AS tip_total`;

/**
 * Seeds the store database at `url` (migrating it first), which must hold no transactions yet. Run
 * it while no engine is connected to it.
 */
export async function seedStore(
  url: string,
  options: StoreSeedOptions,
): Promise<{ transactions: number; batches: number }> {
  const pool = openPool({ url, max: 1 });
  try {
    await migrateStore(pool);
  } finally {
    await pool.end();
  }
  const total = options.settledTransactions + options.openTransactions;
  const perBatch = Math.max(1, Math.ceil(options.settledTransactions / Math.max(options.days, 1)));
  const startAt = options.endAt - options.days * 86_400_000;
  const step = (options.endAt - startAt) / Math.max(total, 1);
  const settledBatches = Math.ceil(options.settledTransactions / perBatch);
  const batches = settledBatches + (options.openTransactions > 0 ? 1 : 0);
  const seed = options.seed ?? 42;

  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    await db.query("SET maintenance_work_mem = '256MB'; SET statement_timeout = 0");
    await db.query(`CREATE FUNCTION pg_temp.u(n bigint, stream int) RETURNS float8
      LANGUAGE sql IMMUTABLE PARALLEL SAFE
      RETURN (hashint8extended(n, stream * 1000003 + ${seed}) & 4294967295)::float8 / 4294967296`);
    const existing = await db.query<{ count: string }>('SELECT count(*) FROM transactions');
    if (Number(existing.rows[0]?.count) !== 0) throw new Error('seedStore fills an empty ledger only');
    await db.query('BEGIN');
    const indexes = (
      await db.query<{ name: string; definition: string }>(
        `SELECT indexname AS name, indexdef AS definition FROM pg_indexes
         WHERE schemaname = current_schema() AND tablename = 'transactions' AND indexname <> 'transactions_pkey'`,
      )
    ).rows;
    for (const index of indexes) await db.query(`DROP INDEX ${index.name}`);
    // Each batch opens with its first row and is settled a minute after its last.
    await db.query(
      `INSERT INTO batches (id, status, opened_at, settled_at, confirmation_code)
       SELECT b, CASE WHEN b > $1 THEN 'OPEN' ELSE 'CLOSED' END,
         $3::bigint + round(least((b - 1) * $2 + 1, $5 + 1) * $4::float8)::bigint,
         CASE WHEN b <= $1 THEN $3::bigint + round(least(b * $2, $5) * $4::float8)::bigint + 60000 END,
         CASE WHEN b <= $1 THEN (1000000000 + b)::text END
       FROM generate_series(1, $6::bigint) AS b`,
      [settledBatches, perBatch, startAt, step, options.settledTransactions, batches],
    );
    await db.query(ROWS_SQL, [total, options.settledTransactions, perBatch, startAt, step]);
    for (const index of indexes) await db.query(index.definition);
    await db.query(
      `UPDATE batches SET sales_count = t.sales_count, sales_total = t.sales_total,
         refund_count = t.refund_count, refund_total = t.refund_total, tip_total = t.tip_total
       FROM (SELECT batch_id, ${SUMS} FROM transactions WHERE ${COUNTED} GROUP BY batch_id) AS t
       WHERE batches.id = t.batch_id`,
    );
    await db.query(
      `INSERT INTO batch_lanes (batch_id, lane, sales_count, sales_total, refund_count, refund_total, tip_total)
       SELECT batch_id, lane, ${SUMS} FROM transactions WHERE ${COUNTED} GROUP BY batch_id, lane`,
    );
    // Each block's count of rows, as the writers keep it, and the next id after the last row.
    await db.query(
      `INSERT INTO transaction_blocks (block, writer, rows)
       SELECT id / 4096, '', count(*) FROM transactions GROUP BY id / 4096`,
    );
    await db.query("SELECT setval('transaction_ids', $1)", [total]);
    await db.query('COMMIT');
    // Fresh statistics for the planner, and a visibility map that lets lists page by index alone,
    // as autovacuum leaves a ledger that has been in use.
    await db.query('VACUUM (ANALYZE) transactions, batches, batch_lanes, transaction_blocks');
    // The load's pages written out now, not by a checkpoint in the middle of the measures after it.
    await db.query('CHECKPOINT');
  } catch (error) {
    await db.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await db.end();
  }
  return { transactions: total, batches };
}
