/**
 * What can be done to a transaction, by the engine's rules: void it while its batch is open, refund
 * it (up to what is left) once the batch is settled, or nothing, with the reason. The screen offers
 * only what the engine would accept; should the engine refuse anyway, its message is shown.
 */
import type { TransactionListItem } from '../../../shared/api/schemas';
import { displayMoney } from '../../../shared/money';
import { centsOf } from '../transactions/present';

export type Remedy =
  | { kind: 'void'; what: string }
  | { kind: 'refund'; remainingCents: number; refundedCents: number }
  | { kind: 'none'; reason: string };

const SETTLES = new Set(['Sale', 'Forced Sale', 'Capture']);

export function remedyFor(item: TransactionListItem, openBatchId: string | undefined): Remedy {
  if (item.result !== 'Approved') {
    return {
      kind: 'none',
      reason: `This ${item.type.toLowerCase()} was ${item.result.toLowerCase()}: no money moved.`,
    };
  }
  if (item.voided === 'true') return { kind: 'none', reason: 'It has been voided already: no money moved.' };
  if (item.type === 'Void') return { kind: 'none', reason: 'A void cannot itself be voided or refunded.' };
  if (item.type === 'Auth') {
    if (item.captured === 'true') {
      return { kind: 'none', reason: 'This tab was captured: find its capture to void or refund it.' };
    }
    return { kind: 'void', what: 'Void the tab to release the hold on the card.' };
  }
  const inOpenBatch = item.batch_id !== '' && item.batch_id === openBatchId;
  if (item.type === 'Refund') {
    return inOpenBatch
      ? { kind: 'void', what: 'The refund is still in the open batch: void it to take it back.' }
      : { kind: 'none', reason: 'The batch of this refund is settled: it can no longer be taken back.' };
  }
  if (!SETTLES.has(item.type))
    return { kind: 'none', reason: 'This transaction cannot be voided or refunded.' };
  if (inOpenBatch) {
    return {
      kind: 'void',
      what: 'It is still in the open batch: void it to cancel it in full, with nothing to settle.',
    };
  }
  const amount = centsOf(item.amount);
  const refunded = centsOf(item.refunded_amount);
  const remaining = Math.max(amount - refunded, 0);
  if (remaining === 0) return { kind: 'none', reason: 'It has been refunded in full.' };
  return { kind: 'refund', remainingCents: remaining, refundedCents: refunded };
}

/** A refund amount the engine would take, or why not. */
export function refundProblem(cents: number, remainingCents: number): string | undefined {
  if (cents <= 0) return 'Enter the amount to refund.';
  if (cents > remainingCents) return `At most ${displayMoney(remainingCents)} is left to refund.`;
  return undefined;
}
