/**
 * The manager PIN: off by default. Once set, voids, refunds, the batch close and settings changes
 * ask for it; changing or removing it needs the current one.
 */
import { useState } from 'react';
import { useTerminal } from '../terminal/terminal-context';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { DigitsInput } from '../ui/DigitsInput';
import { ProblemNotice } from '../ui/ProblemNotice';
import { BusyButton } from '../ui/BusyButton';
import { useSettingsChange } from './settings-change';

export function ManagerPinSection() {
  const { bridge, settings } = useTerminal();
  const change = useSettingsChange();
  const [pin, setPin] = useState('');
  const [repeat, setRepeat] = useState('');
  const [problem, setProblem] = useState<string>();
  const [done, setDone] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [turningOff, setTurningOff] = useState(false);

  const save = async (newPin: string | null) => {
    setBusy(true);
    const result = await change((current) =>
      bridge.invoke('manager:set-pin', { newPin, ...(current && { pin: current }) }),
    );
    setBusy(false);
    if (result.ok) {
      setPin('');
      setRepeat('');
      setProblem(undefined);
      setTurningOff(false);
      setDone(newPin === null ? 'The manager PIN is off.' : 'The manager PIN is set.');
    } else if (!('cancelled' in result)) setProblem(result.problem);
  };

  const submit = () => {
    setDone(undefined);
    if (!/^\d{4,8}$/.test(pin)) return setProblem('The PIN has 4 to 8 digits.');
    if (pin !== repeat) return setProblem('The two PINs differ. Type the same PIN twice.');
    if (/^(\d)\1+$/.test(pin) || '0123456789'.includes(pin) || '9876543210'.includes(pin)) {
      return setProblem('Choose a PIN that is harder to guess than repeated or consecutive digits.');
    }
    void save(pin);
  };

  return (
    <section className="panel settings-section" aria-labelledby="pin-title">
      <header className="section-head">
        <h2 id="pin-title">Manager PIN</h2>
        <p>
          With a manager PIN, voids, refunds, closing the batch and changes to these settings wait for a
          manager. Tender keeps only a salted hash of it, and pauses for a minute after five wrong tries.
        </p>
      </header>

      <div className="setting-row">
        <div>
          <span className="setting-name">Manager confirmation</span>
          <p className="setting-help">
            {settings.managerPin
              ? 'On: a manager enters the PIN for voids, refunds, the batch close and settings.'
              : 'Off: any cashier can void, refund and close the batch.'}
          </p>
        </div>
        <span className={settings.managerPin ? 'pill pill-good' : 'pill pill-muted'} data-testid="pin-state">
          {settings.managerPin ? 'On' : 'Off'}
        </span>
      </div>

      <form
        className="settings-form pin-settings"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <h3>{settings.managerPin ? 'Change the PIN' : 'Set a PIN'}</h3>
        <div className="field-row">
          <NewPinField
            label="New PIN"
            value={pin}
            onChange={(digits) => {
              setPin(digits);
              setProblem(undefined);
            }}
          />
          <NewPinField
            label="The same PIN again"
            value={repeat}
            onChange={(digits) => {
              setRepeat(digits);
              setProblem(undefined);
            }}
          />
        </div>
        <ProblemNotice problem={problem} />
        {done && (
          <p className="notice notice-good" role="status">
            {done}
          </p>
        )}
        <div className="form-actions">
          {settings.managerPin && (
            <button
              type="button"
              className="button button-danger-quiet"
              onClick={() => setTurningOff(true)}
              disabled={busy}
            >
              Turn the PIN off
            </button>
          )}
          <BusyButton type="submit" className="button button-primary" busy={busy}>
            {settings.managerPin ? 'Change the PIN' : 'Set the PIN'}
          </BusyButton>
        </div>
      </form>

      {turningOff && (
        <ConfirmDialog
          title="Turn the manager PIN off?"
          confirmLabel="Turn it off"
          busy={busy}
          onConfirm={() => void save(null)}
          onCancel={() => setTurningOff(false)}
        >
          <p>Any cashier will then be able to void, refund, close the batch and change settings.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}

/** A PIN being chosen: hidden as it is typed, and marked new so a browser never fills in a saved one. */
function NewPinField({
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
