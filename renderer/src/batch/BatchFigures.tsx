/** A batch's figures: the engine's totals, then the lines by type and by server. Used on screen and in print. */
import type { Batch } from '../../../shared/api/schemas';
import { displayMoney } from '../../../shared/money';
import { centsOf, counted } from '../transactions/present';
import type { BatchExceptions } from '../transactions/queries';
import type { BatchSummary } from './batch-summary';
import { FiguresTable } from './FiguresTable';

export function BatchTotals({
  batch,
  exceptions,
}: {
  batch: Batch;
  exceptions?: BatchExceptions | undefined;
}) {
  return (
    <>
      <StoreTotals batch={batch} />
      {exceptions && (
        <p className="batch-exceptions" data-testid="batch-exceptions">
          <span>
            <strong>{exceptions.voids}</strong> voided
          </span>
          <span>
            <strong>{exceptions.declines}</strong> declined while the batch was open
          </span>
        </p>
      )}
      <LaneTable batch={batch} />
    </>
  );
}

function StoreTotals({ batch }: { batch: Batch }) {
  return (
    <dl className="stat-tiles" data-testid="batch-totals">
      <div className="stat-tile stat-tile-main">
        <dt>Net</dt>
        <dd data-testid="batch-net">{displayMoney(centsOf(batch.net_amount))}</dd>
        <dd className="stat-sub">{counted(batch.total_count, 'transaction')}</dd>
      </div>
      <div className="stat-tile">
        <dt>Sales</dt>
        <dd data-testid="batch-sales">{displayMoney(centsOf(batch.sales_total))}</dd>
        <dd className="stat-sub">{counted(batch.sales_count, 'sale')}, tips included</dd>
      </div>
      <div className="stat-tile">
        <dt>Refunds</dt>
        <dd data-testid="batch-refunds">{displayMoney(centsOf(batch.refund_total))}</dd>
        <dd className="stat-sub">{counted(batch.refund_count, 'refund')}</dd>
      </div>
      <div className="stat-tile">
        <dt>Tips</dt>
        <dd data-testid="batch-tips">{displayMoney(centsOf(batch.tip_total))}</dd>
        <dd className="stat-sub">in the sales above</dd>
      </div>
    </dl>
  );
}

/** Refunds take away from the net: shown with a minus, except none at all. */
function refundShown(cents: number): string {
  return cents === 0 ? displayMoney(0) : `−${displayMoney(cents)}`;
}

/**
 * Each counter's share of a store's batch, when the ledger is on a store server: a counter that
 * keeps its own ledger has one share, the batch itself, and shows none.
 */
function LaneTable({ batch }: { batch: Batch }) {
  const lanes = batch.lanes ?? [];
  if (lanes.length === 0 || (lanes.length === 1 && lanes[0]?.lane === 'local')) return null;
  return (
    <FiguresTable
      caption="By counter"
      testId="by-lane"
      columns={['Counter', 'Count', 'Sales', 'Refunds', 'Tips', 'Net']}
      lines={lanes.map((share) => ({
        key: share.lane,
        testId: `lane-${share.lane}`,
        name: share.lane,
        figures: [
          share.total_count,
          displayMoney(centsOf(share.sales_total)),
          refundShown(centsOf(share.refund_total)),
          displayMoney(centsOf(share.tip_total)),
          displayMoney(centsOf(share.net_amount)),
        ],
      }))}
    />
  );
}

export function TypeTable({ summary }: { summary: BatchSummary }) {
  return (
    <FiguresTable
      caption="By type"
      testId="by-type"
      columns={['Type', 'Count', 'Tips', 'Total']}
      stressLast={false}
      lines={summary.types.map((line) => ({
        key: line.type,
        name: line.type === 'Capture' ? 'Captured tabs' : `${line.type}s`,
        figures: [
          line.count,
          line.type === 'Refund' ? '—' : displayMoney(line.tipCents),
          line.type === 'Refund' ? refundShown(line.totalCents) : displayMoney(line.totalCents),
        ],
      }))}
      total={{
        key: 'net',
        name: 'Net',
        figures: [
          summary.salesCount + summary.refundCount,
          displayMoney(summary.tipCents),
          displayMoney(summary.salesCents - summary.refundCents),
        ],
      }}
    />
  );
}

export function ServerTable({ summary }: { summary: BatchSummary }) {
  return (
    <FiguresTable
      caption="Tips by server"
      testId="by-server"
      columns={['Server', 'Sales', 'Total', 'Tips']}
      empty="No sales yet."
      lines={summary.servers.map((line) => ({
        key: line.server || 'none',
        testId: `server-${line.server || 'none'}`,
        name: line.server ? `Server ${line.server}` : 'No server',
        figures: [line.count, displayMoney(line.salesCents), displayMoney(line.tipCents)],
      }))}
    />
  );
}
