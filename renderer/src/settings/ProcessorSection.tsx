/**
 * Who approves payments: the built-in simulator, for trying Tender out, or the merchant's hosted
 * gateway, with its address, API key, CA file and time limit; Test connection, which says what is
 * wrong in words; and store-and-forward while the gateway cannot be reached, within its limits. The
 * key is typed here and never shown back.
 */
import { useState } from 'react';
import type { ConnectionTest, ProcessorSettings } from '../../../shared/ipc/processor-contract';
import { useTerminal } from '../terminal/terminal-context';
import { BusyButton } from '../ui/BusyButton';
import { LoadProblem } from '../ui/LoadProblem';
import { MoneyInput } from '../ui/MoneyInput';
import { ResultNotice } from '../ui/ResultNotice';
import { useLoad } from '../ui/use-load';
import { useSettingsChange } from './settings-change';
import { SaveRow, SecretRow, SettingRow, WholeNumberRow } from './SettingRow';

export function ProcessorSection() {
  const { bridge } = useTerminal();
  const loaded = useLoad(() => bridge.invoke('processor:get'), [bridge]);
  if (!loaded.data) {
    return (
      <section className="panel settings-section" aria-labelledby="processor-title">
        <header className="section-head">
          <h2 id="processor-title">Payment processor</h2>
        </header>
        <LoadProblem loaded={loaded} />
      </section>
    );
  }
  return <ProcessorForm initial={loaded.data} />;
}

