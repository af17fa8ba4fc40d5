/**
 * The ledger on a store server: the store port (../ledger-store.ts) for a store whose counters share
 * one PostgreSQL database. Each counter's engine holds one PostgresLedger, named by its lane.
 *
 * No write locks the ledger as a whole: writes from different counters, and the groups of one
 * counter, run at the same time, each holding only the locks its rules need (write-transaction.ts),
 * at READ COMMITTED, so each statement after a lock sees everything the writes it waited for
 * committed, and a rule checked inside a write still holds at its commit, as on SQLite. Unique
 * indexes and checks in the schema are the second line. A write answers only after COMMIT returns,
 * with synchronous_commit on.
 *
 * The writes a counter receives together share one transaction (group commit, as on SQLite), each in
 * its own savepoint and in arrival order: one commit and one flush on the server serve all of them.
 * Several groups of one counter run at once, each on a connection (a slot) of its own, so a counter's
 * next writes need not wait for its last group's round trips.
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
import { WriteQueue, type WriteOutcome } from '../sql/write-queue';
import { isRetryable, openPool, sendTogether, type PostgresConnectionOptions } from './connection';
import { laneLock, LOCKS, lockKey, SQL, findBatch, findSameCardCharge, findTransaction } from './ledger-sql';
import { KeyedQueue, Slots } from '../../keyed-queue';
import { AnswerHeldElsewhereError, LaneInUseError } from '../store-errors';
import { PostgresForwardQueue } from './forward-queue';
import { migrateStore } from './migrate';
import { asStoreError, asStoreRequest, inTransaction, withConnection } from './transaction';
import { CommitAtOnceFailedError, runGroup } from './write-group';
import { GroupBatch, GroupIds, GuessedBatchClosedError, HeldChanges } from './write-transaction';

/** A counter's name in the store: 1 to 16 letters, digits or hyphens. */
export const LANE_NAME = /^[A-Za-z0-9-]{1,16}$/;

export function isLaneName(name: string): boolean {
  return LANE_NAME.test(name);
}

const CARD_HASH_KEY_BYTES = 32;

/** How many times a group that met a serialization failure or a deadlock is run. */
const GROUP_ATTEMPTS = 5;

/**
 * Ids a busy slot takes with each commit for its next group, so that a group waits for no round trip
 * to number its rows; kept only this long, so that a row's id still tells when it was made, among the
 * rows of every counter, to within a moment.
 */
const RESERVE_SIZE = 16;
const RESERVE_KEPT_MS = 200;

/**
 * Requests of one counter that may hold an original or the close at once, an Idempotency-Key at once,
 * and the close shared at once, each on a connection of its own. Apart, because a request holds its
 * key, then the close shared, then its original: with one set, requests holding every slot by their
 * keys would wait for ever for one more.
 */
const HOLD_CONNECTIONS = { subject: 8, answer: 4, share: 8 } as const;
/** The longest a request waits for a subject another holds: two gateway time limits and more. */
const HOLD_WAIT_MS = 300_000;

/** How often a serving counter whose lane's connection broke tries to hold the lane again. */
const LANE_RECLAIM_MS = 5000;

/**
 * The groups of one counter that may run at once, each on a connection of its own. More let a
 * counter's writes go on while a group waits for the server; each is a connection the server keeps.
 */
const GROUP_SLOTS = 2;

/**
 * The most writes one transaction holds. Each is a subtransaction, and PostgreSQL keeps the ids of
 * at most 64 of them per transaction where other sessions look them up cheaply.
 */
const GROUP_LIMIT = 48;

export interface PostgresLedgerOptions extends PostgresConnectionOptions {
  /** This counter's lane, stamped on every transaction it writes. */
  lane: string;
}

type Work = (ledger: LedgerWrite) => Promise<unknown>;

