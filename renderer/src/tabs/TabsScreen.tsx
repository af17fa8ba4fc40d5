/**
 * Tabs, for restaurants: authorize the check now (an AUTH holds the amount on the card), add the
 * tip later, capture. Open tabs are listed with their age; one is captured with its tip, several at
 * the end of a shift, or voided to release the hold.
 */
import { useEffect, useState } from 'react';
import type { TransactionListItem } from '../../../shared/api/schemas';
import { displayMoney } from '../../../shared/money';
import { useScreenActive } from '../ui/screen-active';
import { useTerminal } from '../terminal/terminal-context';
import { loadAdjustableCaptures, loadTabs, type Tabs } from '../transactions/queries';
import { ageLabel, cardLabel, centsOf, counted, holderOf, untilLabel } from '../transactions/present';
import { LoadProblem } from '../ui/LoadProblem';
import { useLoad } from '../ui/use-load';
import { AlertIcon, Spinner } from '../ui/icons';
import { AdjustTip } from './AdjustTip';
import { CaptureMany } from './CaptureMany';
import { NewTab } from './NewTab';
import { TabDetail } from './TabDetail';

type Side =
  | { kind: 'none' }
  /** `shown`: the tab as it was chosen, still shown with its answer once the list no longer has it. */
  | { kind: 'tab'; id: string; shown: TransactionListItem }
  | { kind: 'new' }
  | { kind: 'adjust'; capture: TransactionListItem };

