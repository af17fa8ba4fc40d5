/**
 * Receipts and the printer: the merchant lines printed on every receipt, where receipts print and on
 * what paper, a test print, when copies print by themselves, and the mail server receipts are emailed
 * through. The mail password is typed here and never shown back.
 */
import { useState } from 'react';
import type { ReceiptSettings } from '../../../shared/ipc/contract';
import { formatMoney, parseMoney } from '../../../shared/money';
import { isPrinterAddress } from '../../../shared/receipt-printer';
import { SaveRow, SecretRow, SettingRow } from './SettingRow';
import { useTerminal } from '../terminal/terminal-context';
import { BusyButton } from '../ui/BusyButton';
import { LoadProblem } from '../ui/LoadProblem';
import { ResultNotice } from '../ui/ResultNotice';
import { useLoad } from '../ui/use-load';
import { useSettingsChange } from './settings-change';

export function ReceiptsSection() {
  const { bridge } = useTerminal();
  const loaded = useLoad(() => bridge.invoke('receipts:settings'), [bridge]);
  if (!loaded.data) {
    return (
      <section className="panel settings-section" aria-labelledby="receipts-title">
        <header className="section-head">
          <h2 id="receipts-title">Receipts &amp; printer</h2>
        </header>
        <LoadProblem loaded={loaded} />
      </section>
    );
  }
  return <ReceiptsForm initial={loaded.data} />;
}

const fourLines = (lines: readonly string[]) => [0, 1, 2, 3].map((i) => lines[i] ?? '');

