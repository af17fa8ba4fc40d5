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

export type PinCheck = { ok: true } | { ok: false; reason: 'wrong' | 'locked'; retryInSeconds?: number };

/** Wrong PINs allowed in a row before the gate closes for a while. */
export const PIN_ATTEMPTS = 5;
export const PIN_LOCK_MS = 60_000;

/** Counts wrong PINs and refuses every check for a minute after five in a row. */
export class PinGate {
  #failures = 0;
  #lockedUntil = 0;
  /** The check in progress: the next waits for it, so guesses sent at once cannot all pass the lock. */
  #previous: Promise<unknown> = Promise.resolve();

  constructor(private readonly now: () => number = Date.now) {}

  check(pin: string, stored: StoredPin): Promise<PinCheck> {
    return this.attempt(() => pinMatches(pin, stored));
  }

  /** Runs one guess (`matches` says whether it was right) through the gate. */
  attempt(matches: () => Promise<boolean>): Promise<PinCheck> {
    const result = this.#previous.then(() => this.#attemptAlone(matches));
    this.#previous = result.catch(() => undefined);
    return result;
  }

  async #attemptAlone(matches: () => Promise<boolean>): Promise<PinCheck> {
    const now = this.now();
    if (now < this.#lockedUntil) {
      return { ok: false, reason: 'locked', retryInSeconds: Math.ceil((this.#lockedUntil - now) / 1000) };
    }
    if (await matches()) {
      this.#failures = 0;
      return { ok: true };
    }
    this.#failures += 1;
    if (this.#failures >= PIN_ATTEMPTS) {
      this.#failures = 0;
      this.#lockedUntil = this.now() + PIN_LOCK_MS;
      return { ok: false, reason: 'locked', retryInSeconds: PIN_LOCK_MS / 1000 };
    }
    return { ok: false, reason: 'wrong' };
  }

  /** Wrong PINs left before the pause. */
  get attemptsLeft(): number {
    return PIN_ATTEMPTS - this.#failures;
  }
}
