import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openEngine } from '../../electron/gateway/open-store';
import {
  migrate,
  NewerSchemaError,
  openDatabase,
  schemaVersion,
} from '../../electron/gateway/store/sqlite/database';
import { startCheckpointer } from '../../electron/gateway/store/sqlite/checkpoints';
import { LATEST_SCHEMA_VERSION, MIGRATIONS } from '../../electron/gateway/store/sqlite/migrations';
import { seedLedger } from '../bench/seed-ledger';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tender-store-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('opening the ledger', () => {
  it('a new database is migrated to the latest schema, in WAL with full sync and foreign keys', () => {
    const db = openDatabase(join(dir, 'ledger.db'));
    expect(schemaVersion(db)).toBe(LATEST_SCHEMA_VERSION);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    // Savepoint journals in memory (2), not in temporary files.
    expect(db.pragma('temp_store', { simple: true })).toBe(2);
    db.close();
  });

  it('opening again runs no migration twice', () => {
    openDatabase(join(dir, 'ledger.db')).close();
    const db = openDatabase(join(dir, 'ledger.db'));
    expect(schemaVersion(db)).toBe(LATEST_SCHEMA_VERSION);
    db.close();
  });

  it('each migration step applies on top of the one before', () => {
    const db = new Database(join(dir, 'steps.db'));
    for (const step of MIGRATIONS) {
      migrate(
        db,
        MIGRATIONS.filter((m) => m.version <= step.version),
      );
      expect(schemaVersion(db)).toBe(step.version);
    }
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
  });

  it('marks the screens keys made before step 15 by the names Tender gave them, and no other key', () => {
    const db = new Database(join(dir, 'keys.db'));
    migrate(
      db,
      MIGRATIONS.filter((m) => m.version < 15),
    );
    const names = [
      'Tender desktop app',
      'Tender browser screens',
      'Tender desktop app (front)',
      'till script',
      'Tender desktop app backup',
    ];
    names.forEach((name, index) =>
      db
        .prepare(
          "INSERT INTO api_keys (public_id, secret_hash, name, permissions, created_at) VALUES (?, x'00', ?, '', 1)",
        )
        .run(`k${index}`, name),
    );
    migrate(db);
    const marked = db
      .prepare('SELECT name FROM api_keys WHERE counter_screens = 1 ORDER BY id')
      .pluck()
      .all();
    expect(marked).toEqual(names.slice(0, 3));
    db.close();
  });

  it('a ledger from a newer Tender is refused rather than changed', () => {
    const file = join(dir, 'newer.db');
    const db = new Database(file);
    db.pragma(`user_version = ${LATEST_SCHEMA_VERSION + 1}`);
    db.close();
    expect(() => openDatabase(file)).toThrow(NewerSchemaError);
  });

  it('a failed migration leaves the database where it was', () => {
    const db = new Database(join(dir, 'broken.db'));
    const broken = [
      ...MIGRATIONS,
      { version: LATEST_SCHEMA_VERSION + 1, description: 'broken', sql: 'CREATE TABLE x (; ' },
    ];
    expect(() => migrate(db, broken)).toThrow();
    expect(schemaVersion(db)).toBe(LATEST_SCHEMA_VERSION);
    db.close();
  });
});

describe('ledger constraints', () => {
  it('a second open batch is impossible', () => {
    const db = openDatabase(join(dir, 'ledger.db'));
    db.prepare("INSERT INTO batches (status, opened_at) VALUES ('OPEN', 1)").run();
    expect(() => db.prepare("INSERT INTO batches (status, opened_at) VALUES ('OPEN', 2)").run()).toThrow(
      /UNIQUE/,
    );
    db.close();
  });

  it('refunds can never exceed the amount of their original', () => {
    const db = openDatabase(join(dir, 'ledger.db'));
    db.prepare(
      "INSERT INTO transactions (id, type, result, display_message, amount, created_at) VALUES (1, 'Sale', 'Approved', 'Approved', 500, 1)",
    ).run();
    expect(() => db.prepare('UPDATE transactions SET refunded_amount = 501 WHERE id = 1').run()).toThrow(
      /CHECK/,
    );
    db.close();
  });
});

