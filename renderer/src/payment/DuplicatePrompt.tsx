/**
 * A charge the engine refused as a possible duplicate (the same card and amount just before): the
 * cashier sees the earlier charge, its time and amount in the counter's words, and decides. The
 * merchant's gateway may refuse one for a charge this counter has no record of (made elsewhere on the
 * same account): the prompt then says so and names no transaction. Don't
 * charge is the answer Enter gives; charging again is a deliberate tap, and sends the same request
 * with duplicate_override after a manager approves when one is needed.
 */
import { useEffect, useState } from 'react';
import type { TransactionListItem } from '../../../shared/api/schemas';
import { displayMoney } from '../../../shared/money';
import { useTerminal } from '../terminal/terminal-context';
import { loadTransaction } from '../transactions/queries';
import { centsOf, clockLabel } from '../transactions/present';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import type { ChargedCard } from './card-payment';
import { cardName } from './card-text';

/** The earlier charge a duplicate was refused for, as the screen names it. */
interface EarlierCharge {
  /** "3:36 PM" */
  at: string;
  /** "$33.33" */
  amount: string;
  /** "sale", "tab" or "forced sale" */
  kind: string;
}

const KINDS: Record<string, string> = { Sale: 'sale', Auth: 'tab', 'Forced Sale': 'forced sale' };

/** An AUTH is a tab, or the first half of a sale tipped at the counter. */
function kindOf(item: TransactionListItem): string {
  if (item.type === 'Auth') return item.counter_sale === 'true' ? 'sale' : 'tab';
  return KINDS[item.type] ?? 'charge';
}

/**
 * The earlier charge, once read; without it the screens still name it by its number. Undefined
 * when none is named.
 */
function useEarlierCharge(duplicateOf: string | undefined): EarlierCharge | undefined {
  const { client } = useTerminal();
  const [earlier, setEarlier] = useState<EarlierCharge>();
  useEffect(() => {
    if (duplicateOf === undefined) return;
    let current = true;
    loadTransaction(client, duplicateOf)
      .then((item) => {
        if (!current || !item) return;
        setEarlier({
          at: clockLabel(item.created),
          amount: displayMoney(centsOf(item.amount)),
          kind: kindOf(item),
        });
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [client, duplicateOf]);
  return earlier;
}

type Props = {
  /** The earlier transaction's id, as the engine named it; none for a charge it has no record of. */
  duplicateOf: string | undefined;
  /** What charging again charges, tip included. */
  cents: number;
  card: ChargedCard;
  busy?: boolean;
  onChargeAgain: () => void;
  onCancel: () => void;
};

export function DuplicatePrompt({ duplicateOf, cents, card, busy = false, onChargeAgain, onCancel }: Props) {
  const earlier = useEarlierCharge(duplicateOf);
  return (
    <ConfirmDialog
      title="Possible duplicate"
      confirmLabel="Charge again"
      cancelLabel="Don't charge"
      tone="neutral"
      defaultAnswer="cancel"
      settle
      busy={busy}
      onConfirm={onChargeAgain}
      onCancel={onCancel}
    >
      <p data-testid="duplicate-question">
        Possible duplicate: <strong>{displayMoney(cents)}</strong> on {cardName(card).replace(' •••• ', ' ')}
        {earlier ? ` at ${earlier.at}` : ''}. Charge again?
      </p>
      <p className="note">
        {duplicateOf === undefined
          ? "The merchant's gateway says the same card was charged the same amount moments ago, in a charge this counter has no record of."
          : `The same card was charged the same amount moments ago (transaction #${duplicateOf}).`}{' '}
        Charge again only if the customer means to pay twice.
      </p>
    </ConfirmDialog>
  );
}

/** What the answer screen says of a charge refused as a duplicate, in place of the engine's text. */
export function DuplicateRefusal({
  duplicateOf,
  card,
}: {
  duplicateOf: string | undefined;
  card: ChargedCard;
}) {
  const earlier = useEarlierCharge(duplicateOf);
  const name = cardName(card).replace(' •••• ', ' ');
  return (
    <p className="result-message" data-testid="result-message">
      {duplicateOf === undefined
        ? `The merchant's gateway says ${name} already paid this amount moments ago, so this charge was not sent again.`
        : earlier
          ? `${name} already paid ${earlier.amount} at ${earlier.at} (${earlier.kind} #${duplicateOf}), so this charge was not sent again.`
          : `${name} already paid this amount moments ago (transaction #${duplicateOf}), so this charge was not sent again.`}
    </p>
  );
}
