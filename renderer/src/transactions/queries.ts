/**
 * Reads of the list API that the screens need whole rather than a page at a time: a batch's
 * transactions, the open tabs, the refunds of a sale, an export. Pages of the largest size are read
 * until one comes back short.
 */
import type { TenderClient } from '../../../shared/api/client';
import {
  PAGE_SIZE_MAX,
  type Batch,
  type TransactionListItem,
  type TransactionListQuery,
} from '../../../shared/api/schemas';

type Query = { [K in keyof TransactionListQuery]?: string | number | boolean };

/** Past this, a read stops and says so (a counter's day is far below it). */
export const MAX_ROWS = 20_000;

export async function listEvery(
  client: TenderClient,
  query: Query,
  limit = MAX_ROWS,
): Promise<{ items: TransactionListItem[]; complete: boolean }> {
  const items: TransactionListItem[] = [];
  for (let page = 1; items.length < limit; page += 1) {
    const batch = await client.listTransactions({ ...query, page_size: PAGE_SIZE_MAX, page });
    items.push(...batch);
    if (batch.length < PAGE_SIZE_MAX) return { items, complete: true };
  }
  return { items: items.slice(0, limit), complete: false };
}

/** A local calendar day (yyyy-mm-dd from a date field) as the instant it starts, for start_date/end_date. */
export function startOfDay(day: string, addDays = 0): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return undefined;
  const at = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + addDays);
  return Number.isNaN(at.getTime()) ? undefined : at.toISOString();
}

export interface Tabs {
  /** Approved, not captured or voided, and still capturable; oldest first. */
  open: TransactionListItem[];
  /** Past auth_expiry_days: they can only be voided now. */
  expired: TransactionListItem[];
}

const DAY_MS = 86_400_000;

/** How long past its expiry an unvoided tab is still listed, to be voided. */
const EXPIRED_SHOWN_DAYS = 30;

/**
 * The open tabs: approved AUTHs the engine still marks with an expiry, and the expired ones of the
 * last weeks, which can only be voided. Older AUTHs are not read.
 */
export async function loadTabs(
  client: TenderClient,
  authExpiryDays: number,
  now = Date.now(),
): Promise<Tabs> {
  const since = new Date(now - (authExpiryDays + EXPIRED_SHOWN_DAYS) * DAY_MS).toISOString();
  const { items } = await listEvery(client, {
    type: 'auth',
    result: 'approved',
    start_date: since,
    order_by: 'id',
    descending: false,
  });
  // The engine says which can still be captured; an approved AUTH it holds but will not capture has expired.
  const holding = items.filter((item) => item.expires !== '');
  return {
    open: holding.filter((item) => item.capturable === 'true'),
    expired: holding.filter((item) => item.capturable === 'false'),
  };
}

/**
 * The tabs captured in the open batch and not voided: their tip can still be adjusted (the capture
 * voided, the tab captured again). Empty when no batch is open. A sale tipped at the counter is
 * recorded as a capture too, but its customer opened no tab: it is voided whole on Refund & void,
 * and is not among them.
 */
export async function loadAdjustableCaptures(client: TenderClient): Promise<TransactionListItem[]> {
  const open = await client.openBatch();
  if (!open) return [];
  const { items } = await listEvery(client, {
    type: 'capture',
    result: 'approved',
    batch_id: open.id,
    order_by: 'id',
    descending: true,
  });
  return items.filter((item) => item.voidable === 'true' && item.counter_sale !== 'true');
}

/** The refunds made against one transaction, oldest first. Refunds come after their original, so only those are read. */
export async function loadRefundsOf(
  client: TenderClient,
  original: TransactionListItem,
): Promise<TransactionListItem[]> {
  const { items } = await listEvery(client, {
    type: 'refund',
    start_date: original.created,
    order_by: 'id',
    descending: false,
  });
  return items.filter((item) => item.original_id === original.id);
}

/** One transaction by id, or undefined when there is none. */
export async function loadTransaction(
  client: TenderClient,
  id: string,
): Promise<TransactionListItem | undefined> {
  const [item] = await client.listTransactions({ id, page_size: 1 });
  return item;
}

/** What went wrong in a batch's time, shown beside its totals. */
export interface BatchExceptions {
  /** Transactions of the batch voided since: they count for nothing. */
  voids: number;
  /** Charges the card issuer declined while the batch was open (declines join no batch). */
  declines: number;
}

/** The voids among a batch's transactions, and the declines from its opening to its close (or now). */
export async function loadBatchExceptions(
  client: TenderClient,
  batch: Batch,
  items: readonly TransactionListItem[],
): Promise<BatchExceptions> {
  const declined = await listEvery(client, {
    result: 'declined',
    start_date: batch.opened,
    ...(batch.settled && { end_date: batch.settled }),
  });
  return { voids: items.filter((item) => item.voided === 'true').length, declines: declined.items.length };
}
