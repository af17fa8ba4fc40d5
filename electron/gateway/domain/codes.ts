import { SWIPE_ERROR_CODE_MEANINGS, SWIPE_ERROR_CODES } from '../swipe/codes';

/**
 * Every code the engine can answer. error_code values are stable: integrators switch on them, so a
 * code is never reused for another meaning. docs/api.md publishes this catalogue.
 */

export const ERROR_CODES = {
  INVALID_EXPIRY: '8000',
  MISSING_FIELD: '8001',
  INVALID_CARD: '8002',
  INVALID_AMOUNT: '8003',
  INVALID_FIELD: '8004',
  UNKNOWN_TYPE: '8005',
  TIP_NOT_ALLOWED: '8006',
  INVALID_CSC: '8007',
  BLOCKED_LOCATION: '8008',
  FIELD_NOT_APPLICABLE: '8009',
  ORIGINAL_NOT_FOUND: '8010',
  NOT_CAPTURABLE: '8011',
  CAPTURE_OVER_AUTHORIZED: '8012',
  REFUND_UNSETTLED: '8013',
  REFUND_OVER_REMAINING: '8014',
  NOT_REFUNDABLE: '8015',
  VOID_SETTLED: '8016',
  NOT_VOIDABLE: '8017',
  UNSUPPORTED_TRACK_FORMAT: '8018',
  ...SWIPE_ERROR_CODES,
  AUTHORIZATION_EXPIRED: '8030',
  CARD_NUMBER_IN_TEXT: '8032',
  POSSIBLE_DUPLICATE: '8033',
  PROCESSOR_UNAVAILABLE: '9000',
  STORE_UNREACHABLE: '9001',
  STORE_BUSY: '9002',
  GATEWAY_UNREACHABLE: '9003',
  GATEWAY_OUTCOME_UNKNOWN: '9004',
  GATEWAY_REFUSED: '9005',
  OFFLINE_KEYED_CARD: '9010',
  OFFLINE_NOT_A_SALE: '9011',
  OFFLINE_OVER_AMOUNT: '9012',
  OFFLINE_OVER_TOTAL: '9013',
  OFFLINE_TOO_LONG: '9014',
} as const;
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/**
 * A code the merchant's gateway answered with, passed on as it came: the engine answers what the
 * gateway decided, in the gateway's own codes. Made only by `gatewayCode`.
 */
export type GatewayCode = string & { readonly fromGateway: unique symbol };

/** An error_code in an answer: one of the engine's own, or one the gateway gave. */
export type AnswerCode = ErrorCode | GatewayCode;

export function gatewayCode(code: string): GatewayCode {
  return code as GatewayCode;
}

