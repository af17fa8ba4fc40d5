/**
 * Group commit on the SQLite file (the queue is ../sql/write-queue.ts): a group is one BEGIN IMMEDIATE
 * transaction, each write in its own savepoint, and the COMMIT reaches the disk (synchronous=FULL)
 * before any of its writes is answered.
 *
 * A write's work is asynchronous to fit the store port, but on SQLite every statement runs at once,
 * so a group runs from BEGIN to COMMIT within one turn of the event loop: nothing else can use the
 * connection in between.
 */
import { WriteQueue, type WriteOutcome } from '../sql/write-queue';
import type { Connection } from './database';

export class GroupCommit extends WriteQueue<() => unknown> {
  constructor(db: Connection) {
    const sql = {
      begin: db.prepare('BEGIN IMMEDIATE'),
      savepoint: db.prepare('SAVEPOINT one_write'),
      release: db.prepare('RELEASE one_write'),
      undo: db.prepare('ROLLBACK TO one_write'),
      commit: db.prepare('COMMIT'),
      rollback: db.prepare('ROLLBACK'),
    };

    /** One write in its own savepoint: a write that throws is undone alone, and the others still commit. */
    const inSavepoint = async (work: () => unknown): Promise<WriteOutcome> => {
      sql.savepoint.run();
      try {
        const value = await work();
        sql.release.run();
        return { ok: true, value };
      } catch (error) {
        sql.undo.run();
        sql.release.run();
        return { ok: false, error };
      }
    };

    super(async (works) => {
      const outcomes: WriteOutcome[] = [];
      try {
        sql.begin.run();
        for (const work of works) outcomes.push(await inSavepoint(work));
        sql.commit.run();
      } catch (error) {
        if (db.inTransaction) sql.rollback.run();
        throw error;
      }
      return outcomes;
    });
  }
}
