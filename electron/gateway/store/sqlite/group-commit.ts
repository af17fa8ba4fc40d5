/**
 * Group commit, as databases do it: the writes that arrive while the disk is busy with one commit
 * share the next one. Each write still runs alone in its own savepoint, in arrival order, so every
 * rule it checks sees the writes before it; and each caller hears back only after the COMMIT that
 * holds its rows has reached the disk. One fsync then serves many requests instead of one.
 *
 * A write's work is asynchronous to fit the store port, but on SQLite every statement runs at once,
 * so a group runs from BEGIN to COMMIT within one turn of the event loop: nothing else can use the
 * connection in between.
 */
import type { Connection } from './database';

interface PendingWrite {
  work: () => unknown;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

export class GroupCommit {
  private queue: PendingWrite[] = [];
  private scheduled = false;
  private flushing: Promise<void> | null = null;
  /** How many commits have reached the disk, and how many writes they held. */
  readonly committed = { groups: 0, writes: 0 };
  private readonly sql;

  constructor(private readonly db: Connection) {
    this.sql = {
      begin: db.prepare('BEGIN IMMEDIATE'),
      savepoint: db.prepare('SAVEPOINT one_write'),
      release: db.prepare('RELEASE one_write'),
      undo: db.prepare('ROLLBACK TO one_write'),
      commit: db.prepare('COMMIT'),
      rollback: db.prepare('ROLLBACK'),
    };
  }

  /** Runs `work` in the next group's transaction; settles once that transaction is durable. */
  run<T>(work: () => T | Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      this.schedule();
    });
  }

  /** True while a group's transaction is open. */
  get busy(): boolean {
    return this.flushing !== null;
  }

  /** Settles when no group's transaction is open: reads on the connection then see committed data only. */
  async idle(): Promise<void> {
    while (this.flushing) await this.flushing;
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
    const group = this.queue;
    this.queue = [];
    const outcomes: Outcome[] = [];
    try {
      this.sql.begin.run();
      for (const pending of group) outcomes.push(await this.inSavepoint(pending.work));
      this.sql.commit.run();
      this.committed.groups += 1;
      this.committed.writes += group.length;
    } catch (error) {
      // Nothing of the group reached the disk: every caller hears it failed.
      if (this.db.inTransaction) this.sql.rollback.run();
      for (const pending of group) pending.reject(error);
      return;
    }
    group.forEach((pending, index) => {
      const outcome = outcomes[index] as Outcome;
      if (outcome.ok) pending.resolve(outcome.value);
      else pending.reject(outcome.error);
    });
  }

  /** One write in its own savepoint: a write that throws is undone alone, and the others still commit. */
  private async inSavepoint(work: () => unknown): Promise<Outcome> {
    this.sql.savepoint.run();
    try {
      const value = await work();
      this.sql.release.run();
      return { ok: true, value };
    } catch (error) {
      this.sql.undo.run();
      this.sql.release.run();
      return { ok: false, error };
    }
  }
}
