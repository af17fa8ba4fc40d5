/** The card side of a sale: waiting for a swipe, the keyed-card form, and the charge in flight. */
import { displayMoney } from '../../../shared/money';
import { ChargingPanel } from '../ui/ChargingPanel';
import { SwipeWaitPanel } from '../ui/SwipeWaitPanel';
import { keyedCard, type CardPayment, type ChargedCard } from '../payment/card-payment';
import { KeyedCardForm } from '../payment/KeyedCardForm';
import { totalOf, type SaleAction, type SaleState } from './sale-state';

type Props = {
  state: Extract<SaleState, { step: 'card' | 'charging' }>;
  act: (action: SaleAction) => void;
  onCharge: (card: ChargedCard, payment: CardPayment) => void;
};

export function CardPanel({ state, act, onCharge }: Props) {
  if (state.step === 'charging') {
    return (
      <ChargingPanel
        card={state.card}
        title={`Charging ${displayMoney(totalOf(state.sale))}…`}
        note="Keep the card until the answer shows. Do not swipe it again."
        assertive
      />
    );
  }
  if (state.mode === 'keyed') {
    return (
      <KeyedCardForm
        cents={totalOf(state.sale)}
        notice={state.notice}
        onBack={() => act({ type: 'swipe-instead' })}
        onCharge={(card) => onCharge(...keyedCard(card))}
      />
    );
  }
  return <SwipeWait notice={state.notice} act={act} />;
}

function SwipeWait({ notice, act }: { notice: string | undefined; act: (action: SaleAction) => void }) {
  return (
    <SwipeWaitPanel
      waiting="Waiting for the card. The sale is charged as soon as the card is read."
      notice={notice}
      onKeyIn={() => act({ type: 'key-in' })}
    />
  );
}
