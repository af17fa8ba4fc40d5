/**
 * The void or refund the screen offers for a transaction, as the engine's list item says it would
 * accept them (voidable, refundable_amount), with the words for the cashier. When the engine allows
 * neither, the item's facts say why, so the cashier is not left with a bare "no".
 */
import type { TransactionListItem } from '../../../shared/api/schemas';
import { displayMoney } from '../../../shared/money';
import { centsOf } from '../transactions/present';
import { holdsCard, isTippedCounterSale, type TippedSale } from './counter-sale';

export type Remedy =
  | { kind: 'void'; what: string }
  /** A sale tipped at the counter, voided whole: its capture, then its authorization. */
  | { kind: 'void-sale'; what: string }
  /** A tipped counter sale whose capture is voided and whose authorization still holds the total. */
  | { kind: 'release-hold'; what: string; heldCents: number }
  | { kind: 'refund'; remainingCents: number; refundedCents: number }
  | { kind: 'none'; reason: string };

/** `sale`: the tipped counter sale whose capture the item is, with its authorization as it is now. */
export function remedyFor(item: TransactionListItem, sale?: TippedSale): Remedy {
  if (sale) {
    if (item.voidable === 'true') {
      return {
        kind: 'void-sale',
        what: 'It is still in the open batch: void it to cancel the sale in full, its tip too, and release the hold on the card.',
      };
    }
    if (item.voided === 'true') {
      const heldCents = centsOf(sale.auth.amount);
      return holdsCard(sale.auth)
        ? {
            kind: 'release-hold',
            heldCents,
            what: `The sale is voided and nothing is charged, but the card still holds ${displayMoney(heldCents)} as authorization #${sale.auth.id}: void it to release the hold.`,
          }
        : {
            kind: 'none',
            reason: 'The sale has been voided and the hold on the card released: nothing is charged.',
          };
    }
  }
  if (isTippedCounterSale(item) && item.type === 'Auth') {
    if (item.voidable === 'true') {
      return {
        kind: 'void',
        what: 'It holds the total of a sale tipped at the counter, with no charge standing: void it to release the hold on the card.',
      };
    }
    if (item.captured === 'true' && item.voided !== 'true') {
      return {
        kind: 'none',
        reason:
          'This authorization is part of a sale tipped at the counter: find the sale (listed as a Capture) to void or refund it.',
      };
    }
  }
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
