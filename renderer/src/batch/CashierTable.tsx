/** Totals and tips per cashier, on the open batch and in the printed report. */
import type { TransactionListItem } from '../../../shared/api/schemas';
import { displayMoney } from '../../../shared/money';
import { byCashier } from './cashier-summary';

export function CashierTable({ items }: { items: readonly TransactionListItem[] }) {
  const lines = byCashier(items);
  return (
    <table className="table table-compact" data-testid="by-cashier">
      <caption>Totals and tips by cashier</caption>
      <thead>
        <tr>
          <th scope="col">Cashier</th>
          <th scope="col" className="numeric">
            Sales
          </th>
          <th scope="col" className="numeric">
            Total
          </th>
          <th scope="col" className="numeric">
            Refunds
          </th>
          <th scope="col" className="numeric">
            Tips
          </th>
        </tr>
      </thead>
      <tbody>
        {lines.length === 0 && (
          <tr>
            <td colSpan={5} className="muted">
              No sales yet.
            </td>
          </tr>
        )}
        {lines.map((line) => (
          <tr key={line.cashier || 'none'} data-testid={`cashier-${line.cashier || 'none'}`}>
            <th scope="row">{line.cashier || 'Not recorded'}</th>
            <td className="numeric">{line.salesCount}</td>
            <td className="numeric">{displayMoney(line.salesCents)}</td>
            <td className="numeric">
              {line.refundCount > 0 ? `${line.refundCount} · ${displayMoney(line.refundCents)}` : '—'}
            </td>
            <td className="numeric strong">{displayMoney(line.tipCents)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
