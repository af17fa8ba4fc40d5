/**
 * npm run gateway -- staff: people added, changed and retired from the command line, their PINs read
 * from standard input and never printed, kept or logged in the clear.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openEngine } from '../../electron/gateway/open-store';
import { PinRefusedError, THIS_COUNTER } from '../../electron/gateway/staff/staff';
import { createTestDatabase, recentAudit, storeArguments, type TestDatabase } from '../support/gateway';
import { storedText } from '../support/ledger-rows';

const ROOT = join(import.meta.dirname, '..', '..');
const CLI = ['--import', 'tsx', join(ROOT, 'electron', 'cli.ts')];

let dataDir: string;
/** The store server's database when the suite runs on PostgreSQL. */
let store: TestDatabase | undefined;
beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'tender-staff-cli-'));
  store = await createTestDatabase();
});
afterEach(async () => {
  rmSync(dataDir, { recursive: true, force: true });
  await store?.drop();
});

function run(input: string, ...args: string[]) {
  const result = spawnSync(
    process.execPath,
    [...CLI, ...args, '--data-dir', dataDir, ...storeArguments({ store })],
    {
      cwd: ROOT,
      encoding: 'utf8',
      input,
    },
  );
  return { status: result.status, out: `${result.stdout}${result.stderr}` };
}

