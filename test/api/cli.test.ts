import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, get } from 'node:https';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SECRET_SETTINGS } from '../../electron/gateway/settings';
import { createTestDatabase, storeArguments, type TestDatabase } from '../support/gateway';

const ROOT = join(import.meta.dirname, '..', '..');
const CLI = ['--import', 'tsx', join(ROOT, 'electron', 'cli.ts')];

let dataDir: string;
/** The store server's database of the test when the suite runs on PostgreSQL. */
let store: TestDatabase | undefined;
beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'tender-cli-'));
  store = await createTestDatabase();
});
afterEach(async () => {
  rmSync(dataDir, { recursive: true, force: true });
  await store?.drop();
});

/** A command on the data dir, and on the store server when the suite runs on one. */
function run(...args: string[]) {
  return runWithInput(undefined, ...args);
}

/** A command given `input` on its standard input. */
function runWithInput(input: string | undefined, ...args: string[]) {
  const onStore = args[0] === 'launch' || args[0] === 'backup' ? [] : storeArguments({ store });
  const result = spawnSync(process.execPath, [...CLI, ...args, '--data-dir', dataDir, ...onStore], {
    cwd: ROOT,
    encoding: 'utf8',
    ...(input !== undefined && { input }),
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Resolves with the serve process once it prints its ready line. */
function serve(port: number): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(
    process.execPath,
    [...CLI, 'serve', '--data-dir', dataDir, '--port', String(port), ...storeArguments({ store })],
    { cwd: ROOT },
  );
  let output = '';
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(`https://127.0.0.1:${port}/rest/v1`)) resolve({ child, output: () => output });
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${output}`)));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

function getOpenBatch(port: number, key: string): Promise<number> {
  const ca = readFileSync(join(dataDir, 'tls', 'cert.pem'), 'utf8');
  return new Promise((resolve, reject) => {
    get(
      {
        host: '127.0.0.1',
        port,
        path: '/rest/v1/batches/open',
        headers: { api_key: key },
        agent: new Agent({ ca }),
      },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    ).on('error', reject);
  });
}

describe('the headless command line', () => {
  it('keys create prints the new key alone on the last line, and keys list never shows it', () => {
    const created = run(
      'keys',
      'create',
      '--name',
      'kitchen',
      '--permissions',
      'transactions:read,batches:read',
    );
    expect(created.status).toBe(0);
    const key = created.stdout.trim().split('\n').at(-1) ?? '';
    expect(key).toMatch(/^tender_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    const listed = run('keys', 'list');
    expect(listed.stdout).toContain('kitchen');
    expect(listed.stdout).toContain('transactions:read, batches:read');
    expect(listed.stdout).not.toContain(key);
  });

  it('keys create refuses an unknown permission and creates nothing', () => {
    const created = run('keys', 'create', '--name', 'x', '--permissions', 'transactions:delete');
    expect(created.status).toBe(2);
    expect(created.stderr).toContain('Unknown permission "transactions:delete"');
    expect(run('keys', 'list').stdout).toContain('No API keys');
  });

  it('keys revoke takes the id from keys list', () => {
    const key = run('keys', 'create', '--name', 'old').stdout.trim().split('\n').at(-1) ?? '';
    const id = key.split('_')[1] ?? '';
    expect(run('keys', 'revoke', id).status).toBe(0);
    expect(run('keys', 'list').stdout).toMatch(/revoked/);
  });

  it('keys revoke of a key already revoked, or of none, fails with 1: the command was right', () => {
    const key = run('keys', 'create', '--name', 'gone').stdout.trim().split('\n').at(-1) ?? '';
    const id = key.split('_')[1] ?? '';
    expect(run('keys', 'revoke', id).status).toBe(0);
    for (const unknown of [id, '0123456789abcdef']) {
      const again = run('keys', 'revoke', unknown);
      expect(again.status).toBe(1);
      expect(again.stderr).toBe(`tender: No active key with id ${unknown}. See keys list.\n`);
    }
    // Without the id it is a usage mistake, as before.
    expect(run('keys', 'revoke').status).toBe(2);
  });

  it('settings set and get tips_enabled, and refuse nonsense', () => {
    expect(run('settings', 'get', 'tips_enabled').stdout.trim()).toBe('tips_enabled=false');
    expect(run('settings', 'set', 'tips_enabled', 'true').status).toBe(0);
    expect(run('settings', 'get', 'tips_enabled').stdout.trim()).toBe('tips_enabled=true');
    const bad = run('settings', 'set', 'tips_enabled', 'maybe');
    expect(bad.status).toBe(2);
    expect(run('settings', 'get', 'tips_enabled').stdout.trim()).toBe('tips_enabled=true');
  });

  it('refuses words a command does not take, and changes nothing', () => {
    const key = run('keys', 'create', '--name', 'till').stdout.trim().split('\n').at(-1) ?? '';
    const id = key.split('_')[1] ?? '';
    const unquoted = run('settings', 'set', 'merchant_name', 'Blue', 'Door', 'Cafe');
    expect(unquoted.status).toBe(2);
    expect(unquoted.stderr).toContain('"Door"');
    expect(run('settings', 'get', 'merchant_name').stdout).not.toContain('Blue');
    expect(run('keys', 'revoke', id, 'another').status).toBe(2);
    expect(run('keys', 'list').stdout).not.toMatch(/revoked/);
    expect(run('keys', 'list', 'junk').status).toBe(2);
    expect(run('audit', 'all').status).toBe(2);
    for (const origin of [
      'https://pos.example.com/',
      'null',
      '*',
      'pos.example.com',
      'HTTPS://POS.example.com',
    ])
      expect(run('serve', '--port', '1', '--allow-origin', origin).stderr, origin).toContain(
        '--allow-origin takes an origin as a browser sends it',
      );
    expect(run('help').stdout).toContain('--allow-origin <origin>');
    for (const limit of ['99999999999999999999', '1e3', '0x10', '0'])
      expect(run('audit', '--limit', limit).status, limit).toBe(2);
    for (const name of ['constructor', '__proto__', 'toString']) {
      const unknown = run('settings', 'get', name);
      expect(unknown.status, name).toBe(2);
      expect(unknown.stderr).toContain(`Unknown setting "${name}"`);
    }
    expect(run('settings', 'set', 'merchant_name', 'Blue Door Cafe').status).toBe(0);
  });

  it('the swipe BDK defaults to the ANSI test key, says so, and is never printed', () => {
    expect(run('settings', 'get', 'swipe_bdk').stdout).toMatch(
      /^swipe_bdk=ANSI test BDK \(TEST ONLY.*KCV [0-9A-F]{6}/,
    );
    const key = '89ABCDEF0123456776543210FEDCBA98';
    const set = runWithInput(`${key}\n`, 'settings', 'set', 'swipe_bdk', '-');
    expect(set.status, set.stderr).toBe(0);
    const shown = run('settings', 'get').stdout;
    expect(shown).toMatch(/swipe_bdk=custom BDK, KCV [0-9A-F]{6}/);
    expect(shown).not.toContain(key);
    const bad = runWithInput('SECRETSECRETSECRET\n', 'settings', 'set', 'swipe_bdk', '-');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('not a valid value for swipe_bdk');
    expect(bad.stderr).not.toContain('SECRETSECRETSECRET');
  });

  it('choosing the gateway erases the swipe key, said in the audit log by its check value; none is taken while it is chosen', () => {
    const key = '89ABCDEF0123456776543210FEDCBA98';
    expect(runWithInput(`${key}\n`, 'settings', 'set', 'swipe_bdk', '-').status).toBe(0);
    const kcv = /KCV ([0-9A-F]{6})$/m.exec(run('settings', 'get', 'swipe_bdk').stdout)?.[1] ?? '';
    expect(kcv).toMatch(/^[0-9A-F]{6}$/);
    expect(
      runWithInput('gw_live_Q4n8Vx2Lp7Rk1Zt5\n', 'settings', 'set', 'upstream_api_key', '-').status,
    ).toBe(0);
    expect(run('settings', 'set', 'upstream_url', 'https://gateway.example.com/rest/v1').status).toBe(0);
    const chosen = run('settings', 'set', 'processor', 'upstream');
    expect(chosen.status, chosen.stderr).toBe(0);
    expect(run('settings', 'get', 'swipe_bdk').stdout.trim()).toMatch(
      /^swipe_bdk=none held: with processor upstream, swipes go to the merchant's gateway/,
    );
    const audit = run('audit').stdout;
    expect(audit).toContain(`custom BDK, KCV ${kcv} → erased: processor upstream holds no BDK`);
    const refused = runWithInput(`${key}\n`, 'settings', 'set', 'swipe_bdk', '-');
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/^tender: swipe_bdk cannot be set while processor is upstream: /);
    expect(run('audit').stdout).toBe(audit);
    const outputs = [chosen, refused, run('settings', 'get'), run('audit')];
    for (const output of outputs) expect(output.stdout + output.stderr).not.toContain(key);
    if (!store) {
      expect(run('backup', '--to', join(dataDir, 'copy.db')).status).toBe(0);
      expect(readFileSync(join(dataDir, 'copy.db')).toString('latin1')).not.toContain(key);
    }
  });

  it('a secret given as a word of the command line is refused, says to give - instead, and changes nothing', () => {
    // Every secret setting, so that one added later is covered too.
    expect(SECRET_SETTINGS).toEqual(
      expect.arrayContaining(['swipe_bdk', 'upstream_api_key', 'smtp_password']),
    );
    const values: Record<string, string> = {
      swipe_bdk: '00112233445566778899AABBCCDDEEFF',
      upstream_api_key: 'gw_live_8f3a9c2d1e7b4a6f',
      smtp_password: 'hunter2-mail',
    };
    const before = run('settings', 'get').stdout;
    for (const name of SECRET_SETTINGS) {
      const value = values[name] ?? 's3cret-value';
      const refused = run('settings', 'set', name, value);
      expect(refused.status, `${name}: ${refused.stderr}`).toBe(2);
      expect(refused.stderr.split('\n')[0]).toMatch(
        new RegExp(
          `^tender: ${name} is a secret, never taken as a word of the command line.*Give - instead \\(settings set ${name} -\\)`,
        ),
      );
      expect(refused.stdout + refused.stderr).not.toContain(value);
    }
    expect(run('settings', 'get').stdout).toBe(before);
    expect(run('audit').stdout).not.toMatch(/setting_change|swipe_bdk|upstream_api_key|smtp_password/);
    // The same values read from standard input are taken, and an empty word, which reveals nothing,
    // still clears a secret.
    for (const name of SECRET_SETTINGS) {
      const set = runWithInput(`${values[name] ?? 's3cret-value'}\n`, 'settings', 'set', name, '-');
      expect(set.status, `${name}: ${set.stderr}`).toBe(0);
    }
    expect(run('settings', 'get', 'smtp_password').stdout.trim()).toBe('smtp_password=set (hidden)');
    expect(run('settings', 'set', 'smtp_password', '').status).toBe(0);
    expect(run('settings', 'get', 'smtp_password').stdout.trim()).toBe('smtp_password=not set');
  });

  it("the gateway's key, read from standard input, is never shown again: not by settings, audit or backup", () => {
    const key = 'gw_live_Q4n8Vx2Lp7Rk1Zt5Mc9Hb3Wd';
    const refused = run('settings', 'set', 'processor', 'upstream');
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('processor upstream needs upstream_url and upstream_api_key set first');
    const set = runWithInput(`${key}\n`, 'settings', 'set', 'upstream_api_key', '-');
    expect(set.status, set.stderr).toBe(0);
    expect(set.stdout.trim()).toBe('upstream_api_key=set (hidden)');
    expect(run('settings', 'set', 'upstream_url', 'https://gateway.example.com/rest/v1').status).toBe(0);
    expect(run('settings', 'set', 'processor', 'upstream').status).toBe(0);
    const outputs = [
      set,
      run('settings', 'get'),
      run('settings', 'get', 'upstream_api_key'),
      runWithInput(`${key}\u0007\n`, 'settings', 'set', 'upstream_api_key', '-'),
      run('audit'),
      ...(store ? [] : [run('backup', '--to', join(dataDir, 'copy.db'))]),
    ];
    expect(outputs[1]?.stdout).toContain('upstream_api_key=set (hidden)');
    expect(outputs[1]?.stdout).toContain('processor=upstream');
    expect(outputs[3]?.status).toBe(2);
    expect(outputs[4]?.stdout).toContain('upstream_api_key');
    for (const output of outputs) expect(output.stdout + output.stderr).not.toContain(key);
  });

  it('a secret read from standard input that gives nothing at all is refused, not cleared', () => {
    expect(runWithInput('s3cret-word\n', 'settings', 'set', 'smtp_password', '-').status).toBe(0);
    const nothing = runWithInput('', 'settings', 'set', 'smtp_password', '-');
    expect(nothing.status).toBe(2);
    expect(nothing.stderr).toContain('Nothing was read from standard input');
    expect(run('settings', 'get', 'smtp_password').stdout.trim()).toBe('smtp_password=set (hidden)');
    // An empty line is how it is cleared.
    expect(runWithInput('\n', 'settings', 'set', 'smtp_password', '-').status).toBe(0);
    expect(run('settings', 'get', 'smtp_password').stdout.trim()).toBe('smtp_password=not set');
  });

  it.skipIf(spawnSync('script', ['--version']).status !== 0)(
    'a secret typed at a terminal is not shown as it is typed',
    async () => {
      const words = [
        process.execPath,
        ...CLI,
        'settings',
        'set',
        'smtp_password',
        '-',
        '--data-dir',
        dataDir,
      ];
      const command = [...words, ...storeArguments({ store })].map((word) => `'${word}'`).join(' ');
      // util-linux's script runs the command on a terminal of its own; the secret is typed there once
      // the prompt shows, as a person would.
      const terminal = spawn('script', ['-qec', command, '/dev/null'], { cwd: ROOT });
      let shown = '';
      let typed = false;
      terminal.stdout.on('data', (chunk: Buffer) => {
        shown += chunk.toString('utf8');
        if (!typed && shown.includes('smtp_password: ')) {
          typed = true;
          terminal.stdin.write('typed-s3cret\r');
        }
      });
      const status = await new Promise((resolve) => terminal.on('close', resolve));
      expect(status, shown).toBe(0);
      expect(shown).toContain('smtp_password=set (hidden)');
      expect(shown).not.toContain('typed-s3cret');
    },
  );

  it('a command that only reads, on a data dir that is not one, says so and makes nothing there', () => {
    const mistyped = join(dataDir, 'tendr');
    const elsewhere = mkdtempSync(join(tmpdir(), 'tender-not-a-data-dir-'));
    writeFileSync(join(elsewhere, 'notes.txt'), 'not a ledger');
    for (const [folder, args] of [
      [mistyped, ['keys', 'list']],
      [mistyped, ['settings', 'get']],
      [mistyped, ['staff', 'list']],
      [mistyped, ['audit']],
      [mistyped, ['receipt', '--id', '1']],
      [elsewhere, ['keys', 'list']],
    ] as const) {
      const result = spawnSync(process.execPath, [...CLI, ...args, '--data-dir', folder], {
        cwd: ROOT,
        encoding: 'utf8',
      });
      expect(result.status, args.join(' ')).toBe(1);
      expect(result.stderr).toContain(`There is no Tender ledger in ${folder}`);
    }
    expect(existsSync(mistyped)).toBe(false);
    expect(readdirSync(elsewhere)).toEqual(['notes.txt']);
    rmSync(elsewhere, { recursive: true });
    // An empty folder made for it is a data dir still to be used: the defaults are shown.
    expect(run('settings', 'get', 'tips_enabled').stdout).toContain('tips_enabled=');
  });

  it('a data dir that is a file is said to be one, whatever the command, and the file is left as it was', () => {
    const file = join(dataDir, 'notes.txt');
    writeFileSync(file, 'not a folder');
    for (const args of [
      ['keys', 'list'],
      ['settings', 'set', 'tips_enabled', 'true'],
      ['serve', '--port', '1'],
    ]) {
      const result = spawnSync(process.execPath, [...CLI, ...args, '--data-dir', file], {
        cwd: ROOT,
        encoding: 'utf8',
      });
      expect(result.status, args.join(' ')).toBe(1);
      expect(result.stderr.trim()).toBe(
        `tender: ${file} is a file, not a folder: --data-dir names the folder that holds Tender's ledger.`,
      );
    }
    expect(readFileSync(file, 'utf8')).toBe('not a folder');
  });

  it('an unknown command says so and shows the usage', () => {
    const result = run('launch');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('Unknown command "launch"');
    expect(result.stderr).toContain('Usage: npm run gateway');
  });

  it('serve creates the data dir, answers on loopback HTTPS, and stops cleanly on SIGTERM', async () => {
    const key = run('keys', 'create', '--name', 'probe').stdout.trim().split('\n').at(-1) ?? '';
    const port = await freePort();
    const { child, output } = await serve(port);
    expect(output()).toContain(join(dataDir, 'tls', 'cert.pem'));
    expect(await getOpenBatch(port, key)).toBe(204);
    const exit = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
  });

  it('serve stops cleanly on a SIGTERM sent the moment it says it is ready', async () => {
    // A supervisor may stop the engine as soon as it is ready; a signal that beat the handler ended
    // the engine uncleanly, and the next start checked the whole ledger.
    for (let round = 0; round < 3; round++) {
      const { child, output } = await serve(await freePort());
      const exit = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
        child.once('exit', (code, signal) => resolve({ code, signal })),
      );
      child.kill('SIGTERM');
      expect(await exit, output()).toEqual({ code: 0, signal: null });
      expect(output()).not.toContain('not clean');
    }
  });
});
