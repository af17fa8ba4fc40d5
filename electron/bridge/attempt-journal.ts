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
import { BridgeError, type BridgeHandlers } from './dispatch';

const journalEntrySchema = attemptSchema.extend({
  at: z.string().max(40),
  /** The record id of the screens' API key the request was sent with: its answers are kept under it. */
  apiKeyId: z.number().int().positive(),
});
type JournalEntry = z.infer<typeof journalEntrySchema>;

const journalFileSchema = z.object({ version: z.literal(1), attempts: z.array(journalEntrySchema) });

export type AttemptChannel =
  | 'attempts:begin'
  | 'attempts:resolve'
  | 'attempts:interrupted'
  | 'attempts:earlier-answer'
  | 'attempts:dismiss';

export interface AttemptJournalOptions {
  file: string;
  ledger: Pick<LedgerStore, 'findAnswer'>;
  /** The record id of the screens' API key of this run. */
  apiKeyId: () => number;
  /**
   * The record id of a key the screens were issued by an earlier run, by its public id; undefined
   * for any other key, whose answers are not the screens' to read.
   */
  earlierScreensKey: (publicId: string) => number | undefined;
  now?: () => number;
}

export class AttemptJournal {
  #entries: JournalEntry[];
  /** The keys of the attempts this run found unresolved: the earlier runs' lost answers. */
  readonly #interrupted: Set<string>;

  private readonly file: string;
  private readonly ledger: Pick<LedgerStore, 'findAnswer'>;
  private readonly apiKeyId: () => number;
  private readonly earlierScreensKey: (publicId: string) => number | undefined;
  private readonly now: () => number;

  constructor(options: AttemptJournalOptions) {
    this.file = options.file;
    this.ledger = options.ledger;
    this.apiKeyId = options.apiKeyId;
    this.earlierScreensKey = options.earlierScreensKey;
    this.now = options.now ?? Date.now;
    this.#entries = readJournal(this.file, this.now);
    this.#interrupted = new Set(this.#entries.map((entry) => entry.idempotencyKey));
  }

  begin(attempt: Attempt): void {
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
   * the engine restarted: sending it again under this run's key would do it twice.
   */
  async earlierAnswer(idempotencyKey: string, publicId: string): Promise<EarlierAnswer> {
    const recordId = this.earlierScreensKey(publicId);
    if (recordId === undefined || recordId === this.apiKeyId()) {
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
    writeFileAtomically(this.file, `${JSON.stringify({ version: 1, attempts: this.#entries })}\n`, 0o600);
  }
}

/** The journal as the last run left it; a damaged one is set aside (never deleted) and a new one begun. */
function readJournal(file: string, now: () => number): JournalEntry[] {
  if (!existsSync(file)) return [];
  try {
    return journalFileSchema.parse(JSON.parse(readFileSync(file, 'utf8'))).attempts;
  } catch {
    renameSync(file, `${file}.damaged-${now()}`);
    return [];
  }
}
