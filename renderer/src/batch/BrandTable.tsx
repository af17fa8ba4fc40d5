/**
 * Totals by card brand, as a bookkeeper matches them against the processor's statement: how many
 * transactions of each brand count in the batch, and the net they moved (refunds taken off).
 */
import type { TransactionListItem } from '../../../shared/api/schemas';
import { brandLabel } from '../../../shared/cards';
import type { CardBrand } from '../../../shared/cards';
import { displayMoney } from '../../../shared/money';
import { centsOf } from '../transactions/present';
import { FiguresTable } from './FiguresTable';

interface BrandLine {
  brand: string;
  count: number;
  netCents: number;
}

/** The counted transactions of a batch by brand, the largest net first. */
export function brandLines(counted: readonly TransactionListItem[]): BrandLine[] {
  const lines = new Map<string, BrandLine>();
  for (const item of counted) {
    const brand = brandLabel((item.card_brand || 'unknown') as CardBrand) ?? 'Card';
    const line = lines.get(brand) ?? { brand, count: 0, netCents: 0 };
    line.count += 1;
    line.netCents += item.type === 'Refund' ? -centsOf(item.amount) : centsOf(item.amount);
    lines.set(brand, line);
  }
  return [...lines.values()].sort((a, b) => b.netCents - a.netCents || a.brand.localeCompare(b.brand));
}

export function BrandTable({ counted }: { counted: readonly TransactionListItem[] }) {
  return (
    <FiguresTable
      caption="Totals by card brand"
      testId="by-brand"
      columns={['Brand', 'Count', 'Net']}
      empty="No sales yet."
      lines={brandLines(counted).map((line) => ({
        key: line.brand,
        testId: `brand-${line.brand}`,
        name: line.brand,
        figures: [line.count, displayMoney(line.netCents)],
      }))}
    />
  );
}
