/**
 * A charge the engine refused as a possible duplicate (the same card and amount just before): the
 * cashier sees the earlier charge and decides. Charging again sends the same request with
 * duplicate_override, after a manager approves when a manager PIN is set.
 */
import { useEffect, useState } from 'react';
import { displayMoney } from '../../../shared/money';
import { useTerminal } from '../terminal/terminal-context';
import { loadTransaction } from '../transactions/queries';
import { clockLabel } from '../transactions/present';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import type { ChargedCard } from './card-payment';
import { cardName } from './card-text';

type Props = {
  /** The earlier transaction's id, as the engine named it. */
  duplicateOf: string;
  cents: number;
  card: ChargedCard;
  busy?: boolean;
  onChargeAgain: () => void;
  onCancel: () => void;
};

export function DuplicatePrompt({ duplicateOf, cents, card, busy = false, onChargeAgain, onCancel }: Props) {
  const { client } = useTerminal();
  const [earlierAt, setEarlierAt] = useState<string>();
  useEffect(() => {
    let current = true;
    loadTransaction(client, duplicateOf)
      .then((earlier) => {
        if (current && earlier) setEarlierAt(clockLabel(earlier.created));
      })
      // Without the time the prompt still names the transaction.
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [client, duplicateOf]);

  return (
    <ConfirmDialog
      title="Possible duplicate"
      confirmLabel="Charge again"
      cancelLabel="Don't charge"
      tone="neutral"
      busy={busy}
      onConfirm={onChargeAgain}
      onCancel={onCancel}
    >
      <p data-testid="duplicate-question">
        Possible duplicate: <strong>{displayMoney(cents)}</strong> on {cardName(card).replace(' •••• ', ' ')}
        {earlierAt ? ` at ${earlierAt}` : ''}. Charge again?
      </p>
      <p className="note">
        The same card was charged the same amount moments ago (transaction #{duplicateOf}). Charge again only
        if the customer means to pay twice.
      </p>
    </ConfirmDialog>
  );
}
