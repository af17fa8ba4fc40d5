/**
 * The ledger's lists, the open batch's totals, each lane's share of a batch and the audit log, as the
 * API, the screens and the receipts read them, from either store: the same SQL (list-sql.ts) in each
 * store's dialect, through that store's read pool (the reader threads of the SQLite file, a pool of
 * its own on a store server), never on the connection that writes payments. Each read has a time
 * limit and fails with ReadTimeoutError past it. Writes, and the reads a write's rules need, stay
 * with the ledger's write side.
 */
import type { AuditEntry } from '../audit';
import { toBatch, type BatchRecord, type BatchRowShape, type LaneTotals } from '../batch-rows';
import { LOCAL_LANE, type BatchWithLanes, type LedgerReadPort } from '../read-port';
import { toTransaction, type LedgerTransaction, type TransactionRowShape } from '../transaction-rows';
import type { SqlDialect } from './dialect';
import {
  batchListQuery,
  openBatchSql,
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

  constructor(
    private readonly pool: ReadExecutor,
    private readonly dialect: SqlDialect,
  ) {}

  async listTransactions(
    filter: TransactionFilter & StoreFilter,
    page: Page<keyof typeof TRANSACTION_ORDER_COLUMNS>,
  ): Promise<LedgerTransaction[]> {
    const query = await this.transactionPageQuery(filter, page);
    if (!query) return [];
    const rows = await this.pool.all<TransactionRowShape & { lane?: string }>(query.sql, query.params);
    return rows.map((row) =>
      row.lane === undefined ? toTransaction(row) : { ...toTransaction(row), lane: row.lane },
    );
  }

  /**
   * The SQL a page of the transaction list is read with, as this store runs it (its benchmark times
   * the same), or undefined when the filter can match no row.
   */
  async transactionPageQuery(
    { lane, ...filter }: TransactionFilter & StoreFilter,
    page: Page<keyof typeof TRANSACTION_ORDER_COLUMNS>,
  ): Promise<{ sql: string; params: unknown[] } | undefined> {
    if (asksForNul(filter) || (lane !== undefined && asksForNul({ lane }))) return undefined;
    if (!this.dialect.keepsLanes) {
      // Every row of this ledger was made at this counter, in the one lane it shows.
      if (lane !== undefined && lane !== LOCAL_LANE) return undefined;
      return transactionListQuery(filter, page, await this.ledgerIds(), this.dialect);
    }
    const all = lane === undefined ? filter : { ...filter, lane };
    return transactionListQuery(all, page, await this.ledgerIds(), this.dialect);
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
    const { sql, params } = batchListQuery(filter, page, this.dialect);
    return (await this.pool.all<BatchRowShape>(sql, params)).map(toBatch);
  }

  async openBatch(): Promise<BatchRecord | undefined> {
    const [row] = await this.pool.all<BatchRowShape>(openBatchSql(this.dialect));
    return row && toBatch(row);
  }

  /**
   * The batch with each lane's share, in lane order, as of one moment. A single counter's ledger
   * keeps no lanes: the whole batch is its one share, and nothing is read. A store server's open
   * batch counts in its lanes' shares, which one statement reads; its counters are their sum, as
   * the batch_totals view defines them, so sales landing after the batch was read cannot make the
   * two disagree. A closed batch's shares no longer change.
   */
  async batchWithLanes(batch: BatchRecord): Promise<BatchWithLanes> {
    if (!this.dialect.keepsLanes) return { batch, lanes: [{ ...countersOf(batch), lane: LOCAL_LANE }] };
    const lanes = (await this.pool.all<LaneRowShape>(BATCH_LANES_SQL, [batch.id])).map(toLaneTotals);
    if (batch.status !== 'OPEN') return { batch, lanes };
    const sum = (pick: (share: LaneTotals) => number) =>
      lanes.reduce((total, share) => total + pick(share), 0);
    return {
      batch: {
        ...batch,
        salesCount: sum((share) => share.salesCount),
        salesTotal: sum((share) => share.salesTotal),
        refundCount: sum((share) => share.refundCount),
        refundTotal: sum((share) => share.refundTotal),
        tipTotal: sum((share) => share.tipTotal),
      },
      lanes,
    };
  }

  /** The audit log, newest first. */
  recentAudit(limit: number, offset = 0): Promise<AuditEntry[]> {
    return this.pool.all<AuditEntry>(RECENT_AUDIT_SQL, [limit, offset]);
  }

  /**
   * Whether the ids of a SQLite file run without a gap. Counted once, on a reader: the engine only
   * ever adds the id after the highest and deletes none, so a ledger found without a gap stays
   * without one. Should the count fail (past its time limit on a huge ledger), pages step over the
   * rows before them, as SQL defines, and the next list counts again. A store server finds its deep
   * pages by its counted blocks instead (list-sql.ts).
   */
  private ledgerIds(): Promise<LedgerIds> {
    if (this.dialect.deepPages !== 'dense ids') return Promise.resolve({ dense: false });
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

/** Each lane's share of a batch, summed over the writers that kept it. */
const BATCH_LANES_SQL = `
  SELECT lane, CAST(sum(sales_count) AS integer) AS sales_count, CAST(sum(sales_total) AS bigint) AS sales_total,
         CAST(sum(refund_count) AS integer) AS refund_count, CAST(sum(refund_total) AS bigint) AS refund_total,
         CAST(sum(tip_total) AS bigint) AS tip_total
  FROM batch_lanes WHERE batch_id = ? GROUP BY lane ORDER BY lane`;

interface LaneRowShape {
  lane: string;
  sales_count: number;
  sales_total: number;
  refund_count: number;
  refund_total: number;
  tip_total: number;
}

/** A batch's own counters, as one share. */
function countersOf({ salesCount, salesTotal, refundCount, refundTotal, tipTotal }: BatchRecord) {
  return { salesCount, salesTotal, refundCount, refundTotal, tipTotal };
}

function toLaneTotals(row: LaneRowShape): LaneTotals {
  return {
    lane: row.lane,
    salesCount: row.sales_count,
    salesTotal: row.sales_total,
    refundCount: row.refund_count,
    refundTotal: row.refund_total,
    tipTotal: row.tip_total,
  };
}

/**
 * Whether a filter asks for text with a NUL character in it. No stored text holds one (a store
 * server's text cannot, and refuses the parameter outright), so such a filter matches no row.
 */
function asksForNul(filter: object): boolean {
  return Object.values(filter).some((value: unknown) =>
    typeof value === 'string'
      ? value.includes('\u0000')
      : typeof value === 'object' && value !== null && asksForNul(value),
  );
}
