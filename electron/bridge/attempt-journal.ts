/**
 * The attempt journal: every payment the screens send is written down here (its Idempotency-Key,
 * type, amount, the card as brand and last four, and the screens' API key it went with) before the
 * request leaves, and crossed out once its answer reached the screens. After a restart of the app or
 * the engine, what is left are the attempts whose answer was lost; the engine's stored answer under
 * each key says what became of it, or that it never reached the engine. No card data is ever kept.
 */
import { existsSync, readFileSync, renameSync } from 'node:fs';
import { z } from 'zod';
import { transactionResponseSchema } from '../../shared/api/schemas';
import {
  attemptSchema,
  type Attempt,
  type AttemptOutcome,
  type EarlierAnswer,
  type InterruptedAttempt,
} from '../../shared/ipc/attempts-contract';
import { writeFileAtomically } from '../gateway/atomic-file';
import type { LedgerStore } from '../gateway/store/ledger-store';
import { holdsCardNumber } from '../gateway/card-number-search';
import { BridgeError, type BridgeHandlers } from './dispatch';

/** Payments waiting for their answer, at most: the journal is written whole at every change. */
export const ATTEMPTS_KEPT = 200;
/** Keys of earlier runs whose answers Check again may still read (each run issues one). */
const SCREENS_KEYS_KEPT = 50;

const journalEntrySchema = attemptSchema.extend({
  at: z.string().max(40),
  /** The record id of the screens' API key the request was sent with: its answers are kept under it. */
  apiKeyId: z.number().int().positive(),
});
type JournalEntry = z.infer<typeof journalEntrySchema>;

const journalFileSchema = z.object({
  version: z.literal(1),
  // Read whole, however long an earlier version let it grow: none of its payments is dropped.
  attempts: z.array(journalEntrySchema),
  /** The record ids of the keys this host issued to its screens, the latest last. */
  screensKeys: z.array(z.number().int().positive()).optional(),
});
type JournalFile = z.infer<typeof journalFileSchema>;

export type AttemptChannel =
  | 'attempts:begin'
  | 'attempts:resolve'
  | 'attempts:interrupted'
  | 'attempts:earlier-answer'
  | 'attempts:dismiss';

export interface AttemptJournalOptions {
  file: string;
  ledger: Pick<LedgerStore, 'findAnswer'>;
  /** The record id of the key this host issued to its screens for this run; kept for later runs. */
  apiKeyId: () => number;
  /** The record id of the key with this public id, if there is one. */
  keyRecordId: (publicId: string) => number | undefined;
  now?: () => number;
}

export class AttemptJournal {
  #entries: JournalEntry[];
  /** The keys of the attempts this run found unresolved: the earlier runs' lost answers. */
  readonly #interrupted: Set<string>;
  /** The record ids of the keys this host issued to its screens, this run's last. */
  #screensKeys: number[];

  private readonly file: string;
  private readonly ledger: Pick<LedgerStore, 'findAnswer'>;
  private readonly apiKeyId: () => number;
  private readonly keyRecordId: (publicId: string) => number | undefined;
  private readonly now: () => number;

  constructor(options: AttemptJournalOptions) {
    this.file = options.file;
    this.ledger = options.ledger;
    this.apiKeyId = options.apiKeyId;
    this.keyRecordId = options.keyRecordId;
    this.now = options.now ?? Date.now;
    const kept = readJournal(this.file, this.now);
    this.#entries = kept.attempts;
    this.#interrupted = new Set(this.#entries.map((entry) => entry.idempotencyKey));
    // Every key an attempt went with was issued by this host; journals of earlier versions named no others.
    const issued = [...(kept.screensKeys ?? []), ...this.#entries.map((entry) => entry.apiKeyId)];
    this.#screensKeys = [
      ...new Set([...issued.filter((id) => id !== this.apiKeyId()), this.apiKeyId()]),
    ].slice(-SCREENS_KEYS_KEPT);
    this.#save();
  }

