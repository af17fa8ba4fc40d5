import type { Migration } from '../../migration';

/**
 * No transaction keeps its card's first six digits. With them, its last four and its length, the
 * numbers that fit are few enough that whoever also holds the card hash key finds a card from its
 * keyed hash in seconds; with the last four alone, they are a hundred thousand times as many. The
 * column goes, and with it every BIN kept before.
 */
export const noCardBin: Migration = {
  version: 14,
  description: 'no card BIN kept',
  sql: `ALTER TABLE transactions DROP COLUMN card_bin;`,
};
