/** The ledger's reads as the API, the screens and the receipts use them, from either store. */
import type { AuditEntry } from './audit';
import type { BatchRecord, LaneTotals } from './batch-rows';
import type {
  BATCH_ORDER_COLUMNS,
  BatchFilter,
  Page,
  StoreFilter,
  TRANSACTION_ORDER_COLUMNS,
  TransactionFilter,
} from './sql/list-sql';
import type { LedgerTransaction } from './transaction-rows';

/**
 * The lane a single counter's ledger shows on its items and batches: it keeps no lane, all of it was
 * made at this counter.
 */
export const LOCAL_LANE = 'local';

/** A batch and its lanes' shares, which add up to it. */
export interface BatchWithLanes {
  batch: BatchRecord;
  lanes: LaneTotals[];
}

/** What the API, the screens and the receipts read, from either store. */
export interface LedgerReadPort {
  listTransactions(
    filter: TransactionFilter & StoreFilter,
    page: Page<keyof typeof TRANSACTION_ORDER_COLUMNS>,
  ): Promise<LedgerTransaction[]>;
  /** One transaction by its id, or undefined when the ledger has none with it. */
  transaction(id: number): Promise<LedgerTransaction | undefined>;
  listBatches(filter: BatchFilter, page: Page<keyof typeof BATCH_ORDER_COLUMNS>): Promise<BatchRecord[]>;
  openBatch(): Promise<BatchRecord | undefined>;
  /**
   * The batch with each lane's share, in lane order, as of one moment: the shares add up to the
   * counters of the batch given back, however many sales land meanwhile.
   */
  batchWithLanes(batch: BatchRecord): Promise<BatchWithLanes>;
  /** The audit log, newest first. */
  recentAudit(limit: number, offset?: number): Promise<AuditEntry[]>;
}