export class PostgresLedger implements LedgerStore {
  /** How many groups ran again after a serialization failure or a deadlock. */
  readonly retried = { groups: 0 };
  private readonly queue: WriteQueue<Work>;
  /** The open batch the last committed group held, which the next group begins with (GroupBatch). */
  private lastOpenBatch: BatchRecord | undefined;
  /** Each slot's ids for its next group, taken with its last commit, and when. */
  private readonly reservedIds: ({ ids: number[]; at: number } | undefined)[] = [];
  /** The store-and-forward queue, read outside any write. */
  readonly forwards: PostgresForwardQueue;
  /** Requests of this counter for one original take turns here first, so they hold one connection. */
  private readonly originals = new KeyedQueue();
  /** The lane's claim while an engine serves it (claimLane): its connection, and a retry after a break. */
  private laneClaim:
    { pool: pg.Pool; client?: pg.PoolClient; retry?: NodeJS.Timeout; closed: boolean } | undefined;
  private readonly holdSlots = {
    subject: new Slots(HOLD_CONNECTIONS.subject),
    answer: new Slots(HOLD_CONNECTIONS.answer),
    share: new Slots(HOLD_CONNECTIONS.share),
  };

  private constructor(
    private readonly pool: pg.Pool,
    /** Connections that hold subjects across a request's outside calls, apart from the writes'. */
    private readonly holds: pg.Pool,
    readonly lane: string,
    private readonly connection: PostgresConnectionOptions,
  ) {
    this.forwards = new PostgresForwardQueue(pool);
    this.queue = new WriteQueue<Work>((works, slot) => this.runGroup(works, slot), {
      groupLimit: GROUP_LIMIT,
      slots: GROUP_SLOTS,
    });
  }

