/**
 * What the customer's screen is showing, on the cashier's screen: the step the customer is on
 * ("Customer is choosing a tip", "Signing", "Choosing a receipt"), what they chose, and the
 * cashier's ways past it: Skip for the tip and the signature, Cancel before the card is read.
 */
import { useState } from 'react';
import type { CustomerView } from '../../../shared/ipc/customer-contract';
import { displayMoney } from '../../../shared/money';
import { BusyButton } from '../ui/BusyButton';
import { CustomerScreenIcon } from '../ui/icons';
import { ProblemNotice } from '../ui/ProblemNotice';
import { ResultNotice } from '../ui/ResultNotice';

const STEP_WORDS: Record<CustomerView['step']['step'], string> = {
  idle: 'Customer screen is showing the welcome',
  tip: 'Customer is choosing a tip',
  swipe: 'Customer screen asks for the card',
  processing: 'Customer screen says: processing',
  approved: 'Customer screen says: approved',
  declined: 'Customer screen says: declined, please use another card',
  'see-cashier': 'Customer screen asks the customer to see you',
  signature: 'Customer is signing',
  receipt: 'Customer is choosing a receipt',
  thanks: 'Customer screen says thank you',
};

const RECEIPT_WORDS = { print: 'Print', email: 'Email', none: 'No receipt' } as const;

export function CustomerProgress({
  view,
  onSkip,
  onCancel,
  main = false,
}: {
  view: CustomerView;
  /** The whole of its panel (while the customer chooses the tip), rather than a note under another. */
  main?: boolean;
  /** Offered on the tip and the signature. */
  onSkip?: () => Promise<string | undefined>;
  /** Offered before the card is read. */
  onCancel?: () => Promise<string | undefined>;
}) {
  const [busy, setBusy] = useState<'skip' | 'cancel'>();
  const [problem, setProblem] = useState<string>();
  const { step, choices, screen } = view;
  const skippable = step.step === 'tip' || step.step === 'signature';
  const run = async (what: 'skip' | 'cancel', action: () => Promise<string | undefined>) => {
    setBusy(what);
    setProblem(await action());
    setBusy(undefined);
  };
  const facts: string[] = [];
  if (choices.tipCents !== undefined) {
    facts.push(
      choices.tipCents === 0
        ? `Tip: none${choices.tipLabel === 'Skipped' ? ' (skipped)' : ''}`
        : `Tip: ${displayMoney(choices.tipCents)}${choices.tipLabel && choices.tipLabel !== 'Custom' ? ` (${choices.tipLabel})` : ''}`,
    );
  }
  if (choices.signed !== undefined) facts.push(choices.signed ? 'Signed on screen' : 'Signature skipped');
  if (choices.receipt) {
    facts.push(
      `Receipt: ${RECEIPT_WORDS[choices.receipt]}${choices.receipt === 'email' && choices.receiptEmail ? ` to ${choices.receiptEmail}` : ''}`,
    );
  }

  return (
    <section
      className={main ? 'card-panel customer-progress customer-progress-main' : 'customer-progress'}
      aria-label="Customer screen"
      data-testid="customer-progress"
    >
      {main && <CustomerScreenIcon className="customer-progress-icon" />}
      <p className="customer-progress-step" role="status" data-customer-step={step.step}>
        {screen.connected ? STEP_WORDS[step.step] : 'The customer screen is not connected'}
      </p>
      {main && screen.connected && step.step === 'tip' && (
        <p className="card-panel-text">The card is taken once the customer has chosen.</p>
      )}
      {facts.length > 0 && (
        <ul className="customer-progress-facts" data-testid="customer-choices">
          {facts.map((fact) => (
            <li key={fact}>{fact}</li>
          ))}
        </ul>
      )}
      {choices.receiptNotices.map((notice, index) => (
        <ResultNotice key={`${index}-${notice.message}`} result={notice} />
      ))}
      <ProblemNotice problem={problem} />
      {(skippable && onSkip) || onCancel ? (
        <div className="customer-progress-actions">
          {skippable && onSkip && (
            <BusyButton
              type="button"
              className="button button-secondary"
              busy={busy === 'skip'}
              onClick={() => void run('skip', onSkip)}
            >
              {step.step === 'tip' ? 'Skip the tip' : 'Skip the signature'}
            </BusyButton>
          )}
          {onCancel && (
            <BusyButton
              type="button"
              className="button button-quiet"
              busy={busy === 'cancel'}
              onClick={() => void run('cancel', onCancel)}
            >
              Cancel the sale
            </BusyButton>
          )}
        </div>
      ) : null}
    </section>
  );
}
