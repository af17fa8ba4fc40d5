/** A batch's figures: the engine's totals, then the lines by type and by server. Used on screen and in print. */
import type { Batch } from '../../../shared/api/schemas';
import { displayMoney } from '../../../shared/money';
import { centsOf, counted } from '../transactions/present';
import type { BatchSummary } from './batch-summary';

export function BatchTotals({ batch }: { batch: Batch }) {
  return (
    <>
      <StoreTotals batch={batch} />
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
    <table className="table table-compact" data-testid="by-lane">
      <caption>By counter</caption>
      <thead>
        <tr>
          <th scope="col">Counter</th>
          <th scope="col" className="numeric">
            Count
          </th>
          <th scope="col" className="numeric">
            Sales
          </th>
          <th scope="col" className="numeric">
            Refunds
          </th>
          <th scope="col" className="numeric">
            Tips
          </th>
          <th scope="col" className="numeric">
            Net
          </th>
        </tr>
      </thead>
      <tbody>
        {lanes.map((share) => (
          <tr key={share.lane} data-testid={`lane-${share.lane}`}>
            <th scope="row">{share.lane}</th>
            <td className="numeric">{share.total_count}</td>
            <td className="numeric">{displayMoney(centsOf(share.sales_total))}</td>
            <td className="numeric">{refundShown(centsOf(share.refund_total))}</td>
            <td className="numeric">{displayMoney(centsOf(share.tip_total))}</td>
            <td className="numeric strong">{displayMoney(centsOf(share.net_amount))}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function TypeTable({ summary }: { summary: BatchSummary }) {
  return (
    <table className="table table-compact" data-testid="by-type">
      <caption>By type</caption>
      <thead>
        <tr>
          <th scope="col">Type</th>
          <th scope="col" className="numeric">
            Count
          </th>
          <th scope="col" className="numeric">
            Tips
          </th>
          <th scope="col" className="numeric">
            Total
          </th>
        </tr>
      </thead>
      <tbody>
        {summary.types.map((line) => (
          <tr key={line.type}>
            <th scope="row">{line.type === 'Capture' ? 'Captured tabs' : `${line.type}s`}</th>
            <td className="numeric">{line.count}</td>
            <td className="numeric">{line.type === 'Refund' ? '—' : displayMoney(line.tipCents)}</td>
            <td className="numeric">
              {line.type === 'Refund' ? `−${displayMoney(line.totalCents)}` : displayMoney(line.totalCents)}
            </td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row">Net</th>
          <td className="numeric">{summary.salesCount + summary.refundCount}</td>
          <td className="numeric">{displayMoney(summary.tipCents)}</td>
          <td className="numeric">{displayMoney(summary.salesCents - summary.refundCents)}</td>
        </tr>
      </tfoot>
    </table>
  );
}

export function ServerTable({ summary }: { summary: BatchSummary }) {
  return (
    <table className="table table-compact" data-testid="by-server">
      <caption>Tips by server</caption>
      <thead>
        <tr>
          <th scope="col">Server</th>
          <th scope="col" className="numeric">
            Sales
          </th>
          <th scope="col" className="numeric">
            Total
          </th>
          <th scope="col" className="numeric">
            Tips
          </th>
        </tr>
      </thead>
      <tbody>
        {summary.servers.length === 0 && (
          <tr>
            <td colSpan={4} className="muted">
              No sales yet.
            </td>
          </tr>
        )}
        {summary.servers.map((line) => (
          <tr key={line.server || 'none'} data-testid={`server-${line.server || 'none'}`}>
            <th scope="row">{line.server ? `Server ${line.server}` : 'No server'}</th>
            <td className="numeric">{line.count}</td>
            <td className="numeric">{displayMoney(line.salesCents)}</td>
            <td className="numeric strong">{displayMoney(line.tipCents)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
