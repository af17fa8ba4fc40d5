/**
 * One write of a group on the store server, inside the group's transaction: the port's LedgerWrite,
 * statement by statement, in a savepoint of its own.
 *
 * No lock is taken for the ledger as a whole. A write locks only what its rules read and change, and
 * holds each lock to the group's commit: the transaction a follow-up names (a row lock), the open
 * batch it counts into (shared with every other write counting into it; the close takes it alone),
 * the card of a duplicate check and the KSN of a swipe (advisory locks). A write that waits for one
 * waits only for the writes that hold the same thing; at READ COMMITTED each statement after the wait
 * sees what they committed, so a rule checked after its lock still holds at the commit.
 *
 * The connection pipelines (connection.ts): a statement whose answer the write does not need to go
 * on (an insert, a counter, a check of how many rows changed) is sent without waiting for it, and the
 * write waits only where it reads; a lock is sent with the read it guards, in the same round trip.
 * What it sent is checked after it returns (write-group.ts). The first statement that fails fails the
 * write with its own error, and the whole savepoint is undone: what its failing at once would have
 * done, as no write catches a ledger error.
 */
import type pg from 'pg';
import type { BatchDelta } from '../../domain/batch';
import { auditRow, type AuditEntry } from '../audit';
import {
  toBatch,
  upstreamColumns,
  type BatchRecord,
  type BatchRowShape,
  type UpstreamBatch,
} from '../batch-rows';
import type { LedgerWrite, SameCardCharge, StoredAnswer } from '../ledger-store';
import { COUNTERS, deltaByCounter, deltaValues, type Counter } from '../sql/ledger-sql';
import {
  insertParams,
  toTransaction,
  type LedgerTransaction,
  type NewTransaction,
  type TransactionRowShape,
} from '../transaction-rows';
import { isConnectionFailure, sendTogether } from './connection';
import { forwardQueueWrite } from './forward-queue';
import { HELD_ROW_COLUMNS, LOCKS, lockKey, SQL } from './ledger-sql';

/**
 * The transaction ids a group's writes take: those its slot reserved at its last commit, then fetched
 * with the group's BEGIN, one for each write, and more should the writes need them. An id a write took and did not keep (it was undone) goes back
 * for the writes after it, so the group's rows are in id order.
 */
export class GroupIds {
  private readonly free: number[] = [];
  private readonly fetched: Promise<unknown>;
  /** Every id handed out and not given back. */
  private readonly taken = new Set<number>();

  constructor(
    private readonly client: pg.ClientBase,
    count: number,
    reserved: readonly number[] = [],
  ) {
    this.free.push(...reserved);
    const wanted = count - reserved.length;
    sendTogether(client);
    this.fetched =
      wanted <= 0
        ? Promise.resolve()
        : client.query<{ id: number }>(SQL.takeIds([wanted])).then(({ rows }) => {
            this.free.push(...rows.map((row) => row.id));
          });
    this.fetched.catch(() => undefined);
  }

  /** Every id the group holds, kept or not: what an attempt that was surely not committed leaves. */
  held(): number[] {
    return [...this.free, ...this.taken].sort((a, b) => a - b);
  }

  async take(): Promise<number> {
    await this.fetched;
    if (this.free.length === 0) {
      sendTogether(this.client);
      const { rows } = await this.client.query<{ id: number }>(SQL.takeIds([1]));
      this.free.push(...rows.map((row) => row.id));
    }
    const id = this.free.shift() as number;
    this.taken.add(id);
    return id;
  }

  giveBack(ids: Iterable<number>): void {
    for (const id of ids) {
      if (this.taken.delete(id)) this.free.push(id);
    }
    this.free.sort((a, b) => a - b);
  }
}

/** A lane's share of a batch, as a delta changes it: what `SQL.writeHeld` reads of each. */
type Share = { batch_id: number; lane: string; writer: string } & Record<Counter, number>;

/**
 * The new rows and shares of open batches that a group's writes keep back, to send in one statement
 * (`SQL.writeHeld`): a sale then costs the server one row and no statement of its own, and the
 * group's sales one change of each share, however many they are. What is held is sent before any
 * other statement of the group, so every read and change sees it; at the end of each write in a group
 * with savepoints, so that its savepoint holds it; and before the group's COMMIT.
 */
