/**
 * Customers' signatures and receipt addresses in the data dir's SQLite file: writes join the ledger's
 * group commit, reads wait for the writes before them and see committed rows.
 */
import {
  toKeptSignature,
  type CustomerRecords,
  type KeptSignature,
  type SignatureRow,
} from '../customer-records';
import { SQLITE_DIALECT } from '../sql/dialect';
import { customerStatements } from '../sql/customer-sql';
import type { Connection } from './database';
import type { GroupCommit } from './group-commit';

export class SqliteCustomerRecords implements CustomerRecords {
  private readonly statements;

  constructor(
    db: Connection,
    private readonly commits: GroupCommit,
  ) {
    const sql = customerStatements(SQLITE_DIALECT);
    this.statements = {
      keepSignature: db.prepare<[number, Uint8Array, number]>(sql.keepSignature),
      signature: db.prepare<[number], SignatureRow>(sql.signature),
      keepReceiptEmail: db.prepare<[number, string, number]>(sql.keepReceiptEmail),
      receiptEmail: db.prepare<[number], { address: string }>(sql.receiptEmail),
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
    return row && toKeptSignature(row);
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
