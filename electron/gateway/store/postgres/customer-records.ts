/**
 * Customers' signatures and receipt addresses on the store server: plain statements on a small pool
 * of their own, apart from the ledger's writes, since no rule of the ledger reads them.
 */
import type pg from 'pg';
import {
  toKeptSignature,
  type CustomerRecords,
  type KeptSignature,
  type SignatureRow,
} from '../customer-records';
import { POSTGRES_DIALECT } from '../sql/dialect';
import { customerStatements } from '../sql/customer-sql';
import { openPool, type PostgresConnectionOptions } from './connection';
import { asStoreError } from './transaction';

const SQL = customerStatements(POSTGRES_DIALECT);

export class PostgresCustomerRecords implements CustomerRecords {
  private readonly pool: pg.Pool;

  constructor(options: PostgresConnectionOptions) {
    this.pool = openPool({ max: 2, ...options });
  }

  async keepSignature(transactionId: number, strokes: Uint8Array, at: number): Promise<boolean> {
    const result = await this.query(SQL.keepSignature, [transactionId, Buffer.from(strokes), at]);
    return result.rowCount === 1;
  }

  async signature(transactionId: number): Promise<KeptSignature | undefined> {
    const row = (await this.query<SignatureRow & pg.QueryResultRow>(SQL.signature, [transactionId])).rows[0];
    return row && toKeptSignature(row);
  }

  async keepReceiptEmail(transactionId: number, address: string, at: number): Promise<void> {
    await this.query(SQL.keepReceiptEmail, [transactionId, address, at]);
  }

  async receiptEmail(transactionId: number): Promise<string | undefined> {
    return (await this.query<{ address: string }>(SQL.receiptEmail, [transactionId])).rows[0]?.address;
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
