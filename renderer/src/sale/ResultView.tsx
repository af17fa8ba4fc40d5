/**
 * The answer, filling the screen: approved with its authorization code, or what went wrong in the
 * cashier's words and what to do next. Enter starts the next sale.
 */
import { displayMoney } from '../../../shared/money';
import { AlertIcon, CheckIcon, ClockIcon, CrossIcon } from '../ui/icons';
import { cardholderOf, cardName } from './card-text';
import type { SaleOutcome } from './outcome';
import type { ChargedCard, SaleDetails } from './sale-state';
import { KeyHint } from '../ui/KeyHint';

type Props = {
  sale: SaleDetails;
  card: ChargedCard;
  outcome: SaleOutcome;
  onNewSale: () => void;
  onTryAgain: () => void;
};

const PRESENTATION: Record<SaleOutcome['kind'], { tone: string; title: string }> = {
  approved: { tone: 'approved', title: 'Approved' },
  declined: { tone: 'declined', title: 'Declined' },
  rejected: { tone: 'rejected', title: 'Not accepted' },
  error: { tone: 'declined', title: 'Not completed' },
  refused: { tone: 'declined', title: 'Not processed' },
  unreachable: { tone: 'unknown', title: 'No answer' },
};

export function ResultView({ sale, card, outcome, onNewSale, onTryAgain }: Props) {
  const { tone, title } = PRESENTATION[outcome.kind];
  const approved = outcome.kind === 'approved';
  const canTryAgain = !approved && outcome.kind !== 'unreachable';
  const holder = cardholderOf(card);

  return (
    <div className={`result result-${tone}`} data-testid="sale-result" data-outcome={outcome.kind}>
      <section className="result-card" role={approved ? 'status' : 'alert'} aria-labelledby="result-title">
        <div className="result-badge">
          {approved ? (
            <CheckIcon />
          ) : outcome.kind === 'unreachable' ? (
            <ClockIcon />
          ) : outcome.kind === 'rejected' ? (
            <AlertIcon />
          ) : (
            <CrossIcon />
          )}
        </div>
        <h1 className="result-title" id="result-title">
          {title}
        </h1>
        <p className="result-amount">
          {displayMoney(sale.cents)}
          {!approved && outcome.kind !== 'unreachable' && (
            <span className="result-amount-note"> not charged</span>
          )}
        </p>

        {outcome.kind === 'approved' ? (
          <dl className="result-facts">
            <div className="result-fact result-fact-code">
              <dt>Authorization code</dt>
              <dd data-testid="authorization-code">{outcome.authorizationCode}</dd>
            </div>
            <div className="result-fact">
              <dt>Card</dt>
              <dd>
                {cardName(card)}
                {holder && <span className="result-holder">{holder}</span>}
              </dd>
            </div>
            <div className="result-fact">
              <dt>Transaction</dt>
              <dd>#{outcome.transactionId}</dd>
            </div>
            {sale.invoice.trim() && (
              <div className="result-fact">
                <dt>Invoice</dt>
                <dd>{sale.invoice.trim()}</dd>
              </div>
            )}
            {sale.orderNumber && (
              <div className="result-fact">
                <dt>Order</dt>
                <dd>{sale.orderNumber}</dd>
              </div>
            )}
          </dl>
        ) : (
          <div className="result-explanation">
            <p className="result-message" data-testid="result-message">
              {outcome.message}
            </p>
            {outcome.nextStep && (
              <p className="result-next">
                <strong>What to do: </strong>
                {outcome.nextStep}
              </p>
            )}
            <p className="result-card-line">
              {cardName(card)}
              {holder && ` · ${holder}`}
              {'transactionId' in outcome && outcome.transactionId && ` · Attempt #${outcome.transactionId}`}
            </p>
          </div>
        )}

        <div className="result-actions">
          <button type="button" className="button button-primary button-large" onClick={onNewSale} autoFocus>
            New sale
            <KeyHint>Enter</KeyHint>
          </button>
          {canTryAgain && (
            <button type="button" className="button button-secondary button-large" onClick={onTryAgain}>
              Try another card
              <KeyHint>T</KeyHint>
            </button>
          )}
        </div>
      </section>
    </div>
  );
}
