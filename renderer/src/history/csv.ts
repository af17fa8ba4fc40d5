/**
 * Transactions as CSV, for a spreadsheet or the accountant. Cards are as the engine lists them,
 * masked to the last four digits. Text a spreadsheet would run as a formula (=, +, -, @ at the start)
 * is quoted with a leading apostrophe, so an invoice typed as "=HYPERLINK(...)" stays text.
 *
 * The Type and Result columns say what the screen says (a sale tipped at the counter is a Sale and
 * its Sale hold; Refunded, Voided, Captured, Open tab); the engine's own type and result are beside
 * them. Net is the money each row moved, refunds negative and voided or declined
 * rows nothing, so the column sums to what the batch took.
 */
import type { TransactionListItem } from '../../../shared/api/schemas';
import { formatMoney } from '../../../shared/money';
import { centsOf, kindOf, statusOf } from '../transactions/present';

type Column = readonly [title: string, value: (item: TransactionListItem) => string];

const field =
  (name: keyof TransactionListItem) =>
  (item: TransactionListItem): string =>
    item[name] ?? '';

const MONEY_IN = new Set(['Sale', 'Forced Sale', 'Capture']);

/** The money a transaction moved: positive into the shop, negative back to the card. */
export function netCents(item: TransactionListItem): number {
  if (item.result !== 'Approved' || item.voided === 'true') return 0;
  if (MONEY_IN.has(item.type)) return centsOf(item.amount);
  if (item.type === 'Refund') return -centsOf(item.amount);
  return 0;
}

export const CSV_COLUMNS: readonly Column[] = [
  ['Transaction', field('id')],
  ['Created', field('created')],
  ['Type', kindOf],
  ['Result', (item) => statusOf(item).label],
  ['Amount', field('amount')],
  ['Tip', field('tip_amount')],
  ['Refunded', field('refunded_amount')],
  ['Net', (item) => formatMoney(netCents(item))],
  ['Card', field('card')],
  ['Brand', field('card_brand')],
  ['Authorization code', field('authorization_code')],
  ['First name', field('first_name')],
  ['Last name', field('last_name')],
  ['Invoice', field('invoice')],
  ['Order number', field('order_number')],
  ['Server', field('server_id')],
  ['Cashier', field('cashier')],
  ['Batch', field('batch_id')],
  ['Original transaction', field('original_id')],
  ['Engine type', field('type')],
  ['Engine result', field('result')],
  ['Voided', field('voided')],
  ['Result code', field('result_code')],
  ['Error code', field('error_code')],
  ['Message', field('display_message')],
];

const NUMERIC = /^-?\d+(\.\d+)?$/;

export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) && !NUMERIC.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** RFC 4180: a header line, then one line per transaction, CRLF line ends. */
export function transactionsCsv(items: readonly TransactionListItem[]): string {
  const lines = [CSV_COLUMNS.map(([title]) => csvCell(title)).join(',')];
  for (const item of items) lines.push(CSV_COLUMNS.map(([, value]) => csvCell(value(item))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
