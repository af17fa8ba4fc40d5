/**
 * The settlement batch: reading the open one, listing them all, and closing at end of day. With the
 * merchant's gateway as the processor, the close closes the gateway's open batch too, once everything
 * made offline has been forwarded, and keeps the gateway's figures beside the batch's own.
 */
import { randomInt } from 'node:crypto';
import { formatMoney, parseMoney } from '../../shared/money';
import type { CloseGate } from './close-gate';
import { differsFromExpected, type ExpectedBatch } from './domain/batch';
import type { Forwarder } from './forwarder';
import type { GatewayBatch } from './processor/gateway-account';
import type { UpstreamProcessor } from './processor/upstream';
import type { Settings } from './settings';
import type { BatchRecord, UpstreamBatch } from './store/batch-rows';
import type { LedgerStore, LedgerWrite } from './store/ledger-store';
import type { LedgerReadPort } from './store/read-port';

export type CloseOutcome =
  | { outcome: 'closed'; closed: BatchRecord }
  | { outcome: 'none open' }
  /** The open batch no longer has what the closer expected: nothing was closed. */
  | { outcome: 'changed'; open: BatchRecord }
  /** The merchant's gateway could not close its batch (or what waits could not reach it): nothing was closed. */
  | { outcome: 'gateway refused'; message: string };

/** What closing with the merchant's gateway needs. */
export interface GatewayClose {
  settings: Settings;
  upstream: UpstreamProcessor;
  forwarder: Forwarder;
  gate: CloseGate;
}

const NOTHING_CLOSED = 'Nothing was closed, here or at the gateway: close again once it answers.';

export class BatchService {
  constructor(
    private readonly ledger: LedgerStore,
    private readonly reads: LedgerReadPort,
    private readonly now: () => number = Date.now,
    private readonly gateway?: GatewayClose,
  ) {}

  /** The open batch's totals, read on a reader thread: its counters are kept with every write. */
  open(): Promise<BatchRecord | undefined> {
    return this.reads.openBatch();
  }

  /**
   * Closes the open batch for settlement, or says there is none. With `expected`, the batch is
   * closed only if it still has what the closer saw, checked in the same write as the close, so no
   * transaction can slip in between. Uncaptured authorizations are in no batch, so they stay open and
   * are captured into the next one.
   *
   * With the merchant's gateway as the processor (or transactions made offline still waiting), the
   * queue is forwarded first, then the gateway's open batch is closed, and only then the ledger's,
   * with the gateway's confirmation code and figures. Meanwhile the transactions of every counter of
   * the store that go to the gateway wait, and the close waits first for those already under way.
   * When the gateway cannot be reached, or refuses, nothing closes and the answer says why.
   */
  closeOpen(actor: string, expected: ExpectedBatch = {}, apiKeyId?: number): Promise<CloseOutcome> {
    const gateway = this.gateway;
    // With the simulator, the close goes straight into its write, as every other, so that closes and
    // sales sent together take their turns there: a read first would let sales in between. What
    // waits to be forwarded after a switch back to the simulator is known from the forwarder's last
    // read of the queue (each round) and from what was queued here since.
    if (gateway && (gateway.settings.get('processor') === 'upstream' || gateway.forwarder.mayHaveWaiting()))
      return this.closeAtGateway(gateway, actor, expected, apiKeyId);
    return this.closeHere(actor, expected, apiKeyId, undefined);
  }

  /**
   * Held for the store first, then at this counter's gate: the order in which a transaction takes
   * them (Transactions.submit), so that neither holds one while it waits for the other.
   */
  private closeAtGateway(
    gateway: GatewayClose,
    actor: string,
    expected: ExpectedBatch,
    apiKeyId: number | undefined,
  ): Promise<CloseOutcome> {
    return this.ledger.holdClose(() =>
      gateway.gate.exclusive(() => this.closeWithGateway(gateway, actor, expected, apiKeyId)),
    );
  }

