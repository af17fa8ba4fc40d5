/**
 * What CAPTURE, REFUND and VOID may do to an earlier transaction. Pure: each check is given the rows
 * it needs and answers yes, or no with the error code and the words to say why.
 */
import { isAuthorizationExpired } from '../../../shared/authorization';
import { formatMoney } from '../../../shared/money';
import { SALE_LABELS } from '../../../shared/api/transaction-types';
import { ERROR_CODES, type ErrorCode } from './codes';

export interface ReferencedTransaction {
  id: number;
  type: string | null;
  result: string;
  amount: number | null;
  voidedBy: number | null;
  capturedBy: number | null;
  refundedAmount: number;
  /** Epoch ms. */
  createdAt: number;
  /**
   * Where a transaction approved offline stands with the merchant's gateway; `declined` when the
   * gateway declined it as it was sent, so that nothing was charged. Absent for any other.
   */
  forwardState?: string | null;
}

export type RuleCheck = { ok: true } | { ok: false; errorCode: ErrorCode; message: string };

const ok: RuleCheck = { ok: true };
const no = (errorCode: ErrorCode, message: string): RuleCheck => ({ ok: false, errorCode, message });

export function notFound(id: number): RuleCheck {
  return no(ERROR_CODES.ORIGINAL_NOT_FOUND, `Transaction ${id} was not found. Check the id.`);
}

function describe(t: ReferencedTransaction): string {
  return `${t.type ?? 'Transaction'} ${t.id}`;
}

/** A transaction approved offline that the gateway declined when it was sent: nothing was charged. */
function declinedWhenSent(t: ReferencedTransaction, errorCode: ErrorCode): RuleCheck | undefined {
  return t.forwardState === 'declined'
    ? no(
        errorCode,
        `${describe(t)} was approved offline and then declined by the gateway when it was sent, so nothing was charged.`,
      )
    : undefined;
}

/**
 * CAPTURE: an approved AUTH that is neither captured, voided nor expired, for at most the authorized
 * amount.
 */
export function checkCapture(
  auth: ReferencedTransaction,
  amount: number,
  expiry: { days: number; now: number },
): RuleCheck {
  if (auth.type !== 'Auth') {
    return no(
      ERROR_CODES.NOT_CAPTURABLE,
      `${describe(auth)} is not an authorization; only an AUTH can be captured.`,
    );
  }
  if (auth.result !== 'Approved') {
    return no(
      ERROR_CODES.NOT_CAPTURABLE,
      `Authorization ${auth.id} was not approved, so there is nothing to capture.`,
    );
  }
  if (auth.voidedBy !== null) {
    return no(ERROR_CODES.NOT_CAPTURABLE, `Authorization ${auth.id} was voided; start a new sale.`);
  }
  const declinedAuth = declinedWhenSent(auth, ERROR_CODES.NOT_CAPTURABLE);
  if (declinedAuth) return declinedAuth;
  if (auth.capturedBy !== null) {
    return no(
      ERROR_CODES.NOT_CAPTURABLE,
      `Authorization ${auth.id} was already captured (transaction ${auth.capturedBy}).`,
    );
  }
  if (isAuthorizationExpired(auth, expiry.days, expiry.now)) {
    return no(
      ERROR_CODES.AUTHORIZATION_EXPIRED,
      `Authorization ${auth.id} has expired: it is older than ${expiry.days} days and its hold was released. Run a new sale.`,
    );
  }
  if (auth.amount !== null && amount > auth.amount) {
    return no(
      ERROR_CODES.CAPTURE_OVER_AUTHORIZED,
      `Capture amount ${formatMoney(amount)} is above the ${formatMoney(auth.amount)} authorized.`,
    );
  }
  return ok;
}

/** Matched REFUND: of an approved, unvoided, settled sale, for at most what is left of it. */
export function checkRefund(original: ReferencedTransaction, settled: boolean, amount: number): RuleCheck {
  if (!SALE_LABELS.has(original.type ?? '') || original.result !== 'Approved') {
    return no(
      ERROR_CODES.NOT_REFUNDABLE,
      `${describe(original)} cannot be refunded; only an approved SALE, FORCED SALE or CAPTURE can.`,
    );
  }
  if (original.voidedBy !== null) {
    return no(ERROR_CODES.NOT_REFUNDABLE, `${describe(original)} was voided, so there is nothing to refund.`);
  }
  const declined = declinedWhenSent(original, ERROR_CODES.NOT_REFUNDABLE);
  if (declined) return declined;
  if (!settled) {
    return no(
      ERROR_CODES.REFUND_UNSETTLED,
      `${describe(original)} has not settled yet (its batch is open): void it instead of refunding.`,
    );
  }
  const remaining = (original.amount ?? 0) - original.refundedAmount;
  if (amount > remaining) {
    return no(
      ERROR_CODES.REFUND_OVER_REMAINING,
      `Refund amount ${formatMoney(amount)} is above the ${formatMoney(remaining)} still refundable on ${describe(original)}.`,
    );
  }
  return ok;
}

/** VOID: an approved transaction still in the open batch, or an AUTH that was never captured. */
export function checkVoid(target: ReferencedTransaction, inOpenBatch: boolean): RuleCheck {
  if (target.type === 'Void')
    return no(ERROR_CODES.NOT_VOIDABLE, `${describe(target)} is itself a void and cannot be voided.`);
  if (target.result !== 'Approved') {
    return no(ERROR_CODES.NOT_VOIDABLE, `${describe(target)} was not approved, so there is nothing to void.`);
  }
  if (target.voidedBy !== null) {
    return no(
      ERROR_CODES.NOT_VOIDABLE,
      `${describe(target)} was already voided (transaction ${target.voidedBy}).`,
    );
  }
  const declinedTarget = declinedWhenSent(target, ERROR_CODES.NOT_VOIDABLE);
  if (declinedTarget) return declinedTarget;
  if (target.type === 'Auth') {
    if (target.capturedBy !== null) {
      return no(
        ERROR_CODES.NOT_VOIDABLE,
        `Authorization ${target.id} was captured: void the capture (transaction ${target.capturedBy}) instead.`,
      );
    }
    return ok;
  }
  if (!inOpenBatch) {
    return no(
      ERROR_CODES.VOID_SETTLED,
      target.type === 'Refund'
        ? `${describe(target)} has settled (its batch is closed) and can no longer be voided.`
        : `${describe(target)} has settled (its batch is closed): refund it instead.`,
    );
  }
  return ok;
}

/** Where a transaction's batch stands, and the authorization expiry in force. */
export interface FollowUpContext {
  inOpenBatch: boolean;
  settled: boolean;
  expiry: { days: number; now: number };
}

/** What a client may do to a transaction now: the answers of the checks above, not a copy of them. */
export interface FollowUps {
  voidable: boolean;
  /** Cents a matched REFUND may still take back; 0 when none may. */
  refundable: number;
  capturable: boolean;
}

export function followUpsOf(t: ReferencedTransaction, context: FollowUpContext): FollowUps {
  // Zero cents is never over a limit, so each check answers only whether the operation is open at all.
  const refundable = checkRefund(t, context.settled, 0).ok
    ? Math.max((t.amount ?? 0) - t.refundedAmount, 0)
    : 0;
  return {
    voidable: checkVoid(t, context.inOpenBatch).ok,
    refundable,
    capturable: checkCapture(t, 0, context.expiry).ok,
  };
}
