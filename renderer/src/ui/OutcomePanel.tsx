/**
 * The engine's answer to a tab, a capture, a refund or a void, in a side panel: what happened in the
 * cashier's words, what to do next, and Check again after no answer (the same request, the same key).
 */
import type { ReactNode } from 'react';
import { displayMoney } from '../../../shared/money';
import { outcomeTitle, type SaleOutcome } from '../payment/outcome';
import { AlertIcon, CheckIcon, ClockIcon, CrossIcon } from './icons';

/** The picture of an answer: a tick, a clock while it is unknown, a warning for what was sent, or a cross. */
export function OutcomeIcon({ kind }: { kind: SaleOutcome['kind'] }) {
  if (kind === 'approved') return <CheckIcon />;
  if (kind === 'unknown') return <ClockIcon />;
  if (kind === 'rejected') return <AlertIcon />;
  return <CrossIcon />;
}

export function OutcomePanel({
  outcome,
  approvedTitle,
  cents,
  note,
  facts,
  onCheckAgain,
  message,
  children,
}: {
  outcome: SaleOutcome;
  /** What an approval means here: "Tab opened", "Refunded". */
  approvedTitle: string;
  /** The amount, and beside it where it went or what became of it: "to Visa •••• 1111", "hold released". */
  cents: number;
  note?: string | undefined;
  facts?: ReactNode;
  onCheckAgain?: () => void;
  /** What the answer says in the cashier's words, in place of the outcome's own message. */
  message?: ReactNode;
  /** The way on: Done, Try another card. */
  children: ReactNode;
}) {
  const approved = outcome.kind === 'approved';
  const tone = approved ? 'good' : outcome.kind === 'unknown' || outcome.kind === 'rejected' ? 'warn' : 'bad';
  return (
    <section
      className={`outcome outcome-${tone}`}
      role={approved ? 'status' : 'alert'}
      aria-labelledby="outcome-title"
      data-testid="outcome"
      data-outcome={outcome.kind}
      data-answer
    >
      <div className="outcome-badge" aria-hidden="true">
        <OutcomeIcon kind={outcome.kind} />
      </div>
      <h2 className="outcome-title" id="outcome-title">
        {outcomeTitle(outcome, approvedTitle)}
      </h2>
      <p className="outcome-summary">
        <span className="outcome-amount">{displayMoney(cents)}</span>
        {note && <span className="outcome-note">{note}</span>}
      </p>
      {approved ? (
        facts
      ) : (
        <div className="outcome-explanation">
          {message ?? (
            <p className="outcome-message" data-testid="outcome-message">
              {outcome.message}
            </p>
          )}
          {outcome.nextStep && (
            <p className="outcome-next">
              <strong>What to do: </strong>
              {outcome.nextStep}
            </p>
          )}
        </div>
      )}
      <div className="outcome-actions" data-answer-actions>
        {outcome.kind === 'unknown' && onCheckAgain && (
          <button type="button" className="button button-primary" onClick={onCheckAgain} data-autofocus>
            Check again
          </button>
        )}
        {children}
      </div>
    </section>
  );
}
