/**
 * Asks before a tip larger than the merchant expects is captured, naming the tip and the check of
 * each tab, so that a tip typed into the wrong field or with a digit too many is caught.
 */
import { displayMoney } from '../../../shared/money';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { percentOfCheck } from './tip-math';

export interface TipToConfirm {
  tabId: string;
  checkCents: number;
  tipCents: number;
}

type Props = {
  tips: readonly TipToConfirm[];
  /** The share of the check above which a tip is confirmed (tip_warn_percent). */
  warnPercent: number;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
};

export function LargeTipConfirm({ tips, warnPercent, confirmLabel, onConfirm, onCancel }: Props) {
  const one = tips.length === 1;
  return (
    <ConfirmDialog
      title={one ? 'Is this tip right?' : `Are these ${tips.length} tips right?`}
      confirmLabel={confirmLabel}
      cancelLabel="Change the tip"
      tone="neutral"
      defaultAnswer="cancel"
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <ul className="large-tips" data-testid="large-tips">
        {tips.map(({ tabId, checkCents, tipCents }) => (
          <li key={tabId}>
            Tab #{tabId}: a <strong>{displayMoney(tipCents)}</strong> tip on a{' '}
            <strong>{displayMoney(checkCents)}</strong> check ({percentOfCheck(checkCents, tipCents)}%),{' '}
            {displayMoney(checkCents + tipCents)} in all.
          </li>
        ))}
      </ul>
      <p className="note">
        {one ? 'It is' : 'They are'} above {warnPercent}% of the check
        {tips.some((tip) => tip.tipCents > tip.checkCents) ? ', or above the check itself' : ''}.
      </p>
    </ConfirmDialog>
  );
}
