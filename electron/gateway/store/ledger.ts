/**
 * The ledger's writes and the reads a write's rules need: transactions and settlement batches,
 * idempotency answers, swipe KSNs, inside the write transactions the engine opens. Rules about what
 * may happen live in ../domain. The lists are read elsewhere, on the reader threads (ledger-reads.ts,
 * with the SQL of list-sql.ts).
 */
import type { BatchDelta } from '../domain/batch';
import { toBatch, type BatchRecord, type BatchRowShape } from './batch-rows';
import type { Connection } from './database';
import { GroupCommit } from './group-commit';
import { OPEN_BATCH_SQL } from './list-sql';
import {
  INSERT_TRANSACTION_SQL,
  insertParams,
  toTransaction,
  type LedgerTransaction,
  type NewTransaction,
  type TransactionRowShape,
} from './transaction-rows';

export class Ledger {
  private readonly statements;
  readonly commits: GroupCommit;

  constructor(private readonly db: Connection) {
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
      closeBatch: db.prepare<[number, string, number], BatchRowShape>(
        "UPDATE batches SET status = 'CLOSED', settled_at = ?, confirmation_code = ? WHERE id = ? RETURNING *",
      ),
    };
  }

  /**
   * Runs `work` atomically in a BEGIN IMMEDIATE transaction, shared with the writes that arrive at
   * the same time (group commit). The promise settles once the commit is on disk: all of `work`
   * committed, or, if it threw, none of it.
   */
  write<T>(work: () => T): Promise<T> {
    return this.commits.run(work);
  }

  find(id: number): LedgerTransaction | undefined {
    const row = this.statements.find.get(id);
    return row && toTransaction(row);
  }

  /**
   * The id the next insert will get; valid inside the write transaction that asked. Every insert
   * takes it, so ids run without a gap, which deep pages of the list rely on (LedgerIds).
   */
  nextTransactionId(): number {
    return this.statements.nextId.get()?.next ?? 1;
  }

  insert(transaction: NewTransaction & { id: number }): void {
    this.statements.insert.run(insertParams(transaction));
  }

  /** The answer stored under an idempotency key, with the fingerprint of the request it answered. */
  findAnswer(apiKeyId: number, key: string): { fingerprint: string; response: string } | undefined {
    return this.statements.findAnswer.get(apiKeyId, key);
  }

  /** Stores an answer under its idempotency key; call it inside the write that made the answer. */
  rememberAnswer(apiKeyId: number, key: string, fingerprint: string, response: string, at: number): void {
    this.statements.rememberAnswer.run(apiKeyId, key, fingerprint, response, at);
  }

  /** Drops the answers stored before `before` (epoch ms). */
  forgetAnswers(before: number): void {
    this.statements.forgetAnswers.run(before);
  }

  /** True when a transaction already carried a swipe with this KSN. */
  isSwipeKsnUsed(ksn: string): boolean {
    return this.statements.swipeSeen.get(ksn) !== undefined;
  }

  markVoided(id: number, voidId: number): void {
    if (this.statements.markVoided.run(voidId, id).changes !== 1)
      throw new Error(`transaction ${id} was voided already`);
  }

  markCaptured(id: number, captureId: number): void {
    if (this.statements.markCaptured.run(captureId, id).changes !== 1)
      throw new Error(`authorization ${id} was captured already`);
  }

  addRefunded(id: number, cents: number): void {
    this.statements.addRefunded.run(cents, id);
  }

  openBatch(): BatchRecord | undefined {
    const row = this.statements.openBatch.get();
    return row && toBatch(row);
  }

  findBatch(id: number): BatchRecord | undefined {
    const row = this.statements.findBatch.get(id);
    return row && toBatch(row);
  }

  /** The open batch, opened now if there is none (the first transaction of a batch opens it). */
  openBatchForWrite(now: number): BatchRecord {
    return this.openBatch() ?? toBatch(this.statements.createBatch.get(now) as BatchRowShape);
  }

  applyBatchDelta(batchId: number, delta: BatchDelta): void {
    if (this.statements.applyDelta.run({ batchId, ...delta }).changes !== 1)
      throw new Error(`batch ${batchId} is not open`);
  }

  closeBatch(batchId: number, settledAt: number, confirmationCode: string): BatchRecord {
    return toBatch(this.statements.closeBatch.get(settledAt, confirmationCode, batchId) as BatchRowShape);
  }
}
