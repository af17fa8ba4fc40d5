/**
 * The ledger as the write path sees it: the port the operations, the idempotency wrapper and the batch
 * close call. A SQLite file in the data dir satisfies it for one counter (ledger.ts); a store server
 * can satisfy it for several, without the operations knowing which one they write to.
 *
 * Everything is asynchronous, and every change happens inside `write`: one transaction that commits
 * durably, whole, or not at all.
 */
import type { BatchDelta } from '../domain/batch';
import type { AuditEntry } from './audit';
import type { BatchRecord, UpstreamBatch } from './batch-rows';
import type { ForwardQueueReads, ForwardQueueWrite } from './forward-queue';
import type { LedgerTransaction, NewTransaction } from './transaction-rows';

/** The answer kept under an Idempotency-Key, with the fingerprint of the request it answered. */
export interface StoredAnswer {
  fingerprint: string;
  /** The answer as JSON. */
  response: string;
}

/** A charge the duplicate check compares a new one with. */
export interface SameCardCharge {
  cardHash: string;
  /** Cents, tip included. */
  amount: number;
  /** Epoch ms: only charges made at or after it count. */
  since: number;
}

/** What can be read of the ledger outside a write: committed data only. */
export interface LedgerLookups {
  find(id: number): Promise<LedgerTransaction | undefined>;
  findBatch(id: number): Promise<BatchRecord | undefined>;
  /** True when a transaction already carried a swipe with this KSN. */
  isSwipeKsnUsed(ksn: string): Promise<boolean>;
  /**
   * The latest approved, unvoided SALE, AUTH or FORCED SALE on the same card (by its keyed hash) for
   * the same amount since a time: what a new charge would duplicate.
   */
  findSameCardCharge(charge: SameCardCharge): Promise<LedgerTransaction | undefined>;
}

export interface LedgerStore extends LedgerLookups {
  /**
   * Runs `work` holding the transaction `originalId` for this request, apart from any write: another
   * request that holds the same original waits until `work` settles; nothing else waits. A follow-up
   * holds its original from its first check, across the processor's answer, to its write, so that
   * two requests for one original never ask the processor at the same time. The write still checks
   * the original under its own lock: the hold adds an order, and the ledger's rules do not depend on
   * it (a store server that drops the connection holding it lets the next request go on).
   */
  holdOriginal<T>(originalId: number, work: () => Promise<T>): Promise<T>;
  /**
   * Runs `work` as one transaction and settles once its commit is durable: everything it wrote is
   * kept, or, when it throws, nothing. Reads inside it see the writes committed before it and its
   * own, and no write of another request can come between them, so a rule checked inside holds at
   * commit. `work` must await nothing but the methods of the `LedgerWrite` it is given: a store may
   * run it again from the start when the transaction has to be retried.
   */
  write<T>(work: (ledger: LedgerWrite) => Promise<T>): Promise<T>;
  /** The answer stored under an Idempotency-Key of this API key. */
  findAnswer(apiKeyId: number, key: string): Promise<StoredAnswer | undefined>;
  /** The store-and-forward queue and the lookups still to make, read outside any write. */
  readonly forwards: ForwardQueueReads;
  /**
   * Runs `work` holding an Idempotency-Key of one API key, as `holdOriginal` holds an original, but
   * without waiting: when another counter of the store is still answering the same key, it fails at
   * once with an AnswerHeldElsewhereError (a retry made too soon, as at the same counter).
   */
  holdAnswer<T>(apiKeyId: number, key: string, work: () => Promise<T>): Promise<T>;
  /**
   * Runs `work` holding the close of the open batch with the merchant's gateway, as `holdOriginal`
   * holds an original: a close at another counter of the store waits until `work` settles, so the
   * gateway is asked to close its batch once for one close. No write waits for it. The close also
   * waits for every request that holds it shared (`shareClose`), and holds back those that come.
   */
  holdClose<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Runs `work`, a request that may go to the merchant's gateway, holding the close shared: any
   * number of requests of every counter hold it at once; a close with the gateway at any counter of
   * the store waits until they settle, and a request that comes while one is waiting or under way
   * waits for it to end. So a transaction is at the gateway and in the ledger in the same batch.
   */
  shareClose<T>(work: () => Promise<T>): Promise<T>;
}

/** The ledger inside one write transaction. */
export interface LedgerWrite extends LedgerLookups {
  /** The store-and-forward queue and the lookups still to make, written with the rest of the write. */
  readonly forwards: ForwardQueueWrite;
  /**
   * The id the next insert will get. Every insert takes it, so ids run without a gap, which deep
   * pages of the list rely on.
   */
  nextTransactionId(): Promise<number>;
  insert(transaction: NewTransaction & { id: number }): Promise<void>;
  /** Sets who voided a transaction; fails when it was voided already. */
  markVoided(id: number, voidId: number): Promise<void>;
  /** Sets which capture finished an authorization; fails when one already has. */
  markCaptured(id: number, captureId: number): Promise<void>;
  /** Clears the capture of an authorization whose capture was voided: it can be captured again. */
  reopenCapture(id: number, captureId: number): Promise<void>;
  addRefunded(id: number, cents: number): Promise<void>;

  openBatch(): Promise<BatchRecord | undefined>;
  /** The open batch, opened now if there is none (the first transaction of a batch opens it). */
  openBatchForWrite(now: number): Promise<BatchRecord>;
  /** Adds to the counters of an open batch; fails when the batch is not open. */
  applyBatchDelta(batchId: number, delta: BatchDelta): Promise<void>;
  /** Closes a batch; with `upstream`, as closed at the merchant's gateway too, with its figures there. */
  closeBatch(
    batchId: number,
    settledAt: number,
    confirmationCode: string,
    upstream?: UpstreamBatch,
  ): Promise<BatchRecord>;

  /** Keeps an answer under its Idempotency-Key, in the commit that made it. */
  rememberAnswer(apiKeyId: number, key: string, answer: StoredAnswer, at: number): Promise<void>;
  /** Drops the answers stored before `before` (epoch ms). */
  forgetAnswers(before: number): Promise<void>;

  /** Adds an entry to the audit log, kept or dropped with the rest of the write. */
  appendAudit(entry: Omit<AuditEntry, 'id'>): Promise<void>;

  /**
   * Fails the write with KeyRevokedError unless the key is live in the store as the write sees it:
   * the engine authenticated the request from its copy of the keys, which may be a moment behind.
   */
  requireLiveKey(apiKeyId: number): Promise<void>;
}
