/**
 * A batch's lines by cashier, for the end-of-day report: sales, refunds and tips of each person at
 * the counter (or each program, by its key's name). Counted as the batch's own totals are: approved,
 * unvoided sales and refunds only.
 */
import type { TransactionListItem } from '../../../shared/api/schemas';
import { centsOf } from '../transactions/present';
import { counts } from './batch-summary';

export interface CashierLine {
  /** The person's name, or '' for transactions that name no one. */
  cashier: string;
  salesCount: number;
  salesCents: number;
  refundCount: number;
  refundCents: number;
  tipCents: number;
}

export function byCashier(items: readonly TransactionListItem[]): CashierLine[] {
  const lines = new Map<string, CashierLine>();
  for (const item of items.filter(counts)) {
    const line = lines.get(item.cashier) ?? {
      cashier: item.cashier,
      salesCount: 0,
      salesCents: 0,
      refundCount: 0,
      refundCents: 0,
      tipCents: 0,
    };
    if (item.type === 'Refund') {
      line.refundCount += 1;
      line.refundCents += centsOf(item.amount);
    } else {
      line.salesCount += 1;
      line.salesCents += centsOf(item.amount);
      line.tipCents += centsOf(item.tip_amount);
    }
    lines.set(item.cashier, line);
  }
  // By name, those naming no one last.
  return [...lines.values()].sort((a, b) =>
    a.cashier === '' ? 1 : b.cashier === '' ? -1 : a.cashier.localeCompare(b.cashier),
  );
}
