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

import { type BatchRecord } from '../batch-rows';
import type { LedgerStore, LedgerWrite, SameCardCharge, StoredAnswer } from '../ledger-store';

import { type LedgerTransaction } from '../transaction-rows';
import { WriteQueue, type WriteOutcome } from '../sql/write-queue';
import { openPool, type PostgresConnectionOptions } from './connection';
import { SQL, findBatch, findSameCardCharge, findTransaction } from './ledger-sql';
import { migrateStore } from './migrate';
import { asStoreRequest, inTransaction } from './transaction';
import { runGroup } from './write-group';

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

export interface PostgresLedgerOptions extends PostgresConnectionOptions {
  /** This counter's lane, stamped on every transaction it writes. */
  lane: string;
}

type Work = (ledger: LedgerWrite) => Promise<unknown>;

export class PostgresLedger implements LedgerStore {
  /** How many writes ran again after a serialization failure or a deadlock. */
  readonly retried = { writes: 0 };
  private readonly queue: WriteQueue<Work>;

  private constructor(
    private readonly pool: pg.Pool,
    readonly lane: string,
  ) {
    this.queue = new WriteQueue<Work>((works) => this.runGroup(works), { groupLimit: GROUP_LIMIT });
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
    return new PostgresLedger(pool, options.lane);
  }

  close(): Promise<void> {
    return this.pool.end();
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

  /** One group: the head locked with BEGIN, the writes (write-group.ts), the head moved with COMMIT. */
  private runGroup(works: readonly Work[]): Promise<WriteOutcome[]> {
    return inTransaction(this.pool, async (client) => {
      const locked = await client.query<{ last_transaction_id: number }>(SQL.lockHead());
      const start = locked.rows[0]?.last_transaction_id ?? 0;
      const { outcomes, retries } = await runGroup(client, this.lane, start, works, WRITE_ATTEMPTS);
      this.retried.writes += retries;
      const head = outcomes.reduce((last, outcome) => (outcome.ok ? outcome.head : last), start);
      // Sent with the COMMIT, in its round trip: when it fails, COMMIT answers ROLLBACK.
      if (head !== start) client.query(SQL.moveHead([head])).catch(() => undefined);
      return outcomes;
    });
  }
}
