/** Asks before anything that moves money back or cannot be undone: says exactly what will happen. */
import type { ReactNode } from 'react';
import { useManagerAsking } from './manager-asking';
import { Dialog } from './Dialog';
import { ProblemNotice } from './ProblemNotice';
import { BusyButton } from './BusyButton';
import { useStepPause } from './step-pause';

type Props = {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  tone?: 'neutral' | 'danger';
  busy?: boolean;
  /** A refusal or a failure of the last attempt, shown in the dialog so the cashier can try again. */
  problem?: string | undefined;
  /**
   * The confirm button, and the answer Enter gives, wait a moment after the dialog appears, for a
   * question raised by a key or tap that may come twice (Enter on Charge): the second must not answer
   * it, either way, before the cashier has seen it.
   */
  settle?: boolean;
  /**
   * Which answer Enter gives when the dialog opens: confirming, unless doing nothing is the safe
   * answer to a question the cashier may not have read (charging a card twice, an amount or a tip
   * above what the counter asks to confirm).
   */
  defaultAnswer?: 'confirm' | 'cancel';
  /** Enter in one of the dialog's fields confirms, as it would submit a form (Add a person, a new PIN). */
  submitOnEnter?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
};

export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  cancelLabel = 'Cancel',
  tone = 'danger',
  busy = false,
  problem,
  settle = false,
  defaultAnswer = 'confirm',
  submitOnEnter = false,
  onConfirm,
  onCancel,
}: Props) {
  const { paused, guard } = useStepPause();
  const waiting = settle && paused;
  const cancelFirst = defaultAnswer === 'cancel';
  // While a manager types the PIN for this, the PIN dialog stands alone; this comes back after.
  if (useManagerAsking()) return null;
  return (
    <Dialog title={title} onCancel={onCancel} tone={tone} busy={busy} testId="confirm-dialog">
      <div
        className="dialog-body"
        onKeyDown={
          submitOnEnter
            ? (event) => {
                if (event.key !== 'Enter' || !(event.target instanceof HTMLInputElement) || busy) return;
                event.preventDefault();
                onConfirm();
              }
            : undefined
        }
      >
        {children}
      </div>
      <ProblemNotice problem={problem} />
      <div className="dialog-actions">
        <button
          type="button"
          className={cancelFirst ? 'button button-primary' : 'button button-secondary'}
          onClick={settle && cancelFirst ? guard(onCancel) : onCancel}
          aria-disabled={(waiting && cancelFirst) || undefined}
          disabled={busy}
          data-autofocus={cancelFirst || undefined}
        >
          {cancelLabel}
        </button>
        <BusyButton
          type="button"
          className={
            tone === 'danger'
              ? 'button button-danger'
              : cancelFirst
                ? 'button button-secondary'
                : 'button button-primary'
          }
          onClick={settle ? guard(onConfirm) : onConfirm}
          aria-disabled={waiting || undefined}
          busy={busy}
          data-autofocus={!cancelFirst || undefined}
        >
          {confirmLabel}
        </BusyButton>
      </div>
    </Dialog>
  );
}
