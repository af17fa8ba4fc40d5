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
 *
 * A request may also hold an original or an Idempotency-Key across its outside calls (`holdOriginal`,
 * `holdAnswer`), on a connection of its own and outside any write, so that what it holds keeps no
 * other request waiting and no second request for it goes to the processor meanwhile.
 */
import { randomBytes } from 'node:crypto';
import type pg from 'pg';

import { type BatchRecord } from '../batch-rows';
import type { LedgerStore, LedgerWrite, SameCardCharge, StoredAnswer } from '../ledger-store';

import { type LedgerTransaction } from '../transaction-rows';
import {
  isConnectionFailure,
  isPastTimeLimit,
  openPool,
  StoreBusyError,
  StoreUnreachableError,
  type PostgresConnectionOptions,
} from './connection';
import { KeyedQueue, Slots } from '../../keyed-queue';
import { AnswerHeldElsewhereError } from '../store-errors';
import { PostgresForwardQueue } from './forward-queue';
import { SQL, findBatch, findSameCardCharge, findTransaction } from './ledger-sql';
import { migrateStore } from './migrate';
import { runGroup, type WriteOutcome } from './write-group';

/** A counter's name in the store: 1 to 16 letters, digits or hyphens. */
export const LANE_NAME = /^[A-Za-z0-9-]{1,16}$/;

export function isLaneName(name: string): boolean {
  return LANE_NAME.test(name);
}

const CARD_HASH_KEY_BYTES = 32;

/** Requests of one counter that may hold a subject at once, each on a connection of its own. */
const HOLD_CONNECTIONS = 8;
/** The longest a request waits for a subject another holds: two gateway time limits and more. */
const HOLD_WAIT_MS = 300_000;

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
  private queue: PendingWrite[] = [];
  private scheduled = false;
  private flushing: Promise<void> | null = null;

  readonly forwards: PostgresForwardQueue;
  private readonly originals = new KeyedQueue();
  private readonly holdSlots = new Slots(HOLD_CONNECTIONS);

  private constructor(
    private readonly pool: pg.Pool,
    readonly lane: string,
    /** Connections that hold subjects across a request's outside calls, apart from the writes'. */
    private readonly holds: pg.Pool,
  ) {
    this.forwards = new PostgresForwardQueue(pool);
  }

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
    // A hold waits as long as the request holding it may take at the gateway (its time limit, then
    // as long again looking up a lost answer), and more.
    const holds = openPool({ ...options, max: HOLD_CONNECTIONS, statementTimeoutMs: HOLD_WAIT_MS });
    return new PostgresLedger(pool, options.lane, holds);
  }

  async close(): Promise<void> {
    await Promise.all([this.pool.end(), this.holds.end()]);
  }

  /** Requests of this counter take turns for an original here first, so they hold one connection. */
  holdOriginal<T>(originalId: number, work: () => Promise<T>): Promise<T> {
    return this.originals.run(String(originalId), () =>
      this.hold(async (client) => {
        await client.query(SQL.holdOriginal([originalId]));
        return true;
      }, work),
    );
  }

  holdAnswer<T>(apiKeyId: number, key: string, work: () => Promise<T>): Promise<T> {
    return this.hold(async (client) => {
      const taken = await client.query<{ held: boolean }>(SQL.holdAnswer([apiKeyId, key]));
      return taken.rows[0]?.held === true;
    }, work);
  }

  /**
   * A session-level advisory lock on a connection of its own, taken by `take` before `work` and let go
   * after it (an AnswerHeldElsewhereError when `take` finds it held): no write waits for it, since it is no row's and no transaction's, and a counter that
   * dies lets it go with its connection. A counter holds at most HOLD_CONNECTIONS at once; the others
   * wait their turn here rather than in the pool, whose wait is the server's time to connect.
   */
  private async hold<T>(
    take: (client: pg.PoolClient) => Promise<boolean>,
    work: () => Promise<T>,
  ): Promise<T> {
    const leave = await this.holdSlots.enter();
    try {
      const client = await unreachableAsError(() => this.holds.connect());
      let broken: Error | undefined;
      const onLost = (error: Error) => {
        broken = error;
      };
      client.on('error', onLost);
      try {
        let taken: boolean;
        try {
          taken = await take(client);
        } catch (error) {
          broken = error as Error;
          throw asStoreError(error);
        }
        if (!taken) throw new AnswerHeldElsewhereError();
        return await work();
      } finally {
        if (!broken)
          await client.query(SQL.releaseHolds()).catch((error: unknown) => (broken = error as Error));
        client.off('error', onLost);
        // A connection whose lock could not be let go is closed, which lets it go.
        client.release(broken);
      }
    } finally {
      leave();
    }
  }

  /**
   * The store's secret for keyed hashes of card numbers and of requests that carry card data: one for
   * every counter, so a card or a request is known again whichever counter saw it first. The first
   * counter to ask makes it; the others read the same one.
   */
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
      // Sent together (the connection pipelines): one round trip to begin and take the lock.
      const [, locked] = await Promise.all([
        client.query('BEGIN ISOLATION LEVEL READ COMMITTED'),
        client.query<{ last_transaction_id: number }>(SQL.lockHead()),
      ]);
      const start = locked.rows[0]?.last_transaction_id ?? 0;
      const works = group.map((pending) => pending.work);
      const { outcomes, retries } = await runGroup(client, this.lane, start, works, WRITE_ATTEMPTS);
      this.committed.retries += retries;
      const head = outcomes.reduce((last, outcome) => (outcome.ok ? outcome.head : last), start);
      const [, committed] = await Promise.all([
        head === start ? undefined : client.query(SQL.moveHead([head])),
        client.query('COMMIT'),
      ]);
      // A transaction that failed answers COMMIT with ROLLBACK: nothing of it was committed.
      if (committed.command !== 'COMMIT')
        throw new Error(`the group was not committed (${committed.command})`);
      this.committed.groups += 1;
      this.committed.writes += outcomes.filter((outcome) => outcome.ok).length;
      group.forEach((pending, index) => {
        const outcome = outcomes[index] as WriteOutcome;
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
