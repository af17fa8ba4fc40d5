/**
 * The store server's read pool: the reads of the lists, the open batch and the audit log
 * (../sql/ledger-reads.ts) run on connections of their own, so that a long list never holds a
 * connection a payment needs. Each read has the same time limit as on SQLite and fails the same way
 * past it; a server that cannot be reached is a StoreUnreachableError.
 */
import type pg from 'pg';
import type { ReadExecutor } from '../sql/ledger-reads';
import { POSTGRES_DIALECT } from '../sql/dialect';
import { READ_TIMEOUT_MS, ReadTimeoutError, StoreUnreachableError } from '../store-errors';
import { isConnectionFailure, isPastTimeLimit, openPool, type PostgresConnectionOptions } from './connection';

export class PostgresReadPool implements ReadExecutor {
  private readonly pool: pg.Pool;
  readonly timeoutMs: number;

  constructor(options: PostgresConnectionOptions) {
    this.timeoutMs = options.statementTimeoutMs ?? READ_TIMEOUT_MS;
    this.pool = openPool({ max: 4, ...options, statementTimeoutMs: this.timeoutMs });
  }

  async all<Row>(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
    try {
      const result = await this.pool.query(POSTGRES_DIALECT.placeholders(sql), [...params]);
      return result.rows as Row[];
    } catch (error) {
      if (isPastTimeLimit(error)) throw new ReadTimeoutError(this.timeoutMs);
      throw isConnectionFailure(error) ? new StoreUnreachableError(error) : error;
    }
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
