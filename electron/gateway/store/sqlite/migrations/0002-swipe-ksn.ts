import type { Migration } from '../../migration';

export const swipeKsn: Migration = {
  version: 2,
  description: 'the KSN of each swipe, so that a replayed swipe is refused',
  sql: `
      ALTER TABLE transactions ADD COLUMN swipe_ksn TEXT;
      -- A reader's KSN changes with every swipe: seeing one twice means the swipe was replayed.
      CREATE UNIQUE INDEX transactions_by_swipe_ksn ON transactions (swipe_ksn) WHERE swipe_ksn IS NOT NULL;
    `,
};
