/**
 * What a cashier can do once a card transaction of a dialog has its answer: finish, or after a
 * refusal try again (the same card, when the card was not the problem) or another card, or give up.
 * After a charge refused as a possible duplicate the customer has paid already, so giving up is all
 * there is. Nothing is offered while the answer is unknown: the outcome panel's Check again is the
 * only safe step then.
 */
import { nextAction, offersAnotherTry, type SaleOutcome } from '../payment/outcome';
import { useStepPause } from './step-pause';

export function CardOutcomeActions({
  outcome,
  onDone,
  onTryAnotherCard,
  onCancel,
  cancelLabel,
}: {
  outcome: SaleOutcome;
  onDone(): void;
  onTryAnotherCard(): void;
  onCancel(): void;
  cancelLabel: string;
}) {
  const { paused, guard } = useStepPause();
  if (outcome.kind === 'approved') {
    return (
      <button
        type="button"
        className="button button-primary"
        aria-disabled={paused || undefined}
        onClick={guard(onDone)}
        autoFocus
      >
        Done
      </button>
    );
  }
  if (outcome.kind === 'unknown') return null;
  const anotherCard = {
    label: nextAction(outcome) === 'try-again' ? 'Try again' : 'Try another card',
    act: onTryAnotherCard,
  };
  const giveUp = { label: cancelLabel, act: onCancel };
  // After a possible duplicate the customer has paid, or holds a tab, on this card already: another
  // card would charge them twice. Giving up is the one way on, as on the sale screen.
  const another = offersAnotherTry(outcome);
  const first = another ? anotherCard : giveUp;
  return (
    <>
      <button
        type="button"
        className="button button-primary"
        aria-disabled={paused || undefined}
        onClick={guard(first.act)}
        autoFocus
      >
        {first.label}
      </button>
      {another && (
        <button
          type="button"
          className="button button-quiet"
          aria-disabled={paused || undefined}
          onClick={guard(giveUp.act)}
        >
          {giveUp.label}
        </button>
      )}
    </>
  );
}
