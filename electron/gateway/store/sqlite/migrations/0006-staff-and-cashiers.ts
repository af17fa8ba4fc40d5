import type { Migration } from '../../migration';

export const staffAndCashiers: Migration = {
  version: 6,
  description: 'staff accounts with their PINs, and the cashier who made each transaction',
  sql: `
      -- Cashiers and managers. The PIN is kept only as a salted scrypt hash (JSON of the algorithm,
      -- salt, hash and cost). A retired member keeps the row, so history still names them.
      CREATE TABLE staff (
        id          INTEGER PRIMARY KEY,
        name        TEXT NOT NULL,
        role        TEXT NOT NULL CHECK (role IN ('cashier', 'manager')),
        pin_hash    TEXT NOT NULL,
        server_id   TEXT CHECK (server_id IS NULL OR server_id GLOB '[0-9][0-9]'),
        created_at  INTEGER NOT NULL,
        retired_at  INTEGER
      ) STRICT;
      CREATE UNIQUE INDEX staff_live_names ON staff (name COLLATE NOCASE) WHERE retired_at IS NULL;
      -- Who made the transaction: the staff member's name at the counter, the API key's name for
      -- another program. Earlier rows were made by a key, so they take its name.
      ALTER TABLE transactions ADD COLUMN cashier TEXT;
      UPDATE transactions SET cashier = (SELECT name FROM api_keys WHERE api_keys.id = transactions.api_key_id)
        WHERE api_key_id IS NOT NULL;
      CREATE INDEX transactions_by_cashier ON transactions (cashier, created_at) WHERE cashier IS NOT NULL;
    `,
};
