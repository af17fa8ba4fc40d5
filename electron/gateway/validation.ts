/**
 * What makes a POST /transactions body a valid request: the schema, the fields each type requires or
 * refuses (enforcing the table in shared/api/transaction-fields.ts, in its order), and the Rejection
 * (error code and words) for each way a request can be wrong. A valid request leaves as a
 * TransactionCommand, typed by what it asks for.
 */
import type { z } from 'zod';
import { NOT_CHARACTERS, transactionRequestSchema, type TransactionRequest } from '../../shared/api/schemas';
import {
  CARD_FIELDS,
  FIELDS_BY_TYPE,
  LIMITED_FIELDS,
  MATCHED_REFUND_IN_WORDS,
  refusalWords,
  takesField,
  type CardRule,
  type LimitedField,
  type RequestField,
  type TypeFields,
} from '../../shared/api/transaction-fields';
import { parseTransactionType, TYPE_LABELS, type TransactionType } from '../../shared/api/transaction-types';
import { CARD_NUMBER_IN_TEXT, holdsCardNumber } from './card-number-search';
import { isAssignedForm } from './domain/purchase-order';
import { formatMoney, MAX_AMOUNT_CENTS, parseMoney } from '../../shared/money';
import { ERROR_CODES, type AnswerCode, type ErrorCode } from './domain/codes';
import type { NewTransaction } from './store/transaction-rows';

/**
 * The card as the request gave it, not yet read: keyed (a number and its expiry) or swiped (the
 * reader's encrypted track data). Card intake checks and reads it, after the processor's screening.
 */
export type CardEntry = (
  | { entry: 'keyed'; pan: string; expDate: string | undefined }
  | { entry: 'swiped'; trackData: string; trackFormat: string | undefined; keyedToo: boolean }
) & { csc: string | undefined; billing: TransactionRequest['billing'] };

/**
 * A valid request, by what it asks for. `request` keeps the descriptive fields (invoice, billing,
 * comments) that every operation records as sent.
 */
export type TransactionCommand =
  | {
      type: 'SALE' | 'AUTH';
      request: TransactionRequest;
      amount: number;
      card: CardEntry;
      /** Charge even when the duplicate check finds the same card and amount charged just before. */
      duplicateOverride: boolean;
    }
  | {
      type: 'FORCED SALE';
      request: TransactionRequest;
      amount: number;
      tip: number;
      authorizationCode: string;
      card: CardEntry;
      duplicateOverride: boolean;
    }
  | { type: 'CAPTURE'; request: TransactionRequest; authId: number; amount: number; tip: number }
  | { type: 'REFUND'; refund: 'matched'; request: TransactionRequest; originalId: number; amount: number }
  | { type: 'REFUND'; refund: 'unmatched'; request: TransactionRequest; amount: number; card: CardEntry }
  | { type: 'VOID'; request: TransactionRequest; targetId: number };

/** A refusal: answered as Rejected and recorded with whatever safe detail the request gave. */
export class Rejection {
  constructor(
    readonly errorCode: AnswerCode,
    readonly message: string,
    readonly detail: Partial<NewTransaction> = {},
  ) {}
}

export const FIELD_VALIDATION = 'Field Validation: ';

const FIELD_ERROR_CODES: Partial<Record<string, ErrorCode>> = {
  type: ERROR_CODES.UNKNOWN_TYPE,
  card: ERROR_CODES.INVALID_CARD,
  exp_date: ERROR_CODES.INVALID_EXPIRY,
  amount: ERROR_CODES.INVALID_AMOUNT,
  tip_amount: ERROR_CODES.INVALID_AMOUNT,
  csc: ERROR_CODES.INVALID_CSC,
};

/** Refusals of a limited field answered with their own code rather than field_not_applicable. */
const REFUSAL_CODES: Partial<Record<RequestField, ErrorCode>> = {
  tip_amount: ERROR_CODES.TIP_NOT_ALLOWED,
};

