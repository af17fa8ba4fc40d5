/**
 * The ledger's lists, the open batch and the audit log, read from the store server: the same methods
 * as the SQLite reads (../ledger-reads.ts), with the same SQL (../list-sql.ts) in PostgreSQL's
 * dialect, on a pool of their own so that a long list never holds a connection a payment needs. Each
 * read has the same time limit as on SQLite and fails the same way past it. Lists may also filter by
 * lane, and a batch's share per lane is read beside it.
 */
import type pg from 'pg';
import { RECENT_AUDIT_SQL } from '../sql/list-sql';
import { type AuditEntry } from '../audit';
import { toBatch, type BatchRecord, type BatchRowShape, type LaneTotals } from '../batch-rows';
import {
  batchListQuery,
  OPEN_BATCH_SQL,
  transactionListQuery,
  type BATCH_ORDER_COLUMNS,
  type BatchFilter,
  type Page,
  type StoreFilter,
  type TRANSACTION_ORDER_COLUMNS,
  type TransactionFilter,
} from '../sql/list-sql';
import type { LedgerReadPort } from '../read-port';
import { POSTGRES_DIALECT } from '../sql/dialect';
import { READ_TIMEOUT_MS, ReadTimeoutError } from '../store-errors';
import { toTransaction, type LedgerTransaction, type TransactionRowShape } from '../transaction-rows';
import {
  isConnectionFailure,
  isPastTimeLimit,
  openPool,
  StoreUnreachableError,
  type PostgresConnectionOptions,
} from './connection';

export type { LaneTotals };

/** The SQL of one page of the transaction list on a store server: the reads run it, and so does its benchmark. */
export function postgresTransactionListQuery(
  filter: TransactionFilter & StoreFilter,
  page: Page<keyof typeof TRANSACTION_ORDER_COLUMNS>,
): { sql: string; params: unknown[] } {
  // Ids run without a gap on a store server by construction (the ledger head hands them out), so
  // a deep page of the id order is one seek on its first id.
  return transactionListQuery(filter, page, { dense: true }, POSTGRES_DIALECT);
}

interface LaneRowShape {
  lane: string;
  sales_count: number;
  sales_total: number;
  refund_count: number;
  refund_total: number;
  tip_total: number;
}

/**
 * Whether a filter asks for text with a NUL character in it. PostgreSQL's text holds none (it refuses
 * the parameter outright), so such a filter matches no row, as it matches none on SQLite.
 */
function asksForNul(filter: object): boolean {
  return Object.values(filter).some((value: unknown) =>
    typeof value === 'string'
      ? value.includes('\u0000')
      : typeof value === 'object' && value !== null && asksForNul(value),
  );
}

export class PostgresLedgerReads implements LedgerReadPort {
  private readonly pool: pg.Pool;
  private readonly timeoutMs: number;

  constructor(options: PostgresConnectionOptions) {
    this.timeoutMs = options.statementTimeoutMs ?? READ_TIMEOUT_MS;
    this.pool = openPool({ max: 4, ...options, statementTimeoutMs: this.timeoutMs });
  }

  close(): Promise<void> {
    return this.pool.end();
  }

  async listTransactions(
    filter: TransactionFilter & StoreFilter,
    page: Page<keyof typeof TRANSACTION_ORDER_COLUMNS>,
  ): Promise<LedgerTransaction[]> {
    if (asksForNul(filter)) return [];
    const { sql, params } = postgresTransactionListQuery(filter, page);
    return (await this.all<TransactionRowShape & { lane: string }>(sql, params)).map((row) => ({
      ...toTransaction(row),
      lane: row.lane,
    }));
  }

  /** One transaction by its id, or undefined when the ledger has none with it. */
  async transaction(id: number): Promise<LedgerTransaction | undefined> {
    const [found] = await this.listTransactions(
      { id },
      { orderBy: 'id', descending: false, limit: 1, offset: 0 },
    );
    return found;
  }

  async listBatches(
    filter: BatchFilter,
    page: Page<keyof typeof BATCH_ORDER_COLUMNS>,
  ): Promise<BatchRecord[]> {
    if (asksForNul(filter)) return [];
    const { sql, params } = batchListQuery(filter, page, POSTGRES_DIALECT);
    return (await this.all<BatchRowShape>(sql, params)).map(toBatch);
  }

  async openBatch(): Promise<BatchRecord | undefined> {
    const [row] = await this.all<BatchRowShape>(OPEN_BATCH_SQL);
    return row && toBatch(row);
  }

  /** Each lane's share of a batch, in lane order; the shares add up to the batch's own counters. */
  async batchLanes(batchId: number): Promise<LaneTotals[]> {
    const rows = await this.all<LaneRowShape>(
      'SELECT lane, sales_count, sales_total, refund_count, refund_total, tip_total FROM batch_lanes WHERE batch_id = ? ORDER BY lane',
      [batchId],
    );
    return rows.map((row) => ({
      lane: row.lane,
      salesCount: row.sales_count,
      salesTotal: row.sales_total,
      refundCount: row.refund_count,
      refundTotal: row.refund_total,
      tipTotal: row.tip_total,
    }));
  }

  /** The audit log, newest first. */
  recentAudit(limit: number, offset = 0): Promise<AuditEntry[]> {
    return this.all<AuditEntry>(RECENT_AUDIT_SQL, [limit, offset]);
  }

  private async all<Row extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<Row[]> {
    try {
      return (await this.pool.query<Row>(POSTGRES_DIALECT.placeholders(sql), params)).rows;
    } catch (error) {
      if (isPastTimeLimit(error)) throw new ReadTimeoutError(this.timeoutMs);
      throw isConnectionFailure(error) ? new StoreUnreachableError(error) : error;
    }
  }
}
