/**
 * The ledger in a SQLite file: the store port (ledger-store.ts) for a single counter. Transactions and
 * settlement batches, idempotency answers, swipe KSNs and the audit entries of a write, committed
 * together by group commit. Rules about what may happen live in ../domain. The lists are read
 * elsewhere, on the reader threads (ledger-reads.ts, with the SQL of list-sql.ts).
 */
import type { BatchDelta } from '../../domain/batch';
import type { AuditLog } from './audit-log';
import { toBatch, upstreamColumns, type BatchRecord, type BatchRowShape } from '../batch-rows';
import type { Connection } from './database';
import { KeyedQueue } from '../../keyed-queue';
import { SqliteForwardQueue } from './forward-queue';
import { GroupCommit } from './group-commit';
import type { LedgerStore, LedgerWrite, SameCardCharge, StoredAnswer } from '../ledger-store';
import { SQLITE_DIALECT } from '../sql/dialect';
import { deltaValues, ledgerStatements } from '../sql/ledger-sql';
import { AnswerStoredMeanwhileError, KeyRevokedError } from '../store-errors';
import {
  insertParams,
  toTransaction,
  type LedgerTransaction,
  type NewTransaction,
  type TransactionRowShape,
} from '../transaction-rows';

export class SqliteLedger implements LedgerStore {
  private readonly statements;
  readonly commits: GroupCommit;

  /** The ledger inside the group's transaction; its methods are valid only while a write runs. */
  private readonly inWrite: LedgerWrite;

  /** The store-and-forward queue, in the same file. */
  readonly forwards: SqliteForwardQueue;
  /** One engine writes a data dir's file: its requests for one original or key take turns in its memory. */
  private readonly holds = new KeyedQueue();

  constructor(
    db: Connection,
    private readonly audit: AuditLog,
  ) {
    this.commits = new GroupCommit(db);
    this.forwards = new SqliteForwardQueue(db);
    const sql = ledgerStatements(SQLITE_DIALECT);
    this.statements = {
      find: db.prepare<[number], TransactionRowShape>(sql.find),
      nextId: db.prepare<[], { next: number }>('SELECT COALESCE(MAX(id), 0) + 1 AS next FROM transactions'),
      liveKey: db.prepare<[number], { id: number }>(sql.liveKey),
      insert: db.prepare(sql.insert),
      findAnswer: db.prepare<[number, string], StoredAnswer>(sql.findAnswer),
      rememberAnswer: db.prepare<[number, string, string, string, number]>(sql.rememberAnswer),
      forgetAnswers: db.prepare<[number]>(sql.forgetAnswers),
      swipeSeen: db.prepare<[string], { id: number }>(sql.swipeSeen),
      sameCardCharge: db.prepare<[string, number, number], TransactionRowShape>(sql.sameCardCharge),
      markVoided: db.prepare<[number, number], { lane: string }>(sql.markVoided),
      markCaptured: db.prepare<[number, number]>(sql.markCaptured),
      addRefunded: db.prepare<[number, number]>(sql.addRefunded),
      openBatch: db.prepare<[], BatchRowShape>(sql.openBatch),
      findBatch: db.prepare<[number], BatchRowShape>(sql.findBatch),
      createBatch: db.prepare<[number], BatchRowShape>(sql.createBatch),
      applyDelta: db.prepare<number[]>(sql.applyDelta),
      reopenCapture: db.prepare<[number, number]>(sql.reopenCapture),
      closeBatch: db.prepare<
        [number, string, string | null, string | null, number | null, number],
        BatchRowShape
      >(sql.closeBatch),
    };
    this.inWrite = this.writeSide();
  }

  /**
   * Runs `work` in a BEGIN IMMEDIATE transaction shared with the writes that arrive at the same time
   * (group commit), in its own savepoint. Settles once the commit is on disk.
   */
  write<T>(work: (ledger: LedgerWrite) => Promise<T>): Promise<T> {
    return this.commits.run(() => work(this.inWrite));
  }

  holdOriginal<T>(originalId: number, work: () => Promise<T>): Promise<T> {
    return this.holds.run(`original ${originalId}`, work);
  }

  holdAnswer<T>(apiKeyId: number, key: string, work: () => Promise<T>): Promise<T> {
    return this.holds.run(`answer ${apiKeyId}\u0000${key}`, work);
  }

  holdClose<T>(work: () => Promise<T>): Promise<T> {
    return this.holds.run('close', work);
  }

