/**
 * The token a browser page presents on the bridge socket. It is kept in the data dir, readable by
 * the counter's user only, so a page left open across a restart of the engine reconnects by itself
 * and keeps the counter's work. Deleting the file while Tender is stopped makes a new token: pages
 * opened with the old one then say they are out of date.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { writeFileAtomically } from '../gateway/atomic-file';

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** The data dir's bridge token, made on first use; a damaged file is replaced by a new token. */
export function loadBridgeToken(file: string): string {
  try {
    const kept = readFileSync(file, 'utf8').trim();
    if (TOKEN_PATTERN.test(kept)) return kept;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const token = randomBytes(32).toString('base64url');
  writeFileAtomically(file, `${token}\n`, 0o600);
  return token;
}
