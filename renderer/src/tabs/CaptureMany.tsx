/**
 * The end of a shift: the chosen tabs in one table, each with its tip, captured one after the other.
 * Each capture has its own Idempotency-Key; a tab that failed keeps its tip and is tried again alone,
 * and one with no answer is sent again with its key, so nothing is captured twice.
 */
import { useState } from 'react';
import type { TransactionListItem } from '../../../shared/api/schemas';
import { displayMoney, formatMoney } from '../../../shared/money';
import type { SaleOutcome } from '../payment/outcome';
import { useTerminal } from '../terminal/terminal-context';
import { cardLabel, centsOf, counted, holderOf } from '../transactions/present';
import { prepareTransaction, useKeyedIdempotentSender } from '../payment/run-transaction';
import { ArrowLeftIcon, Spinner } from '../ui/icons';
import { MoneyInput } from '../ui/MoneyInput';
import { BusyButton } from '../ui/BusyButton';
import { LargeTipConfirm, type TipToConfirm } from './LargeTipConfirm';
import { isLargeTip, tipForPercent } from './tip-math';

type RowState = { state: 'ready' } | { state: 'sending' } | { state: 'done'; outcome: SaleOutcome };

export function CaptureMany({ tabs, onDone }: { tabs: TransactionListItem[]; onDone: () => void }) {
  const { settings } = useTerminal();
  const tips = settings.tipsEnabled;
  const [tipOf, setTipOf] = useState<Record<string, number>>({});
  const [rows, setRows] = useState<Record<string, RowState>>({});
  const [running, setRunning] = useState(false);
  const [confirmTips, setConfirmTips] = useState<TipToConfirm[]>();
  const capture = useKeyedIdempotentSender('capture');

  const tip = (id: string) => (tips ? (tipOf[id] ?? 0) : 0);
  const stateOf = (id: string): RowState => rows[id] ?? { state: 'ready' };
  const captured = (id: string) => {
    const row = stateOf(id);
    return row.state === 'done' && row.outcome.kind === 'approved';
  };
  const left = tabs.filter((tab) => !captured(tab.id));
  const checkTotal = tabs.reduce((sum, tab) => sum + centsOf(tab.amount), 0);
  const tipTotal = tabs.reduce((sum, tab) => sum + tip(tab.id), 0);

  const setAllPercent = (percent: number) =>
    setTipOf((previous) => {
      const next = { ...previous };
      for (const tab of left) next[tab.id] = tipForPercent(centsOf(tab.amount), percent);
      return next;
    });

  /** Large tips are confirmed first, all in one question. */
  const askCaptureAll = () => {
    if (running) return;
    const large = left
      .filter((tab) => !capture.awaitsAnswer(tab.id))
      .map((tab) => ({ tabId: tab.id, checkCents: centsOf(tab.amount), tipCents: tip(tab.id) }))
      .filter((each) => isLargeTip(each.checkCents, each.tipCents, settings.tipWarnPercent));
    if (large.length > 0) setConfirmTips(large);
    else void captureAll();
  };

  const captureAll = async () => {
    setConfirmTips(undefined);
    if (running) return;
    setRunning(true);
    for (const tab of left) {
      // A tab with no answer goes again as it was sent, tip and key included, so it cannot be captured twice.
      const answer = capture.awaitsAnswer(tab.id)
        ? capture.send(tab.id)
        : capture.send(
            tab.id,
            prepareTransaction({
              type: 'CAPTURE',
              id: tab.id,
              amount: tab.amount,
              ...(tips && tip(tab.id) > 0 && { tip_amount: formatMoney(tip(tab.id)) }),
            }),
          );
      // A closed gate means another capture is in flight: this tab stays as it was, for the next run.
      if (!answer) continue;
      setRows((previous) => ({ ...previous, [tab.id]: { state: 'sending' } }));
      const outcome = await answer;
      setRows((previous) => ({ ...previous, [tab.id]: { state: 'done', outcome } }));
    }
    setRunning(false);
  };

  const attempted = Object.keys(rows).length > 0;
  const unanswered = Object.values(rows).some(
    (row) => row.state === 'done' && row.outcome.kind === 'unknown',
  );
  const allCaptured = left.length === 0;

  return (
    <div className="screen capture-many">
      <section className="panel" aria-labelledby="capture-many-title">
        <header className="panel-head">
          <div>
            <h1 id="capture-many-title">Capture {counted(tabs.length, 'tab')}</h1>
            <p className="panel-subtitle">
              {tips
                ? 'Enter each tip, or give every tab the same percentage, then capture them all.'
                : 'Tips are off: each tab is captured for its check.'}
            </p>
          </div>
          <div className="panel-actions">
            {tips && !allCaptured && (
              <div className="segmented" role="group" aria-label="Same tip for every tab">
                {settings.tipPercentages.map((percent) => (
                  <button
                    key={percent}
                    type="button"
                    onClick={() => setAllPercent(percent)}
                    disabled={running}
                  >
                    {percent}% on all
                  </button>
                ))}
              </div>
            )}
          </div>
        </header>

        <table className="table capture-table">
          <thead>
            <tr>
              <th scope="col">Tab</th>
              <th scope="col">Card</th>
              <th scope="col">Server</th>
              <th scope="col" className="numeric">
                Check
              </th>
              {tips && (
                <th scope="col" className="numeric">
                  Tip
                </th>
              )}
              <th scope="col" className="numeric">
                Total
              </th>
              <th scope="col">Result</th>
            </tr>
          </thead>
          <tbody>
            {tabs.map((tab) => {
              const row = stateOf(tab.id);
              const check = centsOf(tab.amount);
              // After no answer the same request goes again, tip included: it must not change meanwhile.
              const unknown = row.state === 'done' && row.outcome.kind === 'unknown';
              const locked = running || captured(tab.id) || unknown;
              const holder = holderOf(tab);
              return (
                <tr key={tab.id} data-testid={`capture-row-${tab.id}`}>
                  <th scope="row">#{tab.id}</th>
                  <td>
                    <span className="cell-main">{cardLabel(tab)}</span>
                    {holder && <span className="cell-sub">{holder}</span>}
                  </td>
                  <td>{tab.server_id || '—'}</td>
                  <td className="numeric">{displayMoney(check)}</td>
                  {tips && (
                    <td className="numeric">
                      <MoneyInput
                        className="input-compact"
                        cents={tip(tab.id)}
                        onChange={(cents) => setTipOf((previous) => ({ ...previous, [tab.id]: cents }))}
                        disabled={locked}
                        aria-label={`Tip for tab #${tab.id}`}
                      />
                    </td>
                  )}
                  <td className="numeric strong">{displayMoney(check + tip(tab.id))}</td>
                  <td>
                    <RowResult row={row} />
                  </td>
                </tr>
              );
            })}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" colSpan={3}>
                Total
              </th>
              <td className="numeric">{displayMoney(checkTotal)}</td>
              {tips && <td className="numeric">{displayMoney(tipTotal)}</td>}
              <td className="numeric strong">{displayMoney(checkTotal + tipTotal)}</td>
              <td />
            </tr>
          </tfoot>
        </table>

        {unanswered && !running && (
          <p className="note" role="note">
            A tab with no answer may have been captured. It is sent again with the same request key, so the
            engine answers for that capture and never captures it twice.
          </p>
        )}
        <footer className="panel-foot">
          <button type="button" className="button button-quiet" onClick={onDone} disabled={running}>
            <ArrowLeftIcon className="button-icon" />
            {allCaptured ? 'Back to the open tabs' : 'Back without capturing the rest'}
          </button>
          {!allCaptured && (
            <BusyButton
              type="button"
              className="button button-primary button-large"
              onClick={askCaptureAll}
              busy={running}
            >
              {attempted
                ? `Capture the ${counted(left.length, 'tab')} left`
                : `Capture ${counted(left.length, 'tab')} · ${displayMoney(checkTotal + tipTotal)}`}
            </BusyButton>
          )}
          {allCaptured && (
            <button type="button" className="button button-primary button-large" onClick={onDone} autoFocus>
              Done
            </button>
          )}
        </footer>
      </section>
      {confirmTips && (
        <LargeTipConfirm
          tips={confirmTips}
          warnPercent={settings.tipWarnPercent}
          confirmLabel={`Capture ${counted(left.length, 'tab')}`}
          onConfirm={() => void captureAll()}
          onCancel={() => setConfirmTips(undefined)}
        />
      )}
    </div>
  );
}

function RowResult({ row }: { row: RowState }) {
  if (row.state === 'ready') return <span className="cell-sub">Not captured yet</span>;
  if (row.state === 'sending') {
    return (
      <span className="row-status" role="status">
        <Spinner className="spinner inline-spinner" /> Capturing…
      </span>
    );
  }
  const { outcome } = row;
  if (outcome.kind === 'approved') {
    return <span className="pill pill-good">Captured · {outcome.authorizationCode}</span>;
  }
  return (
    <span className="row-problem">
      <span className={outcome.kind === 'unknown' ? 'pill pill-warn' : 'pill pill-bad'}>
        {outcome.kind === 'unknown' ? 'No answer' : 'Not captured'}
      </span>
      <span className="cell-sub">{outcome.message}</span>
    </span>
  );
}
