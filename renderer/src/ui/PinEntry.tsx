/**
 * A PIN typed on the keyboard or the on-screen keys, 4 to 8 digits, checked by the host: the field,
 * the keys, the problem said under them, and the one check in flight. Used to sign in and by a
 * manager approving one action.
 */
import { useRef, useState, type RefObject } from 'react';
import { DigitPad, pressDigit } from './DigitPad';
import { DigitsInput } from './DigitsInput';

const PIN_LENGTH = { min: 4, max: 8 } as const;

export interface PinEntry {
  pin: string;
  problem: string | undefined;
  busy: boolean;
  field: RefObject<HTMLInputElement | null>;
  /** New digits, from the field or the keys: any problem said before is cleared. */
  enter(next: (previous: string) => string): void;
  submit(): Promise<void>;
}

/**
 * `check` runs the host's check of the PIN and whatever follows it; when it throws, the PIN is
 * cleared and `problemOf` says why, so the next try starts from an empty field.
 */
export function usePinEntry(
  check: (pin: string) => Promise<void>,
  { tooShort, problemOf }: { tooShort: string; problemOf: (error: unknown) => string },
): PinEntry {
  const [pin, setPin] = useState('');
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);
  const field = useRef<HTMLInputElement>(null);

  const submit = async () => {
    if (busy) return;
    if (pin.length < PIN_LENGTH.min) {
      setProblem(tooShort);
      field.current?.focus();
      return;
    }
    setBusy(true);
    try {
      await check(pin);
    } catch (error) {
      setBusy(false);
      setPin('');
      setProblem(problemOf(error));
      field.current?.focus();
    }
  };

  const enter = (next: (previous: string) => string) => {
    setPin(next);
    setProblem(undefined);
  };

  return { pin, problem, busy, field, enter, submit };
}

/** The PIN field with its problem and the on-screen keys. */
export function PinField({
  entry,
  inputRef,
  problemId,
  focus,
}: {
  entry: PinEntry;
  /** The entry's field, passed apart so that it is handed to the input as a ref. */
  inputRef: PinEntry['field'];
  /** The id of the problem's text, unique on the page. */
  problemId: string;
  /** 'now' takes the focus when shown; 'dialog' lets the dialog around it give it the focus. */
  focus: 'now' | 'dialog';
}) {
  const { pin, problem } = entry;
  return (
    <>
      <label className="field">
        <span className="field-label">PIN</span>
        <DigitsInput
          ref={inputRef}
          className="input input-pin"
          type="password"
          length={PIN_LENGTH.max}
          value={pin}
          autoFocus={focus === 'now'}
          {...(focus === 'dialog' && { 'data-autofocus': true })}
          onDigits={(digits) => entry.enter(() => digits)}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? problemId : undefined}
        />
      </label>
      {problem && (
        <p className="field-problem" id={problemId} role="alert">
          {problem}
        </p>
      )}
      <DigitPad
        label="PIN keys"
        variant="pin"
        compact
        onKey={(key) => entry.enter((previous) => pressDigit(previous, key, PIN_LENGTH.max))}
      />
    </>
  );
}