function takesCard(rule: CardRule, request: TransactionRequest): boolean {
  return rule === 'required' || (rule === 'required without id' && request.id === undefined);
}

/**
 * The text fields of a request that Tender keeps (in its row, or in billing and shipping) or repeats
 * in an answer. A card number typed into one would be stored in clear, so each is searched first.
 */
export const TEXT_FIELDS = [
  'type',
  'invoice',
  'purchase_order',
  'email',
  'customer_id',
  'order_number',
  'client_ip',
  'description',
  'comments',
  'track_format',
] as const;
export const ADDRESS_TEXT_FIELDS = {
  billing: [
    'first_name',
    'last_name',
    'company',
    'street',
    'street2',
    'city',
    'state',
    'country',
    'zip',
    'phone',
  ],
  shipping: ['first_name', 'last_name', 'company', 'street', 'street2', 'city', 'state', 'zip', 'phone'],
} as const;
/**
 * Fields not searched: card data sent as card data, the API key (never kept), and values whose form
 * leaves no room for 13 digits in a row, or that are never kept or repeated when malformed.
 */
export const UNSEARCHED_FIELDS = [
  'card',
  'encrypted_track_data',
  'api_key',
  'csc',
  'exp_date',
  'amount',
  'tip_amount',
  'id',
  'authorization_code',
  'server_id',
  'billing_is_shipping',
  'duplicate_override',
  'billing',
  'shipping',
] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A field's own value, as sent: an XML element given twice arrives as an array of its values. */
function sent(record: Record<string, unknown>, field: string): unknown[] {
  const value = Object.hasOwn(record, field) ? record[field] : undefined;
  return Array.isArray(value) ? value : [value];
}

/** The first text field, by its path in the body, that holds a card number. */
function textFieldWithCardNumber(body: unknown): string | undefined {
  if (!isRecord(body)) return undefined;
  const holds = (value: unknown) => typeof value === 'string' && holdsCardNumber(value);
  const field = TEXT_FIELDS.find((name) => sent(body, name).some(holds));
  if (field) return field;
  for (const [group, names] of Object.entries(ADDRESS_TEXT_FIELDS)) {
    for (const address of sent(body, group).filter(isRecord)) {
      const name = names.find((each) => sent(address, each).some(holds));
      if (name) return `${group}.${name}`;
    }
  }
  return undefined;
}

/** The refusal of a card number in `field`, which names the field and never repeats its content. */
export function cardNumberInText(field: string): Rejection {
  return new Rejection(
    ERROR_CODES.CARD_NUMBER_IN_TEXT,
    `${FIELD_VALIDATION}${field} holds ${CARD_NUMBER_IN_TEXT}, ` +
      'and card numbers are never kept in text fields. Remove it and send again; if it is not a card ' +
      'number, break the digits with a letter so that fewer than 13 stand together.',
  );
}

/** Refuses a request that carries a card number in a text field, before anything of it is read or kept. */
function rejectCardNumberInText(body: unknown): void {
  const field = textFieldWithCardNumber(body);
  if (field === undefined) return;
  throw cardNumberInText(field);
}

/**
 * Reads a request body into the command it asks for, or throws the Rejection that
 * says what is wrong with it: the field, the error code and, for field problems, a "Field
 * Validation" message.
 */
