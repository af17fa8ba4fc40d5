import type { Migration } from '../../migration';

/**
 * What the customer leaves with a transaction at a screen turned to them: their signature (its
 * strokes, kept once, never replaced) and the address their receipt was emailed to (the latest, for
 * a later reprint or to reach them). Tables of their own beside the transactions, so that the
 * ledger's rows stay as the payment wrote them.
 */
export const signaturesAndReceiptEmails: Migration = {
  version: 12,
  description: "the customer's signature and receipt address, kept beside their transaction",
  sql: `
      CREATE TABLE signatures (
        transaction_id INTEGER PRIMARY KEY REFERENCES transactions(id),
        strokes        BLOB NOT NULL CHECK (length(strokes) BETWEEN 3 AND 65536),
        signed_at      INTEGER NOT NULL
      );
      CREATE TABLE receipt_emails (
        transaction_id INTEGER PRIMARY KEY REFERENCES transactions(id),
        address        TEXT NOT NULL CHECK (length(address) BETWEEN 3 AND 254),
        sent_at        INTEGER NOT NULL
      );
    `,
};
