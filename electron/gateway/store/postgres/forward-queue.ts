/**
 * The store-and-forward queue on a store server (../forward-queue.ts): one queue for the store,
 * whichever counter made an offline transaction, forwarded by one counter at a time, which holds a
 * session-level advisory lock while it does (a counter that dies lets it go with its connection).
 *
 * PostgreSQL's equivalent of SQLite's secure delete: the table of swipes is rewritten by VACUUM FULL
 * once forwarded swipes were deleted, so the files that held them are unlinked, and the write-ahead
 * log is switched and checkpointed twice so that the segments that logged them are removed (the
 * server must run with `wal_recycle = off`, and the role be allowed to CHECKPOINT: docs/operations.md).
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

const q = Object.fromEntries(
  Object.entries(FORWARD_QUEUE_SQL).map(([name, text]) => [name, POSTGRES_DIALECT.placeholders(text)]),
) as Record<keyof typeof FORWARD_QUEUE_SQL, string>;

type Query = <R extends pg.QueryResultRow>(text: string, values: unknown[]) => Promise<pg.QueryResult<R>>;

/** The queue inside one write, through the write's own connection and its statement order. */
export function forwardQueueWrite(query: Query): ForwardQueueWrite {
  return {
    queue: async ({ transactionId, queuedAt, form, swipe, attempts }) => {
      await query(q.queue, [transactionId, queuedAt, form, attempts]);
      if (swipe !== null) await query(q.keepSwipe, [transactionId, swipe]);
    },
    summary: async () => {
      await query(`SELECT pg_advisory_xact_lock(${LOCKS.offlineTotal}, 0)`, []);
      return toSummary((await query<SummaryRow>(q.summary, [])).rows[0]);
    },
    noteAttempt: async (transactionId, at) => {
      await query(q.noteAttempt, [at, transactionId]);
    },
    settle: async (transactionId: number, settlement: ForwardSettlement) => {
      const { rowCount } = await query(q.settleEntry, [settlement.at, settlement.answer, transactionId]);
      if (rowCount !== 1) throw new Error(`transaction ${transactionId} waits in no forward queue`);
      await query(q.settleTransaction, [settlement.state, settlement.upstreamId, transactionId]);
      await query(q.deleteSwipe, [transactionId]);
    },
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

/** The queue read and erased outside any write, on the ledger's pool. */
export class PostgresForwardQueue implements ForwardQueueReads {
  constructor(private readonly pool: pg.Pool) {}

  async waiting(limit: number): Promise<QueuedForward[]> {
    return (await this.pool.query<WaitingRow>(q.waiting, [limit])).rows.map(toQueued);
  }

  async summary(): Promise<ForwardSummary> {
    return toSummary((await this.pool.query<SummaryRow>(q.summary)).rows[0]);
  }

  async declined(): Promise<DeclinedForward[]> {
    return (await this.pool.query<DeclinedRow>(q.declined)).rows.map(toDeclined);
  }

  async pendingChecks(limit: number): Promise<GatewayCheck[]> {
    return (await this.pool.query<CheckRow>(q.pendingChecks, [limit])).rows.map(toCheck);
  }

  async eraseSwipeRemnants(): Promise<boolean> {
    // VACUUM FULL writes the table anew and unlinks the files that held the deleted rows.
    await this.pool.query('VACUUM FULL forward_swipes');
    // The segments that logged the swipes go once a checkpoint after them has passed, in a segment
    // of their own: switch, then checkpoint, twice, so the last one's redo starts after them.
    await this.pool.query('CHECKPOINT');
    await this.pool.query('SELECT pg_switch_wal()');
    await this.pool.query('CHECKPOINT');
    return true;
  }

  async asOnlyForwarder<T>(work: () => Promise<T>): Promise<T | undefined> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      const taken = await client.query<{ locked: boolean }>(
        `SELECT pg_try_advisory_lock(${LOCKS.forwarder}, 0) AS locked`,
      );
      if (!taken.rows[0]?.locked) return undefined;
      try {
        return await work();
      } finally {
        await client.query(`SELECT pg_advisory_unlock(${LOCKS.forwarder}, 0)`).catch((error: unknown) => {
          // A connection that cannot unlock is closed, which lets the lock go.
          broken = error as Error;
        });
      }
    } finally {
      client.release(broken);
    }
  }
}
