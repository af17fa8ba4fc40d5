/**
 * The end-of-day report of one batch, as it prints: the settlement (settled time, confirmation
 * code), the totals with the voids and declines beside them, the lines by type and by server, and
 * every transaction. On a page it is laid out for Letter or A4; on receipt paper it is the same
 * figures as text lines at the receipt printer's width, which print on that printer. Print opens the
 * print dialog; the desktop app also saves it as a PDF file, and a browser's print dialog offers Save
 * as PDF.
 */
import { useState } from 'react';
import type { Batch, TransactionListItem } from '../../../shared/api/schemas';
import { displayMoney } from '../../../shared/money';
import { useTerminal } from '../terminal/terminal-context';
import { listEvery, loadBatchExceptions, type BatchExceptions } from '../transactions/queries';
import { cardLabel, centsOf, clockLabel, kindOf, statusOf, timeLabel } from '../transactions/present';
import { ArrowLeftIcon, CheckIcon, Spinner } from '../ui/icons';
import { problemText, useLoad } from '../ui/use-load';
import { ProblemNotice } from '../ui/ProblemNotice';
import { BusyButton } from '../ui/BusyButton';
import { agreesWith, summarize } from './batch-summary';
import { BatchTotals, ServerTable, TypeTable } from './BatchFigures';
import { CashierTable } from './CashierTable';
import { BrandTable } from './BrandTable';
import { GatewayFigures, OfflineSales } from './GatewayTables';
import { batchReportLines } from './report-text';

interface ReportData {
  batch: Batch | undefined;
  items: TransactionListItem[];
  complete: boolean;
  exceptions: BatchExceptions | undefined;
}

/** Characters per line of 80 mm paper in its usual font, until the settings say otherwise. */
const DEFAULT_PAPER_WIDTH = 42;

