/**
 * The store-and-forward queue in the data dir's SQLite file (../forward-queue.ts). The file is written
 * with `secure_delete` on, so a deleted swipe's bytes are overwritten with zeros in its page; the
 * pages that held it before, still in the write-ahead log, go when the log is checkpointed and
 * truncated, which the forwarder asks for once it has deleted swipes.
 */
import { BUSY_TIMEOUT_MS, type Connection } from './database';
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
import type {
  DeclinedForward,
  ForwardQueueReads,
  ForwardQueueWrite,
  ForwardSettlement,
  ForwardSummary,
  GatewayCheck,
  QueuedForward,
} from '../forward-queue';

export class SqliteForwardQueue implements ForwardQueueReads {
  private readonly sql;
  private forwarding = false;
  /** Valid only while a write of the ledger runs: its statements run inside the group's transaction. */
  readonly inWrite: ForwardQueueWrite;

  constructor(private readonly db: Connection) {
    // Deleted rows are overwritten with zeros, never left in free space: a forwarded swipe included.
    db.pragma('secure_delete = ON');
    const q = FORWARD_QUEUE_SQL;
    this.sql = {
      queue: db.prepare<[number, number, string, number]>(q.queue),
      keepSwipe: db.prepare<[number, string]>(q.keepSwipe),
      summary: db.prepare<[], SummaryRow>(q.summary),
      storedSetting: db.prepare<[string], { value: string }>(q.storedSetting),
      noteAttempt: db.prepare<[number, number]>(q.noteAttempt),
      noteNotSent: db.prepare<[number | null, number]>(q.noteNotSent),
      noteSendEnded: db.prepare<[number, number]>(q.noteSendEnded),
      settleEntry: db.prepare<[number, string, number]>(q.settleEntry),
      settleUnsentEntry: db.prepare<[number, string, number]>(q.settleUnsentEntry),
      settleTransaction: db.prepare<[string, string | null, number]>(q.settleTransaction),
      deleteSwipe: db.prepare<[number]>(q.deleteSwipe),
      acknowledge: db.prepare<[number, string, number]>(q.acknowledge),
      addCheck: db.prepare<[string, number, number]>(q.addCheck),
      resolveCheck: db.prepare<[number, string, string]>(q.resolveCheck),
      waiting: db.prepare<[number], WaitingRow>(q.waiting),
      declined: db.prepare<[], DeclinedRow>(q.declined),
      pendingChecks: db.prepare<[number], CheckRow>(q.pendingChecks),
    };
    this.inWrite = this.writeSide();
  }

  private writeSide(): ForwardQueueWrite {
    const sql = this.sql;
    /** Settles the entry `entry` finds, with its transaction and swipe; false when it finds none. */
    const settled = (
      entry: typeof sql.settleEntry,
      transactionId: number,
      settlement: ForwardSettlement,
    ): boolean => {
      if (entry.run(settlement.at, settlement.answer, transactionId).changes !== 1) return false;
      sql.settleTransaction.run(settlement.state, settlement.upstreamId, transactionId);
      sql.deleteSwipe.run(transactionId);
      return true;
    };
    return {
      queue: async ({ transactionId, queuedAt, form, swipe, attempts }) => {
        sql.queue.run(transactionId, queuedAt, form, attempts);
        if (swipe !== null) sql.keepSwipe.run(transactionId, swipe);
      },
      summary: async () => toSummary(sql.summary.get()),
      storedSetting: async (name) => sql.storedSetting.get(name)?.value,
      noteAttempt: async (transactionId, endsBy) => sql.noteAttempt.run(endsBy, transactionId).changes === 1,
      noteNotSent: async (transactionId, lastAttemptAt) => {
        sql.noteNotSent.run(lastAttemptAt, transactionId);
      },
      noteSendEnded: async (transactionId, at) => {
        sql.noteSendEnded.run(at, transactionId);
      },
      settle: async (transactionId: number, settlement: ForwardSettlement) => {
        if (!settled(sql.settleEntry, transactionId, settlement))
          throw new Error(`transaction ${transactionId} waits in no forward queue`);
      },
      cancelUnsent: async (transactionId: number, settlement: ForwardSettlement) =>
        settled(sql.settleUnsentEntry, transactionId, settlement),
      acknowledge: async (transactionId, at, by) => sql.acknowledge.run(at, by, transactionId).changes === 1,
      addCheck: async ({ reference, transactionId, since }: GatewayCheck) => {
        sql.addCheck.run(reference, transactionId, since);
      },
      resolveCheck: async (reference, at, outcome) => {
        sql.resolveCheck.run(at, outcome, reference);
      },
    };
  }

  async waiting(limit: number): Promise<QueuedForward[]> {
    return this.sql.waiting.all(limit).map(toQueued);
  }

  async summary(): Promise<ForwardSummary> {
    return toSummary(this.sql.summary.get());
  }

  async declined(): Promise<DeclinedForward[]> {
    return this.sql.declined.all().map(toDeclined);
  }

  async pendingChecks(limit: number): Promise<GatewayCheck[]> {
    return this.sql.pendingChecks.all(limit).map(toCheck);
  }

  async eraseSwipeRemnants(): Promise<boolean> {
    // The pages written before the delete, swipe and all, are frames of the write-ahead log until it
    // is checkpointed and cut back to nothing; busy while a reader still needs them. This runs on the
    // writer's connection, on the engine's thread: it must not wait for that reader (the busy
    // timeout would stop every request meanwhile), so it answers busy and the next round tries again.
    this.db.pragma('busy_timeout = 0');
    try {
      const [result] = this.db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
      return result?.busy === 0;
    } catch (error) {
      // Another connection checkpointing at this moment (the background checkpointer).
      if ((error as { code?: string }).code?.startsWith('SQLITE_BUSY')) return false;
      throw error;
    } finally {
      this.db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    }
  }

  async asOnlyForwarder<T>(work: () => Promise<T>): Promise<T | undefined> {
    // One engine serves a data dir (engine.lock): the only other forwarder would be this one.
    if (this.forwarding) return undefined;
    this.forwarding = true;
    try {
      return await work();
    } finally {
      this.forwarding = false;
    }
  }
}
