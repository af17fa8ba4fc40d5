import Database from 'better-sqlite3';
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
  closeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataDirInUseError } from '../../electron/gateway/data-dir';
import { openEngine } from '../../electron/gateway/open-store';
import { LedgerDamagedError, startGateway } from '../../electron/gateway/gateway';
import { simulatedSwipeString } from '../../electron/reader/simulator';
import { freePort, startEngineProcess } from '../support/engine-process';
import {
  createTestDatabase,
  describeSqliteOnly,
  useGatewayPerTest,
  VISA,
  type TestGateway,
} from '../support/gateway';

const ROOT = join(import.meta.dirname, '..', '..');
let scratch: string;
const startGatewayForTest = useGatewayPerTest();
beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'tender-recovery-'));
});
afterEach(() => {
  rmSync(scratch, { recursive: true, force: true });
});

function cli(...args: string[]) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'electron', 'cli.ts'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return { status: result.status, out: result.stdout + result.stderr };
}

const countIn = (file: string) => {
  const db = new Database(file, { readonly: true });
  const { n } = db.prepare('SELECT count(*) AS n FROM transactions').get() as { n: number };
  db.close();
  return n;
};

/** A pid that certainly belongs to no running process: one that has just exited. */
const deadPid = () => spawnSync(process.execPath, ['-e', '0']).pid as number;

const modeOf = (path: string) => statSync(path).mode & 0o777;
const onPosix = process.platform !== 'win32';

/** Approved SALEs paid with swipes, each a new swipe with its own KSN; the last one's string is returned. */
async function swipedSales(t: TestGateway, count: number): Promise<string> {
  let swipe = '';
  for (let counter = 1; counter <= count; counter++) {
    swipe = simulatedSwipeString(
      { pan: '4111111111111111', expMmyy: '1230', firstName: 'PAT', lastName: 'MORGAN' },
      { counter },
    );
    const answer = await t.client.createTransaction({
      type: 'SALE',
      amount: '1.00',
      encrypted_track_data: swipe,
      track_format: 'MAGTEK',
    });
    expect(answer.result).toBe('Approved');
  }
  return swipe;
}

/**
 * Overwrites bytes of the page of the swipe-KSN index, in the file, as a failing disk or a stray
 * write would: with a few dozen swipes its root page is its only leaf.
 */
function damageSwipeKsnIndexPage(file: string, damage: (page: Buffer, ksn: string) => void): void {
  const db = new Database(file);
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const { rootpage } = db
    .prepare("SELECT rootpage FROM sqlite_master WHERE name = 'transactions_by_swipe_ksn'")
    .get() as { rootpage: number };
  const { pagetype } = db
    .prepare("SELECT pagetype FROM dbstat WHERE name = 'transactions_by_swipe_ksn' AND pageno = ?")
    .get(rootpage) as { pagetype: string };
  const ksn = db
    .prepare('SELECT swipe_ksn FROM transactions WHERE swipe_ksn IS NOT NULL ORDER BY id LIMIT 1')
    .pluck()
    .get() as string;
  db.close();
  expect(pagetype).toBe('leaf');
  const fd = openSync(file, 'r+');
  try {
    const page = Buffer.alloc(pageSize);
    readSync(fd, page, 0, pageSize, (rootpage - 1) * pageSize);
    damage(page, ksn);
    writeSync(fd, page, 0, pageSize, (rootpage - 1) * pageSize);
  } finally {
    closeSync(fd);
  }
}

/** Starts an engine that is expected to refuse; one that starts after all is closed before failing the test. */
async function refusalToStart(dataDir: string): Promise<Error> {
  let started;
  try {
    started = await startGateway({ dataDir, port: 0 });
  } catch (error) {
    return error as Error;
  }
  await started.close();
  throw new Error(`The engine started on the damaged ledger in ${dataDir} and served it.`);
}

function quickCheck(file: string): string {
  const db = new Database(file);
  try {
    return (db.pragma('quick_check') as { quick_check: string }[]).map((row) => row.quick_check).join('; ');
  } finally {
    db.close();
  }
}