describe('the seeder', () => {
  it('writes history whose batch totals equal their rows, with one open batch', () => {
    const file = join(dir, 'seeded.db');
    const seeded = seedLedger(file, {
      settledTransactions: 4000,
      openTransactions: 300,
      endAt: Date.now(),
      days: 10,
    });
    expect(seeded).toEqual({ transactions: 4300, batches: 11 });
    const db = new Database(file, { readonly: true });
    const mismatches = db
      .prepare(
        `SELECT b.id FROM batches b LEFT JOIN (
           SELECT batch_id,
             SUM(CASE WHEN type IN ('Sale', 'Forced Sale', 'Capture') THEN 1 ELSE 0 END) AS sales_count,
             SUM(CASE WHEN type IN ('Sale', 'Forced Sale', 'Capture') THEN amount ELSE 0 END) AS sales_total,
             SUM(CASE WHEN type = 'Refund' THEN amount ELSE 0 END) AS refund_total,
             SUM(tip_amount) AS tip_total
           FROM transactions WHERE result = 'Approved' AND voided_by IS NULL AND type != 'Void' GROUP BY batch_id
         ) t ON t.batch_id = b.id
         WHERE b.sales_count != t.sales_count OR b.sales_total != t.sales_total
            OR b.refund_total != t.refund_total OR b.tip_total != t.tip_total`,
      )
      .all();
    expect(mismatches).toEqual([]);
    expect(db.prepare("SELECT count(*) AS n FROM batches WHERE status = 'OPEN'").get()).toEqual({ n: 1 });
    expect(db.pragma('foreign_key_check')).toEqual([]);
    db.close();
  });
});

describe('background checkpoints', () => {
  it('copy committed pages into the database file outside any commit', async () => {
    const engine = await openEngine(dir);
    const file = join(dir, 'tender.db');
    const before = statSync(file).size;
    for (let i = 0; i < 200; i++) {
      await engine.transactions.submit(
        { type: 'SALE', amount: '1.00', card: '4111111111111111', exp_date: '1230' },
        { apiKeyId: null },
      );
    }
    await expect.poll(() => statSync(file).size).toBeGreaterThan(before);
    await engine.close();
  });

  it('start the WAL over while writes never pause', async () => {
    const file = join(dir, 'busy.db');
    const db = openDatabase(file);
    db.exec('CREATE TABLE filler (id INTEGER PRIMARY KEY, body BLOB NOT NULL)');
    const insert = db.prepare('INSERT INTO filler (body) VALUES (?)');
    const body = Buffer.alloc(16 * 1024, 7);
    const commit = db.transaction(() => insert.run(body));
    const restartFrames = 256;
    const checkpointer = startCheckpointer(db, file, { intervalMs: 2, restartFrames });
    /** The frames in the WAL now, which a passive checkpoint reports and leaves as they are. */
    const walFrames = () => (db.pragma('wal_checkpoint(PASSIVE)') as { log: number }[])[0]?.log ?? -1;
    // Commits back to back, yielding to the event loop between them as a server does, until the WAL
    // has been brought back to its start three times: at no moment did the background checkpoint copy
    // every frame before the next commit, so without the restarts the WAL would only grow. However
    // slowly the machine schedules the checkpointer, each restart is waited for, never timed.
    const afterRestart: number[] = [];
    let seen = 0;
    while (afterRestart.length < 3) {
      await new Promise((resolve) => setImmediate(resolve));
      if (checkpointer.restarts > seen) {
        seen = checkpointer.restarts;
        // The first commit after a restart writes at the WAL's start: about five 4 KiB frames.
        commit.immediate();
        afterRestart.push(walFrames());
      } else {
        for (let i = 0; i < 4; i++) commit.immediate();
      }
    }
    for (const frames of afterRestart) expect(frames).toBeLessThan(restartFrames / 4);
    await checkpointer.stop();
    db.close();
  });
});

