import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GroupCommit } from '../../electron/gateway/store/group-commit';

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
});