  begin(attempt: Attempt): void {
    // The engine refuses such a key too (money-moves.ts), but the journal is written before it is asked.
    if (holdsCardNumber(attempt.idempotencyKey)) {
      throw new BridgeError(
        'invalid-input',
        'The Idempotency-Key holds a card number, and card numbers are never kept. Make a new key.',
      );
    }
    const others = this.#entries.filter((entry) => entry.idempotencyKey !== attempt.idempotencyKey);
    if (others.length >= ATTEMPTS_KEPT) {
      throw new BridgeError(
        'refused',
        `${ATTEMPTS_KEPT} payments are already waiting for their answer. Check them (Check again) before taking more.`,
      );
    }
    this.#entries = [
      ...this.#entries.filter((entry) => entry.idempotencyKey !== attempt.idempotencyKey),
      { ...attempt, at: new Date(this.now()).toISOString(), apiKeyId: this.apiKeyId() },
    ];
    this.#save();
  }

  resolve(idempotencyKey: string): void {
    this.#drop([idempotencyKey]);
  }

  /** The attempts earlier runs left unresolved, each with what the engine did with it. */
  async interrupted(): Promise<InterruptedAttempt[]> {
    const left = this.#entries.filter((entry) => this.#interrupted.has(entry.idempotencyKey));
    return Promise.all(
      left.map(async ({ apiKeyId, ...attempt }) => ({
        ...attempt,
        outcome: await this.#outcomeOf(apiKeyId, attempt.idempotencyKey),
      })),
    );
  }

  /**
   * The answer to a request the screens sent with the key of an earlier run, for Check again after
   * the engine restarted: sending it again under this run's key would do it twice. Only for a key
   * this host issued to its screens, by its record id: any other key's answers, whatever it is named,
   * are not the screens' to read.
   */
  async earlierAnswer(idempotencyKey: string, publicId: string): Promise<EarlierAnswer> {
    const recordId = this.keyRecordId(publicId);
    if (recordId === undefined || recordId === this.apiKeyId() || !this.#screensKeys.includes(recordId)) {
      throw new BridgeError('refused', 'That is not a key an earlier run of these screens was issued.');
    }
    const stored = await this.ledger.findAnswer(recordId, idempotencyKey);
    if (!stored) return { state: 'never-reached' };
    return { state: 'answered', response: transactionResponseSchema.parse(JSON.parse(stored.response)) };
  }

  dismiss(idempotencyKeys: readonly string[]): void {
    for (const key of idempotencyKeys) this.#interrupted.delete(key);
    this.#drop(idempotencyKeys);
  }

  handlers(): Pick<BridgeHandlers, AttemptChannel> {
    return {
      'attempts:begin': (input) => {
        this.begin(input);
        return null;
      },
      'attempts:resolve': (input) => {
        this.resolve(input.idempotencyKey);
        return null;
      },
      'attempts:interrupted': () => this.interrupted(),
      'attempts:earlier-answer': (input) => this.earlierAnswer(input.idempotencyKey, input.keyId),
      'attempts:dismiss': (input) => {
        this.dismiss(input.idempotencyKeys);
        return null;
      },
    };
  }

  async #outcomeOf(apiKeyId: number, idempotencyKey: string): Promise<AttemptOutcome> {
    const stored = await this.ledger.findAnswer(apiKeyId, idempotencyKey);
    if (!stored) return { state: 'never-reached' };
    const answer = transactionResponseSchema.parse(JSON.parse(stored.response));
    return {
      state: 'answered',
      result: answer.result,
      ...(answer.id !== undefined && { id: answer.id }),
      message: answer.display_message.slice(0, 500),
    };
  }

  #drop(keys: readonly string[]): void {
    const before = this.#entries.length;
    this.#entries = this.#entries.filter((entry) => !keys.includes(entry.idempotencyKey));
    if (this.#entries.length !== before) this.#save();
  }

  #save(): void {
    const kept: JournalFile = { version: 1, attempts: this.#entries, screensKeys: this.#screensKeys };
    writeFileAtomically(this.file, `${JSON.stringify(kept)}\n`, 0o600);
  }
}

/** The journal as the last run left it; a damaged one is set aside (never deleted) and a new one begun. */
function readJournal(file: string, now: () => number): JournalFile {
  if (!existsSync(file)) return { version: 1, attempts: [] };
  try {
    return journalFileSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  } catch {
    renameSync(file, `${file}.damaged-${now()}`);
    return { version: 1, attempts: [] };
  }
}
