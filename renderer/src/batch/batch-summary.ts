/**
 * A batch's lines for the end-of-day report, from its transactions: counts and totals by type and by
 * server, and the tips. Only approved, unvoided sales and refunds count, as in the engine's own
 * totals; the report prints the engine's batch totals and checks these against them.
 */
import type { Batch, TransactionListItem } from '../../../shared/api/schemas';
import { TYPE_LABELS } from '../../../shared/api/transaction-types';
import { displayMoney } from '../../../shared/money';
import { centsOf, counted } from '../transactions/present';

export const REPORT_TYPES = [
  TYPE_LABELS.SALE,
  TYPE_LABELS['FORCED SALE'],
  TYPE_LABELS.CAPTURE,
  TYPE_LABELS.REFUND,
] as const;
export type ReportType = (typeof REPORT_TYPES)[number];

export interface TypeLine {
  type: ReportType;
  count: number;
  totalCents: number;
  tipCents: number;
}

export interface ServerLine {
  /** Two digits, or '' for sales with no server. */
  server: string;
  count: number;
  salesCents: number;
  tipCents: number;
}

export interface BatchSummary {
  types: TypeLine[];
  servers: ServerLine[];
  salesCount: number;
  salesCents: number;
  refundCount: number;
  refundCents: number;
  tipCents: number;
  /** Those that count, in id order. */
  counted: TransactionListItem[];
}

export function counts(item: TransactionListItem): boolean {
  return (
    item.result === 'Approved' &&
    item.voided !== 'true' &&
    // Approved offline, then declined when it was sent: it left the batch.
    item.forward_state !== 'declined' &&
    (REPORT_TYPES as readonly string[]).includes(item.type)
  );
}

/**
 * The line `item` counts in: its type, except that the capture of a sale tipped at the counter is
 * the sale the customer made, not a captured tab.
 */
function reportTypeOf(item: TransactionListItem): string {
  return item.type === 'Capture' && item.counter_sale === 'true' ? TYPE_LABELS.SALE : item.type;
}

export function summarize(items: readonly TransactionListItem[]): BatchSummary {
  const counted = items.filter(counts).sort((a, b) => Number(a.id) - Number(b.id));
  const types = REPORT_TYPES.map((type): TypeLine => {
    const rows = counted.filter((item) => reportTypeOf(item) === type);
    return {
      type,
      count: rows.length,
      totalCents: rows.reduce((sum, item) => sum + centsOf(item.amount), 0),
      tipCents: rows.reduce((sum, item) => sum + centsOf(item.tip_amount), 0),
    };
  });
  const byServer = new Map<string, ServerLine>();
  for (const item of counted) {
    if (item.type === 'Refund') continue;
    const line = byServer.get(item.server_id) ?? {
      server: item.server_id,
      count: 0,
      salesCents: 0,
      tipCents: 0,
    };
    line.count += 1;
    line.salesCents += centsOf(item.amount);
    line.tipCents += centsOf(item.tip_amount);
    byServer.set(item.server_id, line);
  }
  // Servers in number order, sales with no server last.
  const servers = [...byServer.values()].sort((a, b) =>
    a.server === '' ? 1 : b.server === '' ? -1 : a.server.localeCompare(b.server),
  );
  const sales = types.filter((line) => line.type !== 'Refund');
  const refunds = types.find((line) => line.type === 'Refund');
  return {
    types,
    servers,
    salesCount: sales.reduce((sum, line) => sum + line.count, 0),
    salesCents: sales.reduce((sum, line) => sum + line.totalCents, 0),
    refundCount: refunds?.count ?? 0,
    refundCents: refunds?.totalCents ?? 0,
    tipCents: types.reduce((sum, line) => sum + line.tipCents, 0),
    counted,
  };
}

/** Whether the lines add up to the engine's totals of the batch (they always should). */
export function agreesWith(summary: BatchSummary, batch: Batch): boolean {
  return (
    summary.salesCount === Number(batch.sales_count) &&
    summary.salesCents === centsOf(batch.sales_total) &&
    summary.refundCount === Number(batch.refund_count) &&
    summary.refundCents === centsOf(batch.refund_total) &&
    summary.tipCents === centsOf(batch.tip_total)
  );
}

/** A batch's size and net as a sentence says them: "1 transaction for $12.00 net". */
export function countAndNet(batch: Pick<Batch, 'total_count' | 'net_amount'>): string {
  return `${counted(batch.total_count, 'transaction')} for ${displayMoney(centsOf(batch.net_amount))} net`;
}
