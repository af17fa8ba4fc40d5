/**
 * The data dir's secret for keyed hashes of card numbers. A plain hash of a card number protects
 * nothing: the numbers that fit a transaction's last four, length and brand and pass the Luhn check
 * are few enough to hash them all. Keyed with a secret kept beside the ledger, never inside it, never
 * shown and never exported, a hash found in the ledger or a backup of it cannot be tried against card
 * numbers without the secret too (docs/operations.md).
 */
import { createHmac, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { writeFileAtomically } from '../atomic-file';

const KEY_BYTES = 32;

export class CardHashKeyError extends Error {}

/** The keyed hash of a card number the ledger keeps to know the card again (the duplicate check). */
export function cardNumberHash(pan: string, key: Buffer): string {
  return createHmac('sha256', key).update(`card:${pan}`).digest('hex');
}

/** Reads the data dir's key, making one on first use. */
export function loadCardHashKey(file: string): Buffer {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    const key = randomBytes(KEY_BYTES);
    writeFileAtomically(file, `${key.toString('hex')}\n`, 0o600);
    return key;
  }
  const hex = text.trim();
  if (!new RegExp(`^[0-9a-f]{${KEY_BYTES * 2}}$`).test(hex)) {
    throw new CardHashKeyError(
      `${file} is damaged. Restore it from the copy kept with this data dir's backups; deleting it ` +
        'makes a new key, and Idempotency-Keys already answered can then no longer be replayed.',
    );
  }
  return Buffer.from(hex, 'hex');
}
