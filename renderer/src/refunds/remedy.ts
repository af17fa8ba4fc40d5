/**
 * The void or refund the screen offers for a transaction, as the engine's list item says it would
 * accept them (voidable, refundable_amount), with the words for the cashier. When the engine allows
 * neither, the item's facts say why, so the cashier is not left with a bare "no".
 */
import type { TransactionListItem } from '../../../shared/api/schemas';
import { displayMoney } from '../../../shared/money';
import { centsOf } from '../transactions/present';

export type Remedy =
  | { kind: 'void'; what: string }
  | { kind: 'refund'; remainingCents: number; refundedCents: number }
  | { kind: 'none'; reason: string };

export function remedyFor(item: TransactionListItem): Remedy {
  if (item.voidable === 'true') return { kind: 'void', what: voidWords(item) };
  const remainingCents = centsOf(item.refundable_amount);
  if (remainingCents > 0) {
    return { kind: 'refund', remainingCents, refundedCents: centsOf(item.refunded_amount) };
  }
  return { kind: 'none', reason: whyNeither(item) };
}

function voidWords(item: TransactionListItem): string {
  if (item.type === 'Auth') return 'Void the tab to release the hold on the card.';
  if (item.type === 'Refund') return 'The refund is still in the open batch: void it to take it back.';
  if (item.type === 'Capture') {
    return `It is still in the open batch: void it to cancel the capture. Tab #${item.original_id} then goes back to Open tabs, still held on the card.`;
  }
  return 'It is still in the open batch: void it to cancel it in full, with nothing to settle.';
}

function whyNeither(item: TransactionListItem): string {
  if (item.result !== 'Approved') {
    return `This ${item.type.toLowerCase() || 'transaction'} was ${item.result.toLowerCase()}: no money moved.`;
  }
  if (item.voided === 'true') return 'It has been voided already: no money moved.';
  if (item.type === 'Void') return 'A void cannot itself be voided or refunded.';
  if (item.type === 'Auth' && item.captured === 'true') {
    return 'This tab was captured: find its capture to void or refund it.';
  }
  if (item.type === 'Refund') return 'The batch of this refund is settled: it can no longer be taken back.';
  if (item.refunded_amount !== '' && centsOf(item.refunded_amount) >= centsOf(item.amount)) {
    return 'It has been refunded in full.';
  }
  return 'This transaction cannot be voided or refunded.';
}

/** A refund amount the engine would take, or why not. */
export function refundProblem(cents: number, remainingCents: number): string | undefined {
  if (cents <= 0) return 'Enter the amount to refund.';
  if (cents > remainingCents) return `At most ${displayMoney(remainingCents)} is left to refund.`;
  return undefined;
}
