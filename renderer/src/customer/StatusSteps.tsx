/**
 * The customer's steps that only say where the sale is: welcome, the total and "Swipe your card",
 * processing, the answer in the customer's words, and thank you. Each is one large message, read
 * from a step away.
 */
import { CUSTOMER_DECLINE_WORDS, type CustomerStep } from '../../../shared/ipc/customer-contract';
import { displayMoney } from '../../../shared/money';
import { AlertIcon, CheckIcon, CrossIcon, Spinner, SwipeIllustration } from '../ui/icons';

export function IdleStep({ merchantName }: { merchantName: string }) {
  return (
    <section className="customer-message" aria-labelledby="customer-title">
      <h1 id="customer-title" className="customer-welcome">
        {merchantName ? `Welcome to ${merchantName}` : 'Welcome'}
      </h1>
      <p className="customer-note">Your total will show here.</p>
    </section>
  );
}

/** The amount to pay, large, with the tip it includes. */
export function Total({ totalCents, tipCents }: { totalCents: number; tipCents?: number }) {
  return (
    <p className="customer-total">
      <span className="customer-total-label">Total</span>
      <span className="customer-total-amount" data-testid="customer-total">
        {displayMoney(totalCents)}
      </span>
      {tipCents !== undefined && tipCents > 0 && (
        <span className="customer-total-note">includes {displayMoney(tipCents)} tip</span>
      )}
    </p>
  );
}

export function SwipeStep({ step }: { step: Extract<CustomerStep, { step: 'swipe' }> }) {
  return (
    <section className="customer-message customer-swipe" aria-labelledby="customer-title">
      <Total totalCents={step.totalCents} tipCents={step.tipCents} />
      <SwipeIllustration className="swipe-art customer-swipe-art" />
      <h1 id="customer-title">Swipe your card</h1>
    </section>
  );
}

export function ProcessingStep({ totalCents }: { totalCents: number }) {
  return (
    <section className="customer-message" aria-labelledby="customer-title" aria-busy="true">
      <Total totalCents={totalCents} />
      <Spinner className="spinner customer-spinner" />
      <div role="status">
        <h1 id="customer-title">Processing… please wait</h1>
      </div>
    </section>
  );
}

export function ApprovedStep({ totalCents }: { totalCents: number }) {
  return (
    <section className="customer-message customer-good" aria-labelledby="customer-title">
      <CheckIcon className="customer-icon" />
      <div role="status">
        <h1 id="customer-title">Approved</h1>
      </div>
      <Total totalCents={totalCents} />
    </section>
  );
}

export function DeclinedStep({ totalCents }: { totalCents: number }) {
  return (
    <section className="customer-message customer-bad" aria-labelledby="customer-title">
      <CrossIcon className="customer-icon" />
      <div role="alert">
        <h1 id="customer-title">{CUSTOMER_DECLINE_WORDS}</h1>
      </div>
      <Total totalCents={totalCents} />
    </section>
  );
}

export function SeeCashierStep() {
  return (
    <section className="customer-message" aria-labelledby="customer-title">
      <AlertIcon className="customer-icon" />
      <div role="alert">
        <h1 id="customer-title">Please see the cashier</h1>
      </div>
      <p className="customer-note">Your payment did not go through yet. The cashier will help you.</p>
    </section>
  );
}

/** "Approved", on the steps that follow an approval: the signature and the receipt. */
export function ApprovedNote() {
  return (
    <p className="customer-approved" role="status">
      <CheckIcon className="customer-approved-icon" />
      Approved
    </p>
  );
}

export function ThanksStep({ merchantName }: { merchantName: string }) {
  return (
    <section className="customer-message customer-good" aria-labelledby="customer-title">
      <div role="status">
        <h1 id="customer-title" className="customer-welcome">
          Thank you!
        </h1>
      </div>
      <p className="customer-note">Your payment is approved.</p>
      {merchantName && <p className="customer-note">See you again at {merchantName}.</p>}
    </section>
  );
}