describeSqliteOnly('backup and restore', "backs up and restores the data dir's SQLite file", () => {
  it('backs up a consistent ledger while the engine serves, and restores it once stopped', async () => {
    const t = await startGatewayForTest();
    for (const amount of ['1.00', '2.00', '3.00'])
      await t.client.createTransaction({ type: 'SALE', amount, ...VISA });
    const backup = join(scratch, 'ledger-backup.db');
    const made = cli('backup', '--data-dir', t.dataDir, '--to', backup);
    expect(made.status, made.out).toBe(0);
    expect(countIn(backup)).toBe(3);

    await t.client.createTransaction({ type: 'SALE', amount: '4.00', ...VISA });
    const refused = cli('restore', '--data-dir', t.dataDir, '--from', backup);
    expect(refused.status).toBe(1);
    expect(refused.out).toContain('is serving');

    const dataDir = t.dataDir;
    await t.gateway.close();
    const restored = cli('restore', '--data-dir', dataDir, '--from', backup);
    expect(restored.status, restored.out).toBe(0);
    expect(countIn(join(dataDir, 'tender.db'))).toBe(3);
    const kept = readdirSync(dataDir).find(
      (name) => name.startsWith('tender.db.before-restore-') && !/-(wal|shm)$/.test(name),
    );
    expect(kept && countIn(join(dataDir, kept))).toBe(4);
  });

  it('a backup is one self-contained file, readable by its owner only, in rollback-journal mode', async () => {
    const t = await startGatewayForTest();
    for (const amount of ['1.00', '2.00'])
      await t.client.createTransaction({ type: 'SALE', amount, ...VISA });
    const backups = join(scratch, 'backups');
    mkdirSync(backups);
    const backup = join(backups, 'ledger-backup.db');
    const made = cli('backup', '--data-dir', t.dataDir, '--to', backup);
    expect(made.status, made.out).toBe(0);
    expect(readdirSync(backups)).toEqual(['ledger-backup.db']);
    if (onPosix) expect(modeOf(backup)).toBe(0o600);
    const header = readFileSync(backup).subarray(18, 20);
    // File format versions 1 and 1: a rollback-journal database, which needs no -wal or -shm to open.
    expect([...header]).toEqual([1, 1]);
    const alone = join(scratch, 'elsewhere.db');
    copyFileSync(backup, alone);
    expect(countIn(alone)).toBe(2);
    expect(existsSync(`${alone}-wal`)).toBe(false);
  });

  it('restores into a data dir that does not exist yet, as on a replacement computer', async () => {
    const t = await startGatewayForTest();
    await t.client.createTransaction({ type: 'SALE', amount: '5.00', ...VISA });
    const backup = join(scratch, 'ledger-backup.db');
    expect(cli('backup', '--data-dir', t.dataDir, '--to', backup).status).toBe(0);
    const replacement = join(scratch, 'new-computer', 'Tender');
    const restored = cli('restore', '--data-dir', replacement, '--from', backup);
    expect(restored.status, restored.out).toBe(0);
    expect(countIn(join(replacement, 'tender.db'))).toBe(1);
    if (onPosix) {
      expect(modeOf(replacement)).toBe(0o700);
      expect(modeOf(join(replacement, 'tender.db'))).toBe(0o600);
    }
    const started = await startGateway({ dataDir: replacement, port: 0 });
    expect(started.ledgerCheck).toBe('full');
    await started.close();
  });

  it('refuses a file that is not a Tender ledger, empty or another database, and keeps the ledger', async () => {
    const t = await startGatewayForTest();
    await t.client.createTransaction({ type: 'SALE', amount: '6.00', ...VISA });
    const dataDir = t.dataDir;
    await t.gateway.close();
    const empty = join(scratch, 'empty.db');
    writeFileSync(empty, '');
    const foreign = join(scratch, 'notes.db');
    const notes = new Database(foreign);
    notes.exec('CREATE TABLE notes (x); INSERT INTO notes VALUES (1);');
    notes.close();
    for (const file of [empty, foreign]) {
      const refused = cli('restore', '--data-dir', dataDir, '--from', file);
      expect(refused.status, refused.out).toBe(1);
      expect(refused.out).toContain('is not a Tender ledger');
    }
    expect(readdirSync(dataDir).filter((name) => name.includes('restor'))).toEqual([]);
    expect(countIn(join(dataDir, 'tender.db'))).toBe(1);
  });

  it('restores a backup whole, with the write-ahead log beside it, and from the ledger itself', async () => {
    const t = await startGatewayForTest();
    for (const amount of ['1.00', '2.00'])
      await t.client.createTransaction({ type: 'SALE', amount, ...VISA });
    const backup = join(scratch, 'ledger-backup.db');
    expect(cli('backup', '--data-dir', t.dataDir, '--to', backup).status).toBe(0);
    await t.client.createTransaction({ type: 'SALE', amount: '3.00', ...VISA });
    const dataDir = t.dataDir;
    await t.gateway.close();
    // A ledger whose last write is still only in its write-ahead log, as one left by a crash.
    const walled = new Database(backup);
    walled.pragma('journal_mode = WAL');
    walled.pragma('wal_autocheckpoint = 0');
    walled
      .prepare("INSERT OR REPLACE INTO settings (key, value) VALUES ('merchant_name', 'In the log')")
      .run();
    expect(statSync(`${backup}-wal`).size).toBeGreaterThan(0);
    try {
      const restored = cli('restore', '--data-dir', dataDir, '--from', backup);
      expect(restored.status, restored.out).toBe(0);
    } finally {
      walled.close();
    }
    const ledger = new Database(join(dataDir, 'tender.db'), { readonly: true });
    const name = ledger.prepare("SELECT value FROM settings WHERE key = 'merchant_name'").get() as {
      value: string;
    };
    ledger.close();
    expect(name.value).toBe('In the log');
    expect(countIn(join(dataDir, 'tender.db'))).toBe(2);

    const again = cli('restore', '--data-dir', dataDir, '--from', join(dataDir, 'tender.db'));
    expect(again.status, again.out).toBe(0);
    expect(countIn(join(dataDir, 'tender.db'))).toBe(2);
  });

  it('never overwrites an existing file, and refuses to restore a damaged backup', () => {
    const existing = join(scratch, 'taken.db');
    writeFileSync(existing, 'not mine');
    expect(cli('backup', '--data-dir', scratch, '--to', existing).out).toMatch(/already exists|no ledger/);
    const garbage = join(scratch, 'garbage.db');
    writeFileSync(garbage, Buffer.alloc(8192, 7));
    const result = cli('restore', '--data-dir', scratch, '--from', garbage);
    expect(result.status).toBe(1);
    expect(existsSync(join(scratch, 'tender.db'))).toBe(false);
  });
});

