import { brandLabel } from '../../../shared/cards';
import type { ChargedCard } from './card-payment';

/** "Visa •••• 1111": how a card is named on screen. */
export function cardName(card: ChargedCard): string {
  const brand = card.source === 'swipe' ? card.card.brand : card.brand;
  const lastFour = card.source === 'swipe' ? card.card.lastFour : card.lastFour;
  return `${brandLabel(brand)} •••• ${lastFour}`;
}

export function cardholderOf(card: ChargedCard): string | undefined {
  return card.source === 'swipe' ? card.card.cardholderName : undefined;
}

/** "Visa •••• 1111 · Jane Doe", or the card alone when the swipe carried no name. */
export function cardWithHolder(card: ChargedCard): string {
  const holder = cardholderOf(card);
  return holder ? `${cardName(card)} · ${holder}` : cardName(card);
}
