import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  rmSync,
  writeFileSync,
  writeSync,
  closeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataDirInUseError } from '../../electron/gateway/data-dir';
import { LedgerDamagedError, startGateway } from '../../electron/gateway/gateway';
import { useGatewayPerTest, VISA } from '../support/gateway';

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

describe('backup and restore', () => {
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

describe('after an unclean shutdown', () => {
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

  it('two engines never serve one data dir', async () => {
    const first = await startGateway({ dataDir: scratch, port: 0 });
    try {
      await expect(startGateway({ dataDir: scratch, port: 0 })).rejects.toBeInstanceOf(DataDirInUseError);
    } finally {
      await first.close();
    }
  });
});
