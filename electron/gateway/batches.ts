/** The settlement batch: reading the open one, listing them all, and closing at end of day. */
import { randomInt } from 'node:crypto';
import { formatMoney } from '../../shared/money';
import { differsFromExpected, type ExpectedBatch } from './domain/batch';
import type { BatchRecord } from './store/batch-rows';

export type CloseOutcome =
  | { outcome: 'closed'; closed: BatchRecord }
  | { outcome: 'none open' }
  /** The open batch no longer has what the closer expected: nothing was closed. */
  | { outcome: 'changed'; open: BatchRecord };
import type { LedgerStore } from './store/ledger-store';
import type { LedgerReadPort } from './store/read-port';

export class BatchService {
  constructor(
    private readonly ledger: LedgerStore,
    private readonly reads: LedgerReadPort,
    private readonly now: () => number = Date.now,
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
   */
  closeOpen(actor: string, expected: ExpectedBatch = {}, apiKeyId?: number): Promise<CloseOutcome> {
    return this.ledger.write(async (ledger): Promise<CloseOutcome> => {
      if (apiKeyId !== undefined) await ledger.requireLiveKey(apiKeyId);
      const open = await ledger.openBatch();
      if (!open) return { outcome: 'none open' };
      if (differsFromExpected(open, expected)) return { outcome: 'changed', open };
      const closed = await ledger.closeBatch(
        open.id,
        this.now(),
        String(randomInt(1_000_000_000, 10_000_000_000)),
      );
      await ledger.appendAudit({
        at: closed.settledAt ?? this.now(),
        actor,
        action: 'batch_close',
        subject: `batch ${closed.id}`,
        detail: `${closed.salesCount} sales ${formatMoney(closed.salesTotal)}, ${closed.refundCount} refunds ${formatMoney(closed.refundTotal)}, confirmation ${closed.confirmationCode ?? ''}`,
      });
      return { outcome: 'closed', closed };
    });
  }
}
