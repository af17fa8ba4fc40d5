/**
 * The store-and-forward queue on a store server (../forward-queue.ts): one queue for the store,
 * whichever counter made an offline transaction, forwarded by one counter at a time, which holds a
 * session-level advisory lock while it does (a counter that dies lets it go with its connection).
 *
 * PostgreSQL's equivalent of SQLite's secure delete: once forwarded swipes were deleted and every
 * transaction that could still see them has ended, the table of swipes is rewritten by VACUUM FULL,
 * so the files that held them are unlinked, and the write-ahead log is switched and checkpointed twice
 * so that the segments that logged them are removed (the server must run with `wal_recycle = off`,
 * and the role be allowed to CHECKPOINT: docs/operations.md). An erasure that could not finish yet
 * (a long transaction still sees the rows) is tried again in the forwarder's next round.
 */
import type pg from 'pg';
import type {
  DeclinedForward,
  ForwardQueueReads,
  ForwardQueueWrite,
  ForwardSettlement,
  ForwardSummary,
  GatewayCheck,
  QueuedForward,
} from '../forward-queue';
import {
  FORWARD_QUEUE_SQL,
  toCheck,
  toDeclined,
  toQueued,
  toSummary,
  type CheckRow,
  type DeclinedRow,
  type SummaryRow,
  type WaitingRow,
} from '../sql/forward-queue-sql';
import { POSTGRES_DIALECT } from '../sql/dialect';
import { LOCKS } from './ledger-sql';
import { asStoreError, asStoreRequest, withConnection } from './transaction';

/**
 * The longest one erasure waits for the transactions that may still see the deleted swipes to end;
 * past it, the forwarder tries again in its next round.
 */
const ERASURE_WAITS_FOR_MS = 2_000;
const ERASURE_POLL_MS = 20;
/** PostgreSQL's SQLSTATE for a lock not taken within `lock_timeout`. */
const LOCK_NOT_AVAILABLE = '55P03';

/**
 * The statements of the erasure. A deleted row stays readable to every snapshot that may not see its
 * delete, and VACUUM FULL copies such a row into the table's new file. Which snapshots count is
 * decided from the sessions of this database, but a snapshot's horizon is the oldest transaction then
 * running anywhere on the server: a new snapshot here, taken while another database's transaction
 * older than the delete still runs, keeps the row too. So the erasure waits until every transaction
 * older than `next` (the next transaction id, read once the deletes had committed) has ended on the
 * whole server, and no session of this database still has a snapshot from before it; then rewrites;
 * and, when nothing waits, checks that the new file is empty.
 */
const ERASURE = {
  /** Whether anything was ever queued to be forwarded (entries are kept once settled). */
  everQueued: 'SELECT EXISTS (SELECT 1 FROM forward_queue) AS queued',
  /** The next transaction id, 64 bits wide. */
  next: 'SELECT txid_snapshot_xmax(txid_current_snapshot())::text AS next',
  /** Whether nothing can still see a row deleted before $1 (bigint), nor take a snapshot that does. */
  seenByNone: `SELECT txid_snapshot_xmin(txid_current_snapshot()) >= $1::bigint
     AND NOT EXISTS (
        SELECT 1 FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> pg_backend_pid()
           AND age(backend_xmin) > age(($1::bigint % 4294967296)::text::xid))
     AND NOT EXISTS (
        SELECT 1 FROM pg_replication_slots
         WHERE age(xmin) > age(($1::bigint % 4294967296)::text::xid)) AS clear`,
  /** Whether the table, with no row left, still has a page: a deleted row the rewrite had to keep. */
  keptDeleted: `SELECT NOT EXISTS (SELECT 1 FROM forward_swipes)
     AND pg_relation_size('forward_swipes') > 0 AS kept`,
} as const;

const q = Object.fromEntries(
  Object.entries(FORWARD_QUEUE_SQL).map(([name, text]) => [name, POSTGRES_DIALECT.placeholders(text)]),
) as Record<keyof typeof FORWARD_QUEUE_SQL, string>;

type Query = <R extends pg.QueryResultRow>(text: string, values: unknown[]) => Promise<pg.QueryResult<R>>;

