/**
 * One write of a group on the store server, inside the group's transaction, which holds the ledger
 * head's lock from its first statement: the port's LedgerWrite, statement by statement, in a
 * savepoint of its own.
 *
 * The connection pipelines (connection.ts): a statement whose answer the write does not need to go
 * on (an insert, a counter's update, a check of how many rows changed) is sent without waiting for
 * it, and the write waits only where it reads; what it sent is checked after it returns
 * (write-group.ts). Every round trip is time the head is locked for every counter of the store: a
 * SALE, whose open batch the group already knows (GroupBatch), waits for none. The server runs the
 * statements in the order sent, so each still sees the ones before it. The first that fails fails
 * the write with its own error, at the read after it or once the write returns, and the whole
 * savepoint is undone: what its failing at once would have done, as no write catches a ledger error.
 */
import type pg from 'pg';
import type { BatchDelta } from '../../domain/batch';
import type { AuditEntry } from '../audit';
import { toBatch, type BatchRecord, type BatchRowShape } from '../batch-rows';
import type { LedgerWrite, SameCardCharge, StoredAnswer } from '../ledger-store';

import { insertParams, type LedgerTransaction, type NewTransaction } from '../transaction-rows';

import { AnswerStoredMeanwhileError } from '../store-errors';
import { SQL, findBatch, findSameCardCharge, findTransaction } from './ledger-sql';

/**
 * The open batch as the group's writes have left it. Under the head lock only the group's own writes
 * change the batches, so the open batch is read once a group and then kept by the writes that
 * open, count into and close it (and put back when one is undone): a SALE reads nothing, and costs
 * the locked head no round trip of its own.
 */
export class GroupBatch {
  /** Not read yet in this group (undefined), none open (null), or the open batch. */
  open: BatchRecord | null | undefined = undefined;
}

/** One write inside the group's transaction, which holds the head lock from its first statement. */
export class WriteTransaction implements LedgerWrite {
  private last: number;
  /** The statements sent and not yet answered, in the order sent; each has its checks attached. */
  private sent: Promise<unknown>[] = [];
  /**
   * The lane whose share of the batch the next delta changes: that of the transaction it is about.
   * The operations apply a batch delta right after inserting the row that joins the batch, or right
   * after voiding the row that leaves it (domain/effects.ts), so a void takes a sale back from the
   * share of the counter that made it, whichever counter voids it.
   */
  private deltaLane: string;

  /** Made by begin(), which makes its savepoint too. */
  /** The open batch as the writes before this one left it: what undoing this one puts back. */
  private readonly batchBefore: BatchRecord | null | undefined;

  private constructor(
    private readonly client: pg.ClientBase,
    private readonly lane: string,
    head: number,
    private readonly savepoint: string,
    private readonly batch: GroupBatch,
  ) {
    this.last = head;
    this.deltaLane = lane;
    this.batchBefore = batch.open;
  }

  /**
   * A write after the ones before it in the group (their last id is `head`), in a savepoint of its
   * own, named for its place in the group. A write that succeeds keeps its savepoint until the group
   * commits, nested in the one before: rolling back to it undoes this write and every write after it.
   */
  static begin(
    client: pg.ClientBase,
    lane: string,
    head: number,
    savepoint: string,
    batch: GroupBatch,
  ): WriteTransaction {
    const write = new WriteTransaction(client, lane, head, savepoint, batch);
    write.send(`SAVEPOINT ${savepoint}`);
    return write;
  }

  /** Waits for every statement sent; the error of the first that failed, if one did. */
  async failure(): Promise<unknown> {
    const outcomes = await Promise.allSettled(this.sent.splice(0));
    const failed = outcomes.find((outcome) => outcome.status === 'rejected');
    return failed?.reason;
  }

  /** Waits for every statement sent; throws the error of the first that failed. */
  async settled(): Promise<void> {
    const failure = await this.failure();
    if (failure !== undefined) throw failure;
  }

  /** Undoes this write and every write after it in the group. */
  async rollBack(): Promise<void> {
    this.batch.open = this.batchBefore;
    await this.client.query(`ROLLBACK TO SAVEPOINT ${this.savepoint}`);
  }

  /** Sends a statement without waiting for it; `check` throws when its answer fails the write. */
  private send(query: string | pg.QueryConfig, check?: (result: pg.QueryResult) => void): void {
    const answered = this.client.query(query).then((result) => check?.(result));
    // Seen by settled(); until then, a failure must not count as a rejection nobody handles.
    answered.catch(() => undefined);
    this.sent.push(answered);
  }

  /**
   * A statement whose answer the write needs. When a statement sent before it failed, this one
   * fails with "current transaction is aborted": the earlier failure is the write's error.
   */
  private async read<T>(lookup: () => Promise<T>): Promise<T> {
    try {
      return await lookup();
    } catch (error) {
      await this.settled();
      throw error;
    }
  }

  /** The last id taken so far, by the writes before this one and by this one. */
  get lastTransactionId(): number {
    return this.last;
  }