  private async closeWithGateway(
    gateway: GatewayClose,
    actor: string,
    expected: ExpectedBatch,
    apiKeyId: number | undefined,
  ): Promise<CloseOutcome> {
    const open = await this.reads.openBatch();
    if (!open) return { outcome: 'none open' };
    if (differsFromExpected(open, expected)) return { outcome: 'changed', open };
    const drained = await gateway.forwarder.drain();
    if (drained.lostUnasked !== undefined) {
      return {
        outcome: 'gateway refused',
        message:
          `A request whose answer was lost could not be looked up at the gateway (${drained.lostUnasked}), ` +
          `so it is not known whether it charged a card. ${NOTHING_CLOSED}`,
      };
    }
    if (drained.waiting > 0) {
      return {
        outcome: 'gateway refused',
        message:
          `${drained.waiting} transaction${drained.waiting === 1 ? '' : 's'} made offline could not be sent to ` +
          `the gateway yet${drained.stoppedBy === undefined ? '' : ` (${drained.stoppedBy})`}. ${NOTHING_CLOSED}`,
      };
    }
    // What was sent may have been declined, leaving the batch: checked again before the gateway's
    // batch closes, so that a close refused for it leaves both batches open.
    const sent = await this.reads.openBatch();
    if (!sent) return { outcome: 'none open' };
    if (differsFromExpected(sent, expected)) return { outcome: 'changed', open: sent };
    const account = gateway.upstream.account();
    const before = await account.openBatch();
    if (before.kind !== 'answered')
      return {
        outcome: 'gateway refused',
        message: `The gateway's batch could not be read: ${before.detail}. ${NOTHING_CLOSED}`,
      };
    let closed: GatewayBatch | undefined;
    const close = await account.closeOpenBatch();
    if (close.kind === 'answered') {
      closed = close.value;
    } else if (close.kind === 'no answer' && before.value !== undefined) {
      // The close went out and its answer was lost: the gateway's batch list says whether it closed.
      closed = await this.findClosedAtGateway(gateway, before.value.id);
      if (!closed)
        return {
          outcome: 'gateway refused',
          message: `The gateway did not answer the close and its batch ${before.value.id} still shows open. ${NOTHING_CLOSED}`,
        };
    } else {
      return {
        outcome: 'gateway refused',
        message: `The gateway did not close its batch: ${close.detail}. ${NOTHING_CLOSED}`,
      };
    }
    return this.closeHere(actor, expected, apiKeyId, closed ?? null);
  }

  private async findClosedAtGateway(gateway: GatewayClose, id: string): Promise<GatewayBatch | undefined> {
    const account = gateway.upstream.account();
    const listed = await account.client.exchange('GET', `/batches?id=${encodeURIComponent(id)}`);
    if (listed.kind !== 'answered' || listed.status !== 200) return undefined;
    try {
      const batches = JSON.parse(listed.body) as { id?: unknown; status?: unknown }[];
      const batch = batches.find((each) => String(each.id) === id && String(each.status) === 'CLOSED');
      if (!batch) return undefined;
      const again = await account.openBatch();
      return again.kind === 'answered' && again.value?.id === id ? undefined : readListedBatch(batch);
    } catch {
      return undefined;
    }
  }

