import type { Migration } from '../../migration';

export const storeCardHashKey: Migration = {
  version: 7,
  description: "the store's one card-hash secret",
  sql: `
      -- The secret of the keyed hashes of card numbers and of requests that carry card data, one for
      -- the whole store, so that the duplicate check knows a card again whichever counter saw it.
      -- The first counter to start makes it; no command shows or exports it.
      CREATE TABLE card_hash_key (
        id     smallint PRIMARY KEY CHECK (id = 1),
        secret bytea NOT NULL CHECK (octet_length(secret) = 32)
      );
    `,
};