function ReceiptsForm({ initial }: { initial: ReceiptSettings }) {
  const { bridge } = useTerminal();
  const change = useSettingsChange();
  const [form, setForm] = useState(() => ({
    merchantName: initial.merchantName,
    merchantAddress: fourLines(initial.merchantAddress),
    merchantPhone: initial.merchantPhone,
    footer: fourLines(initial.footer),
    printer: initial.printer,
    width: initial.width,
    customerCopy: initial.customerCopy,
    merchantCopy: initial.merchantCopy,
    merchantCopyAbove: formatMoney(initial.merchantCopyAboveCents),
    checkAtAuth: initial.checkAtAuth,
    smtpHost: initial.smtp.host,
    smtpPort: String(initial.smtp.port),
    smtpSecurity: initial.smtp.security,
    smtpUser: initial.smtp.user,
    smtpFrom: initial.smtp.from,
    smtpPassword: '',
  }));
  const [passwordSet, setPasswordSet] = useState(initial.smtp.passwordSet);
  const [problem, setProblem] = useState<string>();
  const [saved, setSaved] = useState(false);
  const [saving, setSaving] = useState(false);
  const [testing, setTesting] = useState(false);
  const [testResult, setTestResult] = useState<{ ok: boolean; message: string }>();

  const edit = <K extends keyof typeof form>(name: K, value: (typeof form)[K]) => {
    setForm((previous) => ({ ...previous, [name]: value }));
    setSaved(false);
    setProblem(undefined);
  };

  const save = async () => {
    if (!isPrinterAddress(form.printer.trim())) {
      return setProblem(
        'The receipt printer is tcp://<address>:<port> (port 9100 on most printers), or the name of a print queue such as counter-epson.',
      );
    }
    const above = parseMoney(form.merchantCopyAbove.trim(), { allowZero: true });
    if (!above.ok) return setProblem('The merchant copy amount is dollars with two decimals, like 25.00.');
    const port = Number(form.smtpPort);
    if (!/^\d{1,5}$/.test(form.smtpPort) || port < 1 || port > 65535) {
      return setProblem('The mail server port is a number from 1 to 65535.');
    }
    setSaving(true);
    const result = await change((pin) =>
      bridge.invoke('receipts:update-settings', {
        merchantName: form.merchantName,
        merchantAddress: form.merchantAddress.filter((line) => line.trim() !== ''),
        merchantPhone: form.merchantPhone,
        footer: form.footer.filter((line) => line.trim() !== ''),
        printer: form.printer,
        width: form.width,
        customerCopy: form.customerCopy,
        merchantCopy: form.merchantCopy,
        merchantCopyAboveCents: above.cents,
        checkAtAuth: form.checkAtAuth,
        smtpHost: form.smtpHost,
        smtpPort: port,
        smtpSecurity: form.smtpSecurity,
        smtpUser: form.smtpUser,
        smtpFrom: form.smtpFrom,
        // An empty field keeps the password there is; Remove password clears it.
        ...(form.smtpPassword !== '' && { smtpPassword: form.smtpPassword }),
        ...(pin && { pin }),
      }),
    );
    setSaving(false);
    if (result.ok) {
      setSaved(true);
      setPasswordSet(result.value.smtp.passwordSet);
      setForm((previous) => ({ ...previous, smtpPassword: '' }));
    } else if (!('cancelled' in result)) setProblem(result.problem);
  };

  const removePassword = async () => {
    setSaving(true);
    const result = await change((pin) =>
      bridge.invoke('receipts:update-settings', { smtpPassword: '', ...(pin && { pin }) }),
    );
    setSaving(false);
    if (result.ok) {
      setPasswordSet(result.value.smtp.passwordSet);
      setForm((previous) => ({ ...previous, smtpPassword: '' }));
    } else if (!('cancelled' in result)) setProblem(result.problem);
  };

  const testPrint = async () => {
    setTesting(true);
    try {
      setTestResult({ ok: true, message: (await bridge.invoke('receipts:test-print')).message });
    } catch (error) {
      setTestResult({ ok: false, message: error instanceof Error ? error.message : String(error) });
    }
    setTesting(false);
  };

  return (
    <section
      className="panel settings-section"
      aria-labelledby="receipts-title"
      data-testid="receipts-settings"
    >
      <header className="section-head">
        <h2 id="receipts-title">Receipts &amp; printer</h2>
        <p>
          What every receipt says at its top and bottom, the ESC/POS receipt printer, when copies print by
          themselves, and the mail server receipts are emailed through.
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
        <h3>On every receipt</h3>
        <TextRow
          label="Business name"
          value={form.merchantName}
          max={48}
          onChange={(v) => edit('merchantName', v)}
        />
        <LinesRow
          label="Address"
          help="Up to four lines, printed under the name."
          lines={form.merchantAddress}
          onChange={(v) => edit('merchantAddress', v)}
        />
        <TextRow
          label="Phone"
          value={form.merchantPhone}
          max={32}
          onChange={(v) => edit('merchantPhone', v)}
        />
        <LinesRow
          label="Closing lines"
          help="Up to four lines at the bottom, such as a returns policy."
          lines={form.footer}
          onChange={(v) => edit('footer', v)}
        />

        <h3>Printer</h3>
        <TextRow
          label="Receipt printer"
          help="tcp://<address>:9100 for a network printer, or the name of a raw print queue of this computer. Empty: no printer."
          value={form.printer}
          max={270}
          onChange={(v) => edit('printer', v)}
        />
        <ChoiceRow
          label="Paper width"
          help="32 characters on 58 mm paper; 42 or 48 on 80 mm paper."
          value={String(form.width)}
          choices={[
            ['32', '32 (58 mm)'],
            ['42', '42 (80 mm)'],
            ['48', '48 (80 mm, small font)'],
          ]}
          onChange={(v) => edit('width', Number(v) as 32 | 42 | 48)}
        />
        <div className="setting-row">
          <div>
            <span className="setting-name">Test print</span>
            <p className="setting-help">Prints a short page on the saved printer, with the saved width.</p>
          </div>
          <BusyButton
            type="button"
            className="button button-secondary"
            busy={testing}
            onClick={() => void testPrint()}
          >
            Test print
          </BusyButton>
        </div>
        <ResultNotice result={testResult} />

        <h3>When to print</h3>
        <ChoiceRow
          label="Customer copy after an approval"
          value={form.customerCopy}
          choices={[
            ['always', 'Always'],
            ['ask', 'Ask: offer Print receipt'],
            ['never', 'Never'],
          ]}
          onChange={(v) => edit('customerCopy', v as ReceiptSettings['customerCopy'])}
        />
        <ChoiceRow
          label="Merchant copy to sign"
          value={form.merchantCopy}
          choices={[
            ['always', 'Always'],
            ['above', 'Above an amount'],
            ['never', 'Never'],
          ]}
          onChange={(v) => edit('merchantCopy', v as ReceiptSettings['merchantCopy'])}
        />
        {form.merchantCopy === 'above' && (
          <TextRow
            label="Merchant copy above"
            help="Totals above this many dollars print a copy to sign."
            value={form.merchantCopyAbove}
            max={12}
            inputMode="decimal"
            onChange={(v) => edit('merchantCopyAbove', v)}
          />
        )}
        <ChoiceRow
          label="Check when a tab opens"
          help="The check with TIP and TOTAL lines and suggested tips, for the guest to sign."
          value={form.checkAtAuth}
          choices={[
            ['always', 'Always'],
            ['never', 'Never'],
          ]}
          onChange={(v) => edit('checkAtAuth', v as ReceiptSettings['checkAtAuth'])}
        />

        <h3>Email</h3>
        <TextRow
          label="Mail server (SMTP)"
          value={form.smtpHost}
          max={253}
          onChange={(v) => edit('smtpHost', v)}
        />
        <TextRow
          label="Port"
          value={form.smtpPort}
          max={5}
          inputMode="numeric"
          onChange={(v) => edit('smtpPort', v)}
        />
        <ChoiceRow
          label="Security"
          value={form.smtpSecurity}
          choices={[
            ['starttls', 'STARTTLS (port 587)'],
            ['tls', 'TLS (port 465)'],
            ['none', 'None'],
          ]}
          onChange={(v) => edit('smtpSecurity', v as ReceiptSettings['smtp']['security'])}
        />
        <TextRow label="User name" value={form.smtpUser} max={256} onChange={(v) => edit('smtpUser', v)} />
        <SecretRow
          id="smtp-password"
          label="Password"
          kept={passwordSet}
          keptHelp="A password is kept; it is never shown. Type a new one to replace it. A new server, or no protection, clears it unless you type it again."
          noneHelp="No password is kept."
          value={form.smtpPassword}
          maxLength={256}
          removeLabel="Remove password"
          removing={saving}
          onChange={(text) => edit('smtpPassword', text)}
          onRemove={() => void removePassword()}
        />
        <TextRow
          label="Sender address"
          value={form.smtpFrom}
          max={254}
          inputMode="email"
          onChange={(v) => edit('smtpFrom', v)}
        />

        <SaveRow problem={problem} saved={saved} saving={saving} />
      </form>
    </section>
  );
}