export function validateTransactionRequest(
  body: unknown,
  options: { tipsEnabled: boolean },
): TransactionCommand {
  rejectCardNumberInText(body);
  const parsed = transactionRequestSchema.safeParse(body);
  if (!parsed.success) throw fieldRejection(parsed.error, body);
  const request = parsed.data;
  const type = parseTransactionType(request.type);
  if (!type) {
    throw new Rejection(
      ERROR_CODES.UNKNOWN_TYPE,
      // Quoted as JSON quotes it: a control character in it is written out, never kept raw, so the
      // message can be stored (PostgreSQL text holds no NUL) and written as XML.
      `${FIELD_VALIDATION}type ${JSON.stringify(request.type)} is not one of SALE, FORCED SALE, AUTH, CAPTURE, REFUND, VOID`,
    );
  }
  const fields: TypeFields = FIELDS_BY_TYPE[type];
  for (const field of fields.requires) {
    if (request[field] === undefined) {
      throw new Rejection(ERROR_CODES.MISSING_FIELD, `${FIELD_VALIDATION}${field} is required for ${type}`);
    }
  }
  if (takesCard(fields.card, request)) {
    // A card-taking request without a card is refused here, before the checks below.
    cardEntryOf(request, type);
  } else {
    const stray = CARD_FIELDS.find((field) => request[field] !== undefined);
    if (stray) {
      const which = type === 'REFUND' ? MATCHED_REFUND_IN_WORDS : type;
      throw new Rejection(
        ERROR_CODES.FIELD_NOT_APPLICABLE,
        `${FIELD_VALIDATION}${stray} does not apply to ${which}`,
      );
    }
  }
  const limitedFields: readonly LimitedField[] = LIMITED_FIELDS;
  const hasId = request.id !== undefined;
  // A CAPTURE, REFUND or VOID may repeat the purchase order of the transaction it names.
  if (!hasId && request.purchase_order !== undefined && isAssignedForm(request.purchase_order)) {
    throw new Rejection(
      ERROR_CODES.INVALID_FIELD,
      `${FIELD_VALIDATION}purchase_order PO and ten digits is the form Tender assigns: send another, or none and ` +
        'Tender assigns one',
    );
  }
  for (const limited of limitedFields) {
    if (request[limited.field] === undefined) continue;
    const code = REFUSAL_CODES[limited.field] ?? ERROR_CODES.FIELD_NOT_APPLICABLE;
    if (!takesField(limited, type, hasId)) {
      throw new Rejection(code, `${FIELD_VALIDATION}${limited.field} ${refusalWords(limited, type, hasId)}`);
    }
    if (limited.onlyWhenSetting === 'tips_enabled' && !options.tipsEnabled) {
      throw new Rejection(
        code,
        `${FIELD_VALIDATION}${limited.field} is not allowed: tip support is off in the gateway settings`,
      );
    }
  }
  return commandOf(type, request);
}

/** The field's value; the checks above have already refused a request without it. */
function required<Value>(value: Value | undefined, field: string, type: TransactionType): Value {
  if (value === undefined)
    throw new Rejection(ERROR_CODES.MISSING_FIELD, `${FIELD_VALIDATION}${field} is required for ${type}`);
  return value;
}

/**
 * A tip's amount, refused when the amount and the tip together, which the transaction is charged and
 * listed at, pass the most any amount may be: the total could not be found by its amount nor
 * refunded in one.
 */
function tipWithin(amount: number, tip: number): number {
  if (amount + tip > MAX_AMOUNT_CENTS) {
    throw new Rejection(
      ERROR_CODES.INVALID_AMOUNT,
      `${FIELD_VALIDATION}tip_amount brings the total to ${formatMoney(amount + tip)}, and amount and ` +
        `tip_amount together must be at most ${formatMoney(MAX_AMOUNT_CENTS)}`,
    );
  }
  return tip;
}

function commandOf(type: TransactionType, request: TransactionRequest): TransactionCommand {
  const amount = () => required(request.amount, 'amount', type);
  const tip = request.tip_amount ?? 0;
  switch (type) {
    case 'SALE':
    case 'AUTH':
      return {
        type,
        request,
        amount: amount(),
        card: cardEntryOf(request, type),
        duplicateOverride: request.duplicate_override ?? false,
      };
    case 'FORCED SALE':
      return {
        type,
        request,
        amount: amount(),
        tip: tipWithin(amount(), tip),
        authorizationCode: required(request.authorization_code, 'authorization_code', type),
        card: cardEntryOf(request, type),
        duplicateOverride: request.duplicate_override ?? false,
      };
    case 'CAPTURE':
      return {
        type,
        request,
        authId: required(request.id, 'id', type),
        amount: amount(),
        tip: tipWithin(amount(), tip),
      };
    case 'REFUND':
      return request.id === undefined
        ? { type, refund: 'unmatched', request, amount: amount(), card: cardEntryOf(request, type) }
        : { type, refund: 'matched', request, originalId: request.id, amount: amount() };
    case 'VOID':
      return { type, request, targetId: required(request.id, 'id', type) };
  }
}

