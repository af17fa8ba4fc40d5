/**
 * What the customer leaves with a transaction: their signature's strokes (kept once) and the address
 * their receipt went to (the latest). Kept beside the ledger's rows, never in them, by the port below:
 * the data dir's SQLite file here, a store server's database in postgres/customer-records.ts. Neither
 * holds anything of a card.
 */
import type { Connection } from './database';
import type { GroupCommit } from './group-commit';

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

/** On the data dir's SQLite file: writes join the ledger's group commit, reads see committed rows. */
export class SqliteCustomerRecords implements CustomerRecords {
  private readonly statements;

  constructor(
    db: Connection,
    private readonly commits: GroupCommit,
  ) {
    this.statements = {
      keepSignature: db.prepare<[number, Uint8Array, number]>(
        'INSERT INTO signatures (transaction_id, strokes, signed_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
      ),
      signature: db.prepare<[number], { strokes: Uint8Array; signed_at: number }>(
        'SELECT strokes, signed_at FROM signatures WHERE transaction_id = ?',
      ),
      keepReceiptEmail: db.prepare<[number, string, number]>(
        `INSERT INTO receipt_emails (transaction_id, address, sent_at) VALUES (?, ?, ?)
         ON CONFLICT (transaction_id) DO UPDATE SET address = excluded.address, sent_at = excluded.sent_at`,
      ),
      receiptEmail: db.prepare<[number], { address: string }>(
        'SELECT address FROM receipt_emails WHERE transaction_id = ?',
      ),
    };
  }

  keepSignature(transactionId: number, strokes: Uint8Array, at: number): Promise<boolean> {
    return this.commits.run(
      () => this.statements.keepSignature.run(transactionId, strokes, at).changes === 1,
    );
  }

  async signature(transactionId: number): Promise<KeptSignature | undefined> {
    await this.commits.idle();
    const row = this.statements.signature.get(transactionId);
    return row && { strokes: new Uint8Array(row.strokes), signedAt: row.signed_at };
  }

  async keepReceiptEmail(transactionId: number, address: string, at: number): Promise<void> {
    await this.commits.run(() => {
      this.statements.keepReceiptEmail.run(transactionId, address, at);
    });
  }

  async receiptEmail(transactionId: number): Promise<string | undefined> {
    await this.commits.idle();
    return this.statements.receiptEmail.get(transactionId)?.address;
  }
}
