/**
 * The answer, filling the screen: approved with its authorization code, or what went wrong in the
 * cashier's words and what to do next. Enter does what comes next (see nextAction); for a moment
 * after the answer appears its buttons do nothing (see step-pause).
 */
import type { ReactNode } from 'react';
import { displayMoney } from '../../../shared/money';
import { OutcomeIcon } from '../ui/OutcomePanel';
import { cardholderOf, cardName, cardWithHolder } from '../payment/card-text';
import {
  isPossibleDuplicate,
  nextAction,
  offersAnotherTry,
  outcomeTitle,
  type SaleOutcome,
} from '../payment/outcome';
import { DuplicateRefusal } from '../payment/DuplicatePrompt';
import type { ChargedCard } from '../payment/card-payment';
import { totalOf, type SaleDetails } from './sale-state';
import { KeyHint } from '../ui/KeyHint';
import { useStepPause } from '../ui/step-pause';
import { ReceiptActions } from '../receipts/ReceiptActions';

type Props = {
  sale: SaleDetails;
  card: ChargedCard;
  outcome: SaleOutcome;
  /** The card holds an approved AUTH of this sale: no other card may be taken for it. */
  holdsCard?: boolean;
  /** What the customer's screen shows and what the customer chose, when the sale ran on it. */
  customer?: ReactNode;
  /**
   * Print what the settings print by themselves after an approval. Off when the customer's screen
   * does it once the customer has signed, so the copy to sign carries the signature.
   */
  printsByItself?: boolean;
  onNewSale: () => void;
  onTryAgain: () => void;
  onCheckAgain: () => void;
};

const TONES: Record<SaleOutcome['kind'], string> = {
  approved: 'approved',
  declined: 'declined',
  rejected: 'rejected',
  error: 'declined',
  refused: 'declined',
  unknown: 'unknown',
};

export function ResultView({
  sale,
  card,
  outcome,
  holdsCard = false,
  customer,
  printsByItself = customer === undefined,
  onNewSale,
  onTryAgain,
  onCheckAgain,
}: Props) {
  const tone = TONES[outcome.kind];
  const approved = outcome.kind === 'approved';
  const unknown = outcome.kind === 'unknown';
  const canTryAgain = offersAnotherTry(outcome, holdsCard);
  const next = nextAction(outcome, holdsCard);
  const newSaleFirst = next === 'new-sale';
  const holder = cardholderOf(card);
  const { paused, guard } = useStepPause();

  return (
    <div
      className={`result result-${tone}`}
      data-testid="sale-result"
      data-outcome={outcome.kind}
      data-answer
    >
      <section className="result-card" role={approved ? 'status' : 'alert'} aria-labelledby="result-title">
        <div className="result-badge">
          <OutcomeIcon kind={outcome.kind} />
        </div>
        <h1 className="result-title" id="result-title">
          {outcomeTitle(outcome)}
        </h1>
        <p className="result-amount">
          {displayMoney(totalOf(sale))}
          {!approved && !unknown && !holdsCard && <span className="result-amount-note"> not charged</span>}
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
            {sale.tipLabel && (
              <div className="result-fact" data-testid="result-tip">
                <dt>Tip</dt>
                <dd>
                  {sale.tipCents === 0
                    ? 'No tip'
                    : `${displayMoney(sale.tipCents)} on ${displayMoney(sale.cents)}${sale.tipLabel.endsWith('%') ? ` (${sale.tipLabel})` : ''}`}
                </dd>
              </div>
            )}
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
            {isPossibleDuplicate(outcome) ? (
              <DuplicateRefusal duplicateOf={outcome.duplicateOf} card={card} />
            ) : (
              <p className="result-message" data-testid="result-message">
                {outcome.message}
              </p>
            )}
            {outcome.nextStep && (
              <p className="result-next">
                <strong>What to do: </strong>
                {outcome.nextStep}
              </p>
            )}
            <p className="result-card-line">
              {cardWithHolder(card)}
              {'transactionId' in outcome && outcome.transactionId && ` · Attempt #${outcome.transactionId}`}
            </p>
          </div>
        )}

        {customer}
        {outcome.kind === 'approved' && (
          // The buttons stay for the cashier whoever prints what prints by itself.
          <ReceiptActions
            transactionId={outcome.transactionId}
            isTab={false}
            printsByItself={printsByItself}
          />
        )}

        <div className="result-actions" data-answer-actions>
          {canTryAgain && (
            // After a refusal the customer is still there with another card, or the same one when the
            // card was not the problem: that is the next step, unless the customer has already paid.
            <button
              type="button"
              className={
                newSaleFirst ? 'button button-secondary button-large' : 'button button-primary button-large'
              }
              aria-disabled={paused || undefined}
              onClick={guard(onTryAgain)}
              autoFocus={!newSaleFirst}
            >
              {next === 'try-again' ? 'Try again' : 'Try another card'}
              <KeyHint>{newSaleFirst ? 'T' : 'Enter'}</KeyHint>
            </button>
          )}
          {unknown && (
            // Resending is the safe way to learn the outcome, so it comes first; a new sale is still one key.
            <button
              type="button"
              className="button button-primary button-large"
              aria-disabled={paused || undefined}
              onClick={guard(onCheckAgain)}
              autoFocus
            >
              Check again
              <KeyHint>Enter</KeyHint>
            </button>
          )}
          <button
            type="button"
            className={
              newSaleFirst ? 'button button-primary button-large' : 'button button-secondary button-large'
            }
            aria-disabled={paused || undefined}
            onClick={guard(onNewSale)}
            autoFocus={newSaleFirst}
          >
            New sale
            <KeyHint>{newSaleFirst ? 'Enter' : 'N'}</KeyHint>
          </button>
        </div>
      </section>
    </div>
  );
}
