/**
 * Store and forward: whether a request that found the gateway unreachable may be approved offline.
 * Pure: given what is asked, the merchant's limits and what already waits to be forwarded, it says
 * yes, or no with the error code and the words a cashier can act on.
 */
import { formatMoney } from '../../../shared/money';
import { ERROR_CODES, type ErrorCode } from './codes';

/** The offline settings (offline_max_amount, offline_max_total, offline_max_hours). */
export interface OfflineLimits {
  maxAmountCents: number;
  maxTotalCents: number;
  maxHours: number;
}

/** What waits to be forwarded now: store-wide on a store server. */
export interface OfflineQueue {
  /** The offline sales not yet forwarded, added up. */
  waitingTotalCents: number;
  /** When the oldest entry still waiting was queued (epoch ms); null when none waits. */
  oldestWaitingAt: number | null;
}

export interface OfflineRequest {
  type: 'SALE' | 'AUTH' | 'FORCED SALE' | 'REFUND';
  entryMode: 'keyed' | 'swiped';
  amountCents: number;
}

export type OfflineVerdict = { ok: true } | { ok: false; errorCode: ErrorCode; message: string };

const HOUR_MS = 3_600_000;
const DOWN = 'The card network is down';

/** Whether `request` may be approved offline now. */
export function offlineVerdict(
  request: OfflineRequest,
  limits: OfflineLimits,
  queue: OfflineQueue,
  now: number,
): OfflineVerdict {
  if (request.type !== 'SALE') {
    return {
      ok: false,
      errorCode: ERROR_CODES.OFFLINE_NOT_A_SALE,
      message: `${DOWN}: only swiped sales can be approved offline, not tabs, forced sales or refunds to a card. Nothing was charged. Take another form of payment.`,
    };
  }
  if (request.entryMode !== 'swiped') {
    return {
      ok: false,
      errorCode: ERROR_CODES.OFFLINE_KEYED_CARD,
      message: `${DOWN} and a keyed card cannot be approved offline. Nothing was charged. Swipe the card, or take another form of payment.`,
    };
  }
  if (queue.oldestWaitingAt !== null && now - queue.oldestWaitingAt > limits.maxHours * HOUR_MS) {
    return {
      ok: false,
      errorCode: ERROR_CODES.OFFLINE_TOO_LONG,
      message: `${DOWN}, and a sale has waited more than ${limits.maxHours} hours to be sent: no more are approved offline. Nothing was charged. Take another form of payment, and tell the manager.`,
    };
  }
  if (request.amountCents > limits.maxAmountCents) {
    return {
      ok: false,
      errorCode: ERROR_CODES.OFFLINE_OVER_AMOUNT,
      message: `${DOWN} and ${formatMoney(request.amountCents)} is above the ${formatMoney(limits.maxAmountCents)} a sale can be approved offline. Nothing was charged. Take another form of payment.`,
    };
  }
  if (queue.waitingTotalCents + request.amountCents > limits.maxTotalCents) {
    return {
      ok: false,
      errorCode: ERROR_CODES.OFFLINE_OVER_TOTAL,
      message: `${DOWN} and the offline sales waiting to be sent already come to ${formatMoney(queue.waitingTotalCents)} of the ${formatMoney(limits.maxTotalCents)} allowed. Nothing was charged. Take another form of payment.`,
    };
  }
  return { ok: true };
}

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';

/**
 * The authorization code of an offline approval: OFL and three characters, so that it says on the
 * receipt, in lists and to the issuer's voice line that no issuer gave it.
 */
export function offlineAuthorizationCode(random: (below: number) => number): string {
  let code = 'OFL';
  for (let i = 0; i < 3; i++) code += CODE_ALPHABET[random(CODE_ALPHABET.length)];
  return code;
}

export function isOfflineAuthorizationCode(code: string | null): boolean {
  return code !== null && /^OFL[A-Z0-9]{3}$/.test(code);
}