  /**
   * The ledger's close; with `atGateway`, the gateway's batch that closed with it (null when the
   * gateway had no batch open), whose confirmation code the closed batch takes.
   */
  private closeHere(
    actor: string,
    expected: ExpectedBatch,
    apiKeyId: number | undefined,
    atGateway: GatewayBatch | null | undefined,
  ): Promise<CloseOutcome> {
    return this.ledger.write(async (ledger): Promise<CloseOutcome> => {
      if (apiKeyId !== undefined) await ledger.requireLiveKey(apiKeyId);
      const open = await ledger.openBatch();
      if (!open) return { outcome: 'none open' };
      if (differsFromExpected(open, expected)) return { outcome: 'changed', open };
      const upstream = atGateway === undefined ? undefined : upstreamFigures(open, atGateway);
      const confirmation = atGateway?.confirmationCode ?? String(randomInt(1_000_000_000, 10_000_000_000));
      const closed = await ledger.closeBatch(open.id, this.now(), confirmation, upstream);
      await ledger.appendAudit({
        at: closed.settledAt ?? this.now(),
        actor,
        action: 'batch_close',
        subject: `batch ${closed.id}`,
        detail:
          `${closed.salesCount} sales ${formatMoney(closed.salesTotal)}, ${closed.refundCount} refunds ` +
          `${formatMoney(closed.refundTotal)}, confirmation ${closed.confirmationCode ?? ''}` +
          (upstream ? `, with the gateway's batch ${upstream.batchId || '(none open)'}` : ''),
      });
      if (upstream && !upstream.reconciled) await recordMismatch(ledger, closed, upstream, actor, this.now());
      return { outcome: 'closed', closed };
    });
  }
}

const cents = (text: string | undefined): number => {
  if (text === undefined) return 0;
  const parsed = parseMoney(text.replace(/^-/, ''), { allowZero: true });
  const value = parsed.ok ? parsed.cents : Number.NaN;
  return text.startsWith('-') ? -value : value;
};
const count = (text: string | undefined): number => (text === undefined ? 0 : Number(text));

/** The gateway's batch beside the ledger's: the same counts and totals, or not reconciled. */
function upstreamFigures(open: BatchRecord, atGateway: GatewayBatch | null): UpstreamBatch {
  const figures = {
    batchId: atGateway?.id ?? '',
    salesCount: count(atGateway?.salesCount),
    salesTotal: cents(atGateway?.salesTotal),
    refundCount: count(atGateway?.refundCount),
    refundTotal: cents(atGateway?.refundTotal),
    totalCount: count(
      atGateway?.totalCount ?? String(count(atGateway?.salesCount) + count(atGateway?.refundCount)),
    ),
    netAmount: cents(atGateway?.netAmount),
  };
  const reconciled =
    figures.salesCount === open.salesCount &&
    figures.salesTotal === open.salesTotal &&
    figures.refundCount === open.refundCount &&
    figures.refundTotal === open.refundTotal &&
    figures.totalCount === open.salesCount + open.refundCount &&
    figures.netAmount === open.salesTotal - open.refundTotal;
  return { ...figures, reconciled };
}

function readListedBatch(batch: Record<string, unknown>): GatewayBatch {
  const text = (name: string) => (batch[name] === undefined ? undefined : String(batch[name]));
  return {
    id: String(batch.id),
    status: text('status'),
    salesCount: text('sales_count'),
    salesTotal: text('sales_total') ?? text('sales_amount'),
    refundCount: text('refund_count'),
    refundTotal: text('refund_total') ?? text('refund_amount'),
    totalCount: text('total_count'),
    netAmount: text('net_amount') ?? text('total_amount'),
    settled: text('settled'),
    confirmationCode: text('confirmation_code'),
  };
}

async function recordMismatch(
  ledger: LedgerWrite,
  closed: BatchRecord,
  upstream: UpstreamBatch,
  actor: string,
  at: number,
): Promise<void> {
  const side = (salesCount: number, salesTotal: number, refundCount: number, refundTotal: number) =>
    `${salesCount} sales ${formatMoney(salesTotal)}, ${refundCount} refunds ${formatMoney(refundTotal)}`;
  await ledger.appendAudit({
    at,
    actor,
    action: 'batch_unreconciled',
    subject: `batch ${closed.id}`,
    detail:
      `Tender: ${side(closed.salesCount, closed.salesTotal, closed.refundCount, closed.refundTotal)}; ` +
      `the gateway's batch ${upstream.batchId || '(none open)'}: ` +
      `${side(upstream.salesCount, upstream.salesTotal, upstream.refundCount, upstream.refundTotal)}`,
  });
}
