/** Idempotency keys: what makes two requests the same, and the ways a key can be refused. */
import { createHmac } from 'node:crypto';
import { transactionRequestSchema } from '../../shared/api/schemas';
import { parseTransactionType } from '../../shared/api/transaction-types';
import { cardNumberHash } from './crypto/card-hash-key';

/** How long an idempotency key's answer is kept: at least a day, as docs/api.md promises. */
export const IDEMPOTENCY_RETENTION_MS = 48 * 60 * 60 * 1000;

/** An Idempotency-Key that cannot be honoured: reused for another request, or still being answered. */
export class IdempotencyConflict extends Error {
  constructor(readonly reason: 'different_request' | 'in_flight') {
    super(
      reason === 'in_flight'
        ? 'A request with this Idempotency-Key is still being processed. Retry once it has been answered.'
        : 'This Idempotency-Key was already used for a different request. Use a new key for a new transaction.',
    );
  }
}

/** The JSON of a value with every object's fields in name order: one text for one request. */
function canonicalText(value: unknown): string {
  const canonical = (each: unknown): unknown => {
    if (Array.isArray(each)) return each.map(canonical);
    if (typeof each !== 'object' || each === null) return each;
    return Object.fromEntries(
      Object.keys(each)
        .sort()
        .map((name) => [name, canonical((each as Record<string, unknown>)[name])]),
    );
  };
  return JSON.stringify(canonical(value));
}

/** The fields of the card that no fingerprint holds in any form: only the authorization may see them. */
const CARD_SECRETS = ['csc', 'exp_date'];

/**
 * The fields a fingerprint is made of: the card number as the keyed hash the ledger keeps of it
 * anyway, and nothing of its security code or expiry date. The secret that keys the hash sits beside
 * the ledger, so a fingerprint that held a code of three or four digits would give it away to anyone
 * holding both, in a thousand tries.
 */
function withoutCardSecrets(fields: unknown, key: Buffer): unknown {
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) return fields;
  const kept = Object.fromEntries(
    Object.entries(fields as Record<string, unknown>).filter(([name]) => !CARD_SECRETS.includes(name)),
  );
  const hashed = (card: unknown): unknown =>
    typeof card === 'string' ? cardNumberHash(card, key) : Array.isArray(card) ? card.map(hashed) : card;
  if ('card' in kept) kept.card = hashed(kept.card);
  return kept;
}

/** Fingerprints made before the card's security code and expiry date were left out had no prefix. */
const FINGERPRINT_PREFIX = '2:';

export interface RequestFingerprint {
  /** What is stored with the answer. */
  readonly value: string;
  /** Whether a stored fingerprint is this request's, in this form or the earlier one. */
  matches(stored: string): boolean;
}

/**
 * The same request, whatever its format, field order or spelling, has the same fingerprint. A body
 * that reads as a transaction request is taken by its fields as read, so that what JSON and XML
 * write differently is one request: an id sent as 228 or "228", a flag as true or "true", the type as
 * SALE or sale, FORCED SALE or FORCED_SALE. Any other body is taken as it was sent. Keyed with the
 * card hash key, and holding of the card only its number's keyed hash (withoutCardSecrets): a retry
 * that differs only in the security code or the expiry date is the same request.
 */
export function requestFingerprint(body: unknown, key: Buffer): RequestFingerprint {
  const read = transactionRequestSchema.safeParse(body);
  const fields = read.success
    ? { ...read.data, type: parseTransactionType(read.data.type) ?? read.data.type }
    : body;
  const keyed = (text: string) => createHmac('sha256', key).update(text).digest('hex');
  const value = `${FINGERPRINT_PREFIX}${keyed(canonicalText(withoutCardSecrets(fields, key)))}`;
  return {
    value,
    // An answer stored before, still kept (for 48 hours), is compared the way it was made, in memory.
    matches: (stored) =>
      stored.startsWith(FINGERPRINT_PREFIX) ? stored === value : stored === keyed(canonicalText(fields)),
  };
}
