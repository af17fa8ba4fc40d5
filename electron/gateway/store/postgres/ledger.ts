/**
 * The ledger on a store server: the store port (../ledger-store.ts) for a store whose counters share
 * one PostgreSQL database. Each counter's engine holds one PostgresLedger, named by its lane.
 *
 * Every write begins by locking the ledger's head row (`SELECT ... FOR UPDATE`), so the writes of all
 * counters run one after another, at READ COMMITTED: each statement after the lock sees everything
 * the writes before it committed. A rule checked inside a write therefore still holds at its commit,
 * exactly as on SQLite, where BEGIN IMMEDIATE does the same for one counter. The head also hands out
 * transaction ids, so they run without a gap. Unique indexes and checks in the schema are the second
 * line. A write answers only after COMMIT returns, with synchronous_commit on.
 *
 * The writes a counter receives together share one transaction (group commit, as on SQLite), each in
 * its own savepoint and in arrival order: one lock, one commit and one flush on the server then serve
 * all of them, and at most one connection of each counter waits for the lock.
 */
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { BatchDelta } from '../../domain/batch';
import type { AuditEntry } from '../audit';
import type { ApiKeyRecord } from '../keys';
import { toBatch, type BatchRecord, type BatchRowShape } from '../batch-rows';
import type { LedgerStore, LedgerWrite, SameCardCharge, StoredAnswer } from '../ledger-store';
import { OPEN_BATCH_SQL } from '../list-sql';
import {
  insertParams,
  insertTransactionSql,
  toTransaction,
  type LedgerTransaction,
  type NewTransaction,
  type TransactionRowShape,
} from '../transaction-rows';
import {
  isConnectionFailure,
  isPastTimeLimit,
  isRetryable,
  numbered,
  openPool,
  StoreBusyError,
  StoreUnreachableError,
  type PostgresConnectionOptions,
} from './connection';
import { migrateStore } from './migrate';
import { AnswerStoredMeanwhileError } from '../store-errors';

/** A counter's name in the store: 1 to 16 letters, digits or hyphens. */
export const LANE_NAME = /^[A-Za-z0-9-]{1,16}$/;

export function isLaneName(name: string): boolean {
  return LANE_NAME.test(name);
}

const CARD_HASH_KEY_BYTES = 32;

/** How many times a write that met a serialization failure or a deadlock is run. */
const WRITE_ATTEMPTS = 5;

/**
 * The most writes one transaction holds. Each is a subtransaction, and PostgreSQL keeps the ids of
 * at most 64 of them per transaction where other sessions look them up cheaply.
 */
const GROUP_LIMIT = 48;

