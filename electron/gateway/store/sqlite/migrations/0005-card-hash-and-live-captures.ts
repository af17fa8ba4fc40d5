import type { Migration } from '../../migration';

export const cardHashAndLiveCaptures: Migration = {
  version: 5,
  description:
    'a keyed hash of the card number for the duplicate check, and at most one capture not voided per AUTH',
  sql: `
      -- HMAC-SHA256 of the card number with the data dir's own secret: it matches a card again
      -- without keeping the number, and cannot be tried against card numbers without the secret.
      ALTER TABLE transactions ADD COLUMN card_hash TEXT;
      CREATE INDEX transactions_by_card_hash ON transactions (card_hash, created_at)
        WHERE card_hash IS NOT NULL;
      -- A void of a capture puts its AUTH back among the open tabs, so an AUTH may have several
      -- captures over time, but never two that are not voided.
      CREATE UNIQUE INDEX transactions_one_live_capture ON transactions (original_id)
        WHERE type = 'Capture' AND result = 'Approved' AND voided_by IS NULL;
    `,
};
