/** The batches table's rows, and the settlement batch made from one. */

export interface BatchRecord {
  id: number;
  status: 'OPEN' | 'CLOSED';
  openedAt: number;
  settledAt: number | null;
  confirmationCode: string | null;
  salesCount: number;
  salesTotal: number;
  refundCount: number;
  refundTotal: number;
  tipTotal: number;
  /** Closed with the merchant's gateway: its batch and figures, and whether they were the batch's own. */
  upstream: UpstreamBatch | null;
}

/** The gateway's batch closed with one of the ledger's, in cents and counts. */
export interface UpstreamBatch {
  batchId: string;
  salesCount: number;
  salesTotal: number;
  refundCount: number;
  refundTotal: number;
  totalCount: number;
  netAmount: number;
  reconciled: boolean;
}

/** One lane's (counter's) share of a batch's counters. */
export interface LaneTotals {
  lane: string;
  salesCount: number;
  salesTotal: number;
  refundCount: number;
  refundTotal: number;
  tipTotal: number;
}

export interface BatchRowShape {
  id: number;
  status: 'OPEN' | 'CLOSED';
  opened_at: number;
  settled_at: number | null;
  confirmation_code: string | null;
  sales_count: number;
  sales_total: number;
  refund_count: number;
  refund_total: number;
  tip_total: number;
  upstream_batch_id: string | null;
  /** The gateway's figures as JSON (UpstreamBatch without batchId and reconciled). */
  upstream_totals: string | null;
  reconciled: number | null;
}

/** The gateway's figures as the batches table keeps them. */
export function upstreamColumns(
  upstream: UpstreamBatch | null,
): [string | null, string | null, number | null] {
  if (!upstream) return [null, null, null];
  const { batchId, reconciled, ...totals } = upstream;
  return [batchId, JSON.stringify(totals), reconciled ? 1 : 0];
}

function upstreamOf(row: BatchRowShape): UpstreamBatch | null {
  if (row.upstream_batch_id === null || row.upstream_totals === null) return null;
  const totals = JSON.parse(row.upstream_totals) as Omit<UpstreamBatch, 'batchId' | 'reconciled'>;
  return { batchId: row.upstream_batch_id, ...totals, reconciled: row.reconciled === 1 };
}

export function toBatch(row: BatchRowShape): BatchRecord {
  return {
    id: row.id,
    status: row.status,
    openedAt: row.opened_at,
    settledAt: row.settled_at,
    confirmationCode: row.confirmation_code,
    salesCount: row.sales_count,
    salesTotal: row.sales_total,
    refundCount: row.refund_count,
    refundTotal: row.refund_total,
    tipTotal: row.tip_total,
    upstream: upstreamOf(row),
  };
}
