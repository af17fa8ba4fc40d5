/** The engine's append-only audit log, newest first: who captured, refunded, voided, closed a batch, or changed keys and settings. */
import { useState } from 'react';
import { useTerminal } from '../terminal/terminal-context';
import { timeLabel } from '../transactions/present';
import { ArrowLeftIcon, ArrowRightIcon, Spinner } from '../ui/icons';
import { useLoad } from '../ui/use-load';
import { ProblemNotice } from '../ui/ProblemNotice';

const PAGE = 20;

const ACTIONS: Record<string, string> = {
  capture: 'Captured',
  refund: 'Refunded',
  void: 'Voided',
  batch_close: 'Closed a batch',
  key_create: 'Created a key',
  key_revoke: 'Revoked a key',
  setting_change: 'Changed a setting',
  duplicate_override: 'Charged past a possible duplicate',
  staff_create: 'Added a person',
  staff_change: 'Changed a person',
  staff_retire: 'Retired a person',
  pin_failed: 'Wrong PIN',
  pin_unpaused: 'Lifted a PIN pause',
  sign_in: 'Signed in',
  sign_out: 'Locked the counter',
  offline_forwarded: 'Offline sale sent to the gateway',
  offline_declined: 'Offline sale declined when sent',
  offline_acknowledged: 'Saw a declined offline sale',
  gateway_void: 'Voided at the gateway',
  batch_unreconciled: 'Batch differs at the gateway',
};

export function AuditLogSection() {
  const { bridge } = useTerminal();
  const [page, setPage] = useState(0);
  const log = useLoad(
    () => bridge.invoke('audit:recent', { limit: PAGE, offset: page * PAGE }),
    [bridge, page],
  );
  const entries = log.data?.entries ?? [];
  return (
    <section className="panel settings-section" aria-labelledby="audit-title">
      <header className="section-head section-head-row">
        <div>
          <h2 id="audit-title">Audit log</h2>
          <p>
            Every capture, refund and void, every batch close, and every change of keys and settings, with who
            did it. Entries can never be changed or removed.
          </p>
        </div>
        <button type="button" className="button button-secondary button-small" onClick={log.reload}>
          Refresh
        </button>
      </header>
      <ProblemNotice problem={log.problem} />
      <table className="table table-compact audit-table" data-testid="audit-table" aria-busy={log.loading}>
        <colgroup>
          <col className="audit-when" />
          <col className="audit-who" />
          <col className="audit-what" />
          <col className="audit-subject" />
          <col />
        </colgroup>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">What</th>
            <th scope="col">Subject</th>
            <th scope="col">Detail</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr key={entry.id}>
              <td className="nowrap">{timeLabel(entry.at)}</td>
              <td>{entry.actor}</td>
              <td className="nowrap">{ACTIONS[entry.action] ?? entry.action}</td>
              <td>{entry.subject}</td>
              <td className="audit-detail">{entry.detail}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {log.data && entries.length === 0 && <p className="muted">Nothing recorded yet.</p>}
      {!log.data && log.loading && <Spinner className="spinner" />}
      <div className="pager-buttons">
        <button
          type="button"
          className="button button-secondary button-small"
          disabled={page === 0}
          onClick={() => setPage((n) => n - 1)}
        >
          <ArrowLeftIcon className="button-icon" />
          Newer
        </button>
        <span className="pager-page">Page {page + 1}</span>
        <button
          type="button"
          className="button button-secondary button-small"
          disabled={!log.data?.more}
          onClick={() => setPage((n) => n + 1)}
        >
          Older
          <ArrowRightIcon className="button-icon" />
        </button>
      </div>
    </section>
  );
}
