/** The card side of a sale: waiting for a swipe, the keyed-card form, and the charge in flight. */
import { displayMoney } from '../../../shared/money';
import { readerHint } from '../shell/ReaderStatus';
import { useTerminal } from '../terminal/terminal-context';
import { KeyboardIcon, Spinner, SwipeIllustration } from '../ui/icons';
import { CardSummary } from './CardSummary';
import { KeyedCardForm } from './KeyedCardForm';
import type { CardPayment } from './SaleScreen';
import type { ChargedCard, SaleAction, SaleState } from './sale-state';
import { KeyHint } from '../ui/KeyHint';

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
        onCharge={(card) =>
          onCharge(
            { source: 'keyed', brand: card.brand, lastFour: card.lastFour },
            {
              card: card.card,
              exp_date: card.expMmyy,
              ...(card.csc && { csc: card.csc }),
              ...(card.zip && { billing: { zip: card.zip } }),
            },
          )
        }
      />
    );
  }
  return <SwipeWait notice={state.notice} act={act} />;
}

function SwipeWait({ notice, act }: { notice: string | undefined; act: (action: SaleAction) => void }) {
  const { reader, link } = useTerminal();
  const ready = reader.state === 'connected' && link === 'up';
  const hint =
    link === 'up' ? readerHint(reader) : 'Swipes cannot reach this screen until Tender reconnects.';
  return (
    <div className="card-panel" data-testid="waiting-for-swipe">
      <div className={ready ? 'swipe-stage' : 'swipe-stage swipe-stage-idle'}>
        <SwipeIllustration />
      </div>
      <h2 className="card-panel-title">{ready ? 'Swipe the card' : 'Key in the card'}</h2>
      <p className="card-panel-text" role="status">
        {hint ?? 'Waiting for the card. The sale is charged as soon as the card is read.'}
      </p>
      {notice && (
        <p className="notice notice-bad" role="alert">
          {notice}
        </p>
      )}
      <div className="card-panel-actions">
        <button
          type="button"
          className={ready ? 'button button-secondary' : 'button button-primary'}
          onClick={() => act({ type: 'key-in' })}
          autoFocus
        >
          <KeyboardIcon className="button-icon" />
          Key in the card
          <KeyHint>K</KeyHint>
        </button>
      </div>
    </div>
  );
}