/** The card a card-taking request carries, keyed or swiped; refused when it carries neither. */
function cardEntryOf(request: TransactionRequest, type: TransactionType): CardEntry {
  const common = { csc: request.csc, billing: request.billing };
  if (request.encrypted_track_data !== undefined) {
    return {
      entry: 'swiped',
      trackData: request.encrypted_track_data,
      trackFormat: request.track_format,
      keyedToo: request.card !== undefined,
      ...common,
    };
  }
  if (request.card !== undefined)
    return { entry: 'keyed', pan: request.card, expDate: request.exp_date, ...common };
  const what = type === 'REFUND' ? 'REFUND without id (an unmatched refund)' : type;
  throw new Rejection(
    ERROR_CODES.MISSING_FIELD,
    `${FIELD_VALIDATION}card and exp_date, or encrypted_track_data, are required for ${what}`,
  );
}

function fieldRejection(error: z.ZodError, body: unknown): Rejection {
  const issue = error.issues[0];
  const path = issue?.path.map(String) ?? [];
  const field = path.join('.') || 'body';
  const value = valueAt(body, path);
  if (value === undefined)
    return new Rejection(ERROR_CODES.MISSING_FIELD, `${FIELD_VALIDATION}${field} is required`);
  // An XML element given twice is a malformed request whatever the field, not a bad amount or card.
  // A JSON array of one value or none is only a value of the wrong form, and is said to be.
  if (Array.isArray(value) && value.length > 1)
    return new Rejection(ERROR_CODES.INVALID_FIELD, `${FIELD_VALIDATION}${field} is given more than once`);
  if (Array.isArray(value))
    return new Rejection(
      ERROR_CODES.INVALID_FIELD,
      `${FIELD_VALIDATION}${field} must be one value (a JSON string or XML element text), not a list`,
    );
  return new Rejection(
    FIELD_ERROR_CODES[path[0] ?? ''] ?? ERROR_CODES.INVALID_FIELD,
    `${FIELD_VALIDATION}${field} ${issue?.message ?? 'is not valid'}`,
  );
}

function valueAt(body: unknown, path: readonly string[]): unknown {
  let value = body;
  for (const key of path) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** What may be kept of a rejected request: never the card number, only its last four digits. */
export function safeDetail(
  body: unknown,
): Pick<NewTransaction, 'type' | 'amount' | 'cardLastFour' | 'cardLength' | 'invoice'> {
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const type = typeof record.type === 'string' ? parseTransactionType(record.type) : undefined;
  const amount = typeof record.amount === 'string' ? parseMoney(record.amount) : undefined;
  const card = typeof record.card === 'string' && /^\d{13,19}$/.test(record.card) ? record.card : undefined;
  // An invoice is kept only as the engine could have accepted it: a control character (a NUL, which
  // PostgreSQL text cannot hold), a character XML cannot carry or a card number in it drops it.
  const invoice =
    typeof record.invoice === 'string' &&
    record.invoice.length <= 64 &&
    !/\p{Cc}/u.test(record.invoice) &&
    !NOT_CHARACTERS.test(record.invoice) &&
    !holdsCardNumber(record.invoice)
      ? record.invoice
      : null;
  return {
    type: type ? TYPE_LABELS[type] : null,
    amount: amount?.ok ? amount.cents : null,
    cardLastFour: card?.slice(-4) ?? null,
    cardLength: card?.length ?? null,
    invoice,
  };
}