  /** How many groups have committed, and how many writes they held. */
  get committed(): { readonly groups: number; readonly writes: number } {
    return this.queue.committed;
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
      await asStoreRequest(() => migrateStore(pool));
    } catch (error) {
      await pool.end();
      throw error;
    }
    // A hold waits as long as the request holding it may take at the gateway (its time limit, then
    // as long again looking up a lost answer), and more.
    const holds = openPool({
      ...options,
      max: HOLD_CONNECTIONS.subject + HOLD_CONNECTIONS.answer + HOLD_CONNECTIONS.share,
      statementTimeoutMs: HOLD_WAIT_MS,
    });
    return new PostgresLedger(pool, holds, options.lane, options);
  }

  async close(): Promise<void> {
    const claim = this.laneClaim;
    if (claim) {
      // Closed first: an error the connection reports while it ends is then no break to mend.
      claim.closed = true;
      clearTimeout(claim.retry);
      const client = claim.client;
      claim.client = undefined;
      client?.release(true);
    }
    await Promise.all([this.pool.end(), this.holds.end(), claim?.pool.end()]);
  }

  /**
   * Claims this counter's lane for the engine that serves it, until the ledger closes: a session lock
   * on a connection of its own, which the server lets go when the engine stops or dies. A second
   * engine given the same lane is refused with a LaneInUseError. Should the connection break (the
   * server restarted), the counter goes on and holds the lane again as soon as it can.
   */
  async claimLane(): Promise<void> {
    if (this.laneClaim) return;
    const claim: NonNullable<PostgresLedger['laneClaim']> = {
      pool: openPool({ ...this.connection, max: 1 }),
      closed: false,
    };
    this.laneClaim = claim;
    if (!(await this.holdLane(claim))) {
      this.laneClaim = undefined;
      await claim.pool.end();
      throw new LaneInUseError(this.lane);
    }
  }

  /** Takes the lane's lock on the claim's connection: false when another engine holds it. */
  private async holdLane(claim: NonNullable<PostgresLedger['laneClaim']>): Promise<boolean> {
    let client: pg.PoolClient;
    try {
      client = await claim.pool.connect();
    } catch (error) {
      throw asStoreError(error);
    }
    let held = false;
    try {
      const taken = await client.query<{ held: boolean }>(SQL.tryHold(laneLock(this.lane)));
      held = taken.rows[0]?.held === true;
    } catch (error) {
      client.release(true);
      throw asStoreError(error);
    }
    if (!held) {
      client.release(true);
      return false;
    }
    if (claim.closed) {
      client.release(true);
      return true;
    }
    claim.client = client;
    let lost = false;
    // Kept listening after the first: a second event unheard would end the process.
    client.on('error', () => {
      if (lost || claim.closed) return;
      lost = true;
      claim.client = undefined;
      client.release(true);
      this.reclaimLane(claim);
    });
    return true;
  }

  /** After the claim's connection broke: tries again until the lane is held, or the ledger closes. */
  private reclaimLane(claim: NonNullable<PostgresLedger['laneClaim']>): void {
    if (claim.closed) return;
    claim.retry = setTimeout(() => {
      this.holdLane(claim).then(
        (held) => {
          if (!held) this.reclaimLane(claim);
        },
        () => this.reclaimLane(claim),
      );
    }, LANE_RECLAIM_MS);
    claim.retry.unref();
  }

  /**
   * The original held with a session lock on a connection of its own, taken before `work` and let go
   * after it: a request for the same original at any counter waits for it (a StoreBusyError past the
   * time limit), while no write waits, since the lock is no row's and no transaction's.
   */
  holdOriginal<T>(originalId: number, work: () => Promise<T>): Promise<T> {
    return this.originals.run(String(originalId), () =>
      this.hold(
        'subject',
        async (client) => {
          await client.query(SQL.hold([LOCKS.original, originalId | 0]));
          return true;
        },
        work,
      ),
    );
  }

  /** An Idempotency-Key held as an original is, but refused at once while another counter holds it. */
  holdAnswer<T>(apiKeyId: number, key: string, work: () => Promise<T>): Promise<T> {
    return this.hold(
      'answer',
      async (client) => {
        const taken = await client.query<{ held: boolean }>(
          SQL.tryHold([LOCKS.answer, lockKey(`${apiKeyId} ${key}`)]),
        );
        return taken.rows[0]?.held === true;
      },
      work,
    );
  }

  holdClose<T>(work: () => Promise<T>): Promise<T> {
    return this.hold(
      'subject',
      async (client) => {
        await client.query(SQL.hold([LOCKS.close, 0]));
        return true;
      },
      work,
    );
  }

  /**
   * The close's lock taken shared: PostgreSQL grants a lock to no one who would overtake a request
   * already waiting for it, so requests that come while a close waits for those under way wait too.
   */
  shareClose<T>(work: () => Promise<T>): Promise<T> {
    return this.hold(
      'share',
      async (client) => {
        await client.query(SQL.holdShared([LOCKS.close, 0]));
        return true;
      },
      work,
    );
  }

  /**
   * A session-level advisory lock on a connection of its own, taken by `take` before `work` and let go
   * after it (an AnswerHeldElsewhereError when `take` finds it held). A counter that dies lets it go
   * with its connection. A counter holds at most HOLD_CONNECTIONS of each kind at once; the others
   * wait their turn here rather than in the pool, whose wait is the server's time to connect.
   */
  private async hold<T>(
    kind: keyof typeof HOLD_CONNECTIONS,
    take: (client: pg.PoolClient) => Promise<boolean>,
    work: () => Promise<T>,
  ): Promise<T> {
    const leave = await this.holdSlots[kind].enter();
    try {
      return await withConnection(this.holds, async (lease) => {
        let taken: boolean;
        try {
          taken = await take(lease.client);
        } catch (error) {
          lease.broken = error as Error;
          throw asStoreError(error);
        }
        try {
          if (!taken) throw new AnswerHeldElsewhereError();
          return await work();
        } finally {
          // A connection whose lock could not be let go is closed, which lets it go.
          if (!lease.broken)
            await lease.client
              .query(SQL.release())
              .catch((error: unknown) => (lease.broken = error as Error));
        }
      });
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
    return asStoreRequest(async () => {
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
    return this.queue.run<T>(work);
  }

  find(id: number): Promise<LedgerTransaction | undefined> {
    return asStoreRequest(() => findTransaction(this.pool, id));
  }

  findBatch(id: number): Promise<BatchRecord | undefined> {
    return asStoreRequest(() => findBatch(this.pool, id));
  }

  isSwipeKsnUsed(ksn: string): Promise<boolean> {
    return asStoreRequest(async () => (await this.pool.query(SQL.swipeSeen([ksn]))).rowCount !== 0);
  }

  findSameCardCharge(charge: SameCardCharge): Promise<LedgerTransaction | undefined> {
    return asStoreRequest(() => findSameCardCharge(this.pool, charge));
  }

  findAnswer(apiKeyId: number, key: string): Promise<StoredAnswer | undefined> {
    return asStoreRequest(
      async () => (await this.pool.query<StoredAnswer>(SQL.findAnswer([apiKeyId, key]))).rows[0],
    );
  }

  /**
   * One group as one transaction, run again from its start when it met a serialization failure or a
   * deadlock (the port allows it): its locks are then all let go, so the other transaction goes on.
   * A group first tries to commit at once, behind its writes' statements (write-group.ts); when one
   * of them failed, it runs again with each write waited for, so that the failing write alone fails.
   */
  private async runGroup(works: readonly Work[], slot: number): Promise<WriteOutcome[]> {
    let atOnce = true;
    // The ids an attempt took: when it was surely not committed, the next attempt numbers with them.
    const taken = { ids: [] as number[] };
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.runGroupOnce(works, slot, atOnce, taken);
      } catch (error) {
        if (error instanceof GuessedBatchClosedError) {
          this.lastOpenBatch = undefined;
          continue;
        }
        if (error instanceof CommitAtOnceFailedError) {
          atOnce = false;
          continue;
        }
        if (!isRetryable(error) || attempt >= GROUP_ATTEMPTS) throw error;
        this.retried.groups += 1;
      }
    }
  }

  /**
   * The group's transaction. Its ids come from its slot's reserve, taken with the slot's last commit,
   * or else from the store's sequence with its BEGIN; an id no write of it kept is left unused (ids
   * only grow, and deep pages do not count on them running without a gap: list-sql.ts).
   */
  private async runGroupOnce(
    works: readonly Work[],
    slot: number,
    atOnce: boolean,
    taken: { ids: number[] },
  ): Promise<WriteOutcome[]> {
    let held: BatchRecord | null | undefined;
    const reserve = this.reservedIds[slot];
    this.reservedIds[slot] = undefined;
    let ids: GroupIds | undefined;
    const outcomes = await inTransaction(this.pool, async (client, commit) => {
      const writer = `${this.lane}/${slot}`;
      const fresh = reserve && Date.now() - reserve.at <= RESERVE_KEPT_MS ? reserve.ids : [];
      ids = new GroupIds(client, works.length, [...taken.ids, ...fresh]);
      const batch = this.lastOpenBatch ? GroupBatch.guessed(client, this.lastOpenBatch) : new GroupBatch();
      /**
       * Sent behind the group's writes, with its COMMIT: the new rows counted, and, when writes come
       * together (a busy counter), the next group's ids taken.
       */
      const finish = (inserted: number[]) => {
        sendTogether(client);
        if (inserted.length > 0) client.query(SQL.countBlocks([inserted, writer])).catch(() => undefined);
        if (works.length < 2) return;
        client
          .query<{ id: number }>(SQL.takeIds([Math.max(works.length, RESERVE_SIZE)]))
          .then(({ rows }) => {
            this.reservedIds[slot] = { ids: rows.map((row) => row.id), at: Date.now() };
          })
          .catch(() => undefined);
      };
      const commitAtOnce = atOnce
        ? async (inserted: number[]) => {
            finish(inserted);
            await commit();
          }
        : undefined;
      const place = {
        lane: this.lane,
        writer,
        ids,
        batch,
        savepoints: !atOnce,
        held: new HeldChanges(),
        liveKeys: new Set<number>(),
      };
      const group = await runGroup(client, place, works, commitAtOnce);
      if (!group.committed) finish(group.inserted);
      held = batch.open;
      return group.outcomes;
    }).finally(() => {
      if (ids) taken.ids = ids.held();
    });
    // Committed: what the group held is the next group's guess (none, when it closed the batch).
    if (held !== undefined) this.lastOpenBatch = held ?? undefined;
    return outcomes;
  }
}