  /** A ledger file serves one counter, whose own close keeps its requests apart (CloseGate). */
  shareClose<T>(work: () => Promise<T>): Promise<T> {
    return work();
  }

  async find(id: number): Promise<LedgerTransaction | undefined> {
    await this.commits.idle();
    return this.findNow(id);
  }

  async findBatch(id: number): Promise<BatchRecord | undefined> {
    await this.commits.idle();
    return this.findBatchNow(id);
  }

  async isSwipeKsnUsed(ksn: string): Promise<boolean> {
    await this.commits.idle();
    return this.statements.swipeSeen.get(ksn) !== undefined;
  }

  async findSameCardCharge(charge: SameCardCharge): Promise<LedgerTransaction | undefined> {
    await this.commits.idle();
    return this.sameCardChargeNow(charge);
  }

  async findAnswer(apiKeyId: number, key: string): Promise<StoredAnswer | undefined> {
    await this.commits.idle();
    return this.statements.findAnswer.get(apiKeyId, key);
  }

  private findNow(id: number): LedgerTransaction | undefined {
    const row = this.statements.find.get(id);
    return row && toTransaction(row);
  }

  private sameCardChargeNow({ cardHash, amount, since }: SameCardCharge): LedgerTransaction | undefined {
    const row = this.statements.sameCardCharge.get(cardHash, amount, since);
    return row && toTransaction(row);
  }

  private findBatchNow(id: number): BatchRecord | undefined {
    const row = this.statements.findBatch.get(id);
    return row && toBatch(row);
  }

  private openBatchNow(): BatchRecord | undefined {
    const row = this.statements.openBatch.get();
    return row && toBatch(row);
  }

  /** The write side, statement by statement: each runs at once, inside the group's transaction. */
  private writeSide(): LedgerWrite {
    const sql = this.statements;
    const changedOne = (changes: number, failure: string) => {
      if (changes !== 1) throw new Error(failure);
    };
    return {
      forwards: this.forwards.inWrite,
      find: async (id) => this.findNow(id),
      findBatch: async (id) => this.findBatchNow(id),
      isSwipeKsnUsed: async (ksn) => sql.swipeSeen.get(ksn) !== undefined,
      findSameCardCharge: async (charge) => this.sameCardChargeNow(charge),
      nextTransactionId: async () => sql.nextId.get()?.next ?? 1,
      insert: async (transaction: NewTransaction & { id: number }) => {
        sql.insert.run(insertParams(transaction));
      },
      markVoided: async (id, voidId) => {
        if (sql.markVoided.get(voidId, id) === undefined)
          throw new Error(`transaction ${id} was voided already`);
      },
      markCaptured: async (id, captureId) =>
        changedOne(sql.markCaptured.run(captureId, id).changes, `authorization ${id} was captured already`),
      reopenCapture: async (id, captureId) =>
        changedOne(
          sql.reopenCapture.run(id, captureId).changes,
          `authorization ${id} is not captured by ${captureId}`,
        ),
      addRefunded: async (id, cents) => {
        sql.addRefunded.run(cents, id);
      },
      openBatch: async () => this.openBatchNow(),
      openBatchForWrite: async (now) =>
        this.openBatchNow() ?? toBatch(sql.createBatch.get(now) as BatchRowShape),
      applyBatchDelta: async (batchId: number, delta: BatchDelta) =>
        changedOne(
          sql.applyDelta.run(...deltaValues(delta), batchId).changes,
          `batch ${batchId} is not open`,
        ),
      closeBatch: async (batchId, settledAt, confirmationCode, upstream) =>
        toBatch(
          sql.closeBatch.get(
            settledAt,
            confirmationCode,
            ...upstreamColumns(upstream ?? null),
            batchId,
          ) as BatchRowShape,
        ),
      rememberAnswer: async (apiKeyId, key, answer, at) => {
        try {
          sql.rememberAnswer.run(apiKeyId, key, answer.fingerprint, answer.response, at);
        } catch (error) {
          // One engine writes a data dir's file, and it answers a key once at a time; kept all the same.
          if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY')
            throw new AnswerStoredMeanwhileError();
          throw error;
        }
      },
      forgetAnswers: async (before) => {
        sql.forgetAnswers.run(before);
      },
      appendAudit: async (entry) => this.audit.append(entry),
      requireLiveKey: async (apiKeyId) => {
        if (sql.liveKey.get(apiKeyId) === undefined) throw new KeyRevokedError();
      },
    };
  }
}
