/** The card side of a sale: waiting for a swipe, the keyed-card form, and the charge in flight. */
import { displayMoney } from '../../../shared/money';
import { Spinner } from '../ui/icons';
import { SwipeWaitPanel } from '../ui/SwipeWaitPanel';
import { CardSummary } from './CardSummary';
import { keyedCard, type CardPayment } from './card-payment';
import { KeyedCardForm } from './KeyedCardForm';
import type { ChargedCard, SaleAction, SaleState } from './sale-state';

type Props = {
  state: Extract<SaleState, { step: 'card' | 'charging' }>;
  act: (action: SaleAction) => void;
  onCharge: (card: ChargedCard, payment: CardPayment) => void;
};

export function CardPanel({ state, act, onCharge }: Props) {
  if (state.step === 'charging') {
    return (
      <div
        className="card-panel card-panel-charging"
        role="status"
        aria-live="assertive"
        data-testid="charging"
      >
        <CardSummary card={state.card} />
        <Spinner className="spinner charging-spinner" />
        <h2 className="card-panel-title">Charging {displayMoney(state.sale.cents)}…</h2>
        <p className="card-panel-text">Keep the card until the answer shows. Do not swipe it again.</p>
      </div>
    );
  }
  if (state.mode === 'keyed') {
    return (
      <KeyedCardForm
        cents={state.sale.cents}
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
