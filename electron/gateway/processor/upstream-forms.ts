/**
 * A request of the engine as the gateway's interface takes it, and the gateway's answer as the
 * engine's decision. Each type sends the fields the interface lists for it: the caller's own fields
 * as they came (invoice, billing, description, ...), the amounts, the card as keyed or as the reader
 * encrypted it, a follow-up's original by the gateway's id, and in `order_number` the reference that
 * finds the request again in the gateway's list.
 */
import { randomInt } from 'node:crypto';
import type { TransactionRequest } from '../../../shared/api/schemas';
import type { TransactionType } from '../../../shared/api/transaction-types';
import { formatMoney } from '../../../shared/money';
import { ERROR_CODES, gatewayCode, RESULT_CODES } from '../domain/codes';
import type { GatewayAnswer, GatewayListItem } from './gateway-account';
import type { CardDetails, ProcessorDecision } from './processor';

/**
 * A new charge forwarded from the store-and-forward queue: Tender made the duplicate check itself
 * when the sale was made, so the gateway is told to skip its own (`duplicate_override`). The queue
 * goes up within seconds once the gateway is back, and the gateway's window, counted from when the
 * sales arrive, would take a customer's purchases made hours apart for duplicates.
 */
interface DuplicateChecked {
  duplicateChecked?: true;
}

/** What the engine asks the gateway for, by type. */
export type UpstreamRequest =
  | ({ type: 'SALE' | 'AUTH'; amountCents: number; card: CardDetails } & DuplicateChecked)
  | ({
      type: 'FORCED SALE';
      /** Before the tip. */
      amountCents: number;
      tipCents: number;
      authorizationCode: string;
      card: CardDetails;
    } & DuplicateChecked)
  | { type: 'CAPTURE'; amountCents: number; tipCents: number; originalUpstreamId: string }
  | { type: 'REFUND'; amountCents: number; originalUpstreamId: string }
  | { type: 'REFUND'; amountCents: number; card: CardDetails }
  | { type: 'VOID'; originalUpstreamId: string };

type WithoutCard<T> = T extends { card: CardDetails } ? Omit<T, 'card'> & { swiped: true } : T;

/**
 * A request kept in the store-and-forward queue: all of it but the card, which for an offline sale
 * is the reader's encrypted swipe, kept beside it in a table of its own and erased once answered.
 */
export interface QueuedForm {
  request: WithoutCard<UpstreamRequest>;
  caller: TransactionRequest;
  reference: string;
}

/**
 * The form to keep for `request`: of the caller's request only the fields that go up with it, never
 * its card data (the swipe is kept apart, and a keyed card is never kept at all).
 */
export function queuedForm(
  request: UpstreamRequest,
  caller: TransactionRequest,
  reference: string,
): QueuedForm {
  const kept = callerFields(caller);
  if ('card' in request) {
    if (request.card.pan !== undefined) throw new Error('a keyed card is never kept to be forwarded');
    const { card: _card, ...rest } = request;
    return { request: { ...rest, swiped: true } as WithoutCard<UpstreamRequest>, caller: kept, reference };
  }
  return { request: request as WithoutCard<UpstreamRequest>, caller: kept, reference };
}

/** The caller's fields that go up with a request: its type, and what CALLER_FIELDS lists. */
function callerFields(caller: TransactionRequest): TransactionRequest {
  const kept: Record<string, unknown> = { type: caller.type };
  for (const [field] of CALLER_FIELDS) if (caller[field] !== undefined) kept[field] = caller[field];
  return kept as TransactionRequest;
}

/**
 * A kept form with its swipe again, ready to be sent. A kept charge (always a swipe: a keyed card is
 * never kept) was checked for duplicates when it was made, so it goes as checked, whenever it was
 * queued.
 */