export function TabsScreen() {
  const { client, settings } = useTerminal();
  const active = useScreenActive();
  const [refresh, setRefresh] = useState(0);
  const tabs = useLoad<Tabs>(
    () => loadTabs(client, settings.authExpiryDays),
    [client, settings.authExpiryDays, refresh, active],
    active,
  );
  const captured = useLoad<TransactionListItem[]>(
    () => loadAdjustableCaptures(client),
    [client, refresh, active],
    active,
  );
  const [side, setSide] = useState<Side>({ kind: 'none' });
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [capturing, setCapturing] = useState<TransactionListItem[]>();
  const [now, setNow] = useState(() => Date.now());

  // Ages tick on while the screen is in view.
  useEffect(() => {
    if (!active) return;
    const timer = window.setInterval(() => setNow(Date.now()), 30_000);
    return () => window.clearInterval(timer);
  }, [active]);

  const open = tabs.data?.open ?? [];
  const expired = tabs.data?.expired ?? [];
  const selected =
    side.kind === 'tab' ? ([...open, ...expired].find((tab) => tab.id === side.id) ?? side.shown) : undefined;
  // Start a tab again once the last one is open starts the next one; while one is being started, it
  // stays as it is.
  const [newTabRun, setNewTabRun] = useState(0);
  const [newTabOpened, setNewTabOpened] = useState(false);
  const startTab = () => {
    if (side.kind === 'new' && !newTabOpened) return;
    setNewTabOpened(false);
    setNewTabRun((run) => run + 1);
    setSide({ kind: 'new' });
  };
  const reload = () => {
    setNow(Date.now());
    setRefresh((count) => count + 1);
  };
  const toggle = (id: string) =>
    setChosen((previous) => {
      const next = new Set(previous);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const chosenTabs = open.filter((tab) => chosen.has(tab.id));

  if (capturing) {
    return (
      <CaptureMany
        tabs={capturing}
        onDone={() => {
          setCapturing(undefined);
          setChosen(new Set());
          reload();
        }}
      />
    );
  }

  return (
    <div className="screen screen-split tabs-screen">
      <section className="panel tabs-list-panel" aria-labelledby="tabs-title">
        <header className="panel-head">
          <div>
            <h1 id="tabs-title">Open tabs</h1>
            <p className="panel-subtitle">
              {tabs.data ? `${open.length} open · ${displayMoney(sumOf(open))} held` : 'Loading…'}
            </p>
          </div>
          <div className="panel-actions">
            <button
              type="button"
              className="button button-secondary"
              disabled={chosenTabs.length === 0}
              onClick={() => setCapturing(chosenTabs)}
            >
              Capture selected{chosenTabs.length > 0 && ` (${chosenTabs.length})`}
            </button>
            <button type="button" className="button button-primary" onClick={startTab}>
              Start a tab
            </button>
          </div>
        </header>

        <LoadProblem loaded={tabs} />

        {tabs.data && open.length === 0 && (
          <div className="empty">
            <p className="empty-title">No open tabs</p>
            <p>
              Start a tab to hold a check on the card, then add the tip and capture it when the guest pays.
            </p>
          </div>
        )}
        {!tabs.data && tabs.loading && (
          <div className="empty" role="status">
            <Spinner className="spinner" />
            <p>Loading the open tabs…</p>
          </div>
        )}

        {open.length > 0 && (
          <>
            <div className="tabs-select-all">
              <label className="check">
                <input
                  type="checkbox"
                  checked={chosenTabs.length === open.length}
                  onChange={(event) =>
                    setChosen(event.target.checked ? new Set(open.map((tab) => tab.id)) : new Set())
                  }
                />
                <span>Select all for capture</span>
              </label>
            </div>
            <ul className="tab-rows" aria-label="Open tabs">
              {open.map((tab) => (
                <TabRow
                  key={tab.id}
                  tab={tab}
                  now={now}
                  selected={side.kind === 'tab' && side.id === tab.id}
                  chosen={chosen.has(tab.id)}
                  onToggle={() => toggle(tab.id)}
                  onOpen={() => setSide({ kind: 'tab', id: tab.id, shown: tab })}
                />
              ))}
            </ul>
          </>
        )}

        {settings.tipsEnabled && (captured.data?.length ?? 0) > 0 && (
          <section className="captured-tabs" aria-labelledby="captured-tabs-title">
            <h2 id="captured-tabs-title" className="subhead">
              Captured in this batch
            </h2>
            <p className="note">A tip can be adjusted until the batch is closed.</p>
            <ul className="tab-rows" aria-label="Captured tabs">
              {(captured.data ?? []).map((capture) => (
                <li
                  key={capture.id}
                  className={
                    side.kind === 'adjust' && side.capture.id === capture.id
                      ? 'tab-row tab-row-selected'
                      : 'tab-row'
                  }
                  data-testid={`captured-${capture.original_id}`}
                >
                  <button
                    type="button"
                    className="tab-row-main"
                    onClick={() => setSide({ kind: 'adjust', capture })}
                  >
                    <span className="tab-row-amount">{displayMoney(centsOf(capture.amount))}</span>
                    <span className="tab-row-who">
                      <span className="tab-row-card">{cardLabel(capture)}</span>
                      <span className="tab-row-holder">tip {displayMoney(centsOf(capture.tip_amount))}</span>
                    </span>
                    <span className="tab-row-server">
                      {capture.server_id ? `Server ${capture.server_id}` : 'No server'}
                    </span>
                    <span className="tab-row-age">Adjust tip</span>
                  </button>
                </li>
              ))}
            </ul>
          </section>
        )}

        {expired.length > 0 && (
          <details className="expired-tabs">
            <summary>
              <AlertIcon className="inline-icon" />
              {counted(expired.length, 'expired tab')}: older than {counted(settings.authExpiryDays, 'day')},{' '}
              {expired.length === 1 ? 'it' : 'they'} can only be voided
            </summary>
            <ul className="tab-rows" aria-label="Expired tabs">
              {expired.map((tab) => (
                <TabRow
                  key={tab.id}
                  tab={tab}
                  now={now}
                  expired
                  selected={side.kind === 'tab' && side.id === tab.id}
                  onOpen={() => setSide({ kind: 'tab', id: tab.id, shown: tab })}
                />
              ))}
            </ul>
          </details>
        )}
      </section>

      <aside className="panel side-panel" aria-label="Tab">
        {side.kind === 'adjust' ? (
          <AdjustTip
            key={side.capture.id}
            capture={side.capture}
            onSettled={reload}
            onClose={(changed) => {
              setSide({ kind: 'none' });
              if (changed) reload();
            }}
          />
        ) : side.kind === 'new' ? (
          <NewTab
            key={newTabRun}
            onOpened={() => {
              setNewTabOpened(true);
              reload();
            }}
            onClose={(opened) => {
              setSide({ kind: 'none' });
              if (opened) reload();
            }}
          />
        ) : selected ? (
          <TabDetail
            key={selected.id}
            tab={selected}
            now={now}
            expired={expired.includes(selected)}
            onSettled={reload}
            onClose={(changed) => {
              setSide({ kind: 'none' });
              if (changed) {
                setChosen((previous) => {
                  const next = new Set(previous);
                  next.delete(selected.id);
                  return next;
                });
                reload();
              }
            }}
          />
        ) : (
          <div className="side-empty">
            <h2>Close a tab</h2>
            <p>Choose a tab to add the tip and capture it, or to void it and release the hold.</p>
            <p>
              At the end of a shift, tick the tabs and press <strong>Capture selected</strong> to capture them
              all, each with its tip.
            </p>
            <dl className="shortcuts" aria-label="Keyboard shortcuts">
              <div>
                <dt>
                  <kbd>Tab</kbd>
                </dt>
                <dd>move to a tab</dd>
              </div>
              <div>
                <dt>
                  <kbd>Enter</kbd>
                </dt>
                <dd>open it</dd>
              </div>
              <div>
                <dt>
                  <kbd>Space</kbd>
                </dt>
                <dd>tick it</dd>
              </div>
            </dl>
          </div>
        )}
      </aside>
    </div>
  );
}

function sumOf(tabs: readonly TransactionListItem[]): number {
  return tabs.reduce((sum, tab) => sum + centsOf(tab.amount), 0);
}

function TabRow({
  tab,
  now,
  selected,
  chosen,
  expired = false,
  onToggle,
  onOpen,
}: {
  tab: TransactionListItem;
  now: number;
  selected: boolean;
  chosen?: boolean;
  expired?: boolean;
  onToggle?: () => void;
  onOpen: () => void;
}) {
  const holder = holderOf(tab);
  return (
    <li className={selected ? 'tab-row tab-row-selected' : 'tab-row'} data-testid={`tab-${tab.id}`}>
      {onToggle && (
        <label className="tab-row-check">
          <input
            type="checkbox"
            checked={chosen ?? false}
            onChange={onToggle}
            aria-label={`Select tab #${tab.id} for capture`}
          />
        </label>
      )}
      <button
        type="button"
        className="tab-row-main"
        onClick={onOpen}
        aria-current={selected ? 'true' : undefined}
      >
        <span className="tab-row-amount">{displayMoney(centsOf(tab.amount))}</span>
        <span className="tab-row-who">
          <span className="tab-row-card">{cardLabel(tab)}</span>
          <span className={holder ? 'tab-row-holder' : 'tab-row-holder tab-row-holder-none'}>
            {holder || 'No name'}
          </span>
        </span>
        <span className="tab-row-server">{tab.server_id ? `Server ${tab.server_id}` : 'No server'}</span>
        <span className="tab-row-age">
          {expired ? (
            <span className="pill pill-bad">Expired</span>
          ) : (
            <>
              <span>{ageLabel(tab.created, now)}</span>
              <span className="tab-row-expires">expires {untilLabel(tab.expires, now)}</span>
            </>
          )}
        </span>
      </button>
    </li>
  );
}