describe('API keys', () => {
  it('only a hash of the key is stored, and the key works until revoked', async () => {
    const engine = await openEngine(dir);
    const { key, info } = await engine.keys.create('kitchen display', ['transactions:read']);
    const db = new Database(join(dir, 'tender.db'), { readonly: true });
    const row = db.prepare('SELECT * FROM api_keys').get() as Record<string, unknown>;
    // The secret is everything after the public id; base64url may put '_' inside it too.
    const secret = key.split('_').slice(2).join('_');
    expect(secret).toHaveLength(43);
    expect(JSON.stringify(row)).not.toContain(secret);
    db.close();
    expect(engine.keys.authenticate(key)?.permissions).toEqual(['transactions:read']);
    expect(engine.keys.authenticate(`${key.slice(0, -1)}x`)).toBeUndefined();
    expect((await engine.keys.revoke(info.id))?.revoked).not.toBeNull();
    expect(engine.keys.authenticate(key)).toBeUndefined();
    await engine.close();
  });

  it('a key revoked by another process stops working at once, and one it creates works at once', async () => {
    const engine = await openEngine(dir);
    const { key, info } = await engine.keys.create('till 2');
    // Twice: the first use also records when the key was last used.
    expect(engine.keys.authenticate(key)?.id).toBe(info.id);
    expect(engine.keys.authenticate(key)?.id).toBe(info.id);
    // The command line opens the ledger through its own connection while the engine serves.
    const commandLine = await openEngine(dir);
    await commandLine.keys.revoke(info.id);
    const created = await commandLine.keys.create('till 3');
    await commandLine.close();
    expect(engine.keys.authenticate(key)).toBeUndefined();
    expect(engine.keys.authenticate(created.key)?.name).toBe('till 3');
    await engine.close();
  });

  it('refuses a name with a line break or another control character, which would forge a listed line', async () => {
    const engine = await openEngine(dir);
    for (const name of [
      'shop\n0123456789abcdef  trusted  [batches:read]  active',
      'clear\u001b[2J',
      'nul\u0000',
    ])
      await expect(engine.keys.create(name)).rejects.toThrow(/without control characters/);
    expect(engine.keys.list()).toEqual([]);
    await engine.close();
  });

  it('records when a key was last used', async () => {
    let now = 1_000_000;
    const engine = await openEngine(dir, { now: () => now });
    const { key } = await engine.keys.create('script');
    expect(engine.keys.list()[0]?.lastUsed).toBeNull();
    now += 5;
    engine.keys.authenticate(key);
    expect(engine.keys.list()[0]?.lastUsed).toBe(now);
    await engine.close();
  });
});

describe('settings', () => {
  it('a setting changed by another process applies at once', async () => {
    const engine = await openEngine(dir);
    expect(engine.settings.get('tips_enabled')).toBe(false);
    const commandLine = await openEngine(dir);
    await commandLine.settings.setFromText('tips_enabled', 'true');
    await commandLine.close();
    expect(engine.settings.get('tips_enabled')).toBe(true);
    await engine.close();
  });

  it('tips are off until turned on, and bad values are refused', async () => {
    const engine = await openEngine(dir);
    expect(engine.settings.get('tips_enabled')).toBe(false);
    await engine.settings.setFromText('tips_enabled', 'TRUE');
    expect(engine.settings.get('tips_enabled')).toBe(true);
    await expect(engine.settings.setFromText('tips_enabled', 'yes')).rejects.toThrow(/not a valid value/);
    await expect(engine.settings.setFromText('colour', 'red')).rejects.toThrow(/Unknown setting/);
    expect(engine.settings.get('tips_enabled')).toBe(true);
    await engine.close();
  });
});