export class HeldChanges {
  private rows: { mark: number; row: Record<string, unknown> }[] = [];
  private shares: { mark: number; share: Share }[] = [];
  private added = 0;

  /** Where the held changes stand: what `dropSince` goes back to. */
  get mark(): number {
    return this.added;
  }

  /**
   * A new row: its values as `insertParams` gives them, then its lane. Its text is whole characters
   * (the API's schemas refuse a lone surrogate), which JSON carries as a parameter would.
   */
  keepRow(values: readonly unknown[]): void {
    const row: Record<string, unknown> = {};
    HELD_ROW_COLUMNS.forEach((column, index) => (row[column] = values[index]));
    this.rows.push({ mark: this.added++, row });
  }

  keepShare(batchId: number, lane: string, writer: string, delta: BatchDelta): void {
    const share: Share = { batch_id: batchId, lane, writer, ...deltaByCounter(delta) };
    this.shares.push({ mark: this.added++, share });
  }

  /** Drops what was kept since `mark` and not sent: the changes of a write being undone. */
  dropSince(mark: number): void {
    this.rows = this.rows.filter((held) => held.mark < mark);
    this.shares = this.shares.filter((held) => held.mark < mark);
  }

  /**
   * The statement that writes what is held, and how many shares it must change (each share of a
   * batch, lane and writer once, its deltas summed); none when nothing is held. What it returns is no
   * longer held.
   */
  take(): { query: pg.QueryConfig; shares: number } | undefined {
    if (this.rows.length === 0 && this.shares.length === 0) return undefined;
    const summed = new Map<string, Share>();
    for (const { share } of this.shares) {
      const key = `${share.batch_id} ${share.lane} ${share.writer}`;
      const same = summed.get(key);
      if (!same) {
        summed.set(key, { ...share });
        continue;
      }
      for (const column of COUNTERS) same[column] += share[column];
    }
    const rows = JSON.stringify(this.rows.map((held) => held.row));
    this.rows = [];
    this.shares = [];
    return { query: SQL.writeHeld([rows, JSON.stringify([...summed.values()])]), shares: summed.size };
  }
}

/**
 * Sends what the group holds (HeldChanges), without waiting for it; the answer fails when a share
 * changed no batch, which the group's shared lock on each batch it counts into rules out. Undefined
 * when nothing is held.
 */
export function sendHeld(client: pg.ClientBase, held: HeldChanges): Promise<void> | undefined {
  const taken = held.take();
  if (!taken) return undefined;
  sendTogether(client);
  const answered = client.query(taken.query).then(({ rowCount }) => {
    if (rowCount !== taken.shares) throw new Error('a share was kept for a batch that is not open');
  });
  answered.catch(() => undefined);
  return answered;
}

/**
 * The open batch as the group holds it: taken once, with its shared lock, and kept by the writes that
 * open, count into and close it (and put back when one is undone). A sale then waits for no round
 * trip of its own: its row, its share of the batch and its answer are sent without waiting.
 *
 * A group may begin with the batch its counter's last group held, shared with its BEGIN and not
 * waited for (`guessed`): its writes go on at once, and the group checks, before it commits, that the
 * batch was still open once shared. When it was not (another counter closed it meanwhile), the group
 * is run again from its start without the guess.
 */
export class GroupBatch {
  /** Not taken yet in this group (undefined), none open (null), or the open batch as taken. */
  open: BatchRecord | null | undefined = undefined;
  /** The batches the group holds shared (the open one, a void's target's): none closes before it ends. */
  shared = new Set<number>();
  private guess: { shared: Promise<unknown>; open: Promise<unknown> } | undefined;