/**
 * Takes the store-wide lock of what waits to be forwarded (LOCKS.offlineTotal), held until the
 * transaction ends: an offline approval takes it before it reads the total, and a change of
 * processor or swipe key before it counts what waits.
 */
async function lockWaiting(query: Query): Promise<void> {
  await query(`SELECT pg_advisory_xact_lock(${LOCKS.offlineTotal}, 0)`, []);
}

/** How many entries wait, counted in the caller's transaction under the lock of what waits. */
export async function waitingUnderLock(query: Query): Promise<number> {
  await lockWaiting(query);
  return Number((await query<{ count: string }>(q.waitingCount, [])).rows[0]?.count ?? 0);
}

/** A settled transaction's lane comes back with it: see `forwardQueueWrite`'s `settledLane`. */
const SETTLE_TRANSACTION = `${q.settleTransaction} RETURNING lane`;

/**
 * The queue inside one write, through the write's own connection and its statement order.
 * `settledLane` hears the lane of each transaction settled: a declined one leaves its batch from the
 * share of the counter that made it, whichever counter forwarded it.
 */
export function forwardQueueWrite(query: Query, settledLane: (lane: string) => void): ForwardQueueWrite {
  /** Settles the entry `entry` finds, with its transaction and swipe; false when it finds none. */
  const settled = async (entry: string, transactionId: number, settlement: ForwardSettlement) => {
    const { rowCount } = await query(entry, [settlement.at, settlement.answer, transactionId]);
    if (rowCount !== 1) return false;
    const { rows } = await query<{ lane: string }>(SETTLE_TRANSACTION, [
      settlement.state,
      settlement.upstreamId,
      transactionId,
    ]);
    if (rows[0]) settledLane(rows[0].lane);
    await query(q.deleteSwipe, [transactionId]);
    return true;
  };
  return {
    queue: async ({ transactionId, queuedAt, form, swipe, attempts }) => {
      await query(q.queue, [transactionId, queuedAt, form, attempts]);
      if (swipe !== null) await query(q.keepSwipe, [transactionId, swipe]);
    },
    summary: async () => {
      await lockWaiting(query);
      return toSummary((await query<SummaryRow>(q.summary, [])).rows[0]);
    },
    storedSetting: async (name) => (await query<{ value: string }>(q.storedSetting, [name])).rows[0]?.value,
    noteAttempt: async (transactionId, endsBy) =>
      (await query(q.noteAttempt, [endsBy, transactionId])).rowCount === 1,
    noteNotSent: async (transactionId, lastAttemptAt) => {
      await query(q.noteNotSent, [lastAttemptAt, transactionId]);
    },
    noteSendEnded: async (transactionId, at) => {
      await query(q.noteSendEnded, [at, transactionId]);
    },
    settle: async (transactionId: number, settlement: ForwardSettlement) => {
      if (!(await settled(q.settleEntry, transactionId, settlement)))
        throw new Error(`transaction ${transactionId} waits in no forward queue`);
    },
    cancelUnsent: (transactionId: number, settlement: ForwardSettlement) =>
      settled(q.settleUnsentEntry, transactionId, settlement),
    acknowledge: async (transactionId, at, by) =>
      (await query(q.acknowledge, [at, by, transactionId])).rowCount === 1,
    addCheck: async ({ reference, transactionId, since }: GatewayCheck) => {
      await query(q.addCheck, [reference, transactionId, since]);
    },
    resolveCheck: async (reference, at, outcome) => {
      await query(q.resolveCheck, [at, outcome, reference]);
    },
  };
}

/**
 * The queue read and erased outside any write, on the ledger's pool. A server that cannot be reached,
 * or a statement past its time, fails as the store's error (a batch close then answers 503
 * store_unreachable or store_busy, as every request does).
 */
export class PostgresForwardQueue implements ForwardQueueReads {
  constructor(private readonly pool: pg.Pool) {}

  waiting(limit: number): Promise<QueuedForward[]> {
    return asStoreRequest(async () =>
      (await this.pool.query<WaitingRow>(q.waiting, [limit])).rows.map(toQueued),
    );
  }

