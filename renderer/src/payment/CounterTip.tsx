/**
 * The tip at a counter sale chosen on the cashier's screen, for a counter without a customer's
 * screen: the same suggestions the customer's screen would show (percentages with their dollars, or
 * fixed dollars below the smart tip amount), a custom amount, and No tip. A tip above the merchant's
 * share is confirmed first.
 *
 * The custom amount is typed as the sale's amount is: on the keypad beside it, or on the keyboard
 * wherever the focus is (digits, Backspace), and Enter adds it.
 */
import { useEffect, useState } from 'react';
import { displayMoney, MAX_AMOUNT_CENTS } from '../../../shared/money';
import { needsTipConfirm, percentOfCheck, tipSuggestions } from '../../../shared/tips';
import type { AppSettings } from '../../../shared/ipc/contract';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { DigitPad, type PadKey } from '../ui/DigitPad';
import { MoneyInput } from '../ui/MoneyInput';
import { usePadTarget } from '../ui/pad-target';
import { useScreenActiveRef } from '../ui/screen-active';

/** A key typed outside any field that the tip takes, as the sale's amount would. */
function tipKey(event: KeyboardEvent): PadKey | undefined {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return undefined;
  const { target } = event;
  if (target instanceof HTMLElement && target.closest('input, textarea, select, [contenteditable="true"]'))
    return undefined;
  if (/^\d$/.test(event.key)) return event.key as PadKey;
  return event.key === 'Backspace' ? 'back' : undefined;
}

export interface ChosenTip {
  tipCents: number;
  /** "20%", "$2.00", "Custom" or "No tip": how it was chosen, for the answer screen. */
  label: string;
}

export function CounterTip({
  amountCents,
  settings,
  onTip,
  onCancel,
}: {
  amountCents: number;
  settings: AppSettings;
  onTip(tip: ChosenTip): void;
  onCancel(): void;
}) {
  const [custom, setCustom] = useState(0);
  const [confirming, setConfirming] = useState<ChosenTip>();
  const suggestions = tipSuggestions(amountCents, {
    percentages: settings.tipPercentages,
    fixedBelowCents: settings.smartTipBelowCents,
    fixedAmountsCents: settings.smartTipAmountsCents,
  });
  const choose = (tip: ChosenTip) => {
    if (needsTipConfirm(amountCents, tip.tipCents, settings.tipWarnPercent, suggestions)) setConfirming(tip);
    else onTip(tip);
  };
  const tooLarge = amountCents + custom > MAX_AMOUNT_CENTS;
  const { attach: padPanel, onFocus: onPadFocus, typingInto, press: pressPadKey } = usePadTarget();
  const active = useScreenActiveRef();
  useEffect(() => {
    if (confirming) return;
    const onKeyDown = (event: KeyboardEvent) => {
      const key = active.current ? tipKey(event) : undefined;
      if (!key) return;
      event.preventDefault();
      pressPadKey(key);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [active, confirming, pressPadKey]);

  return (
    <div className="card-panel counter-tip" data-testid="counter-tip">
      <h2 className="card-panel-title">Tip</h2>
      <p className="card-panel-text">Ask the customer, then tap their choice.</p>
      <div className="counter-tip-choices" role="group" aria-label="Suggested tips">
        {suggestions.map((suggestion) => {
          const label =
            suggestion.kind === 'percent' ? `${suggestion.percent}%` : displayMoney(suggestion.cents);
          return (
            <button
              key={label}
              type="button"
              className="button button-secondary counter-tip-choice"
              onClick={() => choose({ tipCents: suggestion.cents, label })}
            >
              <span>{label}</span>
              {suggestion.kind === 'percent' && (
                <span className="counter-tip-dollars">{displayMoney(suggestion.cents)}</span>
              )}
            </button>
          );
        })}
      </div>
      <form
        ref={padPanel}
        onFocus={onPadFocus}
        className="counter-tip-custom"
        onSubmit={(event) => {
          event.preventDefault();
          if (custom > 0 && !tooLarge) choose({ tipCents: custom, label: 'Custom' });
        }}
      >
        <div className="counter-tip-fields">
          <label className="field">
            <span className="field-label">Other tip</span>
            <MoneyInput
              cents={custom}
              onChange={setCustom}
              invalid={tooLarge}
              className="input-money-large"
              autoFocus
              testId="other-tip"
              padField="Other tip"
            />
          </label>
          <button type="submit" className="button button-secondary" disabled={custom === 0 || tooLarge}>
            {custom === 0 ? 'Add tip' : `Add ${displayMoney(custom)}`}
          </button>
        </div>
        <DigitPad label="Tip keys" variant="money" compact typingInto={typingInto} onKey={pressPadKey} />
      </form>
      <div className="card-panel-actions">
        <button
          type="button"
          className="button button-primary"
          onClick={() => onTip({ tipCents: 0, label: 'No tip' })}
        >
          No tip
        </button>
        <button type="button" className="button button-quiet" onClick={onCancel}>
          Cancel the sale
        </button>
      </div>
      {confirming && (
        <ConfirmDialog
          title="Confirm the tip"
          tone="neutral"
          confirmLabel={`Add ${displayMoney(confirming.tipCents)} tip`}
          cancelLabel="Change the tip"
          onConfirm={() => {
            const tip = confirming;
            setConfirming(undefined);
            onTip(tip);
          }}
          onCancel={() => setConfirming(undefined)}
        >
          <p>
            A tip of <strong>{displayMoney(confirming.tipCents)}</strong> is{' '}
            {percentOfCheck(amountCents, confirming.tipCents)}% of the {displayMoney(amountCents)} sale, above
            the {settings.tipWarnPercent}% that asks to be confirmed.
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}
