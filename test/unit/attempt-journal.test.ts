import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { attemptSchema } from '../../shared/ipc/attempts-contract';
import { AttemptJournal, ATTEMPTS_KEPT } from '../../electron/bridge/attempt-journal';
import type { StoredAnswer } from '../../electron/gateway/store/ledger-store';

let dir: string;
let file: string;
/** The engine's stored answers, by API key and Idempotency-Key. */
let answers: Map<string, StoredAnswer>;
const ledger = {
  findAnswer: async (apiKeyId: number, key: string) => answers.get(`${apiKeyId} ${key}`),
};

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tender-journal-'));
  file = join(dir, 'unanswered-payments.json');
  answers = new Map();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Keys by public id: 7 and 8 were issued to the screens by runs of this host, 9 named like them by a manager. */
const KEYS = new Map([
  ['aaaaaaaaaaaaaaa7', 7],
  ['aaaaaaaaaaaaaaa8', 8],
  ['aaaaaaaaaaaaaaa9', 9],
]);

function openJournal(apiKeyId: number, now?: () => number): AttemptJournal {
  return new AttemptJournal({
    file,
    ledger,
    apiKeyId: () => apiKeyId,
    keyRecordId: (publicId) => KEYS.get(publicId),
    ...(now && { now }),
  });
}

const sale = (key: string, amount = '25.00') => ({
  idempotencyKey: key,
  type: 'SALE' as const,
  amount,
  card: 'Visa •••• 1111',
});

describe('the attempt journal', () => {
  it('keeps an attempt until its answer is known, in a 0600 file that survives a restart', () => {
    const journal = openJournal(7);
    journal.begin(sale('k1'));
    journal.begin(sale('k2'));
    journal.resolve('k1');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const kept = JSON.parse(readFileSync(file, 'utf8')) as { attempts: { idempotencyKey: string }[] };
    expect(kept.attempts.map((attempt) => attempt.idempotencyKey)).toEqual(['k2']);
  });

  it('after a restart lists what the last run left, with the engine’s answer or that none came', async () => {
    const before = openJournal(7, () => Date.parse('2026-11-24T12:03:00Z'));
    before.begin(sale('answered'));
    before.begin({ idempotencyKey: 'lost', type: 'VOID', card: 'Transaction #41' });
    answers.set('7 answered', {
      fingerprint: 'f',
      response: JSON.stringify({ id: '42', result: 'Approved', display_message: 'Approved' }),
    });

    // The next run has a new screens' key: the old one's answers are still found under the old id.
    const after = openJournal(8);
    expect(await after.interrupted()).toEqual([
      {
        ...sale('answered'),
        at: '2026-11-24T12:03:00.000Z',
        outcome: { state: 'answered', result: 'Approved', id: '42', message: 'Approved' },
      },
      {
        idempotencyKey: 'lost',
        type: 'VOID',
        card: 'Transaction #41',
        at: '2026-11-24T12:03:00.000Z',
        outcome: { state: 'never-reached' },
      },
    ]);
    // This run's own attempts are not "interrupted": their answers may still be on their way.
    after.begin(sale('new'));
    expect((await after.interrupted()).map((attempt) => attempt.idempotencyKey)).toEqual([
      'answered',
      'lost',
    ]);
    after.dismiss(['answered', 'lost']);
    expect(await after.interrupted()).toEqual([]);
    expect(await openJournal(9).interrupted()).toEqual([
      expect.objectContaining({ idempotencyKey: 'new', outcome: { state: 'never-reached' } }),
    ]);
  });

  it('gives Check again after a restart the answer kept under the key the request went with', async () => {
    const response = {
      id: '42',
      result: 'Approved',
      display_message: 'Approved',
      authorization_code: 'A1B2C3',
    };
    answers.set('7 sent-before', { fingerprint: 'f', response: JSON.stringify(response) });
    answers.set('9 sent-before', { fingerprint: 'f', response: JSON.stringify(response) });
    openJournal(7);
    const journal = openJournal(8);
    expect(await journal.earlierAnswer('sent-before', 'aaaaaaaaaaaaaaa7')).toEqual({
      state: 'answered',
      response,
    });
    expect(await journal.earlierAnswer('never-sent', 'aaaaaaaaaaaaaaa7')).toEqual({ state: 'never-reached' });
    // Only the keys earlier runs of this host issued, by id: not this run's, not an unknown one, and
    // not a key a manager created under the screens' own name (9).
    await expect(journal.earlierAnswer('sent-before', 'aaaaaaaaaaaaaaa8')).rejects.toThrow(/not a key/);
    await expect(journal.earlierAnswer('sent-before', 'bbbbbbbbbbbbbbbb')).rejects.toThrow(/not a key/);
    await expect(journal.earlierAnswer('sent-before', 'aaaaaaaaaaaaaaa9')).rejects.toThrow(/not a key/);
  });

  it('takes no more than its cap of payments waiting for an answer', () => {
    const journal = openJournal(7);
    for (let index = 0; index < ATTEMPTS_KEPT; index += 1) journal.begin(sale(`k${index}`));
    expect(() => journal.begin(sale('one-more'))).toThrow(/already waiting/);
    // The same payment again replaces its entry, and one resolved makes room.
    journal.begin(sale('k0', '26.00'));
    journal.resolve('k1');
    journal.begin(sale('one-more'));
    expect(JSON.parse(readFileSync(file, 'utf8')).attempts).toHaveLength(ATTEMPTS_KEPT);
  });

  it('sets a damaged journal aside and starts a new one', async () => {
    writeFileSync(file, '{"version":1,"attempts":[{"idem');
    const journal = openJournal(1, () => 1234);
    expect(await journal.interrupted()).toEqual([]);
    expect(readdirSync(dir)).toContain('unanswered-payments.json.damaged-1234');
    journal.begin(sale('k'));
    expect(readFileSync(file, 'utf8')).toContain('"k"');
  });

  it('refuses card data: a card number in the card text, or a malformed key', () => {
    expect(attemptSchema.safeParse({ ...sale('k'), card: '4111 1111 1111 1111' }).success).toBe(false);
    expect(attemptSchema.safeParse({ ...sale('k'), card: 'Visa 4111111111111111' }).success).toBe(false);
    for (const written of ['4111.1111.1111.1111', '4111/1111/1111/1111', '４１１１１１１１１１１１１１１１'])
      expect(attemptSchema.safeParse({ ...sale('k'), card: written }).success).toBe(false);
    expect(attemptSchema.safeParse({ ...sale('k'), card: 'Transaction #123456789' }).success).toBe(true);
    expect(attemptSchema.safeParse({ ...sale('with space'), card: 'Visa' }).success).toBe(false);
    expect(attemptSchema.safeParse({ ...sale('k'), encrypted_track_data: 'x' }).success).toBe(false);
  });

  it('refuses a key that holds a card number, and writes nothing', () => {
    const journal = openJournal(7);
    journal.begin(sale('k1'));
    for (const key of ['4111111111111111', 'sale-4111-1111-1111-1111', 'x5555555555554444y']) {
      expect(() => journal.begin(sale(key))).toThrow(/card number/);
    }
    const written = readFileSync(file, 'utf8');
    expect(written).toContain('k1');
    expect(written).not.toMatch(/4111|5555555555554444/);
  });
});