  summary(): Promise<ForwardSummary> {
    return asStoreRequest(async () => toSummary((await this.pool.query<SummaryRow>(q.summary)).rows[0]));
  }

  declined(): Promise<DeclinedForward[]> {
    return asStoreRequest(async () => (await this.pool.query<DeclinedRow>(q.declined)).rows.map(toDeclined));
  }

  pendingChecks(limit: number): Promise<GatewayCheck[]> {
    return asStoreRequest(async () =>
      (await this.pool.query<CheckRow>(q.pendingChecks, [limit])).rows.map(toCheck),
    );
  }

  eraseSwipeRemnants(): Promise<boolean> {
    return asStoreRequest(async () => {
      // A store that never queued anything never kept a swipe: nothing to erase, nor a checkpoint to
      // ask for (which a store without store and forward need not allow its role).
      if (!(await this.pool.query<{ queued: boolean }>(ERASURE.everQueued)).rows[0]?.queued) return true;
      const next = (await this.pool.query<{ next: string }>(ERASURE.next)).rows[0]?.next;
      if (!(await this.#noneSeesDeletedBefore(next))) return false;
      if (!(await this.#rewrite())) return false;
      if ((await this.pool.query<{ kept: boolean }>(ERASURE.keptDeleted)).rows[0]?.kept) return false;
      // The segments that logged the swipes go once a checkpoint after them has passed, in a segment
      // of their own: switch, then checkpoint, twice, so the last one's redo starts after them.
      await this.pool.query('CHECKPOINT');
      await this.pool.query('SELECT pg_switch_wal()');
      await this.pool.query('CHECKPOINT');
      return true;
    });
  }

  /**
   * VACUUM FULL writes the table anew and unlinks the files that held the deleted rows. It needs the
   * table to itself: while another session holds it (a transaction that read the queue and is still
   * open), it waits up to ERASURE_WAITS_FOR_MS and answers false, rather than stall the round.
   */
  #rewrite(): Promise<boolean> {
    return withConnection(this.pool, async (lease) => {
      await lease.client.query(`SET lock_timeout = ${ERASURE_WAITS_FOR_MS}`);
      try {
        await lease.client.query('VACUUM FULL forward_swipes');
        return true;
      } catch (error) {
        if ((error as { code?: string }).code === LOCK_NOT_AVAILABLE) return false;
        throw error;
      } finally {
        await lease.client.query('RESET lock_timeout').catch((error: unknown) => {
          // A connection whose setting cannot be put back is closed rather than lent again.
          lease.broken = error as Error;
        });
      }
    });
  }

  /** Waits, up to ERASURE_WAITS_FOR_MS, until nothing can see a row deleted before `next`. */
  async #noneSeesDeletedBefore(next: string | undefined): Promise<boolean> {
    const giveUpAt = Date.now() + ERASURE_WAITS_FOR_MS;
    for (;;) {
      const { rows } = await this.pool.query<{ clear: boolean }>(ERASURE.seenByNone, [next]);
      if (rows[0]?.clear) return true;
      if (Date.now() >= giveUpAt) return false;
      await new Promise((resolve) => setTimeout(resolve, ERASURE_POLL_MS));
    }
  }

  /** Under the store's forwarder lock, held across the round's sends to the gateway on a connection of its own. */
  asOnlyForwarder<T>(work: () => Promise<T>): Promise<T | undefined> {
    return withConnection(this.pool, async (lease) => {
      const taken = await lease.client
        .query<{ locked: boolean }>(`SELECT pg_try_advisory_lock(${LOCKS.forwarder}, 0) AS locked`)
        .catch((error: unknown) => {
          lease.broken = error as Error;
          throw asStoreError(error);
        });
      if (!taken.rows[0]?.locked) return undefined;
      try {
        return await work();
      } finally {
        await lease.client
          .query(`SELECT pg_advisory_unlock(${LOCKS.forwarder}, 0)`)
          .catch((error: unknown) => {
            // A connection that cannot unlock is closed, which lets the lock go.
            lease.broken = error as Error;
          });
      }
    });
  }
}
