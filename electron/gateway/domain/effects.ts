/**
 * What an approved operation does besides adding its own row: to the transaction it follows up and to
 * the batch counters. The only place that knows it; the ledger applies the effects in the order given.
 */
import { batchContribution, negate, type BatchDelta } from './batch';

export type LedgerEffect =
  | { effect: 'batch counts'; batchId: number; delta: BatchDelta }
  | { effect: 'captured'; authId: number; captureId: number }
  | { effect: 'uncaptured'; authId: number; captureId: number }
  | { effect: 'refunded'; originalId: number; cents: number }
  | { effect: 'voided'; targetId: number; voidId: number };

/** The columns of a transaction that its effects depend on. */
export interface Affected {
  id: number;
  type: string | null;
  result: string;
  amount: number | null;
  tipAmount: number;
  batchId: number | null;
  originalId: number | null;
}

/** An approved sale, capture or refund counts in the open batch it joins. */
export function joinsBatch(
  row: Pick<Affected, 'type' | 'result' | 'amount' | 'tipAmount'>,
  batchId: number,
): LedgerEffect[] {
  return [{ effect: 'batch counts', batchId, delta: batchContribution(row) }];
}

/** An approved capture finishes its authorization: it can be captured only once. */
export function captureEffects(authId: number, captureId: number): LedgerEffect[] {
  return [{ effect: 'captured', authId, captureId }];
}

/** An approved refund of an earlier transaction lowers what is left to refund of it. */
export function refundEffects(originalId: number, cents: number): LedgerEffect[] {
  return [{ effect: 'refunded', originalId, cents }];
}

/**
 * An approved void takes its target back: the target is voided and leaves its batch's counts; a
 * voided refund gives its amount back to its original as refundable; a voided capture puts its
 * authorization back among the open tabs, capturable again until it expires, because the hold on the
 * card is real until the AUTH itself is voided (which releases it) or expires. That is how a tip is
 * adjusted: the capture voided, and the AUTH captured again with the new tip.
 */
export function voidEffects(target: Affected, voidId: number): LedgerEffect[] {
  const effects: LedgerEffect[] = [{ effect: 'voided', targetId: target.id, voidId }];
  if (target.batchId !== null)
    effects.push({
      effect: 'batch counts',
      batchId: target.batchId,
      delta: negate(batchContribution(target)),
    });
  if (target.type === 'Refund' && target.originalId !== null && target.amount !== null)
    effects.push({ effect: 'refunded', originalId: target.originalId, cents: -target.amount });
  if (target.type === 'Capture' && target.originalId !== null)
    effects.push({ effect: 'uncaptured', authId: target.originalId, captureId: target.id });
  return effects;
}

/**
 * A transaction made offline that the merchant's gateway refused once it was forwarded: it leaves
 * its batch's counts, and a refund or a capture gives back what it took, as a void would; but it is
 * not voided, so its history keeps the offline approval. A refused VOID changes nothing here: the
 * manager is told that what it voided still stands at the gateway.
 */
export function declinedForwardEffects(target: Affected): LedgerEffect[] {
  if (target.type === 'Void') return [];
  return voidEffects(target, 0).filter((each) => each.effect !== 'voided');
}
