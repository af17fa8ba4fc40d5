/**
 * The ledger's lists and the open batch's totals, as the API and the screens read them: on the
 * reader threads (read-pool.ts), never on the thread that answers payments. Writes, and the reads a
 * write's rules need, stay with the Ledger on the writer's connection.
 */
import type { AuditEntry } from '../audit';
import { toBatch, type BatchRecord, type BatchRowShape, type LaneTotals } from '../batch-rows';
import { LOCAL_LANE, type LedgerReadPort } from '../read-port';
import { toTransaction, type LedgerTransaction, type TransactionRowShape } from '../transaction-rows';
import {
  batchListQuery,
  OPEN_BATCH_SQL,
  RECENT_AUDIT_SQL,
  transactionListQuery,
  type BATCH_ORDER_COLUMNS,
  type BatchFilter,
  type LedgerIds,
  type Page,
  type StoreFilter,
  type TRANSACTION_ORDER_COLUMNS,
  type TransactionFilter,
} from './list-sql';

/** Runs one read-only statement off the thread that answers payments: each store's read pool. */
export interface ReadExecutor {
  all<Row>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
}

export class LedgerReads implements LedgerReadPort {
  private ids: Promise<LedgerIds> | undefined;

  constructor(private readonly pool: ReadExecutor) {}

  async listTransactions(
    { lane, ...filter }: TransactionFilter & StoreFilter,
    page: Page<keyof typeof TRANSACTION_ORDER_COLUMNS>,
  ): Promise<LedgerTransaction[]> {
    // Every row of this ledger was made at this counter, in the one lane it shows.
    if (lane !== undefined && lane !== LOCAL_LANE) return [];
    const { sql, params } = transactionListQuery(filter, page, await this.ledgerIds());
    return (await this.pool.all<TransactionRowShape>(sql, params)).map(toTransaction);
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
    const { sql, params } = batchListQuery(filter, page);
    return (await this.pool.all<BatchRowShape>(sql, params)).map(toBatch);
  }

  async openBatch(): Promise<BatchRecord | undefined> {
    const [row] = await this.pool.all<BatchRowShape>(OPEN_BATCH_SQL);
    return row && toBatch(row);
  }

  /** The whole batch is this counter's share. */
  async batchLanes(batchId: number): Promise<LaneTotals[]> {
    const [row] = await this.pool.all<BatchRowShape>('SELECT * FROM batches WHERE id = ?', [batchId]);
    if (!row) return [];
    const batch = toBatch(row);
    return [
      {
        lane: LOCAL_LANE,
        salesCount: batch.salesCount,
        salesTotal: batch.salesTotal,
        refundCount: batch.refundCount,
        refundTotal: batch.refundTotal,
        tipTotal: batch.tipTotal,
      },
    ];
  }

  /** The audit log, newest first. */
  recentAudit(limit: number, offset = 0): Promise<AuditEntry[]> {
    return this.pool.all<AuditEntry>(RECENT_AUDIT_SQL, [limit, offset]);
  }

  /**
   * Whether transaction ids run without a gap. Counted once, on a reader: the engine only ever adds
   * the id after the highest and deletes none, so a ledger found without a gap stays without one.
   * Should the count fail (past its time limit on a huge ledger), pages step over the rows before
   * them, as SQL defines, and the next list counts again.
   */
  private ledgerIds(): Promise<LedgerIds> {
    this.ids ??= this.pool
      .all<{ rows: number; first: number | null; last: number | null }>(
        'SELECT count(*) AS rows, min(id) AS first, max(id) AS last FROM transactions',
      )
      .then(([count]) => ({
        dense:
          count !== undefined &&
          (count.rows === 0 || (count.last ?? 0) - (count.first ?? 0) + 1 === count.rows),
      }))
      .catch(() => {
        this.ids = undefined;
        return { dense: false };
      });
    return this.ids;
  }
}
