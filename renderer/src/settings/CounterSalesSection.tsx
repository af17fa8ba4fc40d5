/**
 * Counter sales: the customer's screen (shown or not, connected or not, and in a browser a way to
 * open it), tips chosen at the counter and smart tips below an amount, and the total from which the
 * customer signs on their screen.
 */
import { useEffect, useState } from 'react';
import type { CustomerView } from '../../../shared/ipc/customer-contract';
import { displayMoney } from '../../../shared/money';
import { useTerminal } from '../terminal/terminal-context';
import { MoneyInput } from '../ui/MoneyInput';
import { ProblemNotice } from '../ui/ProblemNotice';
import { useSettingsChange } from './settings-change';
import { SaveRow, SettingRow } from './SettingRow';

function Switch({ id, on, onToggle }: { id: string; on: boolean; onToggle(): void }) {
  return (
    <button
      type="button"
      role="switch"
      className="switch"
      aria-checked={on}
      aria-labelledby={`${id}-label`}
      onClick={onToggle}
    >
      <span className="switch-knob" aria-hidden="true" />
      <span className="switch-text">{on ? 'On' : 'Off'}</span>
    </button>
  );
}

export function CounterSalesSection() {
  const { bridge, settings, session } = useTerminal();
  const change = useSettingsChange();
  const [customerScreen, setCustomerScreen] = useState(settings.customerScreen);
  const [counterTips, setCounterTips] = useState(settings.counterTips);
  const [smartBelow, setSmartBelow] = useState(settings.smartTipBelowCents);
  const [smartAmounts, setSmartAmounts] = useState(() =>
    [0, 1, 2].map((i) => settings.smartTipAmountsCents[i] ?? 0),
  );
  const [signatures, setSignatures] = useState(settings.signatureAboveCents !== null);
  const [signatureAbove, setSignatureAbove] = useState(settings.signatureAboveCents ?? 5000);
  const [problem, setProblem] = useState<string>();
  const [saved, setSaved] = useState(false);
  const [saving, setSaving] = useState(false);
  const [view, setView] = useState<CustomerView>();
  const [opening, setOpening] = useState<string>();

  useEffect(() => bridge.on('customer:changed', setView), [bridge]);
  useEffect(() => {
    bridge.invoke('customer:view').then(setView, () => undefined);
  }, [bridge]);

  const edited = () => {
    setSaved(false);
    setProblem(undefined);
  };

  const save = async () => {
    const amounts = smartAmounts.filter((cents) => cents > 0);
    if (amounts.length === 0) return setProblem('Give at least one smart tip amount.');
    if (amounts.some((cents, i) => i > 0 && cents <= (amounts[i - 1] ?? 0))) {
      return setProblem('Smart tip amounts go from the smallest to the largest, each once.');
    }
    if (signatures && signatureAbove === 0) return setProblem('Signatures start at an amount above $0.00.');
    setSaving(true);
    const result = await change((pin) =>
      bridge.invoke('settings:update', {
        customerScreen,
        counterTips,
        smartTipBelowCents: smartBelow,
        smartTipAmountsCents: amounts,
        signatureAboveCents: signatures ? signatureAbove : null,
        ...(pin && { pin }),
      }),
    );
    setSaving(false);
    if (result.ok) {
      setSaved(true);
      setProblem(undefined);
    } else if (!('cancelled' in result)) setProblem(result.problem);
  };

  const openCustomerScreen = async () => {
    setOpening(undefined);
    try {
      const { address } = await bridge.invoke('customer:open-screen');
      // Its own window, with nothing of this page: it pairs with the ticket in its address.
      window.open(address, '_blank', 'noopener,popup=yes');
    } catch (error) {
      setOpening(error instanceof Error ? error.message : String(error));
    }
  };

  const connected = view?.screen.connected ?? false;
  return (
    <section className="panel settings-section" aria-labelledby="counter-title">
      <header className="section-head">
        <h2 id="counter-title">Counter sales</h2>
        <p>
          A screen turned to the customer shows the amount, lets them choose the tip, sign and choose their
          receipt.
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
        <div className="setting-row">
          <div>
            <span className="setting-name" id="customer-screen-label">
              Customer screen
            </span>
            <p className="setting-help" data-testid="customer-screen-status">
              {!settings.customerScreen
                ? 'Off: sales show on the cashier screen only.'
                : connected
                  ? 'Connected: sales show on it.'
                  : session.shell === 'desktop'
                    ? 'Shown full screen on a second display, when one is plugged in.'
                    : 'Not connected. Open it in a window on the screen the customer faces.'}
            </p>
          </div>
          <Switch
            id="customer-screen"
            on={customerScreen}
            onToggle={() => {
              setCustomerScreen((on) => !on);
              edited();
            }}
          />
        </div>
        {session.shell === 'browser' && settings.customerScreen && (
          <div className="setting-row">
            <div>
              <span className="setting-name">Open the customer screen</span>
              <p className="setting-help">
                Opens a window paired with this counter for the customer: drag it to their display and make it
                full screen (F11).
              </p>
              <ProblemNotice problem={opening} />
            </div>
            <button
              type="button"
              className="button button-secondary"
              onClick={() => void openCustomerScreen()}
            >
              Open the window
            </button>
          </div>
        )}

        <div className="setting-row">
          <div>
            <span className="setting-name" id="counter-tips-label">
              Tips at the counter
            </span>
            <p className="setting-help">
              {settings.tipsEnabled
                ? 'Before the card, the customer chooses a tip (on their screen, or the cashier asks them): three suggestions, Custom or No tip.'
                : 'Turn on Tips on captured tabs first (Tips & tabs): a counter tip is captured as a tip.'}
            </p>
          </div>
          <Switch
            id="counter-tips"
            on={counterTips}
            onToggle={() => {
              setCounterTips((on) => !on);
              edited();
            }}
          />
        </div>
        <SettingRow
          id="smart-tip-below"
          label="Smart tips below"
          help="Sales below this amount suggest the fixed tips below instead of percentages. $0.00 always suggests percentages."
        >
          <MoneyInput
            id="smart-tip-below"
            className="input-affix-wide"
            cents={smartBelow}
            onChange={(cents) => {
              setSmartBelow(cents);
              edited();
            }}
          />
        </SettingRow>
        <div className="setting-row" role="group" aria-labelledby="smart-amounts-label">
          <div>
            <span className="setting-name" id="smart-amounts-label">
              Smart tip amounts
            </span>
            <p className="setting-help">Up to three, smallest first; $0.00 leaves one out.</p>
          </div>
          <div className="percent-fields">
            {smartAmounts.map((cents, index) => (
              <MoneyInput
                key={index}
                aria-label={`Smart tip ${index + 1}`}
                cents={cents}
                onChange={(next) => {
                  setSmartAmounts((previous) => previous.map((old, i) => (i === index ? next : old)));
                  edited();
                }}
              />
            ))}
          </div>
        </div>

        <div className="setting-row">
          <div>
            <span className="setting-name" id="signatures-label">
              Signature on the customer screen
            </span>
            <p className="setting-help">
              {signatures
                ? `Sales of ${displayMoney(signatureAbove)} or more, tip included, are signed for on the customer screen; the merchant copy prints the signature.`
                : 'Never asked for. The merchant copy to sign (Receipts & printer) still prints as set.'}
            </p>
          </div>
          <Switch
            id="signatures"
            on={signatures}
            onToggle={() => {
              setSignatures((on) => !on);
              edited();
            }}
          />
        </div>
        {signatures && (
          <SettingRow
            id="signature-above"
            label="Sign from"
            help="The total, tip included, from which the customer signs."
          >
            <MoneyInput
              id="signature-above"
              className="input-affix-wide"
              cents={signatureAbove}
              onChange={(cents) => {
                setSignatureAbove(cents);
                edited();
              }}
            />
          </SettingRow>
        )}

        <SaveRow problem={problem} saved={saved} saving={saving} />
      </form>
    </section>
  );
}
