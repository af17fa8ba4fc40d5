/** The history screen's filters and sort, as the list API's query. */
import type { TransactionListItem, TransactionOrderField } from '../../../shared/api/schemas';
import { TYPE_LABELS } from '../../../shared/api/transaction-types';
import { startOfDay } from '../transactions/queries';

export interface HistoryFilters {
  type: string;
  result: string;
  from: string;
  to: string;
  lastFour: string;
  invoice: string;
  server: string;
  /** As lists name who made a transaction: a person at the counter, or another program's key. */
  cashier: string;
}

export interface HistorySort {
  field: TransactionOrderField;
  descending: boolean;
}

export const NO_FILTERS: HistoryFilters = {
  type: '',
  result: '',
  from: '',
  to: '',
  lastFour: '',
  invoice: '',
  server: '',
  cashier: '',
};
export const NEWEST_FIRST: HistorySort = { field: 'id', descending: true };
export const PAGE_SIZE = 25;

export function filterProblem(filters: HistoryFilters): string | undefined {
  if (filters.lastFour !== '' && !/^\d{4}$/.test(filters.lastFour)) return 'Last four: enter four digits.';
  if (filters.server !== '' && !/^\d{2}$/.test(filters.server)) return 'Server: enter two digits, like 07.';
  if (filters.from && filters.to && filters.from > filters.to)
    return 'The first day comes after the last day.';
  return undefined;
}

/** Whether `item` is the capture of a sale tipped at the counter: a Capture to the engine, a Sale here. */
function isCounterSale(item: TransactionListItem): boolean {
  return item.type === TYPE_LABELS.CAPTURE && item.counter_sale === 'true';
}

/**
 * The Type filter as the engine is asked for it, and which of its rows the screen keeps. The screens
 * call the capture of a sale tipped at the counter a Sale (the engine's type is Capture, and the list
 * API filters by one type), so Sale asks for every type and keeps the sales and those captures, in
 * the engine's order; Capture keeps only the captured tabs. The others are the engine's types.
 */
export function typeFilter(type: string): {
  type?: string;
  keep?: (item: TransactionListItem) => boolean;
} {
  if (type === TYPE_LABELS.SALE)
    return { keep: (item) => item.type === TYPE_LABELS.SALE || isCounterSale(item) };
  if (type === TYPE_LABELS.CAPTURE) return { type, keep: (item) => !isCounterSale(item) };
  return type ? { type } : {};
}

export function historyQuery(filters: HistoryFilters, sort: HistorySort) {
  const start = startOfDay(filters.from);
  const end = startOfDay(filters.to, 1);
  const { type } = typeFilter(filters.type);
  return {
    order_by: sort.field,
    descending: sort.descending,
    ...(type && { type }),
    ...(filters.result && { result: filters.result }),
    ...(start && { start_date: start }),
    ...(end && { end_date: end }),
    ...(filters.lastFour && { last_four: filters.lastFour }),
    ...(filters.invoice.trim() && { invoice: filters.invoice.trim() }),
    ...(filters.server && { server_id: filters.server }),
    ...(filters.cashier.trim() && { cashier: filters.cashier.trim() }),
  };
}
