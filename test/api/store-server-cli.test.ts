/**
 * `serve --database <url> --lane <name>` from the command line: the two options are checked before
 * anything starts, and a counter started with them keeps its ledger on a real PostgreSQL server.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TransactionListItem } from '../../shared/api/schemas';
import { writeStoreServerFile } from '../../electron/gateway/store-server-file';
import { startPostgresServer, type PostgresServer } from '../support/postgres-server';

const ROOT = join(import.meta.dirname, '..', '..');
const CLI = ['--import', 'tsx', join(ROOT, 'electron', 'cli.ts')];

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'tender-store-cli-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

function run(...args: string[]) {
  return runIn(dataDir, ...args);
}

/** The command line on another data dir, with `input` on its standard input. */
function runIn(dir: string, ...args: string[]) {
  const input = args[0] === 'staff' && args[1] === 'create' ? '4826\n' : undefined;
  const result = spawnSync(process.execPath, [...CLI, ...args, '--data-dir', dir], {
    cwd: ROOT,
    encoding: 'utf8',
    ...(input !== undefined && { input }),
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

function call(
  port: number,
  key: string,
  method: string,
  path: string,
  body?: string,
): Promise<{ status: number; body: string }> {
  const ca = readFileSync(join(dataDir, 'tls', 'cert.pem'), 'utf8');
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: `/rest/v1/${path}`,
        headers: {
          api_key: key,
          accept: 'application/json',
          ...(body !== undefined && { 'content-type': 'application/json' }),
        },
        agent: new Agent({ ca }),
      },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

describe('serve --database and --lane', () => {
  it.each([
    [['--lane', 'front'], /--lane needs --database/],
    [['--database', 'postgresql://tender@127.0.0.1/tender'], /--database needs --lane/],
    [
      ['--database', 'postgresql://tender@127.0.0.1/tender', '--lane', 'front desk'],
      /--lane must be 1 to 16/,
    ],
    [
      ['--database', 'postgresql://tender@127.0.0.1/tender', '--lane', 'a-very-long-lane-name'],
      /--lane must be 1 to 16/,
    ],
    [['--database', 'store-server.lan', '--lane', 'front'], /--database must be a postgresql:\/\/ URL/],
  ])('serve %j is a usage error, and nothing starts', (args, message) => {
    const result = run('serve', '--port', '1', ...args);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toContain('Usage:');
  });

  it.each([
    ['serve', 'postgresql://tender:s3cret@127.0.0.1/tender'],
    ['serve', 'postgresql://tender@127.0.0.1/tender?sslmode=require&password=s3cret'],
    ['keys list', 'postgresql://tender@127.0.0.1/tender?PASSWORD=s3cret'],
    ['audit', 'postgresql://tender:s3cret@127.0.0.1/tender'],
  ])(
    '%s refuses a password on its command line, says where to give it, and never prints it',
    (command, url) => {
      const result = run(...command.split(' '), '--port', '1', '--database', url, '--lane', 'front');
      expect(result.status).toBe(2);
      expect(result.stderr).toMatch(/PGPASSWORD.*~\/\.pgpass/s);
      expect(`${result.stdout}${result.stderr}`).not.toContain('s3cret');
    },
  );

  it("backup and restore refuse --database: they copy the data dir's SQLite ledger", () => {
    const flags = ['--database', 'postgresql://tender@127.0.0.1/tender', '--lane', 'counter-1'];
    const backup = run('backup', '--to', join(dataDir, 'copy.db'), ...flags);
    expect(backup.status).toBe(2);
    expect(backup.stderr).toMatch(/back up the store server's database with pg_dump/);
    const keys = run('keys', 'list', '--database', 'postgresql://tender@127.0.0.1/tender');
    expect(keys.status).toBe(2);
    expect(keys.stderr).toMatch(/--database needs --lane/);
  });

  it('backup and restore refuse a counter whose store server is saved in its data dir', () => {
    writeStoreServerFile(dataDir, { url: 'postgresql://tender@127.0.0.1/tender', lane: 'bar' });
    const backup = run('backup', '--to', join(dataDir, 'copy.db'));
    expect(backup.status).toBe(2);
    expect(backup.stderr).toMatch(/back up the store server's database with pg_dump/);
    expect(existsSync(join(dataDir, 'copy.db'))).toBe(false);
    const restore = run('restore', '--from', join(dataDir, 'copy.db'));
    expect(restore.status).toBe(2);
  });

  describe('against a real store server', () => {
    let server: PostgresServer;
    beforeAll(async () => {
      server = await startPostgresServer();
    });
    afterAll(async () => {
      await server?.close();
    });

    it('a counter started with them records its sales on the store server, in its lane', async () => {
      const url = await server.createDatabase();
      const created = run('keys', 'create', '--name', 'front till');
      expect(created.status).toBe(0);
      const key = created.stdout.trim().split('\n').at(-1) as string;
      const port = await freePort();
      const child = spawn(
        process.execPath,
        [
          ...CLI,
          'serve',
          '--data-dir',
          dataDir,
          '--port',
          String(port),
          '--database',
          url,
          '--lane',
          'front',
        ],
        { cwd: ROOT },
      );
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      try {
        let output = '';
        await new Promise<void>((resolve, reject) => {
          child.stdout.on('data', (chunk: Buffer) => {
            output += chunk.toString();
            if (output.includes(`https://127.0.0.1:${port}/rest/v1`)) resolve();
          });
          child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
          child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${output}`)));
        });
        expect(output).toContain('Ledger: the store server, as lane front');
        // The URL may carry a password: it is never printed.
        expect(output).not.toContain(url);
        const sale = await call(
          port,
          key,
          'POST',
          'transactions',
          JSON.stringify({ type: 'SALE', amount: '12.00', card: '4111111111111111', exp_date: '1230' }),
        );
        expect(JSON.parse(sale.body)).toMatchObject({ result: 'Approved' });
        // A second counter given the lane this one serves is refused, and says what to do.
        const other = mkdtempSync(join(tmpdir(), 'tender-store-cli-'));
        try {
          // Bounded: a second engine that did start would serve until stopped.
          const second = spawnSync(
            process.execPath,
            [
              ...CLI,
              'serve',
              '--port',
              String(await freePort()),
              '--database',
              url,
              '--lane',
              'front',
              '--data-dir',
              other,
            ],
            { cwd: ROOT, encoding: 'utf8', timeout: 60_000 },
          );
          expect(second.error).toBeUndefined();
          expect(second.status).toBe(1);
          expect(second.stderr).toContain(
            'Another counter is serving the lane "front" on this store server.',
          );
          expect(second.stderr).toContain('Give this counter a lane of its own');
        } finally {
          rmSync(other, { recursive: true, force: true });
        }
        const list = await call(port, key, 'GET', 'transactions?lane=front');
        const items = JSON.parse(list.body) as TransactionListItem[];
        expect(items.map((item) => [item.amount, item.lane, item.cashier])).toEqual([
          ['12.00', 'front', 'front till'],
        ]);
        expect((await call(port, key, 'PUT', 'batches/open')).status).toBe(200);
      } finally {
        child.kill('SIGTERM');
        expect(await exited).toBe(0);
      }
      // The store's receipts and audit log, from the command line of a counter.
      const printed = run('receipt', '--id', '1', '--database', url, '--lane', 'front');
      expect(printed.status).toBe(0);
      expect(printed.stdout).toContain('12.00');
      // The counter's own ledger holds none of the store's transactions.
      expect(run('receipt', '--id', '1').status).toBe(1);
      const audited = run('audit', '--database', url, '--lane', 'front');
      expect(audited.status).toBe(0);
      // The close from the store server, the key's creation from the data dir.
      expect(audited.stdout).toMatch(/batch_close/);
      expect(audited.stdout).toMatch(/key_create/);
    });

    it('a data dir whose Settings saved a store server uses it without the options, which still win', async () => {
      const url = await server.createDatabase();
      writeStoreServerFile(dataDir, { url, lane: 'bar' });
      const created = run('keys', 'create', '--name', 'saved store');
      expect(created.status).toBe(0);
      // The key is the store's: another counter on the store lists it, this data dir's file does not.
      const other = mkdtempSync(join(tmpdir(), 'tender-store-cli-other-'));
      try {
        expect(runIn(other, 'keys', 'list', '--database', url, '--lane', 'front').stdout).toContain(
          'saved store',
        );
        expect(runIn(other, 'keys', 'list').stdout).not.toContain('saved store');
      } finally {
        rmSync(other, { recursive: true, force: true });
      }
      // Options given on the command line win over the saved setting.
      const elsewhere = await server.createDatabase();
      expect(run('keys', 'list', '--database', elsewhere, '--lane', 'bar').stdout).not.toContain(
        'saved store',
      );
    });

    it('keys, settings, staff and audit with them work on the store’s, as every counter sees them', async () => {
      const url = await server.createDatabase();
      const store = ['--database', url];
      const created = run('keys', 'create', '--name', 'kitchen display', ...store, '--lane', 'counter-1');
      expect(created.status).toBe(0);
      const id = /Created API key ([0-9a-f]{16})/.exec(created.stdout)?.[1];
      expect(run('settings', 'set', 'tips_enabled', 'true', ...store, '--lane', 'counter-1').status).toBe(0);
      const added = run(
        'staff',
        'create',
        '--name',
        'Maya',
        '--role',
        'manager',
        ...store,
        '--lane',
        'counter-1',
      );
      expect(added.stderr).toBe('');
      expect(added.status).toBe(0);

      // Another counter's data dir, on the same store.
      const other = mkdtempSync(join(tmpdir(), 'tender-store-cli-other-'));
      try {
        const onOther = (...args: string[]) => runIn(other, ...args, ...store, '--lane', 'counter-2');
        expect(onOther('keys', 'list').stdout).toContain(`${id}  kitchen display`);
        expect(onOther('settings', 'get', 'tips_enabled').stdout.trim()).toBe('tips_enabled=true');
        expect(onOther('staff', 'list').stdout).toMatch(/Maya {2}manager/);
        expect(onOther('keys', 'revoke', id ?? '').status).toBe(0);
        const audit = onOther('audit', '--limit', '4').stdout.trim().split('\n');
        expect(audit[0]).toContain(`key_revoke  key ${id} "kitchen display"`);
        expect(audit[1]).toMatch(/staff_create {2}staff \d+ "Maya"/);
        expect(audit[2]).toMatch(/setting_change {2}tips_enabled {2}false → true$/);
        expect(audit[3]).toContain(`key_create  key ${id} "kitchen display"`);
        // Nothing of it is in either data dir's file.
        expect(run('keys', 'list').stdout).not.toContain('kitchen display');
        expect(runIn(other, 'staff', 'list').stdout).not.toContain('Maya');
      } finally {
        rmSync(other, { recursive: true, force: true });
      }
    });
  });
});