function TextRow({
  label,
  help,
  value,
  max,
  inputMode,
  onChange,
}: {
  label: string;
  help?: string;
  value: string;
  max: number;
  inputMode?: 'numeric' | 'decimal' | 'email';
  onChange: (value: string) => void;
}) {
  const id = `receipt-${label.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  return (
    <SettingRow id={id} label={label} help={help}>
      <input
        id={id}
        className="input receipt-setting-input"
        maxLength={max}
        inputMode={inputMode}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </SettingRow>
  );
}

function LinesRow({
  label,
  help,
  lines,
  onChange,
}: {
  label: string;
  help: string;
  lines: string[];
  onChange: (lines: string[]) => void;
}) {
  return (
    <div className="setting-row" role="group" aria-label={label}>
      <div>
        <span className="setting-name">{label}</span>
        <p className="setting-help">{help}</p>
      </div>
      <div className="receipt-lines">
        {lines.map((line, index) => (
          <label key={index}>
            <span className="visually-hidden">
              {label} line {index + 1}
            </span>
            <input
              className="input receipt-setting-input"
              maxLength={48}
              value={line}
              onChange={(event) =>
                onChange(lines.map((old, i) => (i === index ? event.target.value.replace(/\|/g, '') : old)))
              }
            />
          </label>
        ))}
      </div>
    </div>
  );
}

function ChoiceRow({
  label,
  help,
  value,
  choices,
  onChange,
}: {
  label: string;
  help?: string;
  value: string;
  choices: [string, string][];
  onChange: (value: string) => void;
}) {
  const id = `receipt-${label.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  return (
    <SettingRow id={id} label={label} help={help}>
      <select
        id={id}
        className="input receipt-setting-input"
        value={value}
        onChange={(event) => onChange(event.target.value)}
      >
        {choices.map(([choice, words]) => (
          <option key={choice} value={choice}>
            {words}
          </option>
        ))}
      </select>
    </SettingRow>
  );
}
