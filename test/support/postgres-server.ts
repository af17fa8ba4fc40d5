/**
 * A real PostgreSQL server for the tests: Debian's `postgresql` package, a cluster made in a temp dir
 * and started on a free loopback port, with fsync and synchronous_commit on as a store server runs.
 * PostgreSQL refuses to run as root, so when the tests do, the cluster belongs to `nobody` and the
 * server is started under that user. One server per test file, or one for the API suite's run on
 * PostgreSQL (postgres-setup.ts); a fresh database per test.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  chownSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

const POSTGRES_ROOT = '/usr/lib/postgresql';
/** The migrated database the API suite's test databases are copied from (see postgres-setup.ts). */
export const TEMPLATE_DATABASE = 'tender_template';
const SUPERUSER = 'tender';
/** The unprivileged account the cluster belongs to when the tests run as root. */
const CLUSTER_OWNER = { name: 'nobody', uid: 65534, gid: 65534 };
const READY_LINE = /database system is ready to accept connections/;
/** A bound on a start that never comes: on a busy machine a start after a crash recovers for a while. */
const START_LIMIT_MS = 120_000;

export interface PostgresServerOptions {
  /**
   * Serve TLS with this certificate and key and refuse connections without it. The server then
   * listens on 127.0.0.2 too, an address its certificate may not name.
   */
  tls?: { certificatePem: string; privateKeyPem: string };
  /** Connections the server accepts at once; 100 by default. */
  maxConnections?: number;
}

