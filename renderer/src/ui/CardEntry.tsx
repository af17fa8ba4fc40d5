/**
 * Taking a card for something other than a sale (a tab, a refund to a card): a swipe, or the card
 * keyed in. The swipe itself is delivered by the screen, which listens to the reader only while this
 * is in view; this shows the wait, the reader's state and the keyed form.
 */
import { useEffect, useRef } from 'react';
import { displayMoney } from '../../../shared/money';
import { keyedCard, type CardPayment, type ChargedCard } from '../payment/card-payment';
import { KeyedCardForm } from '../payment/KeyedCardForm';
import { useScreenActiveRef } from './screen-active';
import { ArrowLeftIcon } from './icons';
import { KeyHint } from './KeyHint';
import { SwipeWaitPanel } from './SwipeWaitPanel';

type Props = {
  cents: number;
  mode: 'swipe' | 'keyed';
  onMode: (mode: 'swipe' | 'keyed') => void;
  /** "Open the tab", "Refund": the keyed form's button reads "<verb> $12.50". */
  verb: string;
  notice?: string | undefined;
  onKeyed: (card: ChargedCard, payment: CardPayment) => void;
  onBack: () => void;
  backLabel: string;
};

export function CardEntry({ cents, mode, onMode, verb, notice, onKeyed, onBack, backLabel }: Props) {
  const active = useScreenActiveRef();
  const current = useRef({ mode, onMode, onBack });
  useEffect(() => {
    current.current = { mode, onMode, onBack };
  });

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!active.current || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
      if (document.querySelector('dialog[open]')) return;
      const typing =
        event.target instanceof HTMLElement && event.target.closest('input, textarea, select') !== null;
      const { mode: shown } = current.current;
      if (event.key === 'Escape') {
        event.preventDefault();
        if (shown === 'keyed') current.current.onMode('swipe');
        else current.current.onBack();
      } else if (!typing && shown === 'swipe' && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        current.current.onMode('keyed');
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [active]);

  if (mode === 'keyed') {
    return (
      <KeyedCardForm
        cents={cents}
        notice={notice}
        submitLabel={`${verb} ${displayMoney(cents)}`}
        onBack={() => onMode('swipe')}
        onCharge={(card) => onKeyed(...keyedCard(card))}
      />
    );
  }

  return (
    <SwipeWaitPanel
      className="card-entry"
      waiting={`Waiting for the card. ${verb} ${displayMoney(cents)} as soon as it is read.`}
      notice={notice}
      onKeyIn={() => onMode('keyed')}
    >
      <button type="button" className="button button-quiet" onClick={onBack}>
        <ArrowLeftIcon className="button-icon" />
        {backLabel}
        <KeyHint>Esc</KeyHint>
      </button>
    </SwipeWaitPanel>
  );
}
