/**
 * The tip, chosen by the customer: three suggestions (a percentage with what it comes to, or below
 * the smart tip amount fixed dollars), Custom with a keypad, and No tip. A tip above the merchant's
 * share asks the customer to confirm it; the host refuses one sent unconfirmed.
 */
import { useState } from 'react';
import type { CustomerStep } from '../../../shared/ipc/customer-contract';
import { displayMoney, MAX_AMOUNT_CENTS } from '../../../shared/money';
import { needsTipConfirm, percentOfCheck } from '../../../shared/tips';
import { BackspaceIcon } from '../ui/icons';
import type { CustomerAnswers } from './answers';
import { CustomerProblem } from './CustomerProblem';

type TipStepShown = Extract<CustomerStep, { step: 'tip' }>;

type Mode =
  { mode: 'choose' } | { mode: 'custom' } | { mode: 'confirm'; tipCents: number; from: 'choose' | 'custom' };

export function TipStep({ step, answers }: { step: TipStepShown; answers: CustomerAnswers }) {
  const [mode, setMode] = useState<Mode>({ mode: 'choose' });
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);

  const send = async (tipCents: number, confirmed: boolean) => {
    setBusy(true);
    setProblem(await answers.chooseTip(tipCents, confirmed));
    setBusy(false);
  };
  const pick = (tipCents: number, from: 'choose' | 'custom') => {
    if (needsTipConfirm(step.amountCents, tipCents, step.warnPercent, step.suggestions)) {
      setMode({ mode: 'confirm', tipCents, from });
    } else void send(tipCents, false);
  };

  if (mode.mode === 'confirm') {
    const percent = percentOfCheck(step.amountCents, mode.tipCents);
    return (
      <section className="customer-tip" aria-labelledby="customer-title">
        <h1 id="customer-title">Is this tip right?</h1>
        <p className="customer-confirm" data-testid="tip-confirm">
          A tip of <strong>{displayMoney(mode.tipCents)}</strong> is {percent}% of your{' '}
          {displayMoney(step.amountCents)} purchase.
        </p>
        <CustomerProblem problem={problem} />
        <div className="customer-actions">
          <button
            type="button"
            className="button button-secondary customer-button"
            disabled={busy}
            onClick={() => setMode({ mode: mode.from === 'custom' ? 'custom' : 'choose' })}
          >
            Change the tip
          </button>
          <button
            type="button"
            className="button button-primary customer-button"
            disabled={busy}
            onClick={() => void send(mode.tipCents, true)}
          >
            Yes, add {displayMoney(mode.tipCents)}
          </button>
        </div>
      </section>
    );
  }

  if (mode.mode === 'custom') {
    return (
      <CustomTip
        amountCents={step.amountCents}
        busy={busy}
        problem={problem}
        onBack={() => setMode({ mode: 'choose' })}
        onTip={(tipCents) => pick(tipCents, 'custom')}
      />
    );
  }

  return (
    <section className="customer-tip" aria-labelledby="customer-title">
      <p className="customer-amount-line">
        Purchase <strong data-testid="customer-amount">{displayMoney(step.amountCents)}</strong>
      </p>
      <h1 id="customer-title">Add a tip?</h1>
      <div className="tip-choices" role="group" aria-label="Suggested tips">
        {step.suggestions.map((suggestion) => (
          <button
            key={`${suggestion.kind}-${suggestion.cents}`}
            type="button"
            className="tip-choice"
            disabled={busy}
            onClick={() => pick(suggestion.cents, 'choose')}
          >
            {suggestion.kind === 'percent' ? (
              <>
                <span className="tip-choice-main">{suggestion.percent}%</span>
                <span className="tip-choice-sub">{displayMoney(suggestion.cents)}</span>
              </>
            ) : (
              <span className="tip-choice-main">{displayMoney(suggestion.cents)}</span>
            )}
          </button>
        ))}
      </div>
      <CustomerProblem problem={problem} />
      <div className="customer-actions">
        <button
          type="button"
          className="button button-secondary customer-button"
          disabled={busy}
          onClick={() => setMode({ mode: 'custom' })}
        >
          Custom
        </button>
        <button
          type="button"
          className="button button-secondary customer-button"
          disabled={busy}
          onClick={() => void send(0, false)}
        >
          No tip
        </button>
      </div>
    </section>
  );
}

const PAD_KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '00', '0', 'back'] as const;

/** A tip typed in dollars and cents, digits pushing in from the right as on a register. */
function CustomTip({
  amountCents,
  busy,
  problem,
  onBack,
  onTip,
}: {
  amountCents: number;
  busy: boolean;
  problem: string | undefined;
  onBack(): void;
  onTip(tipCents: number): void;
}) {
  const [cents, setCents] = useState(0);
  const press = (key: (typeof PAD_KEYS)[number]) =>
    setCents((current) => {
      if (key === 'back') return Math.floor(current / 10);
      const next = current * 10 ** key.length + Number(key);
      return amountCents + next > MAX_AMOUNT_CENTS ? current : next;
    });
  return (
    <section className="customer-tip customer-custom-tip" aria-labelledby="customer-title">
      <div className="custom-tip-side">
        <h1 id="customer-title">Your tip</h1>
        <output className="custom-tip-amount" aria-live="polite" data-testid="custom-tip">
          {displayMoney(cents)}
        </output>
        <p className="customer-note">on a {displayMoney(amountCents)} purchase</p>
        <CustomerProblem problem={problem} />
        <div className="customer-actions customer-actions-stacked">
          <button
            type="button"
            className="button button-primary customer-button"
            disabled={busy || cents === 0}
            onClick={() => onTip(cents)}
          >
            Add tip
          </button>
          <button
            type="button"
            className="button button-secondary customer-button"
            disabled={busy}
            onClick={onBack}
          >
            Back
          </button>
        </div>
      </div>
      <div className="customer-pad" role="group" aria-label="Tip keypad">
        {PAD_KEYS.map((key) => (
          <button
            key={key}
            type="button"
            className="customer-pad-key"
            disabled={busy}
            aria-label={key === 'back' ? 'Delete the last digit' : undefined}
            onClick={() => press(key)}
          >
            {key === 'back' ? <BackspaceIcon className="customer-pad-icon" /> : key}
          </button>
        ))}
      </div>
    </section>
  );
}
