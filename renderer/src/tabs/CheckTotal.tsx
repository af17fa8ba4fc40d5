/** The check, its tip when tips are taken, and the total the capture will charge, always in view. */
import { displayMoney } from '../../../shared/money';

export function CheckTotal({ checkCents, tipCents }: { checkCents: number; tipCents?: number | undefined }) {
  return (
    <div className="totals totals-compact" aria-live="polite">
      <span className="totals-parts">
        Check {displayMoney(checkCents)}
        {tipCents !== undefined && (
          <>
            {' + tip '}
            <span data-testid="tip-shown">{displayMoney(tipCents)}</span>
          </>
        )}
      </span>
      <span className="totals-grand-inline">
        Total <strong data-testid="capture-total">{displayMoney(checkCents + (tipCents ?? 0))}</strong>
      </span>
    </div>
  );
}
