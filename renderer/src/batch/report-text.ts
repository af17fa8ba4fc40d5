/**
 * The end-of-day report as lines for the receipt printer, at its width (32, 42 or 48 columns): the
 * settlement, the engine's totals with the voids and declines beside them, the lines by type, server,
 * cashier, counter and card brand, and every transaction. The same figures as the report on screen,
 * from the same summaries; only the layout is the paper's. Cards show as brand and last four digits.
 */
import type { Batch, TransactionListItem } from '../../../shared/api/schemas';
import { brandLabel, type CardBrand } from '../../../shared/cards';
import { displayMoney } from '../../../shared/money';
import { center, labelled, wrap } from '../../../shared/paper-text';
import { centsOf, clockLabel, kindOf, statusOf, timeLabel } from '../transactions/present';
import type { BatchExceptions } from '../transactions/queries';
import { summarize } from './batch-summary';
import { brandLines } from './BrandTable';
import { byCashier } from './cashier-summary';

export interface BatchReportInput {
  batch: Batch;
  items: readonly TransactionListItem[];
  /** False when the items are only the first ones of a very large batch. */
  complete: boolean;
  exceptions: BatchExceptions;
  /** When the report is printed: its last line. */
  printedAt: string;
}

/** Money taken away (a refund): a plain hyphen, which every printer's code page has. */
function minus(cents: number): string {
  return cents === 0 ? displayMoney(0) : `-${displayMoney(cents)}`;
}

/**
 * A table of figures: the name on the left, each figure right-aligned in a column as wide as its
 * widest entry. When the names would leave less than a third of the line, each row's name goes on a
 * line of its own above its figures.
 */
function figuresTable(
  title: string,
  columns: readonly string[],
  rows: readonly { name: string; figures: readonly string[] }[],
  width: number,
): string[] {
  const [nameHeading = '', ...figureHeadings] = columns;
  const widths = figureHeadings.map((heading, index) =>
    Math.max(heading.length, ...rows.map((row) => (row.figures[index] ?? '').length)),
  );
  const figuresWidth = widths.reduce((sum, each) => sum + each + 1, 0);
  const nameWidth = width - figuresWidth;
  const figuresOf = (figures: readonly string[]) =>
    widths.map((each, index) => ` ${(figures[index] ?? '').padStart(each)}`).join('');
  const lines = ['', title.toUpperCase()];
  if (nameWidth >= Math.floor(width / 3)) {
    lines.push(`${nameHeading.slice(0, nameWidth).padEnd(nameWidth)}${figuresOf(figureHeadings)}`);
    for (const row of rows) {
      const name = row.name.length > nameWidth ? `${row.name.slice(0, nameWidth - 1)}.` : row.name;
      lines.push(`${name.padEnd(nameWidth)}${figuresOf(row.figures)}`);
    }
  } else {
    lines.push(figuresOf(figureHeadings).padStart(width));
    for (const row of rows) {
      lines.push(...wrap(row.name, width), figuresOf(row.figures).padStart(width));
    }
  }
  return lines;
}

/** "Nov 24, 2:05 PM" at most; a printer has no room for more. */
function when(iso: string | undefined): string {
  return iso ? timeLabel(iso) : '';
}

export function batchReportLines(input: BatchReportInput, width: number): string[] {
  const { batch, items, complete, exceptions } = input;
  const closed = batch.status === 'CLOSED';
  const summary = summarize(items);
  const rule = '-'.repeat(width);
  const lines: string[] = [
    ...center('END-OF-DAY REPORT', width),
    ...center(`Batch #${batch.id}`, width),
    ...(closed ? [] : center('NOT YET SETTLED', width)),
    '',
    ...labelled('Opened', when(batch.opened), width),
    ...labelled('Settled', closed ? when(batch.settled) : 'still open', width),
    ...(batch.confirmation_code ? labelled('Confirmation', batch.confirmation_code, width) : []),
    rule,
    ...labelled(`Sales (${batch.sales_count})`, displayMoney(centsOf(batch.sales_total)), width),
    ...labelled(`Refunds (${batch.refund_count})`, minus(centsOf(batch.refund_total)), width),
    ...labelled(`NET (${batch.total_count})`, displayMoney(centsOf(batch.net_amount)), width),
    ...labelled('Tips, in the sales', displayMoney(centsOf(batch.tip_total)), width),
    ...labelled('Voided', String(exceptions.voids), width),
    ...labelled('Declined', String(exceptions.declines), width),
    rule,
  ];

  lines.push(
    ...figuresTable(
      'By type',
      ['Type', 'Count', 'Total'],
      summary.types.map((line) => ({
        name: line.type === 'Capture' ? 'Captured tabs' : `${line.type}s`,
        figures: [
          String(line.count),
          line.type === 'Refund' ? minus(line.totalCents) : displayMoney(line.totalCents),
        ],
      })),
      width,
    ),
    ...figuresTable(
      'Tips by server',
      ['Server', 'Sales', 'Tips'],
      summary.servers.map((line) => ({
        name: line.server ? `Server ${line.server}` : 'No server',
        figures: [String(line.count), displayMoney(line.tipCents)],
      })),
      width,
    ),
    ...figuresTable(
      'By cashier',
      ['Cashier', 'Sales', 'Total', 'Tips'],
      byCashier(items).map((line) => ({
        name: line.cashier || 'Not recorded',
        figures: [
          String(line.salesCount + line.refundCount),
          displayMoney(line.salesCents - line.refundCents),
          displayMoney(line.tipCents),
        ],
      })),
      width,
    ),
  );
  const lanes = batch.lanes ?? [];
  if (lanes.length > 1 || (lanes.length === 1 && lanes[0]?.lane !== 'local')) {
    lines.push(
      ...figuresTable(
        'By counter',
        ['Counter', 'Count', 'Net'],
        lanes.map((share) => ({
          name: share.lane,
          figures: [share.total_count, displayMoney(centsOf(share.net_amount))],
        })),
        width,
      ),
    );
  }
  lines.push(
    ...figuresTable(
      'By card brand',
      ['Brand', 'Count', 'Net'],
      brandLines(summary.counted).map((line) => ({
        name: line.brand,
        figures: [String(line.count), displayMoney(line.netCents)],
      })),
      width,
    ),
  );

  lines.push('', complete ? 'TRANSACTIONS' : `TRANSACTIONS (THE FIRST ${items.length})`);
  for (const item of items) {
    const lastFour = item.card.slice(-4);
    const card = lastFour
      ? `${brandLabel((item.card_brand || 'unknown') as CardBrand)} ${lastFour}`
      : 'No card';
    const amount = item.type === 'Refund' ? minus(centsOf(item.amount)) : displayMoney(centsOf(item.amount));
    lines.push(...labelled(`#${item.id} ${clockLabel(item.created)} ${kindOf(item)}`, amount, width));
    const status = statusOf(item).label;
    lines.push(...labelled(`  ${card}`, status === 'Approved' ? '' : status, width));
  }
  lines.push(rule, ...wrap(`Printed ${when(input.printedAt)}`, width));
  return lines.map((line) => line.trimEnd());
}
