/**
 * What makes a POST /transactions body a valid request: the schema, the fields each type requires or
 * refuses, and the Rejection (error code and words) for each way a request can be wrong.
 */
import type { z } from 'zod';
import { transactionRequestSchema, type TransactionRequest } from '../../shared/api/schemas';
import {
  CARD_TYPES,
  parseTransactionType,
  TYPE_LABELS,
  type TransactionType,
} from '../../shared/api/transaction-types';
import { parseMoney } from '../../shared/money';
import { ERROR_CODES, type ErrorCode } from './domain/codes';
import type { NewTransaction } from './store/ledger';

/** A refusal: answered as Rejected and recorded with whatever safe detail the request gave. */
export class Rejection {
  constructor(
    readonly errorCode: ErrorCode,
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

const CARD_FIELDS = ['card', 'exp_date', 'csc', 'encrypted_track_data', 'track_format'] as const;

/** Fields that must be present for each type (card data is checked separately). */
const REQUIRED: Record<TransactionType, readonly (keyof TransactionRequest)[]> = {
  SALE: ['amount'],
  'FORCED SALE': ['amount', 'authorization_code'],
  AUTH: ['amount'],
  CAPTURE: ['id', 'amount'],
  REFUND: ['amount'],
  VOID: ['id'],
};

/**
 * Reads a request body into a valid transaction request and its type, or throws the Rejection that
 * says what is wrong with it: the field, the error code and, for field problems, a "Field
 * Validation" message.
 */
export function validateTransactionRequest(
  body: unknown,
  options: { tipsEnabled: boolean },
): { request: TransactionRequest; type: TransactionType } {
  const parsed = transactionRequestSchema.safeParse(body);
  if (!parsed.success) throw fieldRejection(parsed.error, body);
  const request = parsed.data;
  const type = parseTransactionType(request.type);
  if (!type) {
    throw new Rejection(
      ERROR_CODES.UNKNOWN_TYPE,
      `${FIELD_VALIDATION}type "${request.type}" is not one of SALE, FORCED SALE, AUTH, CAPTURE, REFUND, VOID`,
    );
  }
  for (const field of REQUIRED[type]) {
    if (request[field] === undefined) {
      throw new Rejection(ERROR_CODES.MISSING_FIELD, `${FIELD_VALIDATION}${field} is required for ${type}`);
    }
  }
  const takesCard = CARD_TYPES.includes(type) || (type === 'REFUND' && request.id === undefined);
  if (!takesCard) {
    const stray = CARD_FIELDS.find((field) => request[field] !== undefined);
    if (stray) {
      const which = type === 'REFUND' ? 'a REFUND of an earlier transaction (id)' : type;
      throw new Rejection(
        ERROR_CODES.FIELD_NOT_APPLICABLE,
        `${FIELD_VALIDATION}${stray} does not apply to ${which}`,
      );
    }
  } else if (request.card === undefined && request.encrypted_track_data === undefined) {
    const what = type === 'REFUND' ? 'REFUND without id (an unmatched refund)' : type;
    throw new Rejection(
      ERROR_CODES.MISSING_FIELD,
      `${FIELD_VALIDATION}card and exp_date, or encrypted_track_data, are required for ${what}`,
    );
  }
  if (type === 'VOID' && request.amount !== undefined) {
    throw new Rejection(
      ERROR_CODES.FIELD_NOT_APPLICABLE,
      `${FIELD_VALIDATION}amount does not apply to VOID: a void reverses the whole transaction`,
    );
  }
  if (CARD_TYPES.includes(type) && request.id !== undefined) {
    throw new Rejection(ERROR_CODES.FIELD_NOT_APPLICABLE, `${FIELD_VALIDATION}id does not apply to ${type}`);
  }
  if (type !== 'FORCED SALE' && request.authorization_code !== undefined) {
    // The issuer or the engine gives every other type its code: one sent here would be lost silently.
    throw new Rejection(
      ERROR_CODES.FIELD_NOT_APPLICABLE,
      `${FIELD_VALIDATION}authorization_code applies to FORCED SALE only`,
    );
  }
  if (request.tip_amount !== undefined) {
    if (type !== 'CAPTURE' && type !== 'FORCED SALE') {
      throw new Rejection(
        ERROR_CODES.TIP_NOT_ALLOWED,
        `${FIELD_VALIDATION}tip_amount applies to CAPTURE and FORCED SALE only`,
      );
    }
    if (!options.tipsEnabled) {
      throw new Rejection(
        ERROR_CODES.TIP_NOT_ALLOWED,
        `${FIELD_VALIDATION}tip_amount is not allowed: tip support is off in the gateway settings`,
      );
    }
  }
  return { request, type };
}

function fieldRejection(error: z.ZodError, body: unknown): Rejection {
  const issue = error.issues[0];
  const path = issue?.path.map(String) ?? [];
  const field = path.join('.') || 'body';
  const value = valueAt(body, path);
  if (value === undefined)
    return new Rejection(ERROR_CODES.MISSING_FIELD, `${FIELD_VALIDATION}${field} is required`);
  // An XML element given twice is a malformed request whatever the field, not a bad amount or card.
  if (Array.isArray(value))
    return new Rejection(ERROR_CODES.INVALID_FIELD, `${FIELD_VALIDATION}${field} is given more than once`);
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
  const invoice = typeof record.invoice === 'string' && record.invoice.length <= 64 ? record.invoice : null;
  return {
    type: type ? TYPE_LABELS[type] : null,
    amount: amount?.ok ? amount.cents : null,
    cardLastFour: card?.slice(-4) ?? null,
    cardLength: card?.length ?? null,
    invoice,
  };
}
