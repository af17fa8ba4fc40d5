/**
 * A card taken at the counter, twice over: what the screen may keep and show of it (ChargedCard), and
 * the card fields the request sends (CardPayment). A sale, a tab and a refund take a card alike.
 */
import type { TransactionRequestBody } from '../../../shared/api/schemas';
import type { CardBrand } from '../../../shared/cards';
import type { CardSwipe, SwipedCard } from '../../../shared/ipc/contract';
import type { KeyedCard } from './keyed-card';

/** What the screen may keep of the card once the request is sent: never the number itself. */
export type ChargedCard =
  { source: 'swipe'; card: SwipedCard } | { source: 'keyed'; brand: CardBrand; lastFour: string };

/** The card fields of a request: a swipe string, or the keyed fields. */
export type CardPayment = Pick<
  TransactionRequestBody,
  'card' | 'exp_date' | 'csc' | 'billing' | 'encrypted_track_data' | 'track_format'
>;

export type TakenCard = readonly [card: ChargedCard, payment: CardPayment];

export function swipedCard(swipe: CardSwipe): TakenCard {
  return [
    { source: 'swipe', card: swipe.card },
    { encrypted_track_data: swipe.encryptedTrackData, track_format: swipe.trackFormat },
  ];
}

export function keyedCard(card: KeyedCard): TakenCard {
  return [
    { source: 'keyed', brand: card.brand, lastFour: card.lastFour },
    {
      card: card.card,
      exp_date: card.expMmyy,
      ...(card.csc && { csc: card.csc }),
      ...(card.zip && { billing: { zip: card.zip } }),
    },
  ];
}
