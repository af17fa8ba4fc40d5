/**
 * Whether History's Reprint offers a transaction's check. A check is what the guest writes the tip
 * on before the tab is captured, so the engine has one only for an open tab: an approved AUTH,
 * neither voided nor captured, that is not a sale tipped at the counter (which opened no tab, and
 * whose amount already has the tip). Offered for anything else, the preview would open on the
 * engine's refusal instead of a receipt.
 */
import type { TenderClient } from '../../../shared/api/client';
import type { TransactionListItem } from '../../../shared/api/schemas';
import { holdsCard, isTippedCounterSale } from '../refunds/counter-sale';
import { useLoad } from '../ui/use-load';

/**
 * Whether `item` has a check to reprint. Only an AUTH still holding the card asks its receipt
 * whether it is a counter sale; until the answer comes, or if it cannot be read, Reprint offers the
 * customer and merchant copies, which every transaction has.
 */
export function useHasCheck(client: TenderClient, item: TransactionListItem): boolean {
  const candidate = item.type === 'Auth' && holdsCard(item);
  const counterSale = useLoad(
    () => isTippedCounterSale(client, item),
    [client, item.id, candidate],
    candidate,
  );
  return candidate && !counterSale.loading && counterSale.data === false;
}
