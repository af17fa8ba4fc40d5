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
  };
}
