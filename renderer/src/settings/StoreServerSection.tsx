/**
 * Where this counter keeps its ledger: on its own, or on the store's PostgreSQL server as one lane
 * of several counters. A manager saves the server and the counter's name; the counter uses them from
 * its next start, and only once the server has answered.
 */
import { useState } from 'react';
import type { StoreServerState } from '../../../shared/ipc/store-server-contract';
import { useTerminal } from '../terminal/terminal-context';
import { BusyButton } from '../ui/BusyButton';
import { Spinner } from '../ui/icons';
import { ProblemNotice } from '../ui/ProblemNotice';
import { useLoad } from '../ui/use-load';
import { useSettingsChange } from './settings-change';

const LANE_NAME = /^[A-Za-z0-9-]{1,16}$/;

function describe(use: StoreServerState['running']): string {
  return use ? `the store server ${use.server}, as ${use.lane}` : 'its own ledger, on this computer';
}

export function StoreServerSection() {
  const { bridge } = useTerminal();
  const loaded = useLoad(() => bridge.invoke('store-server:get'), [bridge]);
  const change = useSettingsChange();
  const [state, setState] = useState<StoreServerState>();
  const [database, setDatabase] = useState('');
  const [lane, setLane] = useState('');
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  const shown = state ?? loaded.data;

  const apply = async (next: (pin: string | undefined) => Promise<StoreServerState>) => {
    setBusy(true);
    setSaved(false);
    const result = await change(next);
    setBusy(false);
    if (result.ok) {
      setState(result.value);
      setDatabase('');
      setProblem(undefined);
      setSaved(true);
    } else if (!('cancelled' in result)) setProblem(result.problem);
  };

  const save = () => {
    if (!/^postgres(ql)?:\/\//.test(database.trim())) {
      setProblem(
        'The store server is a postgresql:// URL, such as postgresql://tender@store-server.lan/tender.',
      );
      return;
    }
    if (!LANE_NAME.test(lane.trim())) {
      setProblem('The counter name is 1 to 16 letters, digits or hyphens, such as counter-2.');
      return;
    }
    void apply((pin) =>
      bridge.invoke('store-server:set', {
        database: database.trim(),
        lane: lane.trim(),
        ...(pin && { pin }),
      }),
    );
  };

  return (
    <section className="panel settings-section" aria-labelledby="store-server-title">
      <header className="section-head">
        <h2 id="store-server-title">Store server</h2>
        <p>
          A store with several counters keeps one ledger for all of them on its PostgreSQL server: one batch,
          one end-of-day report and one history, with each counter as a lane of its own.
        </p>
      </header>
      <ProblemNotice problem={loaded.problem} />
      {!shown ? (
        <Spinner className="spinner" />
      ) : (
        <>
          <div className="setting-row">
            <div>
              <span className="setting-name">Now</span>
              <p className="setting-help" data-testid="store-server-now">
                This counter uses {describe(shown.running)}.
              </p>
            </div>
          </div>
          <div className="setting-row">
            <div>
              <span className="setting-name">From the next start</span>
              <p className="setting-help" data-testid="store-server-next">
                {shown.setOutside
                  ? `Set by ${shown.setOutside} for this run, which win over the setting below. `
                  : ''}
                The setting says: {describe(shown.saved)}.
              </p>
            </div>
            {shown.saved && (
              <BusyButton
                type="button"
                className="button button-secondary"
                busy={busy}
                onClick={() =>
                  void apply((pin) => bridge.invoke('store-server:clear', { ...(pin && { pin }) }))
                }
              >
                Use this counter’s own ledger
              </BusyButton>
            )}
          </div>
          <form
            className="setting-block"
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              save();
            }}
          >
            <span className="setting-name">Use a store server</span>
            <p className="setting-help">
              Close this counter’s batch first: its own ledger stays on this computer and is not copied to the
              store. Tender checks that the server answers before saving, and uses it from its next start.
            </p>
            <div className="field-row">
              <label className="field">
                <span className="field-label">Store server</span>
                <input
                  className="input input-code"
                  autoComplete="off"
                  spellCheck={false}
                  placeholder="postgresql://tender@store-server.lan/tender?sslmode=verify-full"
                  value={database}
                  maxLength={2000}
                  onChange={(event) => {
                    setDatabase(event.target.value);
                    setProblem(undefined);
                  }}
                />
              </label>
              <label className="field">
                <span className="field-label">Counter name</span>
                <input
                  className="input input-code"
                  autoComplete="off"
                  spellCheck={false}
                  placeholder="counter-2"
                  value={lane}
                  maxLength={16}
                  onChange={(event) => {
                    setLane(event.target.value);
                    setProblem(undefined);
                  }}
                />
              </label>
            </div>
            <BusyButton type="submit" className="button button-primary" busy={busy}>
              Save for the next start
            </BusyButton>
            <ProblemNotice problem={problem} />
            {saved && (
              <p className="muted" role="status">
                Saved. Restart Tender to use it.
              </p>
            )}
          </form>
        </>
      )}
    </section>
  );
}
