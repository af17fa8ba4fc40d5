/**
 * What the end-of-day report adds with the merchant's gateway as the processor: the batch's figures
 * beside the gateway's, and whether they agree; and the sales approved offline, with what became of
 * each once it was sent.
 */
import type { Batch, TransactionListItem } from '../../../shared/api/schemas';
import { displayMoney } from '../../../shared/money';
import { cardLabel, centsOf, clockLabel } from '../transactions/present';

const FATES: Record<TransactionListItem['forward_state'], string> = {
  '': '',
  waiting: 'Not sent yet',
  forwarded: 'Sent, approved',
  declined: 'Sent, declined: left the batch',
  cancelled: 'Voided before it was sent',
};

/** The batch's figures and the gateway's, side by side; nothing for a batch not closed with the gateway. */
export function GatewayFigures({ batch }: { batch: Batch }) {
  if (batch.upstream_batch_id === undefined) return null;
  const rows: [string, string, string | undefined][] = [
    ['Sales', batch.sales_count, batch.upstream_sales_count],
    ['Sales total', displayMoney(centsOf(batch.sales_total)), money(batch.upstream_sales_total)],
    ['Refunds', batch.refund_count, batch.upstream_refund_count],
    ['Refunds total', displayMoney(centsOf(batch.refund_total)), money(batch.upstream_refund_total)],
    ['Transactions', batch.total_count, batch.upstream_total_count],
    ['Net', displayMoney(centsOf(batch.net_amount)), money(batch.upstream_net_amount)],
  ];
  const reconciled = batch.reconciled === 'true';
  return (
    <section className="report-gateway" aria-labelledby="report-gateway-title" data-testid="report-gateway">
      <table className="table table-compact">
        <caption id="report-gateway-title">
          Tender and the gateway{batch.upstream_batch_id ? ` (its batch #${batch.upstream_batch_id})` : ''}
        </caption>
        <thead>
          <tr>
            <th scope="col"></th>
            <th scope="col" className="numeric">
              Tender
            </th>
            <th scope="col" className="numeric">
              Gateway
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([label, here, there]) => (
            <tr key={label} className={here === there ? undefined : 'row-differs'}>
              <th scope="row">{label}</th>
              <td className="numeric">{here}</td>
              <td className="numeric">{there ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className={`notice ${reconciled ? 'notice-good' : 'notice-bad'}`} data-testid="reconciled">
        {reconciled
          ? 'The gateway settled exactly what Tender recorded.'
          : 'The gateway’s batch differs from Tender’s: compare the two with the gateway’s statement before the money arrives. The audit log records both.'}
      </p>
    </section>
  );
}

const money = (text: string | undefined) => (text === undefined ? undefined : displayMoney(centsOf(text)));

/** The sales approved while the gateway could not be reached, and their fate; nothing when there were none. */
export function OfflineSales({ items }: { items: readonly TransactionListItem[] }) {
  const offline = items.filter((item) => item.offline === 'true' && item.forward_state !== '');
  if (offline.length === 0) return null;
  return (
    <table className="table table-compact report-offline" data-testid="report-offline">
      <caption>Approved offline</caption>
      <thead>
        <tr>
          <th scope="col">#</th>
          <th scope="col">Time</th>
          <th scope="col">Type</th>
          <th scope="col">Card</th>
          <th scope="col" className="numeric">
            Amount
          </th>
          <th scope="col">What became of it</th>
        </tr>
      </thead>
      <tbody>
        {offline.map((item) => (
          <tr key={item.id} className={item.forward_state === 'declined' ? 'row-differs' : undefined}>
            <td className="mono">{item.id}</td>
            <td className="nowrap">{clockLabel(item.created)}</td>
            <td>{item.type}</td>
            <td className="nowrap">{cardLabel(item)}</td>
            <td className="numeric">{displayMoney(centsOf(item.amount))}</td>
            <td>{FATES[item.forward_state]}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
