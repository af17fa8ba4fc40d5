/**
 * The way on from the answer to a capture, a refund or a void of something on screen: Done once it
 * is approved, or back to it after a refusal. Nothing is offered while the answer is unknown: the
 * outcome panel's Check again is the only safe step then.
 */
import type { SaleOutcome } from '../payment/outcome';

export function DoneOrBackActions({
  outcome,
  onDone,
  onBack,
  backLabel,
}: {
  outcome: SaleOutcome;
  onDone(): void;
  onBack(): void;
  /** "Back to the tab" */
  backLabel: string;
}) {
  if (outcome.kind === 'unknown') return null;
  if (outcome.kind === 'approved') {
    return (
      <button type="button" className="button button-primary" onClick={onDone} autoFocus>
        Done
      </button>
    );
  }
  return (
    <button type="button" className="button button-secondary" onClick={onBack} autoFocus>
      {backLabel}
    </button>
  );
}
