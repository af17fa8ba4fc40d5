/**
 * The tip of one tab: a suggested percentage of the check in one tap, any other percentage, or the
 * amount typed; the total is always in view. Shown only while tip support is on.
 */
import { useId, useState, type Ref } from 'react';
import { displayMoney } from '../../../shared/money';
import { DigitPad } from '../ui/DigitPad';
import { MoneyInput } from '../ui/MoneyInput';
import { usePadTarget } from '../ui/pad-target';
import { matchingPercent, percentOfCheck, tipForPercent } from './tip-math';

type Props = {
  checkCents: number;
  tipCents: number;
  onTip: (cents: number) => void;
  percentages: readonly number[];
  onEnter?: () => void;
  inputRef?: Ref<HTMLInputElement>;
  autoFocus?: boolean;
};

export function TipEntry({ checkCents, tipCents, onTip, percentages, onEnter, inputRef, autoFocus }: Props) {
  const id = useId();
  const [otherPercent, setOtherPercent] = useState('');
  const chosen = matchingPercent(checkCents, tipCents, percentages);
  const { attach: padPanel, onFocus: onPadFocus, typingInto, press: pressPadKey } = usePadTarget();

  return (
    <div className="tip-entry">
      <div className="tip-choices" role="group" aria-label="Suggested tips">
        {percentages.map((percent) => {
          const tip = tipForPercent(checkCents, percent);
          return (
            <button
              key={percent}
              type="button"
              className="tip-choice"
              aria-pressed={chosen === percent}
              onClick={() => {
                onTip(tip);
                setOtherPercent('');
              }}
            >
              <span className="tip-choice-percent">{percent}%</span>
              <span className="tip-choice-amount">{displayMoney(tip)}</span>
            </button>
          );
        })}
        <button
          type="button"
          className="tip-choice"
          aria-pressed={tipCents === 0}
          onClick={() => {
            onTip(0);
            setOtherPercent('');
          }}
        >
          <span className="tip-choice-percent">No tip</span>
          <span className="tip-choice-amount">{displayMoney(0)}</span>
        </button>
      </div>

      <div className="tip-custom" ref={padPanel} onFocus={onPadFocus}>
        <div className="tip-fields">
          <label className="field" htmlFor={`${id}-amount`}>
            <span className="field-label">Tip amount</span>
            <MoneyInput
              id={`${id}-amount`}
              ref={inputRef}
              cents={tipCents}
              onChange={(cents) => {
                onTip(cents);
                setOtherPercent('');
              }}
              {...(onEnter && { onEnter })}
              autoFocus={autoFocus}
              testId="tip-amount"
              padField="Tip amount"
            />
          </label>
          <label className="field" htmlFor={`${id}-percent`}>
            <span className="field-label">Other percentage</span>
            <span className="input-affix">
              <input
                id={`${id}-percent`}
                className="input"
                inputMode="decimal"
                autoComplete="off"
                maxLength={5}
                data-pad-field="Other percentage"
                placeholder={tipCents > 0 ? String(percentOfCheck(checkCents, tipCents)) : ''}
                value={otherPercent}
                onChange={(event) => {
                  const text = event.target.value.replace(/[^\d.]/g, '').slice(0, 5);
                  setOtherPercent(text);
                  const percent = Number(text);
                  if (text !== '' && Number.isFinite(percent) && percent <= 100)
                    onTip(tipForPercent(checkCents, percent));
                }}
                onKeyDown={(event) => {
                  if (event.key === 'Enter' && onEnter) {
                    event.preventDefault();
                    onEnter();
                  }
                }}
              />
              <span className="input-suffix" aria-hidden="true">
                %
              </span>
            </span>
          </label>
        </div>
        <DigitPad label="Tip keys" variant="money" compact typingInto={typingInto} onKey={pressPadKey} />
      </div>
    </div>
  );
}