describeSqliteOnly(
  'after an unclean shutdown',
  "the integrity check and the lock of the data dir's SQLite file, started on it directly",
  () => {
    it('the engine checks the ledger before serving, and says it recovered', async () => {
      const first = await startGateway({ dataDir: scratch, port: 0 });
      const clean = first.recoveredFromUncleanShutdown;
      await first.close();
      writeFileSync(join(scratch, 'engine.pid'), `${deadPid()}\n`);
      const second = await startGateway({ dataDir: scratch, port: 0 });
      expect(clean).toBe(false);
      expect(second.recoveredFromUncleanShutdown).toBe(true);
      await second.close();
      expect(existsSync(join(scratch, 'engine.pid'))).toBe(false);
    });

    it('a damaged ledger is refused with what to do, and nothing is served', async () => {
      const first = await startGateway({ dataDir: scratch, port: 0 });
      await first.close();
      const file = join(scratch, 'tender.db');
      const fd = openSync(file, 'r+');
      // Scribble over the pages after the schema: the tables' and indexes' b-trees.
      writeSync(fd, Buffer.alloc(4096 * 6, 0xa5), 0, 4096 * 6, 4096 * 2);
      closeSync(fd);
      writeFileSync(join(scratch, 'engine.pid'), `${deadPid()}\n`);
      await expect(startGateway({ dataDir: scratch, port: 0 })).rejects.toSatisfy(
        (error: unknown) => error instanceof LedgerDamagedError || /malformed|corrupt/i.test(String(error)),
      );
    });

    it('an engine.pid naming a live process that is not an engine does not keep the engine from starting', async () => {
      const first = await startGateway({ dataDir: scratch, port: 0 });
      await first.close();
      // After a crash, the pid left behind now belongs to another program.
      const unrelated = spawn(process.execPath, ['-e', 'setInterval(() => {}, 60_000)'], { stdio: 'ignore' });
      try {
        writeFileSync(join(scratch, 'engine.pid'), `${unrelated.pid}\n`);
        const second = await startGateway({ dataDir: scratch, port: 0 });
        expect(second.recoveredFromUncleanShutdown).toBe(true);
        expect(second.ledgerCheck).toBe('full');
        await second.close();
      } finally {
        unrelated.kill('SIGKILL');
      }
    });

    it('the data dir lock holds against another process and dies with it', async () => {
      const port = await freePort();
      const other = await startEngineProcess(scratch, port);
      try {
        await expect(startGateway({ dataDir: scratch, port: 0 })).rejects.toBeInstanceOf(DataDirInUseError);
      } finally {
        await other.kill();
      }
      const next = await startGateway({ dataDir: scratch, port: 0 });
      expect(next.recoveredFromUncleanShutdown).toBe(true);
      expect(next.ledgerCheck).toBe('full');
      await next.close();
    });

    it('a damaged lock file is set aside, and the ledger is checked in full', async () => {
      const first = await startGateway({ dataDir: scratch, port: 0 });
      await first.close();
      writeFileSync(join(scratch, 'engine.lock'), Buffer.alloc(4096, 0x5a));
      const second = await startGateway({ dataDir: scratch, port: 0 });
      expect(second.recoveredFromUncleanShutdown).toBe(true);
      expect(second.ledgerCheck).toBe('full');
      await second.close();
    });
  },
);

