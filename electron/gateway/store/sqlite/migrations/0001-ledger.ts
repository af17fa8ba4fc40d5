import type { Migration } from '../../migration';

export const ledger: Migration = {
  version: 1,
  description: 'settings, API keys, batches and transactions',
  sql: `
      CREATE TABLE settings (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) STRICT;

      CREATE TABLE api_keys (
        id           INTEGER PRIMARY KEY,
        public_id    TEXT NOT NULL UNIQUE,
        secret_hash  BLOB NOT NULL,
        name         TEXT NOT NULL,
        permissions  TEXT NOT NULL,
        created_at   INTEGER NOT NULL,
        last_used_at INTEGER,
        revoked_at   INTEGER
      ) STRICT;

      CREATE TABLE batches (
        id                INTEGER PRIMARY KEY,
        status            TEXT NOT NULL CHECK (status IN ('OPEN', 'CLOSED')),
        opened_at         INTEGER NOT NULL,
        settled_at        INTEGER,
        confirmation_code TEXT,
        sales_count       INTEGER NOT NULL DEFAULT 0,
        sales_total       INTEGER NOT NULL DEFAULT 0,
        refund_count      INTEGER NOT NULL DEFAULT 0,
        refund_total      INTEGER NOT NULL DEFAULT 0,
        tip_total         INTEGER NOT NULL DEFAULT 0,
        CHECK ((status = 'OPEN') = (settled_at IS NULL))
      ) STRICT;
      -- The interface allows one open batch at a time; the index makes a second one impossible.
      CREATE UNIQUE INDEX batches_single_open ON batches (status) WHERE status = 'OPEN';
      CREATE INDEX batches_by_settled ON batches (settled_at, id);

      CREATE TABLE transactions (
        id                  INTEGER PRIMARY KEY,
        type                TEXT,
        result              TEXT NOT NULL CHECK (result IN ('Approved', 'Declined', 'Rejected', 'Error')),
        result_code         TEXT,
        error_code          TEXT,
        display_message     TEXT NOT NULL,
        amount              INTEGER,
        tip_amount          INTEGER NOT NULL DEFAULT 0,
        authorization_code  TEXT,
        avs_result_code     TEXT,
        csc_result_code     TEXT,
        card_bin            TEXT,
        card_last_four      TEXT,
        card_length         INTEGER,
        card_brand          TEXT,
        entry_mode          TEXT,
        invoice             TEXT,
        order_number        TEXT,
        purchase_order      TEXT,
        customer_id         TEXT,
        email               TEXT,
        client_ip           TEXT,
        description         TEXT,
        comments            TEXT,
        server_id           TEXT,
        first_name          TEXT,
        last_name           TEXT,
        -- Case-folded names for the list filters: COLLATE NOCASE folds only A-Z, not "É" or "Ü".
        first_name_key      TEXT,
        last_name_key       TEXT,
        billing_is_shipping INTEGER NOT NULL DEFAULT 0,
        billing             TEXT,
        shipping            TEXT,
        original_id         INTEGER REFERENCES transactions (id),
        batch_id            INTEGER REFERENCES batches (id),
        voided_by           INTEGER REFERENCES transactions (id),
        captured_by         INTEGER REFERENCES transactions (id),
        refunded_amount     INTEGER NOT NULL DEFAULT 0,
        api_key_id          INTEGER REFERENCES api_keys (id),
        created_at          INTEGER NOT NULL,
        CHECK (amount IS NULL OR amount > 0),
        CHECK (refunded_amount >= 0 AND (amount IS NULL OR refunded_amount <= amount))
      ) STRICT;
      -- One index for each filter of the list, ending in id so that equal values page in id order.
      CREATE INDEX transactions_by_created ON transactions (created_at, id);
      CREATE INDEX transactions_by_amount ON transactions (amount, id);
      CREATE INDEX transactions_by_type ON transactions (type, id);
      CREATE INDEX transactions_by_result ON transactions (result, id);
      CREATE INDEX transactions_by_last_four ON transactions (card_last_four, id);
      CREATE INDEX transactions_by_authorization_code ON transactions (authorization_code, id);
      CREATE INDEX transactions_by_invoice ON transactions (invoice, id);
      CREATE INDEX transactions_by_order_number ON transactions (order_number, id);
      CREATE INDEX transactions_by_first_name ON transactions (first_name_key, id);
      CREATE INDEX transactions_by_last_name ON transactions (last_name_key, id);
      CREATE INDEX transactions_by_server ON transactions (server_id, id);
      CREATE INDEX transactions_by_batch ON transactions (batch_id, id);
      CREATE INDEX transactions_by_original ON transactions (original_id, id);
    `,
};
