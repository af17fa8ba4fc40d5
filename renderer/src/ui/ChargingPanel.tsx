/** A card request on its way: the card it was read from, what is being done, and to wait for the answer. */
import { CardSummary } from '../payment/CardSummary';
import type { ChargedCard } from '../payment/card-payment';
import { Spinner } from './icons';

export function ChargingPanel({
  card,
  title,
  note = 'Keep the card until the answer shows.',
  assertive = false,
}: {
  card: ChargedCard;
  /** "Refunding $12.50…" */
  title: string;
  note?: string;
  /** Announced at once, before anything else the screen reader has to say. */
  assertive?: boolean;
}) {
  return (
    <div
      className="card-panel card-panel-charging"
      role="status"
      aria-live={assertive ? 'assertive' : undefined}
      data-testid="charging"
    >
      <CardSummary card={card} />
      <Spinner className="spinner charging-spinner" />
      <h2 className="card-panel-title">{title}</h2>
      <p className="card-panel-text">{note}</p>
    </div>
  );
}