export function BatchReport({
  id,
  justClosed,
  onBack,
}: {
  id: string;
  justClosed: boolean;
  onBack: () => void;
}) {
  const { client, bridge, session } = useTerminal();
  const report = useLoad<ReportData>(async () => {
    const [batches, rows] = await Promise.all([
      client.listBatches({ id, page_size: 1 }),
      listEvery(client, { batch_id: id, order_by: 'id', descending: false }),
    ]);
    const batch = batches[0];
    return {
      batch,
      items: rows.items,
      complete: rows.complete,
      exceptions: batch && (await loadBatchExceptions(client, batch, rows.items)),
    };
  }, [client, id]);
  // The receipt paper's width, from the host: read apart, so that the report itself never waits on
  // it (the engine's API answers while the bridge reconnects). Until it comes, the common 42.
  const paper = useLoad(() => bridge.invoke('receipts:settings'), [bridge]);
  const paperWidth = paper.data?.width ?? DEFAULT_PAPER_WIDTH;
  const [saving, setSaving] = useState<'idle' | 'busy' | 'saved' | { problem: string }>('idle');
  const [printing, setPrinting] = useState<'idle' | 'busy' | { message: string } | { problem: string }>(
    'idle',
  );
  // Letter and A4 print the full report; receipt paper prints its lines at the printer's width.
  const [paperKind, setPaperKind] = useState<'page' | 'receipt'>('page');
  // When the report was read: the time it says it was printed, on screen and on paper alike.
  const [readAt] = useState(() => new Date().toISOString());
  const data = report.data;
  /** The report as the receipt printer's lines at `width`, once it is read. */
  const linesAt = (width: number) =>
    data?.batch
      ? batchReportLines(
          {
            batch: data.batch,
            items: data.items,
            complete: data.complete,
            exceptions: data.exceptions ?? { voids: 0, declines: 0 },
            printedAt: readAt,
          },
          width,
        )
      : undefined;
  const paperLines = linesAt(paperWidth);

  // Laid out at the width the settings give now, whatever the page last read.
  const printOnReceiptPrinter = async () => {
    if (!data?.batch || printing === 'busy') return;
    setPrinting('busy');
    try {
      const lines = linesAt((await bridge.invoke('receipts:settings')).width) ?? [];
      setPrinting(await bridge.invoke('receipts:print-report', { lines }));
    } catch (error) {
      setPrinting({ problem: problemText(error) });
    }
  };

  const savePdf = async () => {
    setSaving('busy');
    try {
      const { saved } = await bridge.invoke('report:save-pdf', { fileName: `Tender batch ${id}.pdf` });
      setSaving(saved ? 'saved' : 'idle');
    } catch (error) {
      setSaving({ problem: problemText(error) });
    }
  };

  const toolbar = (
    <div className="report-toolbar">
      <button type="button" className="button button-quiet" onClick={onBack}>
        <ArrowLeftIcon className="button-icon" />
        End of day
      </button>
      <div className="report-toolbar-actions">
        <div className="segmented" role="radiogroup" aria-label="Paper">
          {(
            [
              ['page', 'Letter or A4'],
              ['receipt', 'Receipt paper'],
            ] as const
          ).map(([value, label]) => (
            <button
              key={value}
              type="button"
              role="radio"
              aria-checked={paperKind === value}
              className="segmented-option"
              onClick={() => setPaperKind(value)}
            >
              {label}
            </button>
          ))}
        </div>
        {saving === 'saved' && (
          <span className="muted" role="status">
            PDF saved
          </span>
        )}
        {session.shell === 'desktop' ? (
          <BusyButton
            type="button"
            className="button button-secondary"
            onClick={() => void savePdf()}
            busy={saving === 'busy'}
          >
            Save as PDF
          </BusyButton>
        ) : (
          <span className="muted report-pdf-hint">To save a PDF, print and choose “Save as PDF”.</span>
        )}
        <BusyButton
          type="button"
          className="button button-secondary"
          onClick={() => void printOnReceiptPrinter()}
          busy={printing === 'busy'}
          disabled={!paperLines}
        >
          Print on receipt printer
        </BusyButton>
        <button
          type="button"
          className="button button-primary"
          onClick={() => window.print()}
          disabled={!report.data?.batch}
        >
          Print report
        </button>
      </div>
    </div>
  );
  const printed =
    typeof printing === 'object' && 'message' in printing ? (
      <p className="notice notice-good" role="status" data-testid="report-printed">
        {printing.message}
      </p>
    ) : (
      <ProblemNotice
        problem={
          typeof printing === 'object' && 'problem' in printing
            ? `The report did not print: ${printing.problem}`
            : undefined
        }
      />
    );

  if (!report.data) {
    return (
      <div className="screen report-screen">
        {toolbar}
        <div className="panel empty" role={report.problem ? 'alert' : 'status'}>
          {report.problem ? (
            <>
              <p className="notice notice-bad">{report.problem}</p>
              <button type="button" className="button button-secondary" onClick={report.reload}>
                Try again
              </button>
            </>
          ) : (
            <>
              <Spinner className="spinner" />
              <p>Loading the report of batch #{id}…</p>
            </>
          )}
        </div>
      </div>
    );
  }

  const { batch, items, complete } = report.data;
  if (!batch) {
    return (
      <div className="screen report-screen">
        {toolbar}
        <div className="panel empty">
          <p>There is no batch #{id}.</p>
        </div>
      </div>
    );
  }
  const summary = summarize(items);
  const closed = batch.status === 'CLOSED';

  return (
    <div className="screen report-screen">
      {toolbar}
      <ProblemNotice
        problem={typeof saving === 'object' ? `The PDF was not saved: ${saving.problem}` : undefined}
      />
      {printed}
      {justClosed && closed && (
        <div className="closed-banner" role="status" data-testid="batch-closed">
          <CheckIcon className="closed-banner-icon" />
          <div>
            <strong>Batch #{batch.id} is closed for settlement.</strong>
            <span>
              Confirmation code{' '}
              <span className="code" data-testid="confirmation-code">
                {batch.confirmation_code}
              </span>
            </span>
          </div>
        </div>
      )}
      {paperKind === 'receipt' && paperLines ? (
        <figure
          className="receipt-paper report report-paper"
          style={{ ['--receipt-columns' as string]: paperWidth }}
          data-testid="batch-report"
          data-paper="receipt"
          data-width={paperWidth}
          tabIndex={0}
          aria-label={`End-of-day report of batch #${batch.id} on receipt paper`}
        >
          <pre>{paperLines.join('\n')}</pre>
        </figure>
      ) : (
        <article
          className="report"
          aria-labelledby="report-title"
          data-testid="batch-report"
          data-paper="page"
        >
          <header className="report-head">
            <div>
              <p className="report-kicker">Tender · End-of-day report</p>
              <h1 id="report-title">Batch #{batch.id}</h1>
              {!closed && (
                <p className="report-not-settled" data-testid="not-settled">
                  Not yet settled: the open batch as of {timeLabel(readAt)}
                </p>
              )}
            </div>
            <dl className="report-settlement">
              <div>
                <dt>Opened</dt>
                <dd>{timeLabel(batch.opened)}</dd>
              </div>
              <div>
                <dt>Settled</dt>
                <dd data-testid="settled">{batch.settled ? timeLabel(batch.settled) : 'Still open'}</dd>
              </div>
              <div>
                <dt>Confirmation</dt>
                <dd className="code">{batch.confirmation_code ?? '—'}</dd>
              </div>
            </dl>
          </header>

          <BatchTotals batch={batch} exceptions={report.data.exceptions} />
          <GatewayFigures batch={batch} />
          {!agreesWith(summary, batch) && complete && (
            <p className="notice" role="note">
              The lines below do not add up to the engine’s totals above; the totals are what settles.
            </p>
          )}
          <div className="report-columns">
            <TypeTable summary={summary} />
            <ServerTable summary={summary} />
            <BrandTable counted={summary.counted} />
          </div>
          <CashierTable items={items} />
          <OfflineSales items={items} />

          <table className="table table-compact report-transactions" data-testid="report-transactions">
            <caption>Transactions{!complete && ` (the first ${items.length})`}</caption>
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">Time</th>
                <th scope="col">Type</th>
                <th scope="col">Card</th>
                <th scope="col">Auth code</th>
                <th scope="col">Server</th>
                <th scope="col" className="numeric">
                  Tip
                </th>
                <th scope="col" className="numeric">
                  Amount
                </th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {items.map((item) => (
                <tr key={item.id} className={summary.counted.includes(item) ? undefined : 'row-muted'}>
                  <td className="mono">{item.id}</td>
                  <td className="nowrap">{clockLabel(item.created)}</td>
                  {/* The screens' name: a sale tipped at the counter is a Sale, as in History and the lines above. */}
                  <td>{kindOf(item)}</td>
                  <td className="report-card">{cardLabel(item)}</td>
                  <td className="mono">{item.authorization_code || '—'}</td>
                  <td>{item.server_id || '—'}</td>
                  <td className="numeric">
                    {centsOf(item.tip_amount) > 0 ? displayMoney(centsOf(item.tip_amount)) : '—'}
                  </td>
                  <td className="numeric">
                    {item.type === 'Refund' ? '−' : ''}
                    {displayMoney(centsOf(item.amount))}
                  </td>
                  <td>{statusOf(item).label}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <footer className="report-foot">
            {closed
              ? `Settled ${batch.settled ? timeLabel(batch.settled) : ''} · confirmation ${batch.confirmation_code ?? ''}`
              : 'This batch is still open: its totals change until it is closed.'}{' '}
            · Printed {timeLabel(readAt)}
          </footer>
        </article>
      )}
    </div>
  );
}
