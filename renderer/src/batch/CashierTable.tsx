/** Totals and tips per cashier, on the open batch and in the printed report. */
import type { TransactionListItem } from '../../../shared/api/schemas';
import { displayMoney } from '../../../shared/money';
import { byCashier } from './cashier-summary';
import { FiguresTable } from './FiguresTable';

export function CashierTable({ items }: { items: readonly TransactionListItem[] }) {
  return (
    <FiguresTable
      caption="Totals and tips by cashier"
      testId="by-cashier"
      columns={['Cashier', 'Sales', 'Total', 'Refunds', 'Tips']}
      empty="No sales yet."
      lines={byCashier(items).map((line) => ({
        key: line.cashier || 'none',
        testId: `cashier-${line.cashier || 'none'}`,
        name: line.cashier || 'Not recorded',
        figures: [
          line.salesCount,
          displayMoney(line.salesCents),
          line.refundCount > 0 ? `${line.refundCount} · ${displayMoney(line.refundCents)}` : '—',
          displayMoney(line.tipCents),
        ],
      }))}
    />
  );
}