interface PendingWrite {
  work: (ledger: LedgerWrite) => Promise<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

type Outcome = { ok: true; value: unknown; head: number } | { ok: false; error: unknown };

/**
 * Named statements: each connection prepares one the first time it runs it, and reuses the plan. The
 * text of each is fixed; only the parameters change.
 */
function statement(name: string, text: string): (values?: unknown[]) => pg.QueryConfig {
  return (values = []) => ({ name: `tender_${name}`, text, values });
}

const SQL = {
  lockHead: statement('lock_head', 'SELECT last_transaction_id FROM ledger_head FOR UPDATE'),
  moveHead: statement('move_head', 'UPDATE ledger_head SET last_transaction_id = $1'),
  find: statement('find', 'SELECT * FROM transactions WHERE id = $1'),
  insert: statement(
    'insert',
    insertTransactionSql((position) => `$${position}`, ['lane']),
  ),
  findAnswer: statement(
    'find_answer',
    'SELECT fingerprint, response FROM idempotency_keys WHERE api_key_id = $1 AND key = $2',
  ),
  rememberAnswer: statement(
    'remember_answer',
    `INSERT INTO idempotency_keys (api_key_id, key, fingerprint, response, created_at)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
  ),
  forgetAnswers: statement('forget_answers', 'DELETE FROM idempotency_keys WHERE created_at < $1'),
  swipeSeen: statement('swipe_seen', 'SELECT id FROM transactions WHERE swipe_ksn = $1'),
  sameCardCharge: statement(
    'same_card_charge',
    `SELECT * FROM transactions
     WHERE card_hash = $1 AND amount = $2 AND created_at >= $3
       AND type IN ('Sale', 'Auth', 'Forced Sale') AND result = 'Approved' AND voided_by IS NULL
     ORDER BY created_at DESC, id DESC LIMIT 1`,
  ),
  markVoided: statement(
    'mark_voided',
    'UPDATE transactions SET voided_by = $1 WHERE id = $2 AND voided_by IS NULL RETURNING lane',
  ),
  markCaptured: statement(
    'mark_captured',
    'UPDATE transactions SET captured_by = $1 WHERE id = $2 AND captured_by IS NULL',
  ),
  reopenCapture: statement(
    'reopen_capture',
    'UPDATE transactions SET captured_by = NULL WHERE id = $1 AND captured_by = $2',
  ),
  addRefunded: statement(
    'add_refunded',
    'UPDATE transactions SET refunded_amount = refunded_amount + $1 WHERE id = $2',
  ),
  openBatch: statement('open_batch', numbered(OPEN_BATCH_SQL)),
  findBatch: statement('find_batch', 'SELECT * FROM batches WHERE id = $1'),
  // Under the head lock no other write can take the same id: batch ids run without a gap too.
  createBatch: statement(
    'create_batch',
    "INSERT INTO batches (id, status, opened_at) SELECT COALESCE(max(id), 0) + 1, 'OPEN', $1 FROM batches RETURNING *",
  ),
  // The batch's counters and its lane's share, in one statement: both change, or neither.
  applyDelta: statement(
    'apply_delta',
    `WITH batch AS (
       UPDATE batches SET
         sales_count = sales_count + $3, sales_total = sales_total + $4,
         refund_count = refund_count + $5, refund_total = refund_total + $6,
         tip_total = tip_total + $7
       WHERE id = $1 AND status = 'OPEN'
       RETURNING id)
     INSERT INTO batch_lanes AS share (batch_id, lane, sales_count, sales_total, refund_count, refund_total, tip_total)
       SELECT id, $2, $3, $4, $5, $6, $7 FROM batch
     ON CONFLICT (batch_id, lane) DO UPDATE SET
       sales_count = share.sales_count + excluded.sales_count,
       sales_total = share.sales_total + excluded.sales_total,
       refund_count = share.refund_count + excluded.refund_count,
       refund_total = share.refund_total + excluded.refund_total,
       tip_total = share.tip_total + excluded.tip_total`,
  ),
  closeBatch: statement(
    'close_batch',
    "UPDATE batches SET status = 'CLOSED', settled_at = $1, confirmation_code = $2 WHERE id = $3 RETURNING *",
  ),
  // The update makes RETURNING answer for a key entered before too; its name is the newest.
  enterApiKey: statement(
    'enter_api_key',
    `INSERT INTO api_keys (public_id, secret_hash, name, permissions, created_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (public_id) DO UPDATE SET name = excluded.name RETURNING id`,
  ),
  makeCardHashKey: statement(
    'make_card_hash_key',
    'INSERT INTO card_hash_key (id, secret) VALUES (1, $1) ON CONFLICT (id) DO NOTHING',
  ),
  cardHashKey: statement('card_hash_key', 'SELECT secret FROM card_hash_key WHERE id = 1'),
  appendAudit: statement(
    'append_audit',
    'INSERT INTO audit_log (at, actor, action, subject, detail) VALUES ($1, $2, $3, $4, $5)',
  ),
};

export interface PostgresLedgerOptions extends PostgresConnectionOptions {
  /** This counter's lane, stamped on every transaction it writes. */
  lane: string;
}

export class PostgresLedger implements LedgerStore {
  /**
   * How many commits reached the server, how many writes they held, and how many writes ran again
   * after a serialization failure or a deadlock.
   */
  readonly committed = { groups: 0, writes: 0, retries: 0 };
  /** Store ids of the API keys of this counter's data dir, by public id. */
  private readonly keyIds = new Map<string, number>();
  private queue: PendingWrite[] = [];
  private scheduled = false;
  private flushing: Promise<void> | null = null;

  private constructor(
    private readonly pool: pg.Pool,
    readonly lane: string,
  ) {}

  /**
   * Connects to the store database and brings its schema up to date (several counters may do so at
   * once). Fails within seconds when the server cannot be reached.
   */
  static async open(options: PostgresLedgerOptions): Promise<PostgresLedger> {
    if (!isLaneName(options.lane))
      throw new Error(
        `"${options.lane}" cannot name a lane: use 1 to 16 letters, digits or hyphens, such as "counter-2".`,
      );
    const pool = openPool(options);
    try {
      await unreachableAsError(() => migrateStore(pool));
    } catch (error) {
      await pool.end();
      throw error;
    }
    return new PostgresLedger(pool, options.lane);
  }

  close(): Promise<void> {
    return this.pool.end();
  }

  /**
   * The store's secret for keyed hashes of card numbers and of requests that carry card data: one
   * for every counter, so a card or a request is known again whichever counter saw it first. The
   * first counter to ask makes it; the others read the same one.
   */
  /**
   * The store's id of an API key kept in a counter's data dir: the key is entered in the store's
   * list of keys by its public id the first time it makes a transaction there, so that its id is
   * one key's at every counter (transactions and Idempotency-Keys name it). Only the public id, the
   * hash of the secret, the name and the permissions are entered, never the key itself.
   */
  async storeKeyId(key: ApiKeyRecord): Promise<number> {
    const known = this.keyIds.get(key.publicId);
    if (known !== undefined) return known;
    const id = await unreachableAsError(async () => {
      const { rows } = await this.pool.query<{ id: number }>(
        SQL.enterApiKey([key.publicId, key.secretHash, key.name, key.permissions.join(','), key.createdAt]),
      );
      const row = rows[0];
      if (!row) throw new Error(`the store did not enter API key ${key.publicId}`);
      return row.id;
    });
    this.keyIds.set(key.publicId, id);
    return id;
  }

  cardHashKey(): Promise<Buffer> {
    return unreachableAsError(async () => {
      await this.pool.query(SQL.makeCardHashKey([randomBytes(CARD_HASH_KEY_BYTES)]));
      const row = (await this.pool.query<{ secret: Buffer }>(SQL.cardHashKey())).rows[0];
      if (!row) throw new Error('the store has no card-hash key');
      return row.secret;
    });
  }

  /**
   * Runs `work` in the next group's transaction, in its own savepoint; settles once that transaction
   * has committed on the server. A write that throws is undone alone; a commit that fails, or a
   * server that cannot be reached, fails every write of the group.
   */
  write<T>(work: (ledger: LedgerWrite) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      this.schedule();
    });
  }

  find(id: number): Promise<LedgerTransaction | undefined> {
    return unreachableAsError(() => findTransaction(this.pool, id));
  }

  findBatch(id: number): Promise<BatchRecord | undefined> {
    return unreachableAsError(() => findBatch(this.pool, id));
  }

  isSwipeKsnUsed(ksn: string): Promise<boolean> {
    return unreachableAsError(async () => (await this.pool.query(SQL.swipeSeen([ksn]))).rowCount !== 0);
  }

  findSameCardCharge(charge: SameCardCharge): Promise<LedgerTransaction | undefined> {
    return unreachableAsError(() => findSameCardCharge(this.pool, charge));
  }

  findAnswer(apiKeyId: number, key: string): Promise<StoredAnswer | undefined> {
    return unreachableAsError(
      async () => (await this.pool.query<StoredAnswer>(SQL.findAnswer([apiKeyId, key]))).rows[0],
    );
  }

  private schedule(): void {
    if (this.scheduled || this.flushing) return;
    this.scheduled = true;
    // setImmediate lets every request already read from the sockets join this group.
    setImmediate(() => {
      this.scheduled = false;
      this.flushing = this.flush().finally(() => {
        this.flushing = null;
        if (this.queue.length > 0) this.schedule();
      });
    });
  }

  private async flush(): Promise<void> {
    const group = this.queue.splice(0, GROUP_LIMIT);
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      for (const pending of group) pending.reject(asStoreError(error));
      return;
    }
    let broken: Error | undefined;
    // A connection lost between two statements is reported as an event, not by a statement; unheard,
    // it would end the process. The next statement then fails and fails the group.
    const onLost = (error: Error) => {
      broken = error;
    };
    client.on('error', onLost);
    try {
      await client.query('BEGIN ISOLATION LEVEL READ COMMITTED');
      const locked = await client.query<{ last_transaction_id: number }>(SQL.lockHead());
      const start = locked.rows[0]?.last_transaction_id ?? 0;
      let head = start;
      const outcomes: Outcome[] = [];
      for (const pending of group) {
        const outcome = await this.inSavepoint(client, head, pending.work);
        if (outcome.ok) head = outcome.head;
        outcomes.push(outcome);
      }
      if (head !== start) await client.query(SQL.moveHead([head]));
      await client.query('COMMIT');
      this.committed.groups += 1;
      this.committed.writes += outcomes.filter((outcome) => outcome.ok).length;
      group.forEach((pending, index) => {
        const outcome = outcomes[index] as Outcome;
        if (outcome.ok) pending.resolve(outcome.value);
        else pending.reject(outcome.error);
      });
    } catch (error) {
      // Nothing of the group was committed (or, when the connection broke during COMMIT, only the
      // server knows): every write of it fails.
      if (isConnectionFailure(error)) broken = error as Error;
      else
        await client.query('ROLLBACK').catch((rollbackFailed: unknown) => {
          broken = rollbackFailed as Error;
        });
      for (const pending of group) pending.reject(asStoreError(error));
    } finally {
      client.off('error', onLost);
      // A connection that broke is closed, not handed to the next group.
      client.release(broken);
    }
  }

  /** One write in its own savepoint, run again after a serialization failure or a deadlock. */
  private async inSavepoint(
    client: pg.ClientBase,
    head: number,
    work: (ledger: LedgerWrite) => Promise<unknown>,
  ): Promise<Outcome> {
    for (let attempt = 1; ; attempt += 1) {
      await client.query('SAVEPOINT one_write');
      const ledger = new WriteTransaction(client, this.lane, head);
      try {
        const value = await work(ledger);
        await client.query('RELEASE SAVEPOINT one_write');
        return { ok: true, value, head: ledger.lastTransactionId };
      } catch (error) {
        // Without the connection, the group cannot go on.
        if (isConnectionFailure(error)) throw error;
        await client.query('ROLLBACK TO SAVEPOINT one_write');
        await client.query('RELEASE SAVEPOINT one_write');
        if (!isRetryable(error) || attempt === WRITE_ATTEMPTS) return { ok: false, error };
        this.committed.retries += 1;
      }
    }
  }
}

function asStoreError(error: unknown): unknown {
  if (isConnectionFailure(error)) return new StoreUnreachableError(error);
  return isPastTimeLimit(error) ? new StoreBusyError(error) : error;
}

/** Runs a request to the server; a lost server becomes a StoreUnreachableError. */
async function unreachableAsError<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    throw asStoreError(error);
  }
}

async function findTransaction(
  db: pg.Pool | pg.ClientBase,
  id: number,
): Promise<LedgerTransaction | undefined> {
  const row = (await db.query<TransactionRowShape>(SQL.find([id]))).rows[0];
  return row && toTransaction(row);
}

async function findSameCardCharge(
  db: pg.Pool | pg.ClientBase,
  { cardHash, amount, since }: SameCardCharge,
): Promise<LedgerTransaction | undefined> {
  const row = (await db.query<TransactionRowShape>(SQL.sameCardCharge([cardHash, amount, since]))).rows[0];
  return row && toTransaction(row);
}

async function findBatch(db: pg.Pool | pg.ClientBase, id: number): Promise<BatchRecord | undefined> {
  const row = (await db.query<BatchRowShape>(SQL.findBatch([id]))).rows[0];
  return row && toBatch(row);
}

/** One write inside the group's transaction, which holds the head lock from its first statement. */
class WriteTransaction implements LedgerWrite {
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
