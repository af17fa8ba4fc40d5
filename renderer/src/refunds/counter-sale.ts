/**
 * A sale tipped at the counter is recorded as an AUTH of the total captured at once with the tip
 * (see payment/tipped-charge.ts): a sale to the customer, who opened no tab. The engine marks both
 * requests in its lists (`counter_sale`), from the description they were sent with.
 */
import type { TenderClient } from '../../../shared/api/client';
import type { TransactionListItem } from '../../../shared/api/schemas';
import { loadTransaction } from '../transactions/queries';

/** Whether `item` is the capture or the authorization of a sale tipped at the counter. */
export function isTippedCounterSale(item: TransactionListItem): boolean {
  return item.counter_sale === 'true';
}

/** A tipped counter sale as the screens void it: its capture, and the authorization it captured. */
export interface TippedSale {
  capture: TransactionListItem;
  auth: TransactionListItem;
}

/** The tipped counter sale `item` is the capture of, with its authorization as it is now; else undefined. */
export async function tippedSaleOf(
  client: TenderClient,
  item: TransactionListItem,
): Promise<TippedSale | undefined> {
  if (item.type !== 'Capture' || item.original_id === '' || !isTippedCounterSale(item)) return undefined;
  const auth = await loadTransaction(client, item.original_id);
  return auth ? { capture: item, auth } : undefined;
}

/** Whether an authorization still holds money on the card: approved, neither captured nor voided. */
export function holdsCard(auth: TransactionListItem): boolean {
  return auth.result === 'Approved' && auth.captured !== 'true' && auth.voided !== 'true';
}

/**
 * Whether `item` has a check to print: what the guest writes the tip on before the tab is captured.
 * Only an open tab has one: an AUTH the engine would still capture, that is not a sale tipped at
 * the counter (which opened no tab, and whose amount already has the tip).
 */
export function hasCheck(item: TransactionListItem): boolean {
  return item.type === 'Auth' && item.capturable === 'true' && !isTippedCounterSale(item);
}
