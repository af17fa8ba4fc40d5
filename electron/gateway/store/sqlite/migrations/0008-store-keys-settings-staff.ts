import type { Migration } from '../../migration';

export const storeKeysSettingsStaff: Migration = {
  version: 8,
  description:
    "the store's API keys, settings, staff and PIN gate (a store server's step; nothing changes here)",
  // A single counter keeps its keys, settings and staff in this file, as before, and its PIN gate in
  // the engine's memory. The step keeps the numbers of both stores in step.
  sql: `SELECT 1;`,
};