  /**
   * A group beginning with `batch`: its shared lock, then a statement that fails the transaction
   * (TD001) unless it is open, both sent without waiting.
   */
  static guessed(client: pg.ClientBase, batch: BatchRecord): GroupBatch {
    const group = new GroupBatch();
    group.open = batch;
    group.shared.add(batch.id);
    sendTogether(client);
    group.guess = {
      shared: client.query(SQL.shareBatch([batch.id])),
      open: client.query(SQL.expectOpenBatch([batch.id])),
    };
    group.guess.shared.catch(() => undefined);
    group.guess.open.catch(() => undefined);
    return group;
  }

  /**
   * False when the group began with a batch that was no longer open, or whose lock it could not take
   * in time (a close under way): it runs again without the guess, each write taking the batch itself.
   */
  async confirmed(): Promise<boolean> {
    if (!this.guess) return true;
    try {
      await this.guess.shared;
      await this.guess.open;
      return true;
    } catch (error) {
      if (isConnectionFailure(error)) throw error;
      return false;
    }
  }
}

/** The group began with a batch another counter had closed: it runs again without the guess. */
export class GuessedBatchClosedError extends Error {
  constructor() {
    super('the open batch the group began with was closed meanwhile');
  }
}

/** Where a write is in its group. */
export interface WritePlace {
  /**
   * Whether each write has a savepoint of its own, so that one can be undone alone. A group that
   * commits at once needs none: a write that fails, or throws after changing something, has the
   * group run again with them (write-group.ts).
   */
  savepoints: boolean;
  /** This counter's lane, stamped on each row it inserts. */
  lane: string;
  /** The name of the group's connection among the store's writers: its rows of counters are its own. */
  writer: string;
  ids: GroupIds;
  batch: GroupBatch;
  /** The new rows and batch shares the group's writes keep back, to send together. */
  held: HeldChanges;
  /**
   * The API keys checked live in this group's transaction so far, in a group without savepoints:
   * nothing of it is undone alone there, so one check of a key stands for every write after it.
   */
  liveKeys: Set<number>;
}

export class WriteTransaction implements LedgerWrite {
  /** The statements sent and not yet answered, in the order sent; each has its checks attached. */
  private sent: Promise<unknown>[] = [];
  /** The id this write took for its next insert, if it has not inserted it yet. */
  private nextId: number | undefined;
  /** Where the group's held changes stood when this write began: undoing it drops what it kept since. */
  private readonly heldMark: number;
  /** Every id this write took; the ids it inserted. */
  private readonly ids: number[] = [];
  readonly inserted: number[] = [];
  /**
   * The lane whose share of the batch the next delta changes: that of the transaction it is about.
   * The operations apply a batch delta right after inserting the row that joins the batch, or right
   * after voiding the row that leaves it (domain/effects.ts), so a void takes a sale back from the
   * share of the counter that made it, whichever counter voids it; the forwarder, right after
   * settling an offline transaction the gateway declined, which leaves its batch the same way.
   */
  private deltaLane: string;
  /** The open batch as the writes before this one left it: what undoing this one puts back. */
  private readonly batchBefore: BatchRecord | null | undefined;
  private readonly sharedBefore: Set<number>;
  /** The rows this write locked (follow-ups' originals): checks on them cannot fail. */
  private readonly locked = new Set<number>();
  /**
   * Whether a check of an answer this write sent could fail: then the group waits for the answers
   * before its COMMIT (write-group.ts). Every check made after the lock that guarantees it is safe.
   */
  risky = false;
  /** Whether this write sent anything that changes the ledger (and not only reads and locks). */
  changed = false;
  /**
   * The store-and-forward queue inside this write. Its statements wait for their answers (offline
   * transactions are few, and rarely grouped), and count as changes: a write that fails after one is
   * undone by its savepoint.
   */
  readonly forwards = forwardQueueWrite(
    (text, values) => {
      this.changed = true;
      return this.read({ text, values });
    },
    (lane) => {
      this.deltaLane = lane;
    },
  );

  private constructor(
    private readonly client: pg.ClientBase,
    private readonly place: WritePlace,
    private readonly savepoint: string,
  ) {
    this.deltaLane = place.lane;
    this.heldMark = place.held.mark;
    this.batchBefore = place.batch.open;
    this.sharedBefore = new Set(place.batch.shared);
  }

