import type { Migration } from '../../migration';

/**
 * The list filtered by cashier pages in id order, as every list does, but its index was in order of
 * time: a page of one cashier's transactions sorted all of that cashier's rows first. In id order, a
 * page is read from the index alone. A cashier's day (the filter with a date range) is read through
 * the date index, a day's rows being few.
 */
export const cashierListIndex: Migration = {
  version: 9,
  description: "the cashier filter's index in id order, as the list pages",
  sql: `
      DROP INDEX transactions_by_cashier;
      CREATE INDEX transactions_by_cashier ON transactions (cashier, id) WHERE cashier IS NOT NULL;
    `,
};
