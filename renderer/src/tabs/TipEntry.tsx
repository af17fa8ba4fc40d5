/**
 * The tip of one tab: a suggested percentage of the check in one tap, any other percentage, or the
 * amount typed; the total is always in view. Shown only while tip support is on.
 *
 * The percentage typed is always the tip Capture captures: a large one (above the check, say) is
 * applied and confirmed on Capture like any large tip, one that would take the tab past the largest
 * amount is refused where it is typed, and an emptied percentage leaves no tip.
 */
import { useId, useState, type Ref } from 'react';
import { displayMoney, MAX_AMOUNT_CENTS } from '../../../shared/money';
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
  // A percentage just refused, to say why by the field; the one shown before it stands.
  const [refused, setRefused] = useState(false);
  const chooseTip = (cents: number) => {
    onTip(cents);
    setOtherPercent('');
    setRefused(false);
  };
  const typePercent = (typed: string) => {
    const text = typed.replace(/[^\d.]/g, '').slice(0, 5);
    // "12.5." is no percentage: the second point is not taken, as a digit past the limit is not.
    if (text.indexOf('.') !== text.lastIndexOf('.')) return;
    // Nothing (or a point alone, on its way to ".5") is no percentage, so no tip from one.
    const tip = tipForPercent(checkCents, text.replace('.', '') === '' ? 0 : Number(text));
    if (checkCents + tip > MAX_AMOUNT_CENTS) {
      setRefused(true);
      return;
    }
    setRefused(false);
    setOtherPercent(text);
    onTip(tip);
  };
  const largestPercent =
    checkCents > 0 ? Math.floor(((MAX_AMOUNT_CENTS - checkCents) * 100) / checkCents) : 0;
  const percentNote = refused
    ? `At most ${largestPercent}% on this check: with its tip a tab can be at most ${displayMoney(MAX_AMOUNT_CENTS)}.`
    : Number(otherPercent) > 100
      ? 'That is more than the check: it is confirmed before it is captured.'
      : undefined;
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
              onClick={() => chooseTip(tip)}
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
          onClick={() => chooseTip(0)}
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
              onChange={chooseTip}
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
                aria-describedby={percentNote ? `${id}-percent-note` : undefined}
                aria-invalid={refused ? true : undefined}
                onChange={(event) => typePercent(event.target.value)}
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
          {percentNote && (
            <p
              id={`${id}-percent-note`}
              className={refused ? 'field-problem' : 'field-help'}
              role={refused ? 'alert' : 'status'}
              data-testid="percent-note"
            >
              {percentNote}
            </p>
          )}
        </div>
        <DigitPad label="Tip keys" variant="money" compact typingInto={typingInto} onKey={pressPadKey} />
      </div>
    </div>
  );
}
