import type { Migration } from '../../migration';

export const staffAndCashiers: Migration = {
  version: 6,
  description: 'staff accounts with their PINs, and the cashier who made each transaction',
  sql: `
      -- Staff accounts live beside each counter's API keys; the store server keeps who made each
      -- transaction: the staff member's name at a counter, the API key's name for another program.
      ALTER TABLE transactions ADD COLUMN cashier text;
      UPDATE transactions SET cashier = (SELECT name FROM api_keys WHERE api_keys.id = transactions.api_key_id)
        WHERE api_key_id IS NOT NULL;
      CREATE INDEX transactions_by_cashier ON transactions (cashier, created_at) WHERE cashier IS NOT NULL;
    `,
};