describe('one data dir, one engine', () => {
  it('two engines never serve one data dir', async () => {
    const store = await createTestDatabase();
    const options = { dataDir: scratch, port: 0, ...(store && { engine: { store } }) };
    const first = await startGateway(options);
    try {
      await expect(startGateway(options)).rejects.toBeInstanceOf(DataDirInUseError);
    } finally {
      await first.close();
      await store?.drop();
    }
  });
});

describeSqliteOnly('a ledger damaged while no engine served', "damages the data dir's SQLite file", () => {
  it('a damaged page of the swipe-KSN index is refused at the next start, with what to do', async () => {
    const t = await startGatewayForTest();
    await swipedSales(t, 30);
    await t.gateway.close();
    const file = join(t.dataDir, 'tender.db');
    damageSwipeKsnIndexPage(file, (page) => {
      const cells = page.readUInt16BE(3);
      // The cell pointer array, right after the leaf page's 8-byte header.
      page.fill(0x11, 8, 8 + 2 * cells);
    });
    const refusal = await refusalToStart(t.dataDir);
    expect(refusal).toBeInstanceOf(LedgerDamagedError);
    expect(refusal.message).toMatch(/Nothing was served\. Restore the latest backup/);
    expect(refusal.message).toContain(`restore --data-dir "${t.dataDir}"`);
  });

  it('a changed key on that page, which quick_check does not see, is refused too', async () => {
    const t = await startGatewayForTest();
    await swipedSales(t, 30);
    await t.gateway.close();
    const file = join(t.dataDir, 'tender.db');
    damageSwipeKsnIndexPage(file, (page, ksn) => {
      const at = page.indexOf(Buffer.from(ksn, 'latin1'));
      expect(at).toBeGreaterThan(0);
      // One digit of one KSN: the page stays well formed, but that swipe could be replayed.
      page[at + ksn.length - 1] = ksn.endsWith('0') ? 0x31 : 0x30;
    });
    expect(quickCheck(file)).toBe('ok');
    expect(await refusalToStart(t.dataDir)).toBeInstanceOf(LedgerDamagedError);
  });

  it('a ledger unchanged since a clean stop is not checked in full again; one changed since is', async () => {
    const first = await startGateway({ dataDir: scratch, port: 0 });
    await first.close();
    const second = await startGateway({ dataDir: scratch, port: 0 });
    expect(second.recoveredFromUncleanShutdown).toBe(false);
    expect(second.ledgerCheck).toBe('unchanged');
    await second.close();
    // A command run while no engine serves (keys create, settings set) changes the ledger.
    const engine = await openEngine(scratch);
    await engine.keys.create('kitchen display');
    await engine.close();
    const third = await startGateway({ dataDir: scratch, port: 0 });
    expect(third.recoveredFromUncleanShutdown).toBe(false);
    expect(third.ledgerCheck).toBe('full');
    await third.close();
  });
});

describe.runIf(onPosix)('file modes', () => {
  it('the ledger, its WAL and shared memory are readable by their owner only, in a 0700 folder', async () => {
    const dataDir = join(scratch, 'counter');
    const gateway = await startGateway({ dataDir, port: 0 });
    try {
      await gateway.engine.keys.create('kitchen display');
      expect(modeOf(dataDir)).toBe(0o700);
      for (const name of ['tender.db', 'tender.db-wal', 'tender.db-shm'])
        expect([name, modeOf(join(dataDir, name))]).toEqual([name, 0o600]);
    } finally {
      await gateway.close();
    }
  });

  it("an existing data dir's ledger files and folder are brought to those modes at start", async () => {
    const first = await startGateway({ dataDir: scratch, port: 0 });
    await first.close();
    chmodSync(scratch, 0o755);
    chmodSync(join(scratch, 'tender.db'), 0o644);
    const kept = join(scratch, 'tender.db.before-restore-2026-01-01T00-00-00-000Z');
    writeFileSync(kept, '', { mode: 0o644 });
    const second = await startGateway({ dataDir: scratch, port: 0 });
    try {
      expect(modeOf(scratch)).toBe(0o700);
      expect(modeOf(join(scratch, 'tender.db'))).toBe(0o600);
      expect(modeOf(kept)).toBe(0o600);
    } finally {
      await second.close();
    }
  });
});
