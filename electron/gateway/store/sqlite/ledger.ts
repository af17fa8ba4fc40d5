/**
 * The ledger in a SQLite file: the store port (ledger-store.ts) for a single counter. Transactions and
 * settlement batches, idempotency answers, swipe KSNs and the audit entries of a write, committed
 * together by group commit. Rules about what may happen live in ../domain. The lists are read
 * elsewhere, on the reader threads (ledger-reads.ts, with the SQL of list-sql.ts).
 */
import type { BatchDelta } from '../../domain/batch';
import type { AuditLog } from './audit-log';
import { toBatch, type BatchRecord, type BatchRowShape } from '../batch-rows';
import type { Connection } from './database';
import { GroupCommit } from './group-commit';
import type { LedgerStore, LedgerWrite, SameCardCharge, StoredAnswer } from '../ledger-store';
import { OPEN_BATCH_SQL } from '../sql/list-sql';
import {
  INSERT_TRANSACTION_SQL,
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

  constructor(
    db: Connection,
    private readonly audit: AuditLog,
  ) {
    this.commits = new GroupCommit(db);
    this.statements = {
      find: db.prepare<[number], TransactionRowShape>('SELECT * FROM transactions WHERE id = ?'),
      nextId: db.prepare<[], { next: number }>('SELECT COALESCE(MAX(id), 0) + 1 AS next FROM transactions'),
      insert: db.prepare(INSERT_TRANSACTION_SQL),
      findAnswer: db.prepare<[number, string], { fingerprint: string; response: string }>(
        'SELECT fingerprint, response FROM idempotency_keys WHERE api_key_id = ? AND key = ?',
      ),
      rememberAnswer: db.prepare<[number, string, string, string, number]>(
        'INSERT INTO idempotency_keys (api_key_id, key, fingerprint, response, created_at) VALUES (?, ?, ?, ?, ?)',
      ),
      forgetAnswers: db.prepare<[number]>('DELETE FROM idempotency_keys WHERE created_at < ?'),
      swipeSeen: db.prepare<[string], { id: number }>('SELECT id FROM transactions WHERE swipe_ksn = ?'),
      sameCardCharge: db.prepare<[string, number, number], TransactionRowShape>(`
        SELECT * FROM transactions INDEXED BY transactions_by_card_hash
        WHERE card_hash = ? AND amount = ? AND created_at >= ?
          AND type IN ('Sale', 'Auth', 'Forced Sale') AND result = 'Approved' AND voided_by IS NULL
        ORDER BY created_at DESC, id DESC LIMIT 1`),
      markVoided: db.prepare('UPDATE transactions SET voided_by = ? WHERE id = ? AND voided_by IS NULL'),
      markCaptured: db.prepare(
        'UPDATE transactions SET captured_by = ? WHERE id = ? AND captured_by IS NULL',
      ),
      addRefunded: db.prepare('UPDATE transactions SET refunded_amount = refunded_amount + ? WHERE id = ?'),
      openBatch: db.prepare<[], BatchRowShape>(OPEN_BATCH_SQL),
      findBatch: db.prepare<[number], BatchRowShape>('SELECT * FROM batches WHERE id = ?'),
      createBatch: db.prepare<[number], BatchRowShape>(
        "INSERT INTO batches (status, opened_at) VALUES ('OPEN', ?) RETURNING *",
      ),
      applyDelta: db.prepare(`
        UPDATE batches SET
          sales_count = sales_count + @salesCount, sales_total = sales_total + @salesTotal,
          refund_count = refund_count + @refundCount, refund_total = refund_total + @refundTotal,
          tip_total = tip_total + @tipTotal
        WHERE id = @batchId AND status = 'OPEN'`),
      reopenCapture: db.prepare(
        'UPDATE transactions SET captured_by = NULL WHERE id = ? AND captured_by = ?',
      ),
      closeBatch: db.prepare<[number, string, number], BatchRowShape>(
        "UPDATE batches SET status = 'CLOSED', settled_at = ?, confirmation_code = ? WHERE id = ? RETURNING *",
      ),
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
      find: async (id) => this.findNow(id),
      findBatch: async (id) => this.findBatchNow(id),
      isSwipeKsnUsed: async (ksn) => sql.swipeSeen.get(ksn) !== undefined,
      findSameCardCharge: async (charge) => this.sameCardChargeNow(charge),
      nextTransactionId: async () => sql.nextId.get()?.next ?? 1,
      insert: async (transaction: NewTransaction & { id: number }) => {
        sql.insert.run(insertParams(transaction));
      },
      markVoided: async (id, voidId) =>
        changedOne(sql.markVoided.run(voidId, id).changes, `transaction ${id} was voided already`),
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
        changedOne(sql.applyDelta.run({ batchId, ...delta }).changes, `batch ${batchId} is not open`),
      closeBatch: async (batchId, settledAt, confirmationCode) =>
        toBatch(sql.closeBatch.get(settledAt, confirmationCode, batchId) as BatchRowShape),
      rememberAnswer: async (apiKeyId, key, answer, at) => {
        sql.rememberAnswer.run(apiKeyId, key, answer.fingerprint, answer.response, at);
      },
      forgetAnswers: async (before) => {
        sql.forgetAnswers.run(before);
      },
      appendAudit: async (entry) => this.audit.append(entry),
    };
  }
}
