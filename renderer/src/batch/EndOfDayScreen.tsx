/**
 * End of day: the open batch with its totals by type and by server, a warning for tabs still open
 * (they are in no batch and stay open), the close with a confirmation, then the closed batch's
 * report. Earlier batches are listed for viewing and reprinting.
 */
import { useState } from 'react';
import type { TenderClient } from '../../../shared/api/client';
import type { Batch, TransactionListItem } from '../../../shared/api/schemas';
import { displayMoney } from '../../../shared/money';
import type { TenderBridge } from '../../../shared/ipc/contract';
import { BridgeCallError } from '../../../shared/ipc/facade';
import { useManagerApproval } from '../manager/manager-approval';
import { screenHref } from '../shell/routes';
import { useScreenActive } from '../ui/screen-active';
import { useTerminal } from '../terminal/terminal-context';
import { listEvery, loadBatchExceptions, loadTabs, type BatchExceptions } from '../transactions/queries';
import { centsOf, counted, timeLabel } from '../transactions/present';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { AlertIcon, ArrowRightIcon, Spinner } from '../ui/icons';
import { LoadProblem } from '../ui/LoadProblem';
import { problemText, useLoad } from '../ui/use-load';
import { ProblemNotice } from '../ui/ProblemNotice';
import { countAndNet, summarize } from './batch-summary';
import { BatchTotals, ServerTable, TypeTable } from './BatchFigures';
import { BatchReport } from './BatchReport';
import { BrandTable } from './BrandTable';
import { CashierTable } from './CashierTable';

type View = { kind: 'open' } | { kind: 'report'; id: string; justClosed: boolean };

interface OpenBatch {
  batch: Batch | undefined;
  items: TransactionListItem[];
  exceptions: BatchExceptions | undefined;
  openTabs: TransactionListItem[];
}

export function EndOfDayScreen() {
  const [view, setView] = useState<View>({ kind: 'open' });
  const [refresh, setRefresh] = useState(0);
  if (view.kind === 'report') {
    return (
      <BatchReport
        id={view.id}
        justClosed={view.justClosed}
        onBack={() => {
          setView({ kind: 'open' });
          setRefresh((count) => count + 1);
        }}
      />
    );
  }
  return (
    <div className="screen screen-split end-of-day">
      <OpenBatchPanel
        refresh={refresh}
        onClosed={(id) => setView({ kind: 'report', id, justClosed: true })}
        onReport={(id) => setView({ kind: 'report', id, justClosed: false })}
      />
      <EarlierBatches refresh={refresh} onOpen={(id) => setView({ kind: 'report', id, justClosed: false })} />
    </div>
  );
}

/** The open batch changed after the manager confirmed it: nothing was closed. */
class BatchChanged extends Error {
  constructor(readonly now: Batch) {
    super(
      `Batch #${now.id} changed after you looked at it: it now has ${countAndNet(now)}. Nothing was closed. ` +
        'Look at the figures again, then close it.',
    );
  }
}

/**
 * Closes batch `seen`, only as the manager confirmed it: the engine closes it only if it still has
 * the count and net amount shown. The screens' own key may not close a batch, so the host does it
 * once it has checked the manager (signed in, or `pin`). A close carries no idempotency key, so
 * after a lost answer it is never sent blindly again: the batch is read first, and closed only if it
 * is still the open one.
 */
async function closeBatch(
  client: TenderClient,
  bridge: TenderBridge,
  seen: Batch,
  pin: string | undefined,
): Promise<Batch> {
  const { id } = seen;
  const [current] = await client.listBatches({ id, page_size: 1 });
  if (current?.status === 'CLOSED') return current;
  const open = await client.openBatch();
  if (!open || open.id !== id) {
    throw new Error(`Batch #${id} is no longer the open batch. Go back and look at the batches again.`);
  }
  try {
    const close = await bridge.invoke('counter:approved-close', {
      expectedTotalCount: Number(seen.total_count),
      expectedNetAmount: seen.net_amount,
      ...(pin !== undefined && { pin }),
    });
    if (close.outcome === 'changed') throw new BatchChanged(close.batch);
    if (close.outcome === 'closed' && close.batch.id === id) return close.batch;
  } catch (error) {
    // Refused before anything was done (no manager allowed it): said as it is.
    if (error instanceof BatchChanged || (error instanceof BridgeCallError && error.code !== 'unavailable'))
      throw error;
    // No answer: the close may have happened. The batch itself says.
    const [after] = await client.listBatches({ id, page_size: 1 }).catch(() => []);
    if (after?.status === 'CLOSED') return after;
    throw error;
  }
  const [after] = await client.listBatches({ id, page_size: 1 });
  if (after?.status === 'CLOSED') return after;
  throw new Error(`Batch #${id} was not closed. Try again.`);
}

