/**
 * A sale tipped at the counter is recorded as an AUTH of the total captured at once with the tip
 * (see payment/tipped-charge.ts): a sale to the customer, who opened no tab. The list API does not
 * carry the requests' description that says so; the receipt does, as the engine prints the capture
 * of such a sale as a SALE and its AUTH without "(TAB)". A transaction never changes what it is, so
 * each answer is kept for as long as the screens talk to the same engine.
 */
import type { TenderClient } from '../../../shared/api/client';
import type { TransactionListItem } from '../../../shared/api/schemas';
import { loadTransaction } from '../transactions/queries';

/** The receipt titles of a tipped counter sale's two requests; a tab's say "(TAB)". */
const COUNTER_SALE_TITLES: Record<string, string> = { Capture: 'SALE', Auth: 'AUTH' };

const known = new WeakMap<TenderClient, Map<string, boolean>>();

/** Whether `item` is the capture or the authorization of a sale tipped at the counter. */
export async function isTippedCounterSale(client: TenderClient, item: TransactionListItem): Promise<boolean> {
  const title = COUNTER_SALE_TITLES[item.type];
  if (title === undefined || item.result !== 'Approved') return false;
  let answers = known.get(client);
  if (!answers) {
    answers = new Map();
    known.set(client, answers);
  }
  const kept = answers.get(item.id);
  if (kept !== undefined) return kept;
  const receipt = await client.receipt(item.id);
  const answer = receipt.title === title;
  answers.set(item.id, answer);
  return answer;
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
  if (item.type !== 'Capture' || item.original_id === '') return undefined;
  if (!(await isTippedCounterSale(client, item))) return undefined;
  const auth = await loadTransaction(client, item.original_id);
  return auth ? { capture: item, auth } : undefined;
}

/** Whether an authorization still holds money on the card: approved, neither captured nor voided. */
export function holdsCard(auth: TransactionListItem): boolean {
  return auth.result === 'Approved' && auth.captured !== 'true' && auth.voided !== 'true';
}

/**
 * The captures of tabs among `captures`, without those of tipped counter sales: a customer who paid
 * at the counter opened no tab. A capture whose receipt cannot be read stays listed, as it was.
 */
export async function tabCapturesOnly(
  client: TenderClient,
  captures: readonly TransactionListItem[],
): Promise<TransactionListItem[]> {
  const kept: TransactionListItem[] = [];
  // A few at a time: the engine's reads are shared with the counter's payments.
  const AT_ONCE = 4;
  for (let start = 0; start < captures.length; start += AT_ONCE) {
    const slice = captures.slice(start, start + AT_ONCE);
    const sales = await Promise.all(
      slice.map((capture) => isTippedCounterSale(client, capture).catch(() => false)),
    );
    kept.push(...slice.filter((_, index) => !sales[index]));
  }
  return kept;
}
