/** The sale's ticket: the amount as money while it is typed, and the optional references. */
import type { KeyboardEvent } from 'react';
import { displayMoney } from '../../../shared/money';
import type { SaleAction, SaleState } from './sale-state';
import { KeyHint } from '../ui/KeyHint';

type Props = {
  state: Exclude<SaleState, { step: 'result' }>;
  act: (action: SaleAction) => void;
  /** The sale shows on the customer's screen (at the amount: one is connected and switched on). */
  customerScreen?: boolean;
};

const STEPS = ['Amount', 'Card', 'Answer'] as const;
const STEPS_WITH_TIP = ['Amount', 'Tip', 'Card', 'Answer'] as const;

const AMOUNT_SHORTCUTS = [
  ['0-9', 'amount'],
  ['Backspace', 'last digit'],
  ['Esc', 'clear'],
  ['Enter', 'charge'],
] as const;
const TIP_SHORTCUTS = [
  ['0-9', 'other tip'],
  ['Enter', 'add it'],
  ['Esc', 'change the amount'],
] as const;
const SWIPE_SHORTCUTS = [
  ['K', 'key in the card'],
  ['Esc', 'change the amount'],
] as const;
const KEYED_SHORTCUTS = [
  ['Tab', 'next field'],
  ['Enter', 'charge'],
  ['Esc', 'swipe instead'],
] as const;

export function AmountPanel({ state, act, customerScreen = false }: Props) {
  const { cents, invoice, orderNumber, tipCents, tipLabel } = state.sale;
  const editable = state.step === 'amount';
  const withTip = state.step === 'tip' || tipLabel !== '';
  const steps = withTip ? STEPS_WITH_TIP : STEPS;
  const stepIndex = state.step === 'amount' ? 0 : state.step === 'tip' || !withTip ? 1 : 2;
  const untouched = state.step === 'amount' && state.untouched === true;
  const shortcuts =
    state.step === 'amount'
      ? AMOUNT_SHORTCUTS
      : state.step === 'tip' && !customerScreen
        ? TIP_SHORTCUTS
        : state.step === 'card' && state.mode === 'keyed'
          ? KEYED_SHORTCUTS
          : state.step === 'card'
            ? SWIPE_SHORTCUTS
            : [];
  const submitOnEnter = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    act({ type: 'take-card' });
  };

  return (
    <section className="ticket" aria-labelledby="ticket-title">
      <header className="ticket-head">
        <h1 id="ticket-title">New sale</h1>
        <ol className="steps" aria-label="Sale steps">
          {steps.map((name, index) => (
            <li
              key={name}
              className={
                index === stepIndex ? 'step step-current' : index < stepIndex ? 'step step-done' : 'step'
              }
              aria-current={index === stepIndex ? 'step' : undefined}
            >
              <span className="step-number" aria-hidden="true">
                {index + 1}
              </span>
              {name}
            </li>
          ))}
        </ol>
      </header>

      {customerScreen && (
        <p className="customer-badge" data-testid="customer-screen-badge">
          Shown on the customer screen
        </p>
      )}

      <div className="amount">
        <span className="amount-label" id="amount-label">
          Amount
        </span>
        <output
          className={['amount-value', cents === 0 && 'amount-zero', untouched && 'amount-untouched']
            .filter(Boolean)
            .join(' ')}
          aria-labelledby="amount-label"
          aria-live="polite"
          data-testid="sale-amount"
        >
          {displayMoney(cents)}
        </output>
        {tipLabel !== '' && (
          <dl className="amount-tip" data-testid="sale-tip">
            <div>
              <dt>Tip</dt>
              <dd>
                {tipCents === 0 ? 'None' : displayMoney(tipCents)}
                {tipLabel.endsWith('%') && ` (${tipLabel})`}
              </dd>
            </div>
            <div className="amount-tip-total">
              <dt>Total</dt>
              <dd data-testid="sale-total">{displayMoney(cents + tipCents)}</dd>
            </div>
          </dl>
        )}
        {editable ? (
          <p className="amount-hint">
            {untouched ? (
              <>
                The first digit typed starts a new amount; <kbd>Backspace</kbd> edits this one, and{' '}
                <kbd>Enter</kbd> charges it.
              </>
            ) : (
              <>
                Type the amount with the keypad or the keyboard, then press <kbd>Enter</kbd> to charge.
              </>
            )}
          </p>
        ) : (
          <button type="button" className="link-button" onClick={() => act({ type: 'edit-amount' })}>
            Change the amount
            {state.step === 'card' && state.mode === 'swipe' && <KeyHint>Esc</KeyHint>}
          </button>
        )}
      </div>

      <div className="references">
        <label className="field">
          <span className="field-label">
            Invoice <span className="field-optional">optional</span>
          </span>
          <input
            className="input"
            value={invoice}
            data-pad-field="Invoice"
            maxLength={64}
            autoComplete="off"
            readOnly={!editable}
            onChange={(event) => act({ type: 'invoice', value: event.target.value })}
            onKeyDown={submitOnEnter}
          />
        </label>
        <label className="field">
          <span className="field-label">
            Order number <span className="field-optional">optional</span>
          </span>
          <input
            className="input input-code"
            value={orderNumber}
            data-pad-field="Order number"
            maxLength={18}
            autoComplete="off"
            spellCheck={false}
            readOnly={!editable}
            // The engine takes order numbers of 0-9 and A-Z only.
            onChange={(event) =>
              act({ type: 'order-number', value: event.target.value.toUpperCase().replace(/[^0-9A-Z]/g, '') })
            }
            onKeyDown={submitOnEnter}
          />
        </label>
      </div>

      {editable && state.notice && (
        <p className="notice" role="alert">
          {state.notice}
        </p>
      )}

      {shortcuts.length > 0 && (
        <dl className="shortcuts" aria-label="Keyboard shortcuts">
          {shortcuts.map(([key, meaning]) => (
            <div key={key}>
              <dt>
                <kbd>{key}</kbd>
              </dt>
              <dd>{meaning}</dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}
