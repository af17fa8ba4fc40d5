/**
 * A page of the history: straight from the list API, or, when the screen keeps only some of the rows
 * the engine lists (the Type filter Sale, see typeFilter), counted over the rows it keeps.
 */
import {
  PAGE_SIZE_MAX,
  type TransactionListItem,
  type TransactionListQuery,
} from '../../../shared/api/schemas';
import { MAX_ROWS } from '../transactions/queries';

type Query = { [K in keyof TransactionListQuery]?: string | number | boolean };
type List = (query: Query) => Promise<TransactionListItem[]>;

export interface HistoryPage {
  items: TransactionListItem[];
  /** Whether a page follows. */
  more: boolean;
}

/**
 * Page `page` (from 1) of `pageSize` rows. Kept rows are read from the start in the engine's order,
 * a full page of the API at a time, until one past this page is found, the list ends, or MAX_ROWS
 * rows have been read.
 */
export async function readHistoryPage(
  list: List,
  query: Query,
  page: number,
  pageSize: number,
  keep?: (item: TransactionListItem) => boolean,
): Promise<HistoryPage> {
  if (!keep) {
    const [items, next] = await Promise.all([
      list({ ...query, page_size: pageSize, page }),
      // One row past this page says whether there is a next one.
      list({ ...query, page_size: 1, page: page * pageSize + 1 }),
    ]);
    return { items, more: next.length > 0 };
  }
  const wanted = page * pageSize + 1;
  const kept: TransactionListItem[] = [];
  for (let read = 0, apiPage = 1; kept.length < wanted && read < MAX_ROWS; apiPage += 1) {
    const rows = await list({ ...query, page_size: PAGE_SIZE_MAX, page: apiPage });
    read += rows.length;
    kept.push(...rows.filter(keep));
    if (rows.length < PAGE_SIZE_MAX) break;
  }
  return { items: kept.slice((page - 1) * pageSize, page * pageSize), more: kept.length > page * pageSize };
}