describe('staff from the command line', () => {
  it('refuses a name of digits alone, which would read as an id, and adds no one', () => {
    expect(run('4826\n', 'staff', 'create', '--name', 'Dana', '--role', 'manager').status).toBe(0);
    for (const args of [
      ['staff', 'create', '--name', '3', '--role', 'cashier'],
      ['staff', 'change', 'Dana', '--name', ' 42 '],
    ]) {
      const refused = run('1357\n', ...args);
      expect(refused.status, refused.out).toBe(1);
      expect(refused.out).toContain('would be read as a staff id');
    }
    expect(run('', 'staff', 'list').out.trim().split('\n')).toEqual(['1  Dana  manager']);
    expect(run('1357\n', 'staff', 'create', '--name', 'Till 3', '--role', 'cashier').status).toBe(0);
    expect(run('', 'staff', 'retire', 'Till 3').out).toMatch(/Retired: 2 {2}Till 3/);
  });

  it('adds, lists, changes and retires people, reading PINs from standard input only', async () => {
    const added = run('4826\n', 'staff', 'create', '--name', 'Dana', '--role', 'manager');
    expect(added.status, added.out).toBe(0);
    expect(added.out).toMatch(/Added 1 {2}Dana {2}manager/);
    expect(
      run('1357\n', 'staff', 'create', '--name', 'Eli', '--role', 'cashier', '--server', '07').status,
    ).toBe(0);

    const taken = run('4826\n', 'staff', 'create', '--name', 'Fay', '--role', 'cashier');
    expect(taken.status).toBe(1);
    expect(taken.out).toContain('That PIN is taken');
    const short = run('12\n', 'staff', 'create', '--name', 'Fay', '--role', 'cashier');
    expect(short.out).toContain('A PIN has 4 to 8 digits.');
    // A role that does not exist is said before any PIN is read.
    const owner = run('', 'staff', 'create', '--name', 'Fay', '--role', 'owner');
    expect(owner.status).toBe(2);
    expect(owner.out).toContain('--role is cashier or manager, not "owner"');

    expect(run('', 'staff', 'change', 'Eli', '--server', '09', '--role', 'manager').out).toContain(
      'Changed: 2  Eli  manager  server 09',
    );
    expect(run('2468\n', 'staff', 'change', '2', '--new-pin').status).toBe(0);
    expect(run('', 'staff', 'retire', 'Eli').out).toMatch(
      /Retired: 2 {2}Eli {2}manager {2}server 09 {2}retired/,
    );
    const lastManager = run('', 'staff', 'retire', 'Dana');
    expect(lastManager.status).toBe(1);
    expect(lastManager.out).toContain('Dana is the only manager');

    const listed = run('', 'staff', 'list');
    expect(listed.out.trim().split('\n')).toEqual([
      expect.stringMatching(/^1 {2}Dana {2}manager$/),
      expect.stringMatching(/^2 {2}Eli {2}manager {2}server 09 {2}retired /),
    ]);
    for (const output of [added.out, listed.out]) expect(output).not.toMatch(/4826|1357|2468/);

    const engine = await openEngine(dataDir, store ? { store } : {});
    try {
      const wrong = await engine.staff.identify('2468', 'sign-in', 'test').then(
        () => 'signed in',
        (error: Error) => error.message,
      );
      expect(wrong).toMatch(/^Wrong PIN/);
      expect((await engine.staff.identify('4826', 'sign-in', 'test')).name).toBe('Dana');
      const actions = (await recentAudit({ gateway: { engine } }, 20)).map(
        (entry) => `${entry.actor} ${entry.action}`,
      );
      expect(actions).toContain('command line staff_create');
      expect(actions).toContain('command line staff_retire');
    } finally {
      await engine.close();
    }
    for (const file of readdirSync(dataDir).filter((name) => name.startsWith('tender.db'))) {
      expect(readFileSync(join(dataDir, file)).toString('latin1')).not.toMatch(/4826|1357|2468/);
    }
    // The store server's rows as text hold numbers (times, ids) a PIN may be part of: a PIN kept
    // would stand alone.
    if (store) expect(await storedText({ dataDir, store })).not.toMatch(/\b(4826|1357|2468)\b/);
  });

  it('opens PIN entry that one person’s wrong PINs paused for hours, giving no guess away, and says so in the audit log', async () => {
    expect(run('4826\n', 'staff', 'create', '--name', 'Dana', '--role', 'manager').status).toBe(0);
    // Someone at the locked keypad types a wrong PIN each time the pause runs out: after fourteen,
    // every PIN at the counter, the manager's too, is refused unchecked for hours.
    let now = Date.now();
    let engine = await openEngine(dataDir, { ...(store && { store }), now: () => now });
    const counter = engine.onStoreServer ? engine.lane : THIS_COUNTER;
    const scope = `sign-in at ${counter}`;
    const signIn = (pin: string) =>
      engine.staff.identify(pin, 'sign-in', 'test', counter).then(
        (member) => member.name,
        (error: unknown) => (error instanceof PinRefusedError ? error.reason : String(error)),
      );
    try {
      for (let typed = 0; typed < 14; typed += 1) {
        now = Math.max(now, (await engine.admin.pinGate(scope)).pausedUntil);
        await signIn(`99${String(typed).padStart(2, '0')}`);
      }
      expect(await signIn('4826')).toBe('locked');
    } finally {
      await engine.close();
    }

    const opened = run('', 'staff', 'unpause');
    expect(opened.status, opened.out).toBe(0);
    expect(opened.out).toMatch(
      new RegExp(`^Opened PIN entry for ${scope}: \\d+ hours of its pause were left, after 14 wrong PINs\\.`),
    );
    expect(run('', 'staff', 'unpause').out.trim()).toBe(`PIN entry at ${counter} is not paused.`);

    engine = await openEngine(dataDir, { ...(store && { store }), now: () => now });
    try {
      const unpaused = (await recentAudit({ gateway: { engine } }, 20)).filter(
        (entry) => entry.action === 'pin_unpaused',
      );
      expect(unpaused).toEqual([expect.objectContaining({ actor: 'command line', subject: scope })]);
      expect(await signIn('4826')).toBe('Dana');
      // The count is kept just below a pause: the next wrong PIN pauses again, for a minute.
      expect(await signIn('9914')).toBe('locked');
      expect((await engine.admin.pinGate(scope)).pausedUntil - now).toBe(60_000);
    } finally {
      await engine.close();
    }
  });

  it('says there is no ledger to open PIN entry in when --data-dir is mistyped', () => {
    if (store) return;
    const missing = spawnSync(
      process.execPath,
      [...CLI, 'staff', 'unpause', '--data-dir', join(dataDir, 'no-such-folder')],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('There is no Tender ledger in');
  });
});
