/**
 * One write of a group on the store server, inside the group's transaction, which holds the ledger
 * head's lock from its first statement: the port's LedgerWrite, statement by statement.
 */
import type pg from 'pg';
import type { BatchDelta } from '../../domain/batch';
import type { AuditEntry } from '../audit';
import { toBatch, type BatchRecord, type BatchRowShape } from '../batch-rows';
import type { LedgerWrite, SameCardCharge, StoredAnswer } from '../ledger-store';

import { insertParams, type LedgerTransaction, type NewTransaction } from '../transaction-rows';

import { AnswerStoredMeanwhileError } from '../store-errors';
import { SQL, findBatch, findSameCardCharge, findTransaction } from './ledger-sql';

/** One write inside the group's transaction, which holds the head lock from its first statement. */
export class WriteTransaction implements LedgerWrite {
  private last: number;
  /**
   * The lane whose share of the batch the next delta changes: that of the transaction it is about.
   * The operations apply a batch delta right after inserting the row that joins the batch, or right
   * after voiding the row that leaves it (domain/effects.ts), so a void takes a sale back from the
   * share of the counter that made it, whichever counter voids it.
   */
  private deltaLane: string;

  constructor(
    private readonly client: pg.ClientBase,
    private readonly lane: string,
    head: number,
  ) {
    this.last = head;
    this.deltaLane = lane;
  }

  /** The last id taken so far, by the writes before this one and by this one. */
  get lastTransactionId(): number {
    return this.last;
  }

  find(id: number): Promise<LedgerTransaction | undefined> {
    return findTransaction(this.client, id);
  }

  findBatch(id: number): Promise<BatchRecord | undefined> {
    return findBatch(this.client, id);
  }

  async isSwipeKsnUsed(ksn: string): Promise<boolean> {
    return (await this.client.query(SQL.swipeSeen([ksn]))).rowCount !== 0;
  }

  findSameCardCharge(charge: SameCardCharge): Promise<LedgerTransaction | undefined> {
    return findSameCardCharge(this.client, charge);
  }

  async nextTransactionId(): Promise<number> {
    return this.last + 1;
  }

  async insert(transaction: NewTransaction & { id: number }): Promise<void> {
    if (transaction.id !== this.last + 1)
      throw new Error(`transaction ${transaction.id} would leave a gap after ${this.last}`);
    await this.client.query(SQL.insert([...insertParams(transaction), this.lane]));
    this.last = transaction.id;
    this.deltaLane = this.lane;
  }

  async markVoided(id: number, voidId: number): Promise<void> {
    const voided = (await this.client.query<{ lane: string }>(SQL.markVoided([voidId, id]))).rows[0];
    if (!voided) throw new Error(`transaction ${id} was voided already`);
    this.deltaLane = voided.lane;
  }

  async markCaptured(id: number, captureId: number): Promise<void> {
    const { rowCount } = await this.client.query(SQL.markCaptured([captureId, id]));
    if (rowCount !== 1) throw new Error(`authorization ${id} was captured already`);
  }

  async reopenCapture(id: number, captureId: number): Promise<void> {
    const { rowCount } = await this.client.query(SQL.reopenCapture([id, captureId]));
    if (rowCount !== 1) throw new Error(`authorization ${id} is not captured by ${captureId}`);
  }

  async addRefunded(id: number, cents: number): Promise<void> {
    await this.client.query(SQL.addRefunded([cents, id]));
  }

  async openBatch(): Promise<BatchRecord | undefined> {
    const row = (await this.client.query<BatchRowShape>(SQL.openBatch())).rows[0];
    return row && toBatch(row);
  }

  async openBatchForWrite(now: number): Promise<BatchRecord> {
    const open = await this.openBatch();
    if (open) return open;
    const created = (await this.client.query<BatchRowShape>(SQL.createBatch([now]))).rows[0];
    if (!created) throw new Error('the batch was not opened');
    return toBatch(created);
  }

  /** The batch's counters and the share of the lane of the transaction the delta is about. */
  async applyBatchDelta(batchId: number, delta: BatchDelta): Promise<void> {
    const { rowCount } = await this.client.query(
      SQL.applyDelta([
        batchId,
        this.deltaLane,
        delta.salesCount,
        delta.salesTotal,
        delta.refundCount,
        delta.refundTotal,
        delta.tipTotal,
      ]),
    );
    if (rowCount !== 1) throw new Error(`batch ${batchId} is not open`);
  }

  async closeBatch(batchId: number, settledAt: number, confirmationCode: string): Promise<BatchRecord> {
    const row = (
      await this.client.query<BatchRowShape>(SQL.closeBatch([settledAt, confirmationCode, batchId]))
    ).rows[0];
    if (!row) throw new Error(`batch ${batchId} does not exist`);
    return toBatch(row);
  }

  async rememberAnswer(apiKeyId: number, key: string, answer: StoredAnswer, at: number): Promise<void> {
    const { rowCount } = await this.client.query(
      SQL.rememberAnswer([apiKeyId, key, answer.fingerprint, answer.response, at]),
    );
    // Stored by another write first: this one is undone whole, and the stored answer is given.
    if (rowCount !== 1) throw new AnswerStoredMeanwhileError();
  }

  async forgetAnswers(before: number): Promise<void> {
    await this.client.query(SQL.forgetAnswers([before]));
  }

  async appendAudit(entry: Omit<AuditEntry, 'id'>): Promise<void> {
    await this.client.query(
      SQL.appendAudit([entry.at, entry.actor, entry.action, entry.subject, entry.detail]),
    );
  }
}
