import type { Migration } from '../../migration';

/**
 * The customer's signature and the address their receipt was emailed to, beside their transaction,
 * as SQLite's step 12 keeps them. Any counter of the store may keep them for any transaction.
 */
export const signaturesAndReceiptEmails: Migration = {
  version: 12,
  description: "the customer's signature and receipt address, kept beside their transaction",
  sql: `
      CREATE TABLE signatures (
        transaction_id bigint PRIMARY KEY REFERENCES transactions(id),
        strokes        bytea NOT NULL CHECK (length(strokes) BETWEEN 3 AND 65536),
        signed_at      bigint NOT NULL
      );
      CREATE TABLE receipt_emails (
        transaction_id bigint PRIMARY KEY REFERENCES transactions(id),
        address        text NOT NULL CHECK (length(address) BETWEEN 3 AND 254),
        sent_at        bigint NOT NULL
      );
    `,
};
