/**
 * The card reader: its status with what to do, the Linux permission rule, and the key (BDK) swipes
 * are decrypted with, shown only by its check value and marked while it is the public test key; with
 * the merchant's gateway as the processor, why no key is kept.
 */
import { useState } from 'react';
import type { ConnectionInfo } from '../../../shared/ipc/contract';
import { readerHint } from '../ui/reader-hint';
import { useTerminal } from '../terminal/terminal-context';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { AlertIcon } from '../ui/icons';
import { useLoad } from '../ui/use-load';
import { ProblemNotice } from '../ui/ProblemNotice';
import { useSettingsChange } from './settings-change';

const UDEV_COMMANDS = `sudo cp resources/udev/99-tender-magtek.rules /etc/udev/rules.d/
sudo udevadm control --reload-rules && sudo udevadm trigger`;

export function ReaderSection() {
  const { bridge, reader, settings } = useTerminal();
  const connection = useLoad<ConnectionInfo>(() => bridge.invoke('terminal:connection'), [bridge]);
  const change = useSettingsChange();
  const [bdk, setBdk] = useState('');
  const [problem, setProblem] = useState<string>();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);

  const statusLine =
    reader.state === 'connected'
      ? `${reader.product} is ready${reader.simulated ? ': a simulator, for test cards only' : ''}.`
      : readerHint(reader);

  const saveKey = async () => {
    setBusy(true);
    const result = await change((pin) =>
      bridge.invoke('settings:set-swipe-key', { bdk, ...(pin && { pin }) }),
    );
    setBusy(false);
    if (result.ok) {
      setConfirming(false);
      setBdk('');
      setSaved(true);
    } else if (!('cancelled' in result)) setProblem(result.problem);
  };

  return (
    <section className="panel settings-section" aria-labelledby="reader-title">
      <header className="section-head">
        <h2 id="reader-title">Card reader</h2>
        <p>
          {settings.swipeKey.held
            ? 'A MagTek reader in HID mode encrypts each swipe; Tender decrypts it with the key below.'
            : "A MagTek reader in HID mode encrypts each swipe; Tender sends it on to the merchant's gateway as it is."}
        </p>
      </header>

      <div className="setting-row">
        <div>
          <span className="setting-name">Status</span>
          <p className="setting-help" data-testid="reader-status-line">
            {statusLine}
          </p>
        </div>
        <span
          className={`pill ${reader.state === 'connected' ? 'pill-good' : reader.state === 'problem' ? 'pill-bad' : 'pill-warn'}`}
        >
          {reader.state === 'connected'
            ? 'Ready'
            : reader.state === 'problem'
              ? 'Problem'
              : reader.state === 'off'
                ? 'No reader'
                : 'Waiting'}
        </span>
      </div>

      {connection.data?.platform === 'linux' && (
        <div className="setting-block" data-testid="udev-hint">
          <span className="setting-name">Linux: let Tender open the reader</span>
          <p className="setting-help">
            Tender opens readers through hidraw. To use one without root, install the udev rule that ships
            with Tender, then unplug the reader and plug it in again:
          </p>
          <pre className="code-block">{UDEV_COMMANDS}</pre>
          <p className="setting-help">The packaged app has the rule in its resources/udev folder.</p>
        </div>
      )}

      {settings.swipeKey.held ? (
        <div className="setting-block" aria-labelledby="bdk-title">
          <div className="setting-title-row">
            <span className="setting-name" id="bdk-title">
              Swipe key (BDK)
            </span>
            {settings.swipeKey.testKey ? (
              <span className="pill pill-bad" data-testid="bdk-test-only">
                Test only
              </span>
            ) : (
              <span className="pill pill-good">Your key</span>
            )}
          </div>
          {settings.swipeKey.testKey && (
            <div className="banner-inline banner-bad" role="note">
              <AlertIcon className="banner-icon" />
              <p>
                <strong>This is the public ANSI test key.</strong> Anyone can decrypt swipes made with it: use
                it only with test cards. Enter the BDK your readers were injected with before taking real
                cards.
              </p>
            </div>
          )}
          <p className="setting-help">
            Key check value{' '}
            <span className="code" data-testid="bdk-kcv">
              {settings.swipeKey.kcv}
            </span>
            . The key itself is never shown; compare the check value with the one your key injection facility
            gave you.
          </p>
          <form
            className="inline-form"
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              setSaved(false);
              if (!/^[0-9A-Fa-f]{32}$/.test(bdk)) {
                setProblem('The BDK is 32 hexadecimal digits (0-9, A-F).');
                return;
              }
              setProblem(undefined);
              setConfirming(true);
            }}
          >
            <label className="field">
              <span className="field-label">New BDK</span>
              <input
                className="input input-code input-secret"
                autoComplete="off"
                spellCheck={false}
                maxLength={32}
                value={bdk}
                onChange={(event) => {
                  setBdk(event.target.value.replace(/[^0-9A-Fa-f]/g, '').toUpperCase());
                  setProblem(undefined);
                  setSaved(false);
                }}
                aria-describedby="bdk-help"
              />
              <span className="field-help" id="bdk-help">
                {bdk.length}/32 hex digits
              </span>
            </label>
            <button type="submit" className="button button-secondary">
              Change the key
            </button>
          </form>
          <ProblemNotice problem={problem} />
          {saved && (
            <p className="muted" role="status">
              The new key is in use. Its check value is {settings.swipeKey.kcv}.
            </p>
          )}
        </div>
      ) : (
        <div className="setting-block" aria-labelledby="bdk-title" data-testid="bdk-not-held">
          <span className="setting-name" id="bdk-title">
            Swipe key (BDK)
          </span>
          <p className="setting-help">
            None is kept while the payment processor is the merchant&apos;s gateway: each swipe goes to the
            gateway as the reader encrypted it, and the gateway decrypts it. So nothing on this counter can
            decrypt a swipe, not even one kept to be sent on after the network was down. The key can be set
            again once the processor is the simulator.
          </p>
        </div>
      )}

      {confirming && (
        <ConfirmDialog
          title="Change the swipe key?"
          confirmLabel="Change the key"
          busy={busy}
          problem={problem}
          onConfirm={() => void saveKey()}
          onCancel={() => setConfirming(false)}
        >
          <p>
            From the next swipe on, only readers injected with the new key can be used. Swipes from any other
            reader are refused until the key matches again.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
