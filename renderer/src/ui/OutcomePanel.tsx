/**
 * The engine's answer to a tab, a capture, a refund or a void, in a side panel: what happened in the
 * cashier's words, what to do next, and Check again after no answer (the same request, the same key).
 */
import type { ReactNode } from 'react';
import type { SaleOutcome } from '../sale/outcome';
import { AlertIcon, CheckIcon, ClockIcon, CrossIcon } from './icons';

const TITLES: Record<SaleOutcome['kind'], string> = {
  approved: 'Approved',
  declined: 'Declined',
  rejected: 'Not accepted',
  error: 'Not completed',
  refused: 'Not processed',
  unknown: 'No answer',
};

export function OutcomePanel({
  outcome,
  approvedTitle,
  summary,
  facts,
  onCheckAgain,
  children,
}: {
  outcome: SaleOutcome;
  /** What an approval means here: "Tab opened", "Refunded". */
  approvedTitle: string;
  /** The amount and card, one line. */
  summary: ReactNode;
  facts?: ReactNode;
  onCheckAgain?: () => void;
  /** The way on: Done, Try another card. */
  children: ReactNode;
}) {
  const approved = outcome.kind === 'approved';
  const tone = approved ? 'good' : outcome.kind === 'unknown' || outcome.kind === 'rejected' ? 'warn' : 'bad';
  const title = approved
    ? approvedTitle
    : outcome.kind === 'unknown' && outcome.reason === 'in-progress'
      ? 'Still processing'
      : TITLES[outcome.kind];
  return (
    <section
      className={`outcome outcome-${tone}`}
      role={approved ? 'status' : 'alert'}
      aria-labelledby="outcome-title"
      data-testid="outcome"
      data-outcome={outcome.kind}
    >
      <div className="outcome-badge" aria-hidden="true">
        {approved ? (
          <CheckIcon />
        ) : outcome.kind === 'unknown' ? (
          <ClockIcon />
        ) : outcome.kind === 'rejected' ? (
          <AlertIcon />
        ) : (
          <CrossIcon />
        )}
      </div>
      <h2 className="outcome-title" id="outcome-title">
        {title}
      </h2>
      <p className="outcome-summary">{summary}</p>
      {approved ? (
        facts
      ) : (
        <div className="outcome-explanation">
          <p className="outcome-message" data-testid="outcome-message">
            {outcome.message}
          </p>
          {outcome.nextStep && (
            <p className="outcome-next">
              <strong>What to do: </strong>
              {outcome.nextStep}
            </p>
          )}
        </div>
      )}
      <div className="outcome-actions">
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
