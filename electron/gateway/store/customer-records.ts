/**
 * What the customer leaves with a transaction: their signature's strokes (kept once) and the address
 * their receipt went to (the latest). Kept beside the ledger's rows, never in them, and holding nothing
 * of a card. Each store implements the port (sqlite/customer-records.ts, postgres/customer-records.ts)
 * over the statements written once in sql/customer-sql.ts.
 */

export interface KeptSignature {
  /** The strokes in their kept form (shared/signature.ts). */
  strokes: Uint8Array;
  signedAt: number;
}

export interface CustomerRecords {
  /**
   * Keeps a transaction's signature; false, changing nothing, when it has one already: a signature
   * is what the customer agreed to and is never replaced.
   */
  keepSignature(transactionId: number, strokes: Uint8Array, at: number): Promise<boolean>;
  signature(transactionId: number): Promise<KeptSignature | undefined>;
  /** Keeps the address a transaction's receipt was emailed to, in place of an earlier one. */
  keepReceiptEmail(transactionId: number, address: string, at: number): Promise<void>;
  receiptEmail(transactionId: number): Promise<string | undefined>;
}

/** A kept signature's row, as both stores read it (SQLite gives a Uint8Array, pg a Buffer). */
export interface SignatureRow {
  strokes: Uint8Array;
  signed_at: number | string;
}

export function toKeptSignature(row: SignatureRow): KeptSignature {
  return { strokes: new Uint8Array(row.strokes), signedAt: Number(row.signed_at) };
}