function OpenBatchPanel({
  refresh,
  onClosed,
  onReport,
}: {
  refresh: number;
  onClosed: (id: string) => void;
  /** The report of the open batch, to print mid-day. */
  onReport: (id: string) => void;
}) {
  const { client, bridge, settings } = useTerminal();
  const active = useScreenActive();
  const approve = useManagerApproval();
  const [reread, setReread] = useState(0);
  const open = useLoad<OpenBatch>(
    async () => {
      const [batch, tabs] = await Promise.all([
        client.openBatch(),
        loadTabs(client, settings.authExpiryDays),
      ]);
      const items = batch
        ? (await listEvery(client, { batch_id: batch.id, order_by: 'id', descending: false })).items
        : [];
      const exceptions = batch && (await loadBatchExceptions(client, batch, items));
      return { batch, items, exceptions, openTabs: tabs.open };
    },
    [client, settings.authExpiryDays, refresh, reread, active],
    active,
  );
  const [confirming, setConfirming] = useState(false);
  const [closing, setClosing] = useState(false);
  const [problem, setProblem] = useState<string>();

  const close = async (batch: Batch) => {
    const approval = await approve('batch-close', `#${batch.id}, ${countAndNet(batch)}`);
    if (approval === null) return;
    setClosing(true);
    setProblem(undefined);
    try {
      const closed = await closeBatch(client, bridge, batch, approval.pin);
      setConfirming(false);
      onClosed(closed.id);
    } catch (error) {
      if (error instanceof BatchChanged) {
        // The figures on screen are out of date: read them again, and say why the close waited.
        setConfirming(false);
        setReread((count) => count + 1);
        setProblem(error.message);
      } else setProblem(`The batch was not closed: ${problemText(error)}`);
    } finally {
      setClosing(false);
    }
  };

  const data = open.data;
  const batch = data?.batch;
  const summary = summarize(data?.items ?? []);
  const heldCents = (data?.openTabs ?? []).reduce((sum, tab) => sum + centsOf(tab.amount), 0);
  const tabCount = data?.openTabs.length ?? 0;

  return (
    <section className="panel open-batch" aria-labelledby="open-batch-title">
      <header className="panel-head">
        <div>
          <h1 id="open-batch-title">{batch ? `Open batch #${batch.id}` : 'End of day'}</h1>
          <p className="panel-subtitle">
            {batch
              ? `Opened ${timeLabel(batch.opened)}`
              : data
                ? 'No batch is open.'
                : 'Loading the open batch…'}
          </p>
        </div>
        {batch && (
          <div className="panel-actions">
            <button type="button" className="button button-secondary" onClick={() => onReport(batch.id)}>
              Print report
            </button>
            <button
              type="button"
              className="button button-primary button-large"
              onClick={() => {
                setProblem(undefined);
                setConfirming(true);
              }}
              disabled={closing}
            >
              Close batch
            </button>
          </div>
        )}
      </header>

      <LoadProblem loaded={open} />
      {!confirming && <ProblemNotice problem={problem} />}
      {!data && open.loading && (
        <div className="empty" role="status">
          <Spinner className="spinner" />
        </div>
      )}

      {tabCount > 0 && (
        <div className="banner-inline banner-warn" role="note" data-testid="open-tabs-warning">
          <AlertIcon className="banner-icon" />
          <p>
            <strong>
              {tabCount} {tabCount === 1 ? 'tab is' : 'tabs are'} still open ({displayMoney(heldCents)} held).
            </strong>{' '}
            Open tabs are in no batch: closing leaves them open and unsettled. Capture them first to settle
            them today. <a href={screenHref('tabs')}>Go to the tabs</a>
          </p>
        </div>
      )}

      {data && !batch && (
        <div className="empty">
          <p className="empty-title">Nothing to close</p>
          <p>The next approved sale opens a new batch. Earlier batches are listed beside this.</p>
        </div>
      )}

      {batch && (
        <>
          <BatchTotals batch={batch} exceptions={data?.exceptions} />
          <div className="report-columns">
            <TypeTable summary={summary} />
            <ServerTable summary={summary} />
            <BrandTable counted={summary.counted} />
          </div>
          <CashierTable items={data?.items ?? []} />
        </>
      )}

      {confirming && batch && (
        <ConfirmDialog
          title={`Close batch #${batch.id}?`}
          confirmLabel="Close the batch"
          tone="neutral"
          busy={closing}
          problem={problem}
          onConfirm={() => void close(batch)}
          onCancel={() => {
            setConfirming(false);
            setProblem(undefined);
          }}
        >
          <p>
            <strong>{displayMoney(centsOf(batch.net_amount))}</strong> net in{' '}
            {counted(batch.total_count, 'transaction')} is sent for settlement:{' '}
            {counted(batch.sales_count, 'sale')} of {displayMoney(centsOf(batch.sales_total))} (tips{' '}
            {displayMoney(centsOf(batch.tip_total))}) and {counted(batch.refund_count, 'refund')} of{' '}
            {displayMoney(centsOf(batch.refund_total))}.
          </p>
          <p>After the close its sales can no longer be voided, only refunded.</p>
          {tabCount > 0 && (
            <p className="notice">
              {tabCount} open {tabCount === 1 ? 'tab stays' : 'tabs stay'} open and{' '}
              {tabCount === 1 ? 'is' : 'are'} not settled in this batch.
            </p>
          )}
        </ConfirmDialog>
      )}
    </section>
  );
}

