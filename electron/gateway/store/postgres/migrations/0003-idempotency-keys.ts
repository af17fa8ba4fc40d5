import type { Migration } from '../../migration';

export const idempotencyKeys: Migration = {
  version: 3,
  description: 'idempotency keys: the stored answer of each keyed POST /transactions',
  sql: `
      CREATE TABLE idempotency_keys (
        api_key_id  bigint NOT NULL,
        key         text NOT NULL,
        fingerprint text NOT NULL,
        response    text NOT NULL,
        created_at  bigint NOT NULL,
        PRIMARY KEY (api_key_id, key)
      );
      CREATE INDEX idempotency_keys_by_created ON idempotency_keys (created_at);
    `,
};