/** What each code means: docs/api.md's code catalogue, word for word (test/unit/api-doc-codes.test.ts). */
export const ERROR_CODE_MEANINGS: Record<ErrorCode, string> = {
  '8000':
    'Invalid expiration date: not MMYY, month outside 01-12, or in the past (a card is good through its expiry month).',
  '8001': 'A field the type requires is missing.',
  '8002': 'Invalid card number: not 13-19 digits, or fails the Luhn check.',
  '8003':
    'Invalid `amount` or `tip_amount`: not dollars with two decimals, zero, or above 999999.99, alone or together.',
  '8004':
    'A field has the wrong form (`order_number`, `server_id`, `client_ip`, `email`, `zip`, `id`, a non-string value, too long, a control character or half a character in a text field, an XML element given twice).',
  '8005': 'Unknown transaction type.',
  '8006': '`tip_amount` while tip support is off, or on a type that takes no tip.',
  '8007': 'Invalid card security code: 3 digits, or 4 for American Express.',
  '8008': 'Blocked geographic location (`client_ip`).',
  '8009': 'A field this type does not take, or `card` together with `encrypted_track_data`.',
  '8010': 'The transaction named by `id` does not exist.',
  '8011': 'Not capturable: only an approved AUTH, not yet captured or voided.',
  '8012': 'Capture amount above the authorized amount.',
  '8013': 'Refund of a transaction whose batch is still open: void it instead.',
  '8014': 'Refund above what remains refundable on the original.',
  '8015': 'Not refundable: only approved, unvoided SALE, FORCED SALE and CAPTURE.',
  '8016':
    'Void of a transaction whose batch is closed: refund it instead (a settled REFUND can no longer be voided).',
  '8017': 'Not voidable: not approved, already voided, a captured AUTH (void its capture), or a VOID.',
  '8018': '`encrypted_track_data` without `track_format` MAGTEK.',
  ...SWIPE_ERROR_CODE_MEANINGS,
  '8030':
    'The AUTH has expired: older than `auth_expiry_days` (default 7), it can no longer be captured; void it or run a new sale.',
  '8032':
    "A text field (`invoice`, names, address, ...) holds a card number: 13-19 digits beginning with 2 to 6, as payment cards' do, and passing the Luhn check, in any script's digits, with whatever shows nothing between them, side by side, in groups joined by spaces, dashes or line breaks, or in groups of 3-8 digits joined by one same other mark (such as `.` `/` `;`); and, when they begin as a card brand's numbers do, in groups of 3 or more digits joined by marks that change, or with 3 to 8 more digits typed right after them (an expiry, a security code). A letter between digits always breaks them.",
  '8033':
    'Possible duplicate: the same card and amount (tip included) as an approved, unvoided SALE, AUTH or FORCED SALE within `duplicate_window_minutes` (default 2). `duplicate_of` and `display_message` name the earlier one; send `duplicate_override` `true` to charge again.',
  '9000': 'The processor could not complete the request (result Error); try again.',
  '9001':
    'The store server cannot be reached (result Error, no `id`): nothing was recorded; send the request again once it is back.',
  '9002':
    'The store server did not take the write within its time limit, another counter holding the ledger (result Error, no `id`): nothing was recorded; try again.',
  '9003':
    "The merchant's gateway could not be reached (`processor` `upstream`): no connection could be made, so the request was never sent and nothing was charged; try again, or take another form of payment.",
  '9004':
    "The gateway's outcome could not be learned: the request was sent, no answer came back, and the gateway's transaction list did not show it within `upstream_timeout_seconds`. Nothing was recorded as charged; should the gateway show it later, Tender voids it there and the audit log says so. Send it again as a new request.",
  '9005':
    "The merchant's gateway refused the request before acting on it (its HTTP status is in `display_message`: 401 for a key it does not accept, 403 for a key without the permission): nothing was charged. A manager checks `upstream_api_key`.",
  '9010':
    'The gateway cannot be reached and a keyed card is never approved offline: nothing was charged. Swipe the card, or take another form of payment.',
  '9011':
    'The gateway cannot be reached and only a swiped SALE is approved offline (not AUTH, FORCED SALE or an unmatched REFUND): nothing was charged. Take another form of payment.',
  '9012':
    'The gateway cannot be reached and the sale is above `offline_max_amount`: nothing was charged. Take another form of payment.',
  '9013':
    'The gateway cannot be reached and the offline sales not yet forwarded, with this one, would come to more than `offline_max_total` (store-wide on a store server): nothing was charged. Take another form of payment.',
  '9014':
    'The gateway cannot be reached and a sale has waited to be forwarded longer than `offline_max_hours`: no more are approved offline until the gateway is back. Nothing was charged. Take another form of payment.',
};

/** result_code values: 0000 approves; the rest follow the ISO 8583 response codes they echo. */
export const RESULT_CODES = {
  APPROVED: '0000',
  DO_NOT_HONOR: '0005',
  INSUFFICIENT_FUNDS: '0051',
  SYSTEM_MALFUNCTION: '0096',
} as const;

export const RESULT_CODE_MEANINGS: Record<string, string> = {
  '0000': 'Approved.',
  '0005': 'Declined: do not honor.',
  '0051': 'Declined: insufficient funds.',
  '0096': 'Error: processor system malfunction.',
};

/** Address verification answers. */
export const AVS_CODES = {
  Y: 'Street and zip match.',
  Z: 'Zip matches, street not verified.',
  A: 'Street matches, zip not verified.',
  N: 'No match (zip 99999).',
  U: 'Address not available: no billing street or zip was sent.',
} as const;
export type AvsCode = keyof typeof AVS_CODES;

/** Card security code answers. */
export const CSC_CODES = {
  M: 'Matches.',
  N: 'Does not match (CSC 999).',
  P: 'Not processed: no CSC was sent.',
} as const;
export type CscCode = keyof typeof CSC_CODES;
