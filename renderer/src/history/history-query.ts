/** The history screen's filters and sort, as the list API's query. */
import type { TransactionOrderField } from '../../../shared/api/schemas';
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

export function historyQuery(filters: HistoryFilters, sort: HistorySort) {
  const start = startOfDay(filters.from);
  const end = startOfDay(filters.to, 1);
  return {
    order_by: sort.field,
    descending: sort.descending,
    ...(filters.type && { type: filters.type }),
    ...(filters.result && { result: filters.result }),
    ...(start && { start_date: start }),
    ...(end && { end_date: end }),
    ...(filters.lastFour && { last_four: filters.lastFour }),
    ...(filters.invoice.trim() && { invoice: filters.invoice.trim() }),
    ...(filters.server && { server_id: filters.server }),
    ...(filters.cashier.trim() && { cashier: filters.cashier.trim() }),
  };
}
