/**
 * A touch keypad for amounts and PINs. Like the sale keypad, its keys never take the focus, so a
 * tap leaves the keyboard where it was and keyboard users type the digits directly.
 */
import type { MouseEvent } from 'react';
import { BackspaceIcon } from './icons';

export type PadKey = '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9' | '00' | 'clear' | 'back';

const MONEY_KEYS: PadKey[] = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '00', '0', 'back'];
const PIN_KEYS: PadKey[] = ['1', '2', '3', '4', '5', '6', '7', '8', '9', 'clear', '0', 'back'];

const keepFocus = (event: MouseEvent) => event.preventDefault();

export function DigitPad({
  label,
  variant,
  onKey,
  compact = false,
  typingInto,
}: {
  label: string;
  variant: 'money' | 'pin';
  onKey: (key: PadKey) => void;
  compact?: boolean;
  /** The field the keys type into, named above them when the panel has more than one. */
  typingInto?: string | undefined;
}) {
  const keys = variant === 'money' ? MONEY_KEYS : PIN_KEYS;
  const pad = (
    <div className={compact ? 'digit-pad digit-pad-compact' : 'digit-pad'} role="group" aria-label={label}>
      {keys.map((key) => (
        <button
          key={key}
          type="button"
          className={key === 'back' || key === 'clear' ? 'key key-muted' : 'key'}
          tabIndex={-1}
          onMouseDown={keepFocus}
          onClick={() => onKey(key)}
          aria-label={key === 'back' ? 'Delete the last digit' : key === 'clear' ? 'Clear' : undefined}
        >
          {key === 'back' ? <BackspaceIcon className="key-icon" /> : key === 'clear' ? 'C' : key}
        </button>
      ))}
    </div>
  );
  if (typingInto === undefined) return pad;
  return (
    <div className="digit-pad-wrap">
      <p className="pad-target" data-testid="pad-target">
        Keys type into <strong>{typingInto}</strong>
      </p>
      {pad}
    </div>
  );
}

/** Applies a pad key to a string of digits, up to `max` digits. */
export function pressDigit(digits: string, key: PadKey, max: number): string {
  if (key === 'back') return digits.slice(0, -1);
  if (key === 'clear') return '';
  return (digits + key).slice(0, max);
}
