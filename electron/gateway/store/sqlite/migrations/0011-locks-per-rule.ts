import type { Migration } from '../../migration';

export const locksPerRule: Migration = {
  version: 11,
  description: "locks per rule instead of the ledger head (a store server's step; nothing changes here)",
  // A single counter's writes are one connection's, in order, under SQLite's own write lock: its ids
  // run without a gap and its batch keeps its counters in its row, as before. The step keeps the
  // numbers of both stores in step.
  sql: `SELECT 1;`,
};
