import { cardholderOf, cardName } from './card-text';
import type { ChargedCard } from './card-payment';
import { CardIcon } from '../ui/icons';

/** The card being charged, as far as the screen may show it: brand, last four digits, the name. */
export function CardSummary({ card }: { card: ChargedCard }) {
  const holder = cardholderOf(card);
  return (
    <div className="card-summary" data-testid="card-summary">
      <CardIcon className="card-summary-icon" />
      <div>
        <div className="card-summary-number">{cardName(card)}</div>
        <div className="card-summary-holder">
          {holder ?? (card.source === 'keyed' ? 'Keyed in' : 'Swiped')}
        </div>
      </div>
    </div>
  );
}
