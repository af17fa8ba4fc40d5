import type { Migration } from '../../migration';

export const storeCardHashKey: Migration = {
  version: 7,
  description: "the store's one card-hash secret (a store server's step; nothing changes here)",
  // A single counter keeps its card-hash secret in its data dir (card-hash.key), beside the ledger
  // and never inside it, and its API keys are its own. The step keeps the numbers of both stores in
  // step.
  sql: `SELECT 1;`,
};
