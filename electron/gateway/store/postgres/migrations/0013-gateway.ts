import type { Migration } from '../../migration';

/**
 * The merchant's gateway, as in the data dir's ledger: upstream ids and references, the store's one
 * store-and-forward queue (whichever counter made an offline transaction, one counter forwards them
 * all), the swipes of offline sales kept apart to be deleted once answered, the requests whose
 * outcome could not be learned, and a closed batch's figures at the gateway.
 */
export const gateway: Migration = {
  version: 13,
  description:
    "the merchant's gateway: upstream ids, the store-and-forward queue, lookups, reconciled batches",
  sql: `
      ALTER TABLE transactions ADD COLUMN upstream_id text;
      ALTER TABLE transactions ADD COLUMN upstream_reference text;
      ALTER TABLE transactions ADD COLUMN offline smallint NOT NULL DEFAULT 0 CHECK (offline IN (0, 1));
      ALTER TABLE transactions ADD COLUMN forward_state text
        CHECK (forward_state IN ('waiting', 'forwarded', 'declined', 'cancelled'));
      CREATE UNIQUE INDEX transactions_by_upstream_reference ON transactions (upstream_reference)
        WHERE upstream_reference IS NOT NULL;
      CREATE INDEX transactions_offline ON transactions (id) WHERE offline = 1;

      CREATE TABLE forward_queue (
        transaction_id  bigint PRIMARY KEY REFERENCES transactions (id),
        queued_at       bigint NOT NULL,
        form            text NOT NULL,
        attempts        integer NOT NULL DEFAULT 0,
        last_attempt_at bigint,
        settled_at      bigint,
        answer          text,
        acknowledged_at bigint,
        acknowledged_by text
      );
      CREATE INDEX forward_queue_waiting ON forward_queue (transaction_id) WHERE settled_at IS NULL;

      CREATE TABLE forward_swipes (
        transaction_id       bigint PRIMARY KEY REFERENCES forward_queue (transaction_id),
        encrypted_track_data text NOT NULL
      );

      CREATE TABLE gateway_checks (
        reference      text PRIMARY KEY,
        transaction_id bigint NOT NULL REFERENCES transactions (id),
        since          bigint NOT NULL,
        resolved_at    bigint,
        outcome        text
      );
      CREATE INDEX gateway_checks_pending ON gateway_checks (since) WHERE resolved_at IS NULL;

      ALTER TABLE batches ADD COLUMN upstream_batch_id text;
      ALTER TABLE batches ADD COLUMN upstream_totals text;
      ALTER TABLE batches ADD COLUMN reconciled smallint CHECK (reconciled IN (0, 1));

      -- Batches are read through this view (step 11): it shows the gateway's figures too.
      CREATE OR REPLACE VIEW batch_totals AS
        SELECT b.id, b.status, b.opened_at, b.settled_at, b.confirmation_code,
               CASE WHEN b.status = 'OPEN' THEN o.sales_count ELSE b.sales_count END AS sales_count,
               CASE WHEN b.status = 'OPEN' THEN o.sales_total ELSE b.sales_total END AS sales_total,
               CASE WHEN b.status = 'OPEN' THEN o.refund_count ELSE b.refund_count END AS refund_count,
               CASE WHEN b.status = 'OPEN' THEN o.refund_total ELSE b.refund_total END AS refund_total,
               CASE WHEN b.status = 'OPEN' THEN o.tip_total ELSE b.tip_total END AS tip_total,
               b.upstream_batch_id, b.upstream_totals, b.reconciled
        FROM batches b
        LEFT JOIN LATERAL (
          SELECT COALESCE(sum(s.sales_count), 0)::integer AS sales_count,
                 COALESCE(sum(s.sales_total), 0)::bigint AS sales_total,
                 COALESCE(sum(s.refund_count), 0)::integer AS refund_count,
                 COALESCE(sum(s.refund_total), 0)::bigint AS refund_total,
                 COALESCE(sum(s.tip_total), 0)::bigint AS tip_total
          FROM batch_lanes s WHERE s.batch_id = b.id AND b.status = 'OPEN'
        ) o ON true;
    `,
};
