/**
 * A card the customer swiped while the cashier was still typing the amount: shown masked, and
 * charged as soon as the amount is confirmed with Charge. The cashier can let it go instead.
 */
import { cardWithHolder } from '../payment/card-text';
import type { ChargedCard } from '../payment/card-payment';

export function HeldCard({ card, onDrop }: { card: ChargedCard; onDrop: () => void }) {
  return (
    <div className="held-card" role="status" data-testid="held-card">
      <p>
        <strong>Card ready: {cardWithHolder(card)}</strong>
        <span>It is charged when you press Charge.</span>
      </p>
      <button type="button" className="button button-quiet" onClick={onDrop}>
        Don’t use this card
      </button>
    </div>
  );
}
