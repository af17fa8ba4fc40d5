/**
 * An amount field that types like the register: digits push in from the right ("1", "2", "5", "0"
 * reads $12.50), Backspace takes the last one off, and the value is always shown as money.
 */
import { forwardRef, type KeyboardEvent } from 'react';
import { displayMoney, MAX_AMOUNT_CENTS } from '../../../shared/money';
import type { PadKey } from './DigitPad';

/** The cents a typed or pasted text stands for: its digits, read as cents; too large keeps `previous`. */
export function centsFromText(text: string, previous: number): number {
  const digits = text.replace(/\D/g, '').replace(/^0+/, '');
  if (digits === '') return 0;
  const cents = Number(digits);
  return cents > MAX_AMOUNT_CENTS ? previous : cents;
}

/** A keypad key applied to an amount in cents. */
export function pressMoneyKey(cents: number, key: PadKey): number {
  if (key === 'back') return Math.floor(cents / 10);
  if (key === 'clear') return 0;
  const next = cents * 10 ** key.length + Number(key);
  return next > MAX_AMOUNT_CENTS ? cents : next;
}

type Props = {
  id?: string;
  cents: number;
  onChange: (cents: number) => void;
  onEnter?: () => void;
  invalid?: boolean;
  describedBy?: string | undefined;
  className?: string;
  autoFocus?: boolean;
  disabled?: boolean;
  /** For filters: no amount reads as an empty field rather than $0.00. */
  emptyWhenZero?: boolean;
  'aria-label'?: string;
  testId?: string;
  /** The name an on-screen keypad shows while it types into this field (see pad-target). */
  padField?: string;
};

export const MoneyInput = forwardRef<HTMLInputElement, Props>(function MoneyInput(
  {
    id,
    cents,
    onChange,
    onEnter,
    invalid,
    describedBy,
    className,
    autoFocus,
    disabled,
    emptyWhenZero,
    testId,
    padField,
    ...rest
  },
  ref,
) {
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter' && onEnter) {
      event.preventDefault();
      onEnter();
    }
  };
  return (
    <input
      ref={ref}
      id={id}
      className={['input input-money', className].filter(Boolean).join(' ')}
      inputMode="numeric"
      autoComplete="off"
      spellCheck={false}
      value={emptyWhenZero && cents === 0 ? '' : displayMoney(cents)}
      placeholder={emptyWhenZero ? 'Any' : undefined}
      // Typing into a field just entered replaces its amount; digits then push in from the right.
      onFocus={(event) => event.target.select()}
      onChange={(event) => onChange(centsFromText(event.target.value, cents))}
      onKeyDown={onKeyDown}
      aria-invalid={invalid ? true : undefined}
      aria-describedby={describedBy}
      autoFocus={autoFocus}
      disabled={disabled}
      data-testid={testId}
      data-pad-field={padField}
      aria-label={rest['aria-label']}
    />
  );
});
