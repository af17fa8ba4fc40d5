/**
 * The earlier charge a possible duplicate was refused for, named as the cashier knows it. The
 * engine's duplicate check compares SALEs, AUTHs and FORCED SALEs, so for a sale tipped at the
 * counter it names the authorization of the total (#41); but the approved answer named that sale
 * by its capture (#42), as History, the receipt and the end-of-day report do. The screens look the
 * capture up and name the sale by it, so one number follows the sale everywhere.
 */
import type { TenderClient } from '../../../shared/api/client';
import type { TransactionListItem } from '../../../shared/api/schemas';
import { PAGE_SIZE_MAX } from '../../../shared/api/schemas';
import { loadTransaction } from '../transactions/queries';

export interface EarlierCharge {
  /** The number the cashier was given for it. */
  id: string;
  /** "sale", "tab", "forced sale", "sale hold" (a tipped sale whose capture did not go through) */
  kind: string;
  /** ISO 8601, as lists write it. */
  created: string;
  /** Tip included. */
  amount: string;
}

const KINDS: Record<string, string> = { Sale: 'sale', 'Forced Sale': 'forced sale' };

/** Whether `item` is the authorization of a sale tipped at the counter that was captured. */
export function isCapturedCounterSaleHold(item: TransactionListItem): boolean {
  return item.type === 'Auth' && item.counter_sale === 'true' && item.captured === 'true';
}

/**
 * The charge a duplicate names: `item` itself, or for the captured authorization of a sale tipped
 * at the counter, its capture among `captures` (the one that stands, else the latest). Without it,
 * the authorization is named as what it is.
 */
export function earlierChargeOf(
  item: TransactionListItem,
  captures: readonly TransactionListItem[] = [],
): EarlierCharge {
  if (isCapturedCounterSaleHold(item)) {
    const ofItem = captures.filter(
      (capture) => capture.type === 'Capture' && capture.original_id === item.id,
    );
    const capture = ofItem.find((row) => row.voided !== 'true') ?? ofItem.at(-1);
    if (capture) return { id: capture.id, kind: 'sale', created: capture.created, amount: capture.amount };
  }
  const kind =
    item.type === 'Auth'
      ? item.counter_sale === 'true'
        ? 'sale hold'
        : 'tab'
      : (KINDS[item.type] ?? 'charge');
  return { id: item.id, kind, created: item.created, amount: item.amount };
}

/**
 * The captures that may be the one of `hold`: on the same card, from the hold's time on. The screens
 * capture a tipped sale's authorization at once, so it is among the first few.
 */
export function capturesQuery(hold: TransactionListItem) {
  const lastFour = hold.card.slice(-4);
  return {
    type: 'capture',
    start_date: hold.created,
    ...(/^\d{4}$/.test(lastFour) && { last_four: lastFour }),
    order_by: 'id' as const,
    descending: false,
    page_size: PAGE_SIZE_MAX,
  };
}

/** The earlier charge named `id` by the engine, as the cashier knows it; undefined when there is none. */
export async function loadEarlierCharge(
  client: TenderClient,
  id: string,
): Promise<EarlierCharge | undefined> {
  const item = await loadTransaction(client, id);
  if (!item) return undefined;
  if (!isCapturedCounterSaleHold(item)) return earlierChargeOf(item);
  return earlierChargeOf(item, await client.listTransactions(capturesQuery(item)));
}