  find(id: number): Promise<LedgerTransaction | undefined> {
    return this.read(() => findTransaction(this.client, id));
  }

  findBatch(id: number): Promise<BatchRecord | undefined> {
    return this.read(() => findBatch(this.client, id));
  }

  async isSwipeKsnUsed(ksn: string): Promise<boolean> {
    return (await this.read(() => this.client.query(SQL.swipeSeen([ksn])))).rowCount !== 0;
  }

  findSameCardCharge(charge: SameCardCharge): Promise<LedgerTransaction | undefined> {
    return this.read(() => findSameCardCharge(this.client, charge));
  }

  async nextTransactionId(): Promise<number> {
    return this.last + 1;
  }

  async insert(transaction: NewTransaction & { id: number }): Promise<void> {
    if (transaction.id !== this.last + 1)
      throw new Error(`transaction ${transaction.id} would leave a gap after ${this.last}`);
    this.send(SQL.insert([...insertParams(transaction), this.lane]));
    this.last = transaction.id;
    this.deltaLane = this.lane;
  }

  async markVoided(id: number, voidId: number): Promise<void> {
    const voided = (await this.read(() => this.client.query<{ lane: string }>(SQL.markVoided([voidId, id]))))
      .rows[0];
    if (!voided) throw new Error(`transaction ${id} was voided already`);
    this.deltaLane = voided.lane;
  }

  async markCaptured(id: number, captureId: number): Promise<void> {
    this.send(SQL.markCaptured([captureId, id]), ({ rowCount }) => {
      if (rowCount !== 1) throw new Error(`authorization ${id} was captured already`);
    });
  }

  async reopenCapture(id: number, captureId: number): Promise<void> {
    this.send(SQL.reopenCapture([id, captureId]), ({ rowCount }) => {
      if (rowCount !== 1) throw new Error(`authorization ${id} is not captured by ${captureId}`);
    });
  }

  async addRefunded(id: number, cents: number): Promise<void> {
    this.send(SQL.addRefunded([cents, id]));
  }

  async openBatch(): Promise<BatchRecord | undefined> {
    if (this.batch.open === undefined) {
      const row = (await this.read(() => this.client.query<BatchRowShape>(SQL.openBatch()))).rows[0];
      this.batch.open = row ? toBatch(row) : null;
    }
    return this.batch.open ? { ...this.batch.open } : undefined;
  }

  async openBatchForWrite(now: number): Promise<BatchRecord> {
    const open = await this.openBatch();
    if (open) return open;
    const created = (await this.read(() => this.client.query<BatchRowShape>(SQL.createBatch([now])))).rows[0];
    if (!created) throw new Error('the batch was not opened');
    this.batch.open = toBatch(created);
    return { ...this.batch.open };
  }

  /** The batch's counters and the share of the lane of the transaction the delta is about. */
  async applyBatchDelta(batchId: number, delta: BatchDelta): Promise<void> {
    this.send(
      SQL.applyDelta([
        delta.salesCount,
        delta.salesTotal,
        delta.refundCount,
        delta.refundTotal,
        delta.tipTotal,
        batchId,
        this.deltaLane,
      ]),
      ({ rowCount }) => {
        if (rowCount !== 1) throw new Error(`batch ${batchId} is not open`);
      },
    );
    const open = this.batch.open;
    if (open?.id === batchId)
      this.batch.open = {
        ...open,
        salesCount: open.salesCount + delta.salesCount,
        salesTotal: open.salesTotal + delta.salesTotal,
        refundCount: open.refundCount + delta.refundCount,
        refundTotal: open.refundTotal + delta.refundTotal,
        tipTotal: open.tipTotal + delta.tipTotal,
      };
  }

  async closeBatch(batchId: number, settledAt: number, confirmationCode: string): Promise<BatchRecord> {
    const row = (
      await this.read(() =>
        this.client.query<BatchRowShape>(SQL.closeBatch([settledAt, confirmationCode, batchId])),
      )
    ).rows[0];
    if (!row) throw new Error(`batch ${batchId} does not exist`);
    if (this.batch.open?.id === batchId) this.batch.open = null;
    return toBatch(row);
  }

  async rememberAnswer(apiKeyId: number, key: string, answer: StoredAnswer, at: number): Promise<void> {
    // Stored by another write first: this one is undone whole, and the stored answer is given.
    this.send(
      SQL.rememberAnswer([apiKeyId, key, answer.fingerprint, answer.response, at]),
      ({ rowCount }) => {
        if (rowCount !== 1) throw new AnswerStoredMeanwhileError();
      },
    );
  }

  async forgetAnswers(before: number): Promise<void> {
    this.send(SQL.forgetAnswers([before]));
  }

  async appendAudit(entry: Omit<AuditEntry, 'id'>): Promise<void> {
    this.send(SQL.appendAudit([entry.at, entry.actor, entry.action, entry.subject, entry.detail]));
  }
}