export function requestOf(form: QueuedForm, swipe: string | null): UpstreamRequest {
  const { request } = form;
  if (!('swiped' in request)) return request;
  if (swipe === null) throw new Error('the swipe of a queued sale is gone');
  const { swiped: _swiped, ...rest } = request;
  const card: CardDetails = {
    entryMode: 'swiped',
    // Not sent: a swipe carries its own expiry, which the gateway reads when it decrypts it.
    expiry: { month: 1, year: 2000 },
    encryptedSwipe: { trackData: swipe, trackFormat: 'MAGTEK' },
  };
  return { ...rest, card, duplicateChecked: true } as UpstreamRequest;
}

/** The types the duplicate check applies to, here and at the gateway. */
function isNewCharge<T extends { type: string }>(
  request: T,
): request is Extract<T, { type: 'SALE' | 'AUTH' | 'FORCED SALE' }> {
  return request.type === 'SALE' || request.type === 'AUTH' || request.type === 'FORCED SALE';
}

const REFERENCE_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
/** `order_number`'s form: up to 18 characters 0-9 and A-Z. */
export const REFERENCE_PATTERN = /^T[0-9A-Z]{17}$/;

/**
 * A reference for one request: `T` and 17 random characters of 0-9 and A-Z (about 88 bits), so
 * that no two requests of any counter ever share one.
 */
export function newReference(): string {
  let reference = 'T';
  for (let i = 0; i < 17; i++) reference += REFERENCE_ALPHABET[randomInt(REFERENCE_ALPHABET.length)];
  return reference;
}

/**
 * The reference of the void Tender sends of a request that turned up approved after its answer was
 * lost: derived from that request's own, so that a void whose answer is lost too is found by it
 * rather than sent again.
 */
export function reversalReference(reference: string): string {
  return `V${reference.slice(1)}`;
}

/** The caller's fields the interface takes, and the types it takes each for. */
const CALLER_FIELDS: readonly (readonly [keyof TransactionRequest, readonly TransactionType[]])[] = [
  ['invoice', ['SALE', 'FORCED SALE', 'AUTH', 'CAPTURE', 'REFUND']],
  ['purchase_order', ['SALE', 'FORCED SALE', 'AUTH']],
  ['email', ['SALE', 'FORCED SALE', 'AUTH']],
  ['customer_id', ['SALE', 'FORCED SALE', 'AUTH']],
  ['client_ip', ['SALE', 'FORCED SALE', 'AUTH', 'CAPTURE', 'REFUND', 'VOID']],
  ['description', ['SALE', 'FORCED SALE', 'AUTH', 'CAPTURE', 'REFUND', 'VOID']],
  ['comments', ['SALE', 'FORCED SALE', 'AUTH', 'CAPTURE', 'REFUND', 'VOID']],
  ['server_id', ['AUTH', 'CAPTURE']],
  ['billing_is_shipping', ['SALE', 'FORCED SALE', 'AUTH']],
  ['billing', ['SALE', 'FORCED SALE', 'AUTH']],
  ['shipping', ['SALE', 'FORCED SALE', 'AUTH']],
];

function expiryMmyy(card: CardDetails): string {
  const { month, year } = card.expiry;
  return `${String(month).padStart(2, '0')}${String(year % 100).padStart(2, '0')}`;
}

/** A keyed card as its number and expiry; a swipe exactly as the reader encrypted it. */
function cardFields(card: CardDetails): Record<string, string> {
  if (card.pan === undefined) {
    return {
      encrypted_track_data: card.encryptedSwipe.trackData,
      track_format: card.encryptedSwipe.trackFormat,
    };
  }
  return {
    card: card.pan,
    exp_date: expiryMmyy(card),
    ...(card.csc !== undefined && { csc: card.csc }),
  };
}

