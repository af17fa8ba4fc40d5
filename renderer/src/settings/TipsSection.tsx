/**
 * Tips on captures (the engine's tips_enabled), the percentages the tab screen suggests, how long a
 * tab stays open, the tip share above which a tip is confirmed, the duplicate check's window, and the
 * amount above which a sale, tab or refund is confirmed.
 */
import { useState } from 'react';
import { useTerminal } from '../terminal/terminal-context';
import { MoneyInput } from '../ui/MoneyInput';
import { useSettingsChange } from './settings-change';
import { SaveRow, SettingRow, WholeNumberRow } from './SettingRow';

function readPercentages(texts: readonly string[]): number[] | string {
  const values = texts.map((text) => text.trim()).filter(Boolean);
  if (values.length === 0) return 'Suggest at least one percentage.';
  const numbers = values.map(Number);
  if (numbers.some((n) => !Number.isInteger(n) || n < 1 || n > 100))
    return 'Percentages are whole numbers from 1 to 100.';
  if (new Set(numbers).size !== numbers.length) return 'Each percentage once.';
  return numbers;
}

export function TipsSection() {
  const { bridge, settings } = useTerminal();
  const change = useSettingsChange();
  const [tipsEnabled, setTipsEnabled] = useState(settings.tipsEnabled);
  const [percentages, setPercentages] = useState(() =>
    [0, 1, 2, 3].map((i) => String(settings.tipPercentages[i] ?? '')),
  );
  const [days, setDays] = useState(String(settings.authExpiryDays));
  const [warnPercent, setWarnPercent] = useState(String(settings.tipWarnPercent));
  const [duplicateMinutes, setDuplicateMinutes] = useState(String(settings.duplicateWindowMinutes));
  const [confirmAboveCents, setConfirmAboveCents] = useState(settings.confirmAmountAboveCents);
  const [problem, setProblem] = useState<string>();
  const [saved, setSaved] = useState(false);
  const [saving, setSaving] = useState(false);

  const save = async () => {
    const tipPercentages = readPercentages(percentages);
    if (typeof tipPercentages === 'string') return setProblem(tipPercentages);
    const authExpiryDays = Number(days);
    if (!/^\d{1,3}$/.test(days) || authExpiryDays < 1) return setProblem('Tabs stay open 1 to 999 days.');
    const tipWarnPercent = Number(warnPercent);
    if (!/^\d{1,4}$/.test(warnPercent) || tipWarnPercent < 1 || tipWarnPercent > 1000)
      return setProblem('Tips are confirmed above 1% to 1000% of the check.');
    const duplicateWindowMinutes = Number(duplicateMinutes);
    if (!/^\d{1,4}$/.test(duplicateMinutes) || duplicateWindowMinutes > 1440)
      return setProblem('The duplicate check looks back 0 (off) to 1440 minutes.');
    setSaving(true);
    const result = await change((pin) =>
      bridge.invoke('settings:update', {
        tipsEnabled,
        tipPercentages,
        authExpiryDays,
        tipWarnPercent,
        duplicateWindowMinutes,
        confirmAmountAboveCents: confirmAboveCents,
        ...(pin && { pin }),
      }),
    );
    setSaving(false);
    if (result.ok) {
      setSaved(true);
      setProblem(undefined);
    } else if (!('cancelled' in result)) setProblem(result.problem);
  };
  const edited = () => {
    setSaved(false);
    setProblem(undefined);
  };

  return (
    <section className="panel settings-section" aria-labelledby="tips-title">
      <header className="section-head">
        <h2 id="tips-title">Tips &amp; tabs</h2>
        <p>Restaurants authorize the check on a tab, then add the tip and capture it when the guest pays.</p>
      </header>
      <form
        className="settings-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <div className="setting-row">
          <div>
            <span className="setting-name" id="tips-switch-label">
              Tips on captured tabs
            </span>
            <p className="setting-help">
              When on, a tip can be added to a tab when it is captured, and other programs may send
              tip_amount.
            </p>
          </div>
          <button
            type="button"
            role="switch"
            className="switch"
            aria-checked={tipsEnabled}
            aria-labelledby="tips-switch-label"
            onClick={() => {
              setTipsEnabled((on) => !on);
              edited();
            }}
          >
            <span className="switch-knob" aria-hidden="true" />
            <span className="switch-text">{tipsEnabled ? 'On' : 'Off'}</span>
          </button>
        </div>

        <div className="setting-row" role="group" aria-labelledby="suggested-tips-label">
          <div>
            <span className="setting-name" id="suggested-tips-label">
              Suggested tips
            </span>
            <p className="setting-help">Up to four percentages of the check, offered as one-tap tips.</p>
          </div>
          <div className="percent-fields">
            {percentages.map((value, index) => (
              <label key={index} className="input-affix">
                <span className="visually-hidden">Suggested tip {index + 1}</span>
                <input
                  className="input"
                  inputMode="numeric"
                  maxLength={3}
                  value={value}
                  onChange={(event) => {
                    const text = event.target.value.replace(/\D/g, '').slice(0, 3);
                    setPercentages((previous) => previous.map((old, i) => (i === index ? text : old)));
                    edited();
                  }}
                />
                <span className="input-suffix" aria-hidden="true">
                  %
                </span>
              </label>
            ))}
          </div>
        </div>

        <WholeNumberRow
          id="expiry-days"
          label="Tabs can be captured for"
          help="After this many days a tab expires: it can only be voided, and the card’s hold lapses."
          digits={3}
          suffix="days"
          value={days}
          onChange={(text) => {
            setDays(text);
            edited();
          }}
        />
        <SettingRow
          id="confirm-amount-above"
          label="Confirm amounts above"
          help="A sale, tab or refund above this amount is said back in words and digits and confirmed before the card is taken."
        >
          <MoneyInput
            id="confirm-amount-above"
            className="input-affix-wide"
            cents={confirmAboveCents}
            onChange={(cents) => {
              setConfirmAboveCents(cents);
              edited();
            }}
          />
        </SettingRow>
        <WholeNumberRow
          id="tip-warn-percent"
          label="Confirm tips above"
          help="A tip above this share of the check, or above the check itself, is shown with the check and confirmed before it is captured."
          digits={4}
          suffix="%"
          value={warnPercent}
          onChange={(text) => {
            setWarnPercent(text);
            edited();
          }}
        />
        <WholeNumberRow
          id="duplicate-minutes"
          label="Duplicate check"
          help="The same card charged the same amount within this many minutes asks before charging again. 0 turns the check off."
          digits={4}
          suffix="min"
          value={duplicateMinutes}
          onChange={(text) => {
            setDuplicateMinutes(text);
            edited();
          }}
        />

        <SaveRow problem={problem} saved={saved} saving={saving} />
      </form>
    </section>
  );
}
