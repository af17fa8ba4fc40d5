import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GroupCommit } from '../../electron/gateway/store/sqlite/group-commit';

let dir: string;
let db: Database.Database;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tender-group-'));
  db = new Database(join(dir, 'g.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec('CREATE TABLE account (id INTEGER PRIMARY KEY, balance INTEGER NOT NULL CHECK (balance >= 0))');
  db.exec('INSERT INTO account (id, balance) VALUES (1, 100)');
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const balance = () =>
  (db.prepare('SELECT balance FROM account WHERE id = 1').get() as { balance: number }).balance;

describe('group commit', () => {
  it('writes arriving together share one commit, and each sees the ones before it', async () => {
    const commits = new GroupCommit(db);
    const withdraw = (amount: number) =>
      commits.run(() => {
        const before = balance();
        if (before < amount) throw new Error(`only ${before} left`);
        db.prepare('UPDATE account SET balance = balance - ? WHERE id = 1').run(amount);
        return before - amount;
      });
    const outcomes = await Promise.allSettled([withdraw(40), withdraw(40), withdraw(40), withdraw(10)]);
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : 'refused'))).toEqual([
      60,
      20,
      'refused',
      10,
    ]);
    expect(commits.committed).toEqual({ groups: 1, writes: 4 });
    expect(balance()).toBe(10);
  });

  it('a write that fails is undone alone; the rest of its group commits', async () => {
    const commits = new GroupCommit(db);
    const results = await Promise.allSettled([
      commits.run(() => db.prepare('UPDATE account SET balance = 50 WHERE id = 1').run().changes),
      commits.run(() => {
        db.prepare('INSERT INTO account (id, balance) VALUES (2, 5)').run();
        throw new Error('refused after writing');
      }),
      commits.run(() => db.prepare('INSERT INTO account (id, balance) VALUES (3, 7)').run().changes),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(db.prepare('SELECT id, balance FROM account ORDER BY id').all()).toEqual([
      { id: 1, balance: 50 },
      { id: 3, balance: 7 },
    ]);
  });

  it('a caller hears back only after its commit, never before', async () => {
    const commits = new GroupCommit(db);
    const write = commits.run(() => db.prepare('UPDATE account SET balance = 1 WHERE id = 1').run());
    expect(commits.committed.groups).toBe(0);
    await write;
    expect(commits.committed.groups).toBe(1);
    expect(db.inTransaction).toBe(false);
  });

  it('writes queued during a commit go into the next group', async () => {
    const commits = new GroupCommit(db);
    await Promise.all([1, 2, 3].map(() => commits.run(() => balance())));
    await Promise.all([4, 5].map(() => commits.run(() => balance())));
    expect(commits.committed).toEqual({ groups: 2, writes: 5 });
  });

  it('under load a group waits two turns more for writes still arriving; a lone write goes at once', async () => {
    const commits = new GroupCommit(db);
    const write = () => commits.run(() => balance());
    const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
    // Writes arriving together: the queue is under load from now on.
    await Promise.all([write(), write()]);
    await commits.idle();
    expect(commits.committed).toEqual({ groups: 1, writes: 2 });
    // One write now, one a turn of the event loop later, one two turns later: one group.
    const first = write();
    await nextTurn();
    const second = write();
    await nextTurn();
    await Promise.all([first, second, write()]);
    await commits.idle();
    expect(commits.committed).toEqual({ groups: 2, writes: 5 });
    // Writes that come one at a time bring the queue back to the first turn: a write one turn
    // behind a lone write has its own group.
    await write();
    await commits.idle();
    const lone = write();
    await nextTurn();
    await Promise.all([lone, write()]);
    expect(commits.committed).toEqual({ groups: 5, writes: 8 });
  });

  it('asynchronous writes run one after another, each seeing the ones before it', async () => {
    const commits = new GroupCommit(db);
    const withdraw = (amount: number) =>
      commits.run(async () => {
        const before = await Promise.resolve(balance());
        if (before < amount) throw new Error(`only ${before} left`);
        await Promise.resolve(
          db.prepare('UPDATE account SET balance = balance - ? WHERE id = 1').run(amount),
        );
        return before - amount;
      });
    const outcomes = await Promise.allSettled([withdraw(60), withdraw(60), withdraw(30)]);
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : 'refused'))).toEqual([
      40,
      'refused',
      10,
    ]);
    expect(commits.committed).toEqual({ groups: 1, writes: 3 });
    expect(balance()).toBe(10);
  });

  it('a write started while a group commits waits for the next group; idle() waits for the commit', async () => {
    const commits = new GroupCommit(db);
    const seen: string[] = [];
    const first = commits.run(async () => {
      db.prepare('UPDATE account SET balance = 1 WHERE id = 1').run();
      // Queued from inside the open group: it must not join it.
      void commits.run(() => seen.push(`second saw ${balance()}`));
      await Promise.resolve();
      expect(commits.busy).toBe(true);
      void commits.idle().then(() => seen.push(`idle after commit: ${String(db.inTransaction)}`));
      return 'first';
    });
    await first;
    await commits.idle();
    await new Promise((resolve) => setImmediate(resolve));
    await commits.idle();
    expect(seen).toEqual(['idle after commit: false', 'second saw 1']);
    expect(commits.committed).toEqual({ groups: 2, writes: 2 });
  });

  it('when the commit itself fails, every write of the group hears it and nothing is kept', async () => {
    const commits = new GroupCommit(db);
    db.exec(
      'CREATE TABLE parent (id INTEGER PRIMARY KEY); CREATE TABLE child (parent INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED)',
    );
    db.pragma('foreign_keys = ON');
    const results = await Promise.allSettled([
      commits.run(() => db.prepare('UPDATE account SET balance = 5 WHERE id = 1').run().changes),
      // A deferred foreign key fails only at COMMIT.
      commits.run(() => db.prepare('INSERT INTO child (parent) VALUES (42)').run().changes),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(balance()).toBe(100);
    expect(db.inTransaction).toBe(false);
  });
});
