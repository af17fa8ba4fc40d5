/**
 * The card reader, for a screen that takes cards: each swipe as the card to show and the fields to
 * send, each failed read with the reader's reason. A screen out of view hears neither, so a swipe
 * meant for the screen in view never moves another one.
 */
import { useEffect, useRef } from 'react';
import { swipedCard, type CardPayment, type ChargedCard } from '../payment/card-payment';
import { useScreenActiveRef } from './screen-active';
import { useTerminal } from '../terminal/terminal-context';

export function useCardReader({
  onSwipe,
  onFailed,
}: {
  onSwipe(card: ChargedCard, payment: CardPayment): void;
  onFailed(message: string): void;
}): void {
  const { bridge } = useTerminal();
  const active = useScreenActiveRef();
  // Listeners registered once call the handlers of the latest render.
  const handlers = useRef({ onSwipe, onFailed });
  useEffect(() => {
    handlers.current = { onSwipe, onFailed };
  });

  useEffect(
    () =>
      bridge.on('reader:swipe', (swipe) => {
        if (active.current) handlers.current.onSwipe(...swipedCard(swipe));
      }),
    [bridge, active],
  );
  useEffect(
    () =>
      bridge.on('reader:swipe-failed', (failure) => {
        if (active.current) handlers.current.onFailed(failure.message);
      }),
    [bridge, active],
  );
}
