import type { Migration } from '../../migration';

export const idempotencyKeys: Migration = {
  version: 3,
  description: 'idempotency keys: the stored answer of each keyed POST /transactions',
  sql: `
      CREATE TABLE idempotency_keys (
        api_key_id  INTEGER NOT NULL,
        key         TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        response    TEXT NOT NULL,
        created_at  INTEGER NOT NULL,
        PRIMARY KEY (api_key_id, key)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX idempotency_keys_by_created ON idempotency_keys (created_at);
    `,
};
