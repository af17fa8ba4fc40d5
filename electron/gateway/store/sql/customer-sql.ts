/**
 * The statements of what customers leave with their transactions (../customer-records.ts), written
 * once for both stores. A signature is kept once, whichever counter keeps it first; a receipt's
 * address is the latest it was sent to.
 */
import { inDialect, type SqlDialect } from './dialect';

export function customerStatements(dialect: SqlDialect) {
  return inDialect(dialect, {
    keepSignature:
      'INSERT INTO signatures (transaction_id, strokes, signed_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
    signature: 'SELECT strokes, signed_at FROM signatures WHERE transaction_id = ?',
    keepReceiptEmail: `
      INSERT INTO receipt_emails (transaction_id, address, sent_at) VALUES (?, ?, ?)
      ON CONFLICT (transaction_id) DO UPDATE SET address = excluded.address, sent_at = excluded.sent_at`,
    receiptEmail: 'SELECT address FROM receipt_emails WHERE transaction_id = ?',
  });
}
