import type { Migration } from '../../migration';

/** A key made for a counter's own screens says so in its row, as in the data dir's ledger. */
export const counterScreensKeys: Migration = {
  version: 15,
  description: "a counter's screens key marked as such",
  sql: `
      ALTER TABLE api_keys ADD COLUMN counter_screens boolean NOT NULL DEFAULT false;
      UPDATE api_keys SET counter_screens = true
        WHERE name IN ('Tender desktop app', 'Tender browser screens')
           OR name LIKE 'Tender desktop app (%)' OR name LIKE 'Tender browser screens (%)';
  `,
};
