/**
 * The customer's signatures and receipt addresses on the store server (../customer-records.ts): plain
 * statements on a small pool of their own, outside the ledger's head lock, since no rule of the
 * ledger reads them. A signature is kept once, whichever counter keeps it first.
 */
import type pg from 'pg';
import type { CustomerRecords, KeptSignature } from '../customer-records';
import { openPool, type PostgresConnectionOptions } from './connection';
import { asStoreError } from './store-error';

export class PostgresCustomerRecords implements CustomerRecords {
  private readonly pool: pg.Pool;

  constructor(options: PostgresConnectionOptions) {
    this.pool = openPool({ max: 2, ...options });
  }

  async keepSignature(transactionId: number, strokes: Uint8Array, at: number): Promise<boolean> {
    const result = await this.query(
      'INSERT INTO signatures (transaction_id, strokes, signed_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
      [transactionId, Buffer.from(strokes), at],
    );
    return result.rowCount === 1;
  }

  async signature(transactionId: number): Promise<KeptSignature | undefined> {
    const { rows } = await this.query<{ strokes: Buffer; signed_at: number }>(
      'SELECT strokes, signed_at FROM signatures WHERE transaction_id = $1',
      [transactionId],
    );
    const row = rows[0];
    return row && { strokes: new Uint8Array(row.strokes), signedAt: row.signed_at };
  }

  async keepReceiptEmail(transactionId: number, address: string, at: number): Promise<void> {
    await this.query(
      `INSERT INTO receipt_emails (transaction_id, address, sent_at) VALUES ($1, $2, $3)
       ON CONFLICT (transaction_id) DO UPDATE SET address = excluded.address, sent_at = excluded.sent_at`,
      [transactionId, address, at],
    );
  }

  async receiptEmail(transactionId: number): Promise<string | undefined> {
    const { rows } = await this.query<{ address: string }>(
      'SELECT address FROM receipt_emails WHERE transaction_id = $1',
      [transactionId],
    );
    return rows[0]?.address;
  }

  close(): Promise<void> {
    return this.pool.end();
  }

  private async query<R extends pg.QueryResultRow = pg.QueryResultRow>(
    sql: string,
    params: unknown[],
  ): Promise<pg.QueryResult<R>> {
    try {
      return await this.pool.query<R>(sql, params);
    } catch (error) {
      throw asStoreError(error);
    }
  }
}