export interface PostgresServer {
  readonly port: number;
  /** A connection URL for `database` as the cluster's superuser. */
  url(database: string): string;
  /** Creates a database, empty or a copy of `template`, and returns its URL. */
  createDatabase(name?: string, template?: string): Promise<string>;
  /** Stops the server (a fast shutdown), leaving its files: `start` brings it back on the same port. */
  stop(): Promise<void>;
  /**
   * Kills the server and every process of it (SIGKILL), as a crash would end them; `start` then runs
   * PostgreSQL's crash recovery.
   */
  kill(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server and removes its files. */
  close(): Promise<void>;
}

/** The directory of the newest PostgreSQL installed from Debian's packages. */
export function postgresBinDir(): string {
  const versions = existsSync(POSTGRES_ROOT)
    ? readdirSync(POSTGRES_ROOT)
        .filter((name) => /^\d+$/.test(name) && existsSync(join(POSTGRES_ROOT, name, 'bin', 'postgres')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  const newest = versions[0];
  if (newest === undefined)
    throw new Error(
      `No PostgreSQL server under ${POSTGRES_ROOT}. Install Debian's postgresql package (resources/debian-packages.txt).`,
    );
  return join(POSTGRES_ROOT, newest, 'bin');
}

const asRoot = process.getuid?.() === 0;

/** `command` as the cluster's owner: under `setpriv` when the tests run as root. */
function asOwner(command: string, args: string[]): [string, string[]] {
  if (!asRoot) return [command, args];
  return [
    'setpriv',
    [
      `--reuid=${CLUSTER_OWNER.uid}`,
      `--regid=${CLUSTER_OWNER.gid}`,
      '--clear-groups',
      '--reset-env',
      '--',
      command,
      ...args,
    ],
  ];
}

/** The processes whose parent is `parent`, from /proc. */
function childProcesses(parent: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        // The parent is the second field after the command name, which is in parentheses.
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === parent;
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** True while the process exists and has not exited (a zombie has let go of its memory). */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export async function startPostgresServer(options: PostgresServerOptions = {}): Promise<PostgresServer> {
  const bin = postgresBinDir();
  // As root the cluster belongs to nobody, who must reach it: /tmp is open to everyone, a TMPDIR
  // under root's home may not be.
  const dir = mkdtempSync(join(asRoot ? '/tmp' : tmpdir(), 'tender-postgres-'));
  const data = join(dir, 'data');
  if (asRoot) chownSync(dir, CLUSTER_OWNER.uid, CLUSTER_OWNER.gid);
  const [initdb, initArgs] = asOwner(join(bin, 'initdb'), [
    '-D',
    data,
    '-U',
    SUPERUSER,
    '--auth=trust',
    '--encoding=UTF8',
    '--locale=C',
    // Only initdb's own flush of the new cluster: the server itself runs with fsync on.
    '--no-sync',
  ]);
  const made = spawnSync(initdb, initArgs, { encoding: 'utf8' });
  if (made.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`initdb failed: ${made.stderr || made.error?.message}`);
  }

  const tlsSettings: string[] = [];
  if (options.tls) {
    const certificate = join(dir, 'server.crt');
    const key = join(dir, 'server.key');
    writeFileSync(certificate, options.tls.certificatePem);
    // PostgreSQL refuses a key that others may read.
    writeFileSync(key, options.tls.privateKeyPem, { mode: 0o600 });
    // TLS or nothing over TCP; the socket in the temp dir stays open for the harness itself.
    writeFileSync(
      join(data, 'pg_hba.conf'),
      'local all all trust\nhostssl all all 127.0.0.0/8 trust\nhostnossl all all 0.0.0.0/0 reject\n',
    );
    if (asRoot)
      for (const file of [certificate, key, join(data, 'pg_hba.conf')])
        chownSync(file, CLUSTER_OWNER.uid, CLUSTER_OWNER.gid);
    tlsSettings.push('-c', 'ssl=on', '-c', `ssl_cert_file=${certificate}`, '-c', `ssl_key_file=${key}`);
  }

  let port = await freePort();
  let server: ChildProcess | undefined;
  let databases = 0;

  const start = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const [command, args] = asOwner(join(bin, 'postgres'), [
        '-D',
        data,
        '-p',
        String(port),
        '-c',
        `listen_addresses=${options.tls ? '127.0.0.1,127.0.0.2' : '127.0.0.1'}`,
        '-c',
        `unix_socket_directories=${dir}`,
        '-c',
        'fsync=on',
        '-c',
        'synchronous_commit=on',
        '-c',
        `max_connections=${options.maxConnections ?? 100}`,
        '-c',
        'shared_buffers=32MB',
        ...tlsSettings,
      ]);
      const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
      server = child;
      let log = '';
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`PostgreSQL did not start within ${START_LIMIT_MS} ms:\n${log}`));
      }, START_LIMIT_MS);
      const onLog = (chunk: Buffer) => {
        log += chunk.toString();
        if (READY_LINE.test(log)) {
          clearTimeout(timer);
          child.stderr?.off('data', onLog);
          // Keep draining the log so the server never blocks on a full pipe.
          child.stderr?.resume();
          resolve();
        }
      };
      child.stderr?.on('data', onLog);
      child.once('exit', (code) => {
        clearTimeout(timer);
        if (server === child) server = undefined;
        reject(new Error(`PostgreSQL exited with ${code}:\n${log}`));
      });
    });

  const stop = async (): Promise<void> => {
    const child = server;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    // SIGINT is PostgreSQL's fast shutdown: open sessions are ended, nothing committed is lost.
    child.kill('SIGINT');
    await exited;
  };

  const kill = async (): Promise<void> => {
    const child = server;
    if (!child?.pid || child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    // Each session leads a process group of its own, so they are found by parent: the postmaster is
    // stopped first so that it forks no new one while they are collected.
    process.kill(child.pid, 'SIGSTOP');
    const sessions = childProcesses(child.pid);
    for (const pid of sessions) process.kill(pid, 'SIGKILL');
    process.kill(child.pid, 'SIGKILL');
    await exited;
    // The sessions are no children of ours. Until they are gone the next start would find their
    // shared memory still attached.
    const deadline = Date.now() + 60_000;
    while (sessions.some(isRunning) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 10));
  };

  const url = (database: string) => `postgresql://${SUPERUSER}@127.0.0.1:${port}/${database}`;

  // Another program may take the free port before the server binds it: then it tries another.
  for (let attempt = 1; ; attempt += 1) {
    try {
      await start();
      break;
    } catch (error) {
      const portTaken = /could not bind|Address already in use/.test(String(error));
      if (portTaken && attempt < 3) {
        port = await freePort();
        continue;
      }
      rmSync(dir, { recursive: true, force: true });
      throw error;
    }
  }

  return {
    get port() {
      return port;
    },
    url,
    async createDatabase(name = `ledger_${++databases}`, template = 'template0') {
      // Over the socket in the temp dir, which needs no TLS.
      await administer({ host: dir, port, user: SUPERUSER, database: 'postgres' }, [
        `CREATE DATABASE ${name} TEMPLATE ${template}`,
      ]);
      return url(name);
    },
    stop,
    kill,
    start,
    async close() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs statements one after another on a server's `postgres` database, as its superuser. */
export async function administer(connection: string | pg.ClientConfig, statements: string[]): Promise<void> {
  const admin = new pg.Client(typeof connection === 'string' ? { connectionString: connection } : connection);
  await admin.connect();
  try {
    for (const statement of statements) await admin.query(statement);
  } finally {
    await admin.end();
  }
}