const BATCHES_SHOWN = 8;

function EarlierBatches({ refresh, onOpen }: { refresh: number; onOpen: (id: string) => void }) {
  const { client } = useTerminal();
  const active = useScreenActive();
  const [page, setPage] = useState(1);
  const batches = useLoad(
    async () => {
      const [items, next] = await Promise.all([
        client.listBatches({
          status: 'CLOSED',
          order_by: 'id',
          descending: true,
          page_size: BATCHES_SHOWN,
          page,
        }),
        client.listBatches({
          status: 'CLOSED',
          order_by: 'id',
          descending: true,
          page_size: 1,
          page: page * BATCHES_SHOWN + 1,
        }),
      ]);
      return { items, more: next.length > 0 };
    },
    [client, page, refresh, active],
    active,
  );
  return (
    <aside className="panel side-panel earlier-batches" aria-labelledby="earlier-title">
      <header className="side-head">
        <h2 id="earlier-title">Earlier batches</h2>
        {batches.loading && <Spinner className="spinner inline-spinner" />}
      </header>
      <ProblemNotice problem={batches.problem} />
      {batches.data && batches.data.items.length === 0 && (
        <p className="muted">No batch has been closed yet.</p>
      )}
      <ul className="batch-rows">
        {batches.data?.items.map((batch) => (
          <li key={batch.id}>
            <button
              type="button"
              className="batch-row"
              onClick={() => onOpen(batch.id)}
              data-testid={`batch-${batch.id}`}
            >
              <span className="batch-row-main">
                <span className="cell-main">Batch #{batch.id}</span>
                <span className="cell-sub">{batch.settled ? timeLabel(batch.settled) : ''}</span>
              </span>
              <span className="batch-row-figures">
                <span className="cell-main">{displayMoney(centsOf(batch.net_amount))}</span>
                <span className="cell-sub">{counted(batch.total_count, 'transaction')}</span>
              </span>
              <ArrowRightIcon className="button-icon batch-row-go" />
            </button>
          </li>
        ))}
      </ul>
      {(page > 1 || batches.data?.more) && (
        <div className="pager-buttons">
          <button
            type="button"
            className="button button-secondary button-small"
            disabled={page === 1}
            onClick={() => setPage((n) => n - 1)}
          >
            Newer
          </button>
          <button
            type="button"
            className="button button-secondary button-small"
            disabled={!batches.data?.more}
            onClick={() => setPage((n) => n + 1)}
          >
            Older
          </button>
        </div>
      )}
    </aside>
  );
}