  /**
   * A write after the ones before it in the group, in a savepoint of its own, named for its place in
   * the group. A write that succeeds keeps its savepoint until the group commits, nested in the one
   * before: rolling back to it undoes this write and every write after it.
   */
  static begin(client: pg.ClientBase, place: WritePlace, savepoint: string): WriteTransaction {
    const write = new WriteTransaction(client, place, savepoint);
    if (place.savepoints) write.send(`SAVEPOINT ${savepoint}`);
    return write;
  }

  /**
   * Once its work has returned: in a group with savepoints, sends what the write kept back, so that
   * its savepoint holds it. A group that commits at once keeps it for its next statement or its COMMIT.
   */
  flush(): void {
    if (this.place.savepoints) this.sendHeld();
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

  /**
   * Undoes this write and every write after it in the group (the database releases the locks they
   * took); the ids this write took go back to the group.
   */
  async rollBack(): Promise<void> {
    this.forget();
    sendTogether(this.client);
    await this.client.query(`ROLLBACK TO SAVEPOINT ${this.savepoint}`);
  }

  /**
   * Forgets what this write did, as its group knows it (the open batch, the ids it took), for a write
   * that changed nothing in the ledger or is being undone.
   */
  forget(): void {
    this.place.held.dropSince(this.heldMark);
    this.place.batch.open = this.batchBefore;
    this.place.batch.shared = new Set(this.sharedBefore);
    this.place.ids.giveBack(this.ids);
    this.inserted.length = 0;
  }

  /** Gives back every id this write took: it was undone with a write before it. */
  abandon(): void {
    this.place.held.dropSince(this.heldMark);
    this.place.ids.giveBack(this.ids);
    this.inserted.length = 0;
    this.nextId = undefined;
  }

  /** Gives back the id this write took and did not insert. */
  done(): void {
    if (this.nextId !== undefined) this.place.ids.giveBack([this.nextId]);
    this.nextId = undefined;
  }

  /** Sends what the group holds, as one of this write's statements. */
  private sendHeld(): void {
    const answered = sendHeld(this.client, this.place.held);
    if (answered) this.sent.push(answered);
  }

  /**
   * Sends a statement without waiting for it, after what the group holds; `check` throws when its
   * answer fails the write. A check that is not `safe` (guaranteed by a lock this write's group holds)
   * makes the write risky.
   */
  private send(query: string | pg.QueryConfig, check?: (result: pg.QueryResult) => void, safe = false): void {
    this.sendHeld();
    if (check && !safe) this.risky = true;
    sendTogether(this.client);
    const answered = this.client.query(query).then((result) => check?.(result));
    // Seen by settled(); until then, a failure must not count as a rejection nobody handles.
    answered.catch(() => undefined);
    this.sent.push(answered);
  }

  /**
   * A statement whose answer the write needs. When a statement sent before it failed, this one
   * fails with "current transaction is aborted": the earlier failure is the write's error.
   */
  private async read<Row extends pg.QueryResultRow>(query: pg.QueryConfig): Promise<pg.QueryResult<Row>> {
    this.sendHeld();
    sendTogether(this.client);
    try {
      return await this.client.query<Row>(query);
    } catch (error) {
      await this.settled();
      throw error;
    }
  }

  /**
   * Statements whose answers the write needs, sent together (a lock and the read it guards): one
   * round trip. When one fails, those after it fail with "current transaction is aborted": the first
   * failure, in the order sent, is the write's error.
   */
  private async readTogether(
    ...queries: [pg.QueryConfig, pg.QueryConfig]
  ): Promise<[pg.QueryResult, pg.QueryResult]> {
    this.sendHeld();
    sendTogether(this.client);
    const answers = await Promise.allSettled(queries.map((query) => this.client.query(query)));
    const failed = answers.find((answer) => answer.status === 'rejected');
    if (failed) {
      await this.settled();
      throw failed.reason;
    }
    const [first, second] = answers.map((answer) => (answer as PromiseFulfilledResult<pg.QueryResult>).value);
    return [first as pg.QueryResult, second as pg.QueryResult];
  }

  /**
   * Fails the write unless its key is live in the store, as the write sees it: a statement that fails
   * in the database (KeyRevokedError, write-group.ts), so the group's COMMIT sees it. In a group that
   * commits at once, a key is checked at its first write only. Every write of the group was asked for
   * before any of its statements was sent, so none was asked for after a revocation that the check
   * missed; and a revoked key fails the group's transaction, which then runs again with each write in
   * a savepoint of its own, each checking its key.
   */
  async requireLiveKey(apiKeyId: number): Promise<void> {
    if (!this.place.savepoints) {
      if (this.place.liveKeys.has(apiKeyId)) return;
      this.place.liveKeys.add(apiKeyId);
    }
    this.send(SQL.expectLiveKey([apiKeyId]));
  }

  /** The transaction a follow-up names, locked to the end of the write. */
  async find(id: number): Promise<LedgerTransaction | undefined> {
    const row = (await this.read<TransactionRowShape>(SQL.findToChange([id]))).rows[0];
    if (row) this.locked.add(id);
    return row && toTransaction(row);
  }

  /** A batch a rule reads, shared with the writes counting into it, so that no close comes between. */
  async findBatch(id: number): Promise<BatchRecord | undefined> {
    const held = this.place.batch.open;
    if (held?.id === id) return { ...held };
    this.send(SQL.shareBatch([id]));
    this.place.batch.shared.add(id);
    const row = (await this.read<BatchRowShape>(SQL.findBatch([id]))).rows[0];
    return row && toBatch(row);
  }

  /** Whether a swipe's KSN was seen, with the KSN locked to the end of the write. */
  async isSwipeKsnUsed(ksn: string): Promise<boolean> {
    this.send(SQL.lock([LOCKS.swipe, lockKey(ksn)]));
    return (await this.read(SQL.swipeSeen([ksn]))).rowCount !== 0;
  }

  /** The duplicate check's charge, with the card locked to the end of the write. */
  async findSameCardCharge({
    cardHash,
    amount,
    since,
  }: SameCardCharge): Promise<LedgerTransaction | undefined> {
    this.send(SQL.lock([LOCKS.card, lockKey(cardHash)]));
    const row = (await this.read<TransactionRowShape>(SQL.sameCardCharge([cardHash, amount, since]))).rows[0];
    return row && toTransaction(row);
  }

  async nextTransactionId(): Promise<number> {
    if (this.nextId === undefined) {
      this.nextId = await this.place.ids.take();
      this.ids.push(this.nextId);
    }
    return this.nextId;
  }

  async insert(transaction: NewTransaction & { id: number }): Promise<void> {
    if (transaction.id !== this.nextId)
      throw new Error(
        `transaction ${transaction.id} was not the id this write took (${this.nextId ?? 'none'})`,
      );
    this.changed = true;
    this.place.held.keepRow([...insertParams(transaction), this.place.lane]);
    this.inserted.push(transaction.id);
    this.nextId = undefined;
    this.deltaLane = this.place.lane;
  }

  async markVoided(id: number, voidId: number): Promise<void> {
    this.changed = true;
    const voided = (await this.read<{ lane: string }>(SQL.markVoided([voidId, id]))).rows[0];
    if (!voided) throw new Error(`transaction ${id} was voided already`);
    this.deltaLane = voided.lane;
  }

  async markCaptured(id: number, captureId: number): Promise<void> {
    this.changed = true;
    this.send(
      SQL.markCaptured([captureId, id]),
      ({ rowCount }) => {
        if (rowCount !== 1) throw new Error(`authorization ${id} was captured already`);
      },
      this.locked.has(id),
    );
  }

  async reopenCapture(id: number, captureId: number): Promise<void> {
    // The capture being voided is locked: nothing else can change which capture finished its auth.
    this.changed = true;
    this.send(
      SQL.reopenCapture([id, captureId]),
      ({ rowCount }) => {
        if (rowCount !== 1) throw new Error(`authorization ${id} is not captured by ${captureId}`);
      },
      this.locked.has(captureId),
    );
  }

  async addRefunded(id: number, cents: number): Promise<void> {
    this.changed = true;
    this.send(SQL.addRefunded([cents, id]));
  }

  /**
   * The open batch for its close, locked alone: the writes counting into it have ended, and no other
   * begins until this write ends. Read afresh, with every count of it.
   */
  async openBatch(): Promise<BatchRecord | undefined> {
    const [taken, open] = await this.readTogether(SQL.takeOpenBatch(), SQL.openBatch());
    const [lock, row] = [
      taken.rows[0] as { id: number } | undefined,
      open.rows[0] as BatchRowShape | undefined,
    ];
    // The batch open when the close came was closed by another while this one waited for it: none is
    // open for this close (a batch opened since is the next close's).
    const batch = lock && row && lock.id === row.id ? toBatch(row) : null;
    this.place.batch.open = batch;
    if (batch) this.place.batch.shared.add(batch.id);
    return batch ? { ...batch } : undefined;
  }

  /**
   * The open batch, opened now if there is none (the first transaction of a batch opens it), shared
   * with the other writes that count into it until the group ends. Its counters are as the group
   * found them.
   */
  async openBatchForWrite(now: number): Promise<BatchRecord> {
    for (;;) {
      const held = this.place.batch.open;
      if (held) return { ...held };
      const [shared, open] = await this.readTogether(SQL.shareOpenBatch(), SQL.openBatch());
      const [lock, row] = [
        shared.rows[0] as { id: number } | undefined,
        open.rows[0] as BatchRowShape | undefined,
      ];
      if (lock && row) {
        // Closed and another opened meanwhile: share that one instead.
        if (lock.id !== row.id) continue;
        this.place.batch.open = toBatch(row);
        this.place.batch.shared.add(row.id);
        continue;
      }
      if (row) continue;
      this.changed = true;
      const created = (await this.read<BatchRowShape>(SQL.createBatch([now]))).rows[0];
      // Another counter opened one first: share it.
      if (!created) continue;
      // No other write can see it before this one commits; the lock keeps this write's own close
      // (later in its group) the same as any other.
      this.send(SQL.shareBatch([created.id]));
      this.place.batch.open = toBatch(created);
      this.place.batch.shared.add(created.id);
    }
  }

  /**
   * The share of the lane of the transaction the delta is about, in this writer's own row: kept back
   * with the group's new rows while the group holds the batch shared, so that no close comes before
   * its commit; sent at once, and checked, otherwise.
   */
  async applyBatchDelta(batchId: number, delta: BatchDelta): Promise<void> {
    this.changed = true;
    if (this.place.batch.shared.has(batchId)) {
      this.place.held.keepShare(batchId, this.deltaLane, this.place.writer, delta);
      return;
    }
    const share = [...deltaValues(delta), this.deltaLane, this.place.writer, batchId];
    this.send(SQL.applyDelta(share), ({ rowCount }) => {
      if (rowCount !== 1) throw new Error(`batch ${batchId} is not open`);
    });
  }

  async closeBatch(
    batchId: number,
    settledAt: number,
    confirmationCode: string,
    upstream?: UpstreamBatch,
  ): Promise<BatchRecord> {
    this.changed = true;
    const params = [settledAt, confirmationCode, ...upstreamColumns(upstream ?? null), batchId];
    const row = (await this.read<BatchRowShape>(SQL.closeBatch(params))).rows[0];
    if (!row) throw new Error(`batch ${batchId} does not exist`);
    if (this.place.batch.open?.id === batchId) this.place.batch.open = null;
    return toBatch(row);
  }

  async rememberAnswer(apiKeyId: number, key: string, answer: StoredAnswer, at: number): Promise<void> {
    // Stored by another write first: the primary key refuses this one, which is undone whole, and
    // the stored answer is given (write-group.ts names the error).
    this.changed = true;
    this.send(SQL.rememberAnswer([apiKeyId, key, answer.fingerprint, answer.response, at]));
  }

  async forgetAnswers(before: number): Promise<void> {
    this.changed = true;
    this.send(SQL.forgetAnswers([before]));
  }

  async appendAudit(entry: Omit<AuditEntry, 'id'>): Promise<void> {
    this.changed = true;
    this.send(SQL.appendAudit(auditRow(entry)));
  }
}
