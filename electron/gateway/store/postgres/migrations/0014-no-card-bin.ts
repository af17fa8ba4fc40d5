import type { Migration } from '../../migration';

/**
 * No transaction keeps its card's first six digits, as in the data dir's ledger. The values are set
 * to null before the column goes: a dropped column's data stays in its rows until they are written
 * again.
 */
export const noCardBin: Migration = {
  version: 14,
  description: 'no card BIN kept',
  sql: `
      UPDATE transactions SET card_bin = NULL WHERE card_bin IS NOT NULL;
      ALTER TABLE transactions DROP COLUMN card_bin;
  `,
};