const GATEWAY_ADDRESS = /^https:\/\/[^\s/?#]+(\/[^\s?#]*)?\/rest\/v1\/?$/;

function ProcessorForm({ initial }: { initial: ProcessorSettings }) {
  const { bridge } = useTerminal();
  const change = useSettingsChange();
  const [form, setForm] = useState(() => ({
    processor: initial.processor,
    upstreamUrl: initial.upstreamUrl,
    apiKey: '',
    caFile: initial.caFile,
    timeoutSeconds: String(initial.timeoutSeconds),
    offlineEnabled: initial.offlineEnabled,
    offlineMaxAmountCents: initial.offlineMaxAmountCents,
    offlineMaxTotalCents: initial.offlineMaxTotalCents,
    offlineMaxHours: String(initial.offlineMaxHours),
  }));
  const [keySet, setKeySet] = useState(initial.apiKeySet);
  const [problem, setProblem] = useState<string>();
  const [saved, setSaved] = useState(false);
  const [saving, setSaving] = useState(false);
  const [testing, setTesting] = useState(false);
  const [test, setTest] = useState<ConnectionTest>();

  const edit = <K extends keyof typeof form>(name: K, value: (typeof form)[K]) => {
    setForm((previous) => ({ ...previous, [name]: value }));
    setSaved(false);
    setProblem(undefined);
  };

  /** The gateway's fields as typed, or the words that say what is wrong with them. */
  const gatewayFields = () => {
    const url = form.upstreamUrl.trim();
    if (url !== '' && !GATEWAY_ADDRESS.test(url)) {
      return 'The gateway’s address starts with https:// and ends in /rest/v1, such as https://gateway.example.com/rest/v1.';
    }
    const timeoutSeconds = Number(form.timeoutSeconds);
    if (!/^\d{1,3}$/.test(form.timeoutSeconds) || timeoutSeconds < 2 || timeoutSeconds > 120) {
      return 'The gateway has 2 to 120 seconds to answer.';
    }
    return {
      upstreamUrl: url,
      caFile: form.caFile.trim(),
      timeoutSeconds,
      ...(form.apiKey !== '' && { apiKey: form.apiKey }),
    };
  };

  const save = async () => {
    const gateway = gatewayFields();
    if (typeof gateway === 'string') return setProblem(gateway);
    const offlineMaxHours = Number(form.offlineMaxHours);
    if (!/^\d{1,3}$/.test(form.offlineMaxHours) || offlineMaxHours < 1 || offlineMaxHours > 168) {
      return setProblem('Sales wait to be forwarded 1 to 168 hours at most.');
    }
    if (form.offlineMaxAmountCents < 1 || form.offlineMaxTotalCents < 1) {
      return setProblem('The offline limits are amounts above $0.00.');
    }
    if (form.offlineMaxAmountCents > form.offlineMaxTotalCents) {
      return setProblem('The largest offline sale cannot be above the offline total.');
    }
    setSaving(true);
    const result = await change((pin) =>
      bridge.invoke('processor:update', {
        ...gateway,
        processor: form.processor,
        offlineEnabled: form.offlineEnabled,
        offlineMaxAmountCents: form.offlineMaxAmountCents,
        offlineMaxTotalCents: form.offlineMaxTotalCents,
        offlineMaxHours,
        ...(pin && { pin }),
      }),
    );
    setSaving(false);
    if (result.ok) {
      setSaved(true);
      setKeySet(result.value.apiKeySet);
      setForm((previous) => ({ ...previous, apiKey: '', upstreamUrl: result.value.upstreamUrl }));
    } else if (!('cancelled' in result)) setProblem(result.problem);
  };

  const removeKey = async () => {
    setSaving(true);
    const result = await change((pin) =>
      bridge.invoke('processor:update', { apiKey: '', ...(pin && { pin }) }),
    );
    setSaving(false);
    if (result.ok) setKeySet(result.value.apiKeySet);
    else if (!('cancelled' in result)) setProblem(result.problem);
  };

  const testConnection = async () => {
    const gateway = gatewayFields();
    if (typeof gateway === 'string') return setTest({ ok: false, message: gateway });
    setTesting(true);
    setTest(undefined);
    const result = await change((pin) =>
      bridge.invoke('processor:test', { ...gateway, ...(pin && { pin }) }),
    );
    setTesting(false);
    if (result.ok) setTest(result.value);
    else if (!('cancelled' in result)) setTest({ ok: false, message: result.problem });
  };

  const upstream = form.processor === 'upstream';
  return (
    <section
      className="panel settings-section"
      aria-labelledby="processor-title"
      data-testid="processor-settings"
    >
      <header className="section-head">
        <h2 id="processor-title">Payment processor</h2>
        <p>
          Who approves payments. The simulator is a test issuer that moves no money, for trying Tender out.
          The merchant’s gateway takes real payments: Tender sends it every sale, tab, refund and void, and
          keeps its answer.
        </p>
      </header>
      <form
        className="settings-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <SettingRow
          id="processor-choice"
          label="Payments approved by"
          help={
            upstream
              ? 'Every payment goes to the gateway below. Close the batch before switching, so that one batch is not split between the two.'
              : 'No money moves: only the test cards of the documentation are declined.'
          }
        >
          <select
            id="processor-choice"
            className="input receipt-setting-input setting-field"
            value={form.processor}
            onChange={(event) => edit('processor', event.target.value as ProcessorSettings['processor'])}
          >
            <option value="simulator">The simulator (testing)</option>
            <option value="upstream">The merchant’s gateway</option>
          </select>
        </SettingRow>

        <h3>The merchant’s gateway</h3>
        <SettingRow
          id="upstream-url"
          label="Gateway address"
          help="Its https:// address, ending in /rest/v1, from the gateway account."
        >
          <input
            id="upstream-url"
            className="input input-code receipt-setting-input setting-field"
            autoComplete="off"
            spellCheck={false}
            placeholder="https://gateway.example.com/rest/v1"
            maxLength={2000}
            value={form.upstreamUrl}
            onChange={(event) => edit('upstreamUrl', event.target.value)}
          />
        </SettingRow>
        <SecretRow
          id="upstream-key"
          label="API key"
          kept={keySet}
          keptHelp="A key is kept; it is never shown. Type a new one to replace it. A new address clears it unless you type it again."
          noneHelp="No key is kept. The gateway account’s console issues it."
          helpTestId="upstream-key-state"
          value={form.apiKey}
          maxLength={256}
          code
          lineUp
          removeLabel="Remove key"
          removing={saving}
          onChange={(text) => edit('apiKey', text)}
          onRemove={() => void removeKey()}
        />
        <SettingRow
          id="upstream-ca-file"
          label="CA file"
          help="For a private gateway only: the full path of a PEM file of the certificates that issued its certificate. The certificate is always checked."
        >
          <input
            id="upstream-ca-file"
            className="input input-code receipt-setting-input setting-field"
            autoComplete="off"
            spellCheck={false}
            placeholder="/etc/tender/gateway-ca.pem"
            maxLength={4096}
            value={form.caFile}
            onChange={(event) => edit('caFile', event.target.value)}
          />
        </SettingRow>
        <WholeNumberRow
          id="upstream-timeout"
          label="Time to answer"
          help="How long the gateway has to answer a payment. When an answer is lost, Tender spends as long again asking the gateway what it did."
          digits={3}
          suffix="s"
          value={form.timeoutSeconds}
          onChange={(text) => edit('timeoutSeconds', text)}
        />
        <div className="setting-row">
          <div>
            <span className="setting-name">Test connection</span>
            <p className="setting-help">
              Calls the gateway with the address and key above (the kept key when none is typed) and says what
              is wrong. Nothing is charged.
            </p>
          </div>
          <BusyButton
            type="button"
            className="button button-secondary"
            busy={testing}
            onClick={() => void testConnection()}
          >
            Test connection
          </BusyButton>
        </div>
        <ResultNotice result={test} testId="processor-test-result" />

        <h3>When the gateway cannot be reached</h3>
        <div className="setting-row">
          <div>
            <span className="setting-name" id="offline-switch-label">
              Store and forward
            </span>
            <p className="setting-help">
              When on, and no connection to the gateway can be made at all, swiped sales within the limits
              below are approved offline and sent on when it is back. Keyed cards and tabs are never approved
              offline. An offline sale the card’s bank later declines is money the shop may not get.
            </p>
          </div>
          <button
            type="button"
            role="switch"
            className="switch"
            aria-checked={form.offlineEnabled}
            aria-labelledby="offline-switch-label"
            onClick={() => edit('offlineEnabled', !form.offlineEnabled)}
          >
            <span className="switch-knob" aria-hidden="true" />
            <span className="switch-text">{form.offlineEnabled ? 'On' : 'Off'}</span>
          </button>
        </div>
        <SettingRow id="offline-max-amount" label="Largest offline sale">
          <MoneyInput
            id="offline-max-amount"
            className="input-affix-wide"
            cents={form.offlineMaxAmountCents}
            onChange={(cents) => edit('offlineMaxAmountCents', cents)}
          />
        </SettingRow>
        <SettingRow
          id="offline-max-total"
          label="Offline total"
          help="All offline sales not yet sent on together, for the whole store on a store server."
        >
          <MoneyInput
            id="offline-max-total"
            className="input-affix-wide"
            cents={form.offlineMaxTotalCents}
            onChange={(cents) => edit('offlineMaxTotalCents', cents)}
          />
        </SettingRow>
        <WholeNumberRow
          id="offline-max-hours"
          label="Oldest waiting sale"
          help="No sale is approved offline while one has waited longer than this to be sent on."
          digits={3}
          suffix="h"
          value={form.offlineMaxHours}
          onChange={(text) => edit('offlineMaxHours', text)}
        />

        <SaveRow problem={problem} saved={saved} saving={saving} />
      </form>
    </section>
  );
}
