/**
 * Group commit, as databases do it: the writes that arrive while the disk is busy with one commit
 * share the next one. Each write still runs alone in its own savepoint, in arrival order, so every
 * rule it checks sees the writes before it; and each caller hears back only after the COMMIT that
 * holds its rows has reached the disk. One fsync then serves many requests instead of one.
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
  /** How many commits have reached the disk, and how many writes they held. */
  readonly committed = { groups: 0, writes: 0 };

  /** One write in its own savepoint, nested in the group's transaction (made once: making one costs). */
  private readonly inSavepoint;
  /** The group's transaction: every write in arrival order, each settling to an outcome. */
  private readonly inGroup;

  constructor(db: Connection) {
    // A nested better-sqlite3 transaction is a SAVEPOINT: a write that throws is undone alone, and
    // the others in the group still commit.
    this.inSavepoint = db.transaction((work: () => unknown) => work());
    this.inGroup = db.transaction((group: PendingWrite[]) =>
      group.map((pending): Outcome => {
        try {
          return { ok: true, value: this.inSavepoint(pending.work) };
        } catch (error) {
          return { ok: false, error };
        }
      }),
    );
  }

  /** Runs `work` in the next group's transaction; settles once that transaction is durable. */
  run<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        // setImmediate lets every request already read from the sockets join this group.
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const group = this.queue;
    this.queue = [];
    let outcomes: Outcome[];
    try {
      outcomes = this.inGroup.immediate(group);
      this.committed.groups += 1;
      this.committed.writes += group.length;
    } catch (error) {
      // Nothing of the group reached the disk: every caller hears it failed.
      for (const pending of group) pending.reject(error);
      return;
    }
    group.forEach((pending, index) => {
      const outcome = outcomes[index] as Outcome;
      if (outcome.ok) pending.resolve(outcome.value);
      else pending.reject(outcome.error);
    });
  }
}
