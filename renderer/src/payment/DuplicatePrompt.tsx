/**
 * A charge the engine refused as a possible duplicate (the same card and amount just before): the
 * cashier sees the earlier charge, its time and amount in the counter's words, and decides. The
 * merchant's gateway may refuse one for a charge this counter has no record of (made elsewhere on the
 * same account): the prompt then says so and names no transaction. Don't
 * charge is the answer Enter gives; charging again is a deliberate tap, and sends the same request
 * with duplicate_override after a manager approves when one is needed.
 */
import { useEffect, useState } from 'react';
import { displayMoney } from '../../../shared/money';
import { useTerminal } from '../terminal/terminal-context';
import { centsOf, clockLabel } from '../transactions/present';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import type { ChargedCard } from './card-payment';
import { cardName } from './card-text';
import { loadEarlierCharge } from './earlier-charge';

/** The earlier charge a duplicate was refused for, as the screen names it. */
interface NamedCharge {
  /** The number the cashier was given for it: a tipped counter sale's capture, not its hold. */
  id: string;
  /** "3:36 PM" */
  at: string;
  /** "$33.33" */
  amount: string;
  /** "sale", "tab", "forced sale" or "sale hold" */
  kind: string;
}

/**
 * The earlier charge, once read. Until then no number is shown, so that a tipped sale is never
 * named by its hold for a moment; a charge that cannot be read is named by the engine's number.
 */
function useEarlierCharge(duplicateOf: string | undefined): {
  earlier?: NamedCharge;
  number?: string;
} {
  const { client } = useTerminal();
  const [read, setRead] = useState<{ of: string; earlier?: NamedCharge }>();
  useEffect(() => {
    if (duplicateOf === undefined) return;
    let current = true;
    loadEarlierCharge(client, duplicateOf)
      .then((charge) => {
        if (!current) return;
        setRead({
          of: duplicateOf,
          ...(charge && {
            earlier: {
              id: charge.id,
              at: clockLabel(charge.created),
              amount: displayMoney(centsOf(charge.amount)),
              kind: charge.kind,
            },
          }),
        });
      })
      .catch(() => {
        if (current) setRead({ of: duplicateOf });
      });
    return () => {
      current = false;
    };
  }, [client, duplicateOf]);
  if (duplicateOf === undefined || read?.of !== duplicateOf) return {};
  return read.earlier ? { earlier: read.earlier, number: read.earlier.id } : { number: duplicateOf };
}

/** " (sale #42)", " (transaction #42)" when it could not be read, or nothing while it is read. */
function named(earlier: NamedCharge | undefined, number: string | undefined): string {
  if (earlier) return ` (${earlier.kind} #${earlier.id})`;
  return number ? ` (transaction #${number})` : '';
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
  const { earlier, number } = useEarlierCharge(duplicateOf);
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
          : `The same card was charged the same amount moments ago${named(earlier, number)}.`}{' '}
        Charge again only if the customer means to pay twice.
      </p>
    </ConfirmDialog>
  );
}

/** What the answer screen says of a charge refused as a duplicate, in place of the engine's text. */
export function DuplicateRefusal({
  duplicateOf,
  card,
  className = 'result-message',
}: {
  duplicateOf: string | undefined;
  card: ChargedCard;
  /** The answer's own style for its message: the sale screen's by default, a side panel's there. */
  className?: string;
}) {
  const { earlier, number } = useEarlierCharge(duplicateOf);
  const name = cardName(card).replace(' •••• ', ' ');
  return (
    <p className={className} data-testid="result-message">
      {duplicateOf === undefined
        ? `The merchant's gateway says ${name} already paid this amount moments ago, so this charge was not sent again.`
        : earlier
          ? `${name} already paid ${earlier.amount} at ${earlier.at} (${earlier.kind} #${earlier.id}), so this charge was not sent again.`
          : `${name} already paid this amount moments ago${named(earlier, number)}, so this charge was not sent again.`}
    </p>
  );
}
