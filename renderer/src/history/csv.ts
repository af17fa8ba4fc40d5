/**
 * Transactions as CSV, for a spreadsheet or the accountant. Cards are as the engine lists them,
 * masked to the last four digits. Text a spreadsheet would run as a formula (=, +, -, @ at the start)
 * is quoted with a leading apostrophe, so an invoice typed as "=HYPERLINK(...)" stays text.
 */
import type { TransactionListItem } from '../../../shared/api/schemas';

export const CSV_COLUMNS = [
  ['id', 'Transaction'],
  ['created', 'Created'],
  ['type', 'Type'],
  ['result', 'Result'],
  ['amount', 'Amount'],
  ['tip_amount', 'Tip'],
  ['refunded_amount', 'Refunded'],
  ['card', 'Card'],
  ['card_brand', 'Brand'],
  ['authorization_code', 'Authorization code'],
  ['first_name', 'First name'],
  ['last_name', 'Last name'],
  ['invoice', 'Invoice'],
  ['order_number', 'Order number'],
  ['server_id', 'Server'],
  ['cashier', 'Cashier'],
  ['batch_id', 'Batch'],
  ['original_id', 'Original transaction'],
  ['voided', 'Voided'],
  ['result_code', 'Result code'],
  ['error_code', 'Error code'],
  ['display_message', 'Message'],
] as const satisfies readonly (readonly [keyof TransactionListItem, string])[];

const NUMERIC = /^-?\d+(\.\d+)?$/;

export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) && !NUMERIC.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** RFC 4180: a header line, then one line per transaction, CRLF line ends. */
export function transactionsCsv(items: readonly TransactionListItem[]): string {
  const lines = [CSV_COLUMNS.map(([, title]) => csvCell(title)).join(',')];
  for (const item of items) lines.push(CSV_COLUMNS.map(([field]) => csvCell(item[field] ?? '')).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
