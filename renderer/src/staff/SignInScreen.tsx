/**
 * The lock: one PIN signs in whoever it belongs to, so switching cashier is a lock and one PIN. On a
 * first start, with no one yet, the owner creates the first manager here instead.
 */
import { useState } from 'react';
import type { CounterSession } from '../../../shared/ipc/staff-contract';
import { BridgeCallError } from '../../../shared/ipc/facade';
import { useTerminal } from '../terminal/terminal-context';
import { BusyButton } from '../ui/BusyButton';

import { DigitsInput } from '../ui/DigitsInput';
import { TenderMark } from '../ui/icons';
import { PinField, usePinEntry } from '../ui/PinEntry';
import { ProblemNotice } from '../ui/ProblemNotice';
import { pinProblem } from './pin-rules';

function messageOf(error: unknown): string {
  return error instanceof BridgeCallError || error instanceof Error ? error.message : String(error);
}

export function SignInScreen({ onDone }: { onDone: (session: CounterSession) => void }) {
  const { bridge } = useTerminal();
  // This showing of the keypad: a slip typed in it is taken back by the right PIN typed next in it.
  const [prompt] = useState(() => crypto.randomUUID());
  const entry = usePinEntry(async (pin) => onDone(await bridge.invoke('staff:sign-in', { pin, prompt })), {
    tooShort: 'Your PIN has 4 to 8 digits.',
    problemOf: messageOf,
  });

  return (
    <div className="lock-screen" role="dialog" aria-modal="true" aria-labelledby="lock-title">
      <section className="lock-card">
        <header className="startup-brand">
          <TenderMark className="startup-mark" />
          <span className="startup-name">Tender</span>
        </header>
        <form
          className="lock-form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void entry.submit();
          }}
        >
          <h1 id="lock-title">Enter your PIN</h1>
          <p className="lock-help">The counter is locked. Your PIN signs you in, and switches cashier.</p>
          <PinField entry={entry} inputRef={entry.field} problemId="lock-problem" focus="now" />
          <BusyButton type="submit" className="button button-primary button-large" busy={entry.busy}>
            Sign in
          </BusyButton>
        </form>
      </section>
    </div>
  );
}

/** How the counter takes tips: when customers pay at the counter (and on tabs), on tabs only, or not at all. */
type FirstTips = 'counter' | 'tabs' | 'none';
const FIRST_TIPS: readonly (readonly [FirstTips, string])[] = [
  ['counter', 'Yes: the customer adds a tip when paying, and on tabs'],
  ['tabs', 'On tabs only: a tab is captured with its tip'],
  ['none', 'No tips'],
];

export function FirstManagerScreen({ onDone }: { onDone: (session: CounterSession) => void }) {
  const { bridge } = useTerminal();
  const [name, setName] = useState('');
  const [pin, setPin] = useState('');
  const [repeat, setRepeat] = useState('');
  const [server, setServer] = useState('');
  const [tips, setTips] = useState<FirstTips>();
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    const wrong =
      name.trim() === ''
        ? 'Type your name, as receipts and reports will show it.'
        : (pinProblem(pin, repeat) ??
          (server !== '' && server.length !== 2
            ? 'A server number has two digits, like 07.'
            : tips === undefined
              ? 'Say whether this counter takes tips.'
              : undefined));
    if (wrong) return setProblem(wrong);
    setBusy(true);
    try {
      onDone(
        await bridge.invoke('staff:first-manager', {
          name: name.trim(),
          newPin: pin,
          ...(server !== '' && { serverId: server }),
          ...(tips !== undefined && { takesTips: tips !== 'none', counterTips: tips === 'counter' }),
        }),
      );
    } catch (error) {
      setProblem(messageOf(error));
      setBusy(false);
    }
  };

  return (
    <div className="lock-screen" role="dialog" aria-modal="true" aria-labelledby="first-title">
      <section className="lock-card lock-card-wide">
        <header className="startup-brand">
          <TenderMark className="startup-mark" />
          <span className="startup-name">Tender</span>
        </header>
        <form
          className="lock-form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          <h1 id="first-title">Welcome. Who manages this counter?</h1>
          <p className="lock-help">
            Create the first manager. Managers allow refunds, voids, closing the batch and settings changes,
            and add the cashiers. Each person has a PIN of their own.
          </p>
          <label className="field">
            <span className="field-label">Your name</span>
            <input
              className="input"
              value={name}
              maxLength={40}
              autoFocus
              autoComplete="name"
              onChange={(event) => {
                setName(event.target.value);
                setProblem(undefined);
              }}
            />
          </label>
          <div className="field-row">
            <NewPinField
              label="Your PIN (4 to 8 digits)"
              value={pin}
              onChange={(digits) => (setPin(digits), setProblem(undefined))}
            />
            <NewPinField
              label="The same PIN again"
              value={repeat}
              onChange={(digits) => (setRepeat(digits), setProblem(undefined))}
            />
          </div>
          <label className="field">
            <span className="field-label">Server number (optional)</span>
            <DigitsInput
              value={server}
              length={2}
              onDigits={(digits) => (setServer(digits), setProblem(undefined))}
            />
          </label>
          <fieldset className="field first-tips">
            <legend className="field-label">Does this counter take tips?</legend>
            <div className="choice-row">
              {FIRST_TIPS.map(([value, label]) => (
                <label key={value} className="choice">
                  <input
                    type="radio"
                    name="takes-tips"
                    checked={tips === value}
                    onChange={() => (setTips(value), setProblem(undefined))}
                  />
                  {label}
                </label>
              ))}
            </div>
            <p className="lock-help">
              With Yes, a counter sale asks for the tip before the card, on the customer screen or by the
              cashier. Checks printed for a tab ask for a tip only when the counter takes tips. A manager can
              change both in Settings.
            </p>
          </fieldset>
          <ProblemNotice problem={problem} />
          <BusyButton type="submit" className="button button-primary button-large" busy={busy}>
            Create and sign in
          </BusyButton>
        </form>
      </section>
    </div>
  );
}

/** A PIN being chosen: hidden as it is typed, and marked new so a browser never fills in a saved one. */
export function NewPinField({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string;
  onChange(digits: string): void;
}) {
  return (
    <label className="field">
      <span className="field-label">{label}</span>
      <DigitsInput
        className="input input-pin"
        type="password"
        autoComplete="new-password"
        length={8}
        value={value}
        onDigits={onChange}
      />
    </label>
  );
}