/** The body of POST {upstream_url}/transactions for `request`. */
export function upstreamForm(
  request: UpstreamRequest,
  caller: TransactionRequest,
  reference: string,
): Record<string, unknown> {
  const form: Record<string, unknown> = { type: request.type };
  if ('originalUpstreamId' in request) form.id = request.originalUpstreamId;
  if ('card' in request) Object.assign(form, cardFields(request.card));
  if ('amountCents' in request) form.amount = formatMoney(request.amountCents);
  // The interface refuses a tip where tip support is off, so none is sent unless there is one.
  if ('tipCents' in request && request.tipCents > 0) form.tip_amount = formatMoney(request.tipCents);
  if (request.type === 'FORCED SALE') form.authorization_code = request.authorizationCode;
  for (const [field, types] of CALLER_FIELDS) {
    const value = caller[field];
    if (value !== undefined && types.includes(request.type)) form[field] = value;
  }
  // A caller's override of Tender's duplicate check holds at the gateway too: without it the
  // gateway's own check would refuse again the charge the cashier confirmed.
  if (isNewCharge(request) && (request.duplicateChecked === true || caller.duplicate_override === true))
    form.duplicate_override = true;
  form.order_number = reference;
  return form;
}

const DEFAULT_MESSAGES = {
  Approved: 'Approved',
  Declined: 'Declined by the card issuer. Ask for another card.',
  Error: 'The payment gateway could not complete the request. Try again.',
  Rejected: 'The payment gateway refused the request.',
} as const;

/** The gateway's answer, or the list item of a request whose answer was lost, as the engine's decision. */
export function decisionOf(answer: GatewayAnswer | GatewayListItem, reference: string): ProcessorDecision {
  const upstreamId = answer.id;
  const marks = { reference, ...(upstreamId !== undefined && upstreamId !== '' && { upstreamId }) };
  const message = answer.display_message || DEFAULT_MESSAGES[answer.result];
  const verification = (item: GatewayAnswer | GatewayListItem) => ({
    ...('avs_result_code' in item && item.avs_result_code && { avs: item.avs_result_code }),
    ...('csc_result_code' in item && item.csc_result_code && { csc: item.csc_result_code }),
  });
  switch (answer.result) {
    case 'Approved':
      return {
        ...marks,
        outcome: 'approved',
        authorizationCode: answer.authorization_code ?? '',
        resultCode: answer.result_code || RESULT_CODES.APPROVED,
        message,
        ...verification(answer),
      };
    case 'Declined':
      return {
        ...marks,
        outcome: 'declined',
        resultCode: answer.result_code ?? '',
        message,
        ...verification(answer),
      };
    case 'Error':
      return {
        ...marks,
        outcome: 'error',
        resultCode: answer.result_code || RESULT_CODES.SYSTEM_MALFUNCTION,
        errorCode: answer.error_code ? gatewayCode(answer.error_code) : ERROR_CODES.PROCESSOR_UNAVAILABLE,
        message,
        answeredByGateway: true,
      };
    case 'Rejected':
      if (answer.error_code === ERROR_CODES.POSSIBLE_DUPLICATE) return gatewayDuplicate(answer, reference);
      return {
        reference,
        outcome: 'rejected',
        errorCode: answer.error_code ? gatewayCode(answer.error_code) : ERROR_CODES.INVALID_FIELD,
        message,
      };
  }
}

/**
 * The gateway's own duplicate check refused a charge Tender's let through (Tender's window is shorter
 * or off, or the earlier charge was not made through Tender). The gateway's words name its own ids,
 * which are not Tender's, so the answer says whose transaction it found; the operation names
 * Tender's own instead where Tender has it (operations/duplicates.ts).
 */
function gatewayDuplicate(answer: GatewayAnswer | GatewayListItem, reference: string): ProcessorDecision {
  const earlier = 'duplicate_of' in answer && answer.duplicate_of ? answer.duplicate_of : undefined;
  return {
    reference,
    outcome: 'rejected',
    errorCode: ERROR_CODES.POSSIBLE_DUPLICATE,
    message:
      'Possible duplicate: the payment gateway has an approved charge of the same card and amount ' +
      `within its own duplicate window${earlier === undefined ? '' : ` (the payment gateway's transaction ${earlier})`}. ` +
      'To charge again, send duplicate_override true.',
    ...(earlier !== undefined && { gatewayDuplicateOf: earlier }),
  };
}
