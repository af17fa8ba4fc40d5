/**
 * An amount field that types like the register: digits push in from the right ("1", "2", "5", "0"
 * reads $12.50), Backspace takes the last one off, and the value is always shown as money. A tap on
 * it, with the focus or not, selects the whole amount so the first key replaces it; otherwise the
 * caret stays after the last digit, since a digit typed in front of the "$" or between two others
 * would read as an amount many times larger.
 */
import { forwardRef, type ClipboardEvent, type KeyboardEvent, type MouseEvent } from 'react';
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

/** Whether a field is an amount field, for the keypads that type into it (see pad-target). */
export function isMoneyField(field: HTMLInputElement): boolean {
  return field.dataset.money !== undefined;
}

/**
 * Where typing may happen in an amount field: over the whole amount, or after its last digit. A caret
 * anywhere else goes to the end, and part of the amount selected becomes all of it.
 */
export function keepTypingAtTheEnd(field: HTMLInputElement): void {
  const { value, selectionStart: start, selectionEnd: end } = field;
  if (start === null || end === null) return;
  const last = value.length;
  if ((start === 0 && end === last) || (start === last && end === last)) return;
  if (start === end) field.setSelectionRange(last, last);
  else field.setSelectionRange(0, last);
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
      return;
    }
    // The key lands where the register's would, whatever moved the caret just before it.
    keepTypingAtTheEnd(event.currentTarget);
  };
  // A tap selects the whole amount, even on a field that has the focus already, where the browser
  // would only place the caret (at the left, before the "$", since the amount is right-aligned).
  const onMouseDown = (event: MouseEvent<HTMLInputElement>) => {
    if (event.button !== 0) return;
    event.preventDefault();
    const field = event.currentTarget;
    field.focus();
    field.select();
  };
  // A pasted amount is the amount, as one typed over a selected field is, never digits added to it.
  const onPaste = (event: ClipboardEvent<HTMLInputElement>) => {
    event.preventDefault();
    onChange(centsFromText(event.clipboardData.getData('text'), cents));
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
      onMouseDown={onMouseDown}
      onSelect={(event) => keepTypingAtTheEnd(event.currentTarget)}
      onPaste={onPaste}
      onChange={(event) => onChange(centsFromText(event.target.value, cents))}
      onKeyDown={onKeyDown}
      aria-invalid={invalid ? true : undefined}
      aria-describedby={describedBy}
      autoFocus={autoFocus}
      disabled={disabled}
      data-testid={testId}
      data-pad-field={padField}
      data-money=""
      aria-label={rest['aria-label']}
    />
  );
});
