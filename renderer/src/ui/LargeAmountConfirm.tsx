/**
 * An amount above the limit set in Settings (confirm_amount_above) said back in words and digits
 * before the card is taken, so a slipped zero or a double 00 shows before it is charged.
 */
import { displayMoney } from '../../../shared/money';
import { amountInWords } from '../../../shared/money-words';
import { ConfirmDialog } from './ConfirmDialog';

type Props = {
  cents: number;
  limitCents: number;
  /** What confirming does, with the amount: "Charge $125,000.00". */
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
};

export function LargeAmountConfirm({ cents, limitCents, confirmLabel, onConfirm, onCancel }: Props) {
  return (
    <ConfirmDialog
      title="Is this amount right?"
      confirmLabel={confirmLabel}
      cancelLabel="Change the amount"
      tone="neutral"
      defaultAnswer="cancel"
      settle
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <p className="large-amount" data-testid="large-amount">
        <strong className="large-amount-digits">{displayMoney(cents)}</strong>
        <span className="large-amount-words">{amountInWords(cents)}</span>
      </p>
      <p className="note">
        This is above {displayMoney(limitCents)}, the amount Settings asks to confirm. Check it with the
        customer before taking the card.
      </p>
    </ConfirmDialog>
  );
}

/** Whether an amount needs that confirmation. */
export const needsAmountConfirm = (cents: number, limitCents: number): boolean => cents > limitCents;
