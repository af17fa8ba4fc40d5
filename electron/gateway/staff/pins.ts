/**
 * Staff PINs: kept only as salted scrypt hashes, checked in the engine's process and never in the
 * screens, and slowed down after wrong guesses. A four-digit PIN has only ten thousand values, so the
 * hash alone would not stop someone holding the file; what protects the PIN at the counter is that
 * guesses go through this gate, a few at a time.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

export interface StoredPin {
  algorithm: 'scrypt';
  /** base64 */
  salt: string;
  /** base64 */
  hash: string;
  N: number;
  r: number;
  p: number;
}

/** scrypt's recommended interactive cost: about 32 MiB and a few tens of milliseconds per check. */
const COST = { N: 2 ** 15, r: 8, p: 1 } as const;
const HASH_BYTES = 32;

function derive(pin: string, salt: Buffer, cost: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { ...cost, maxmem: 256 * cost.N * cost.r };
  return new Promise((resolve, reject) =>
    scrypt(pin, salt, HASH_BYTES, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

export async function hashPin(pin: string): Promise<StoredPin> {
  const salt = randomBytes(16);
  const hash = await derive(pin, salt, COST);
  return { algorithm: 'scrypt', salt: salt.toString('base64'), hash: hash.toString('base64'), ...COST };
}

export async function pinMatches(pin: string, stored: StoredPin): Promise<boolean> {
  const expected = Buffer.from(stored.hash, 'base64');
  const actual = await derive(pin, Buffer.from(stored.salt, 'base64'), stored);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

export function isStoredPin(value: unknown): value is StoredPin {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  const positive = (n: unknown) => typeof n === 'number' && Number.isInteger(n) && n > 0 && n <= 2 ** 20;
  return (
    record.algorithm === 'scrypt' &&
    typeof record.salt === 'string' &&
    typeof record.hash === 'string' &&
    positive(record.N) &&
    positive(record.r) &&
    positive(record.p)
  );
}
