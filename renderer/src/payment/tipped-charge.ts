/**
 * A counter sale with a tip. The interface's SALE takes no tip_amount, and tips are reported (by
 * server, by cashier, at the end of the day) from the tip_amount of captures. So a tipped sale is an
 * AUTH for the whole total, captured at once for the amount with the tip as tip_amount: one charge of
 * the total to the customer, recorded as a sale plus its tip. Without a tip it is a SALE, as always.
 *
 * Each of the two requests goes through the same idempotent sender as any charge: after no answer,
 * Check again sends the one whose answer is missing, with its key, and the capture follows an AUTH
 * only once the AUTH is approved.
 */
import type { TransactionRequestBody } from '../../../shared/api/schemas';
import { displayMoney, formatMoney } from '../../../shared/money';
import { COUNTER_SALE_WITH_TIP } from '../../../shared/tips';
import type { CardPayment } from './card-payment';
import type { SaleOutcome } from './outcome';
import { prepareTransaction, type PendingTransaction } from './run-transaction';

/** What is charged: the sale's amount, and the tip on top of it. */
export interface CounterCharge {
  amountCents: number;
  tipCents: number;
  invoice?: string;
  orderNumber?: string;
  /**
   * The server number of who is signed in: a tipped sale is theirs in the tips by server, as a tab
   * they open is. A SALE takes no server_id, so a sale without a tip has none.
   */
  serverId?: string;
}

/** A tipped charge under way: the AUTH of the total, then its capture. */
export interface TippedCharge {
  amountCents: number;
  tipCents: number;
  stage: 'auth' | 'capture';
  /** The AUTH's id, once approved. */
  authId?: string;
}

/** The first request of a charge (a SALE, or the AUTH of a tipped one), and the tipped charge to follow. */
export function firstRequest(
  charge: CounterCharge,
  payment: CardPayment,
): { request: TransactionRequestBody; tipped?: TippedCharge } {
  const references = {
    ...(charge.invoice && { invoice: charge.invoice }),
    ...(charge.orderNumber && { order_number: charge.orderNumber }),
  };
  if (charge.tipCents === 0) {
    return { request: { type: 'SALE', amount: formatMoney(charge.amountCents), ...payment, ...references } };
  }
  return {
    request: {
      type: 'AUTH',
      amount: formatMoney(charge.amountCents + charge.tipCents),
      ...payment,
      ...references,
      ...(charge.serverId && { server_id: charge.serverId }),
      description: COUNTER_SALE_WITH_TIP,
    },
    tipped: { amountCents: charge.amountCents, tipCents: charge.tipCents, stage: 'auth' },
  };
}

export function captureRequest(tipped: TippedCharge & { authId: string }): TransactionRequestBody {
  return {
    type: 'CAPTURE',
    id: tipped.authId,
    amount: formatMoney(tipped.amountCents),
    tip_amount: formatMoney(tipped.tipCents),
    description: COUNTER_SALE_WITH_TIP,
  };
}

/**
 * The answer of a tipped charge's latest request as the sale's outcome: an approved AUTH is captured
 * at once (through `send`, the idempotent sender), and the capture's answer is the sale's. A capture
 * that is refused leaves the total held on the card as an open tab, and says so.
 */
export async function settleTipped(
  tipped: TippedCharge,
  outcome: SaleOutcome,
  send: (next: PendingTransaction) => Promise<SaleOutcome> | undefined,
): Promise<SaleOutcome> {
  if (tipped.stage === 'auth') {
    if (outcome.kind !== 'approved') return outcome;
    tipped.stage = 'capture';
    tipped.authId = outcome.transactionId;
    const answer = send(prepareTransaction(captureRequest({ ...tipped, authId: outcome.transactionId })));
    if (!answer) return heldOnCard(tipped, 'The screen was busy with another request.');
    return captured(tipped, await answer);
  }
  return captured(tipped, outcome);
}

function captured(tipped: TippedCharge, outcome: SaleOutcome): SaleOutcome {
  if (outcome.kind === 'approved' || outcome.kind === 'unknown') return outcome;
  return heldOnCard(tipped, outcome.message);
}

/** The AUTH stands and the capture did not: the card holds the total until the tab is captured or voided. */
function heldOnCard(tipped: TippedCharge, why: string): SaleOutcome {
  const total = displayMoney(tipped.amountCents + tipped.tipCents);
  return {
    kind: 'error',
    message: `The card holds ${total} as tab #${tipped.authId ?? ''}, but the sale with its tip was not finished: ${why}`,
    nextStep:
      'Do not take another card. Open Tabs to capture the tab with its tip, or void it to release the hold.',
    ...(tipped.authId !== undefined && { transactionId: tipped.authId }),
  };
}

/** Whether a tipped charge has an approved AUTH on the card: the customer must not be charged again. */
export function holdsCard(tipped: TippedCharge | undefined): boolean {
  return tipped?.authId !== undefined;
}
