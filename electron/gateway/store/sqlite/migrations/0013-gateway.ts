import type { Migration } from '../../migration';

/**
 * The merchant's gateway: each transaction's id at the gateway and the reference it went with; the
 * transactions made offline and their queue, oldest first, with the reader's encrypted swipe of an
 * offline sale kept apart so that it can be deleted, and nothing else with it, once the gateway has
 * answered; the requests whose outcome could not be learned, looked up again later; and a closed
 * batch's figures at the gateway beside its own.
 */
export const gateway: Migration = {
  version: 13,
  description:
    "the merchant's gateway: upstream ids, the store-and-forward queue, lookups, reconciled batches",
  sql: `
      ALTER TABLE transactions ADD COLUMN upstream_id TEXT;
      ALTER TABLE transactions ADD COLUMN upstream_reference TEXT;
      ALTER TABLE transactions ADD COLUMN offline INTEGER NOT NULL DEFAULT 0 CHECK (offline IN (0, 1));
      ALTER TABLE transactions ADD COLUMN forward_state TEXT
        CHECK (forward_state IN ('waiting', 'forwarded', 'declined', 'cancelled'));
      CREATE UNIQUE INDEX transactions_by_upstream_reference ON transactions (upstream_reference)
        WHERE upstream_reference IS NOT NULL;
      CREATE INDEX transactions_offline ON transactions (id) WHERE offline = 1;

      -- What waits to be forwarded, in the order it was made: the form to send, without the card.
      CREATE TABLE forward_queue (
        transaction_id  INTEGER PRIMARY KEY REFERENCES transactions (id),
        queued_at       INTEGER NOT NULL,
        form            TEXT NOT NULL,
        attempts        INTEGER NOT NULL DEFAULT 0,
        last_attempt_at INTEGER,
        settled_at      INTEGER,
        answer          TEXT,
        acknowledged_at INTEGER,
        acknowledged_by TEXT
      ) STRICT;
      CREATE INDEX forward_queue_waiting ON forward_queue (transaction_id) WHERE settled_at IS NULL;

      -- The reader's own encryption of an offline sale's swipe, deleted once the gateway answered.
      CREATE TABLE forward_swipes (
        transaction_id       INTEGER PRIMARY KEY REFERENCES forward_queue (transaction_id),
        encrypted_track_data TEXT NOT NULL
      ) STRICT;

      -- Requests answered 9004 (sent, outcome not learned): looked up again, voided if they turn up.
      CREATE TABLE gateway_checks (
        reference      TEXT PRIMARY KEY,
        transaction_id INTEGER NOT NULL REFERENCES transactions (id),
        since          INTEGER NOT NULL,
        resolved_at    INTEGER,
        outcome        TEXT
      ) STRICT;
      CREATE INDEX gateway_checks_pending ON gateway_checks (since) WHERE resolved_at IS NULL;

      ALTER TABLE batches ADD COLUMN upstream_batch_id TEXT;
      ALTER TABLE batches ADD COLUMN upstream_totals TEXT;
      ALTER TABLE batches ADD COLUMN reconciled INTEGER CHECK (reconciled IN (0, 1));
    `,
};
