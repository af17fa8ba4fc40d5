/**
 * A field of digits only, up to `length` of them: the last four, a server number, a PIN. Anything
 * else typed or pasted is dropped as it comes in, so the value is always digits.
 */
import type { ComponentProps } from 'react';

type Props = Omit<ComponentProps<'input'>, 'value' | 'onChange' | 'maxLength'> & {
  value: string;
  length: number;
  onDigits(digits: string): void;
};

export function DigitsInput({ value, length, onDigits, className = 'input input-code', ...rest }: Props) {
  return (
    <input
      className={className}
      inputMode="numeric"
      autoComplete="off"
      {...rest}
      maxLength={length}
      value={value}
      onChange={(event) => onDigits(event.target.value.replace(/\D/g, '').slice(0, length))}
    />
  );
}
