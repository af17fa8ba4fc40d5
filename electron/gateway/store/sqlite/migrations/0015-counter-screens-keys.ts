import type { Migration } from '../../migration';

/**
 * A key made for a counter's own screens says so in its row, not only in the memory of the engine
 * that made it: on a store server every counter reads every key, and another counter's screens key
 * must act there for no one. Keys made before carry the names Tender gave them (a shell's name, with
 * the counter's lane on a store server) and are marked by those names.
 */
export const counterScreensKeys: Migration = {
  version: 15,
  description: "a counter's screens key marked as such",
  sql: `
      ALTER TABLE api_keys ADD COLUMN counter_screens INTEGER NOT NULL DEFAULT 0 CHECK (counter_screens IN (0, 1));
      UPDATE api_keys SET counter_screens = 1
        WHERE name IN ('Tender desktop app', 'Tender browser screens')
           OR name LIKE 'Tender desktop app (%)' OR name LIKE 'Tender browser screens (%)';
  `,
};
