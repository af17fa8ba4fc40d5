/** Idempotency keys: what makes two requests the same, and the ways a key can be refused. */
import { createHmac } from 'node:crypto';
import { transactionRequestSchema } from '../../shared/api/schemas';
import { parseTransactionType } from '../../shared/api/transaction-types';

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

/**
 * The same request, whatever its format, field order or spelling, has the same fingerprint. A body
 * that reads as a transaction request is taken by its fields as read, so that what JSON and XML
 * write differently is one request: an id sent as 228 or "228", a flag as true or "true", the type as
 * SALE or sale, FORCED SALE or FORCED_SALE. Any other body is taken as it was sent. The body may carry
 * a card number, so the fingerprint is keyed with the data dir's card hash key: the stored value
 * cannot be tried against card numbers.
 */
export function requestFingerprint(body: unknown, key: Buffer): string {
  const read = transactionRequestSchema.safeParse(body);
  const fields = read.success
    ? { ...read.data, type: parseTransactionType(read.data.type) ?? read.data.type }
    : body;
  const canonical = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(canonical);
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  };
  return createHmac('sha256', key)
    .update(JSON.stringify(canonical(fields)))
    .digest('hex');
}
