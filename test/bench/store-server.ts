/**
 * SALE on the store server beside SALE on a counter's own SQLite ledger, on the same machine: one,
 * two, three and four engines on one PostgreSQL database, each a process of its own as a counter runs
 * it (`serve --database --lane`), each driven by its own load generator at concurrency 16; then the
 * same with every engine reaching the database through a delay of 2 ms each way (delay-proxy.ts), as
 * across a shop's network. Every answer counted is a SALE answered 200 after its commit was durable on
 * its store, its result Approved. Each load generator sends sales of different amounts in turn, as
 * different customers do, and they come round again within the duplicate check's window, so the
 * check is off on the store.
 *
 * Run alone with `npx tsx test/bench/store-server.ts`; `npm run bench` runs it after its other
 * measures.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { administer, postgresBinDir, startPostgresServer } from '../support/postgres-server';
import { allApproved, type BenchRow, type LoadReport } from './stats';
import { wrkSales } from './wrk';

const ROOT = join(import.meta.dirname, '..', '..');
/**
 * The headless command line as run alone: tsx and cli.ts. `npm run bench` passes the bundle it builds
 * instead, with the flags the engine ships with, as it runs its other engines.
 */
const CLI = ['--import', 'tsx', join(ROOT, 'electron', 'cli.ts')];
const CONCURRENCY = 16;
const DURATION_MS = 8000;
/** A first, unmeasured run: connections made, statements prepared, caches warm. */
const WARMUP_MS = 2000;
/** Different sales each load generator sends in turn: more than it has in flight at once. */
const DISTINCT_SALES = 4 * CONCURRENCY;
/** The engines of a store, started one after another, each a counter's lane. */
const LANES = ['front', 'bar', 'patio', 'terrace'];
/** Each way, between every engine and the database, in the runs across a network. */
const NETWORK_DELAY_MS = 2;
/** The engines together sell at least this share of what the database commits alone. */
const CEILING_SHARE = 0.25;
/** Across the network, four engines together sell at least this many times what one sells. */
const NETWORK_SCALE = 3;

export interface Counter {
  api: string;
  key: string;
  caFile: string;
  child: ChildProcess;
  dataDir: string;
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export async function startCounter(
  store?: { url: string; lane: string },
  cli: readonly string[] = CLI,
): Promise<Counter> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tender-bench-store-'));
  // A store's keys and settings are kept on its server, beside its ledger.
  const storeArgs = store ? ['--database', store.url, '--lane', store.lane] : [];
  const created = spawnSync(
    process.execPath,
    [
      ...cli,
      'keys',
      'create',
      '--name',
      `bench ${store?.lane ?? 'local'}`,
      '--data-dir',
      dataDir,
      ...storeArgs,
    ],
    { cwd: ROOT, encoding: 'utf8' },
  );
  if (created.status !== 0) throw new Error(`keys create failed: ${created.stderr}`);
  const key = created.stdout.trim().split('\n').at(-1) as string;
  // The same card and amount again and again: the duplicate check would refuse all but the first.
  const window = spawnSync(
    process.execPath,
    [...cli, 'settings', 'set', 'duplicate_window_minutes', '0', '--data-dir', dataDir, ...storeArgs],
    { cwd: ROOT, encoding: 'utf8' },
  );
  if (window.status !== 0) throw new Error(`settings set failed: ${window.stderr}`);
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [...cli, 'serve', '--data-dir', dataDir, '--port', String(port), ...storeArgs],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(`https://127.0.0.1:${port}/rest/v1`)) resolve();
    });
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${output}`)));
  });
  return {
    api: `https://127.0.0.1:${port}/rest/v1`,
    key,
    caFile: join(dataDir, 'tls', 'cert.pem'),
    child,
    dataDir,
  };
}

export async function stopCounter(counter: Counter): Promise<void> {
  const exited = new Promise((resolve) => counter.child.once('exit', resolve));
  counter.child.kill('SIGTERM');
  await exited;
  rmSync(counter.dataDir, { recursive: true, force: true });
}

/** A run of the load generator (load.ts) in a process of its own, with its options. */
export function runLoad(options: Record<string, unknown>): Promise<LoadReport> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'test/bench/load.ts'), JSON.stringify(options)],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) =>
    child.once('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(output.trim().split('\n').at(-1) ?? '{}') as LoadReport)
        : reject(new Error(`load exited with ${code}: ${output}`)),
    ),
  );
}

/** SALE at concurrency 16 for a fixed time against one counter, sent by wrk (wrk.ts). */
export function saleLoad(counter: Counter, durationMs = DURATION_MS): Promise<LoadReport> {
  return wrkSales({
    url: `${counter.api}/transactions`,
    headers: { api_key: counter.key, accept: 'application/json', 'content-type': 'application/json' },
    bodies: Array.from({ length: DISTINCT_SALES }, (_, index) =>
      JSON.stringify({
        type: 'SALE',
        amount: (12 + index / 100).toFixed(2),
        card: '4111111111111111',
        exp_date: '1230',
      }),
    ),
    concurrency: CONCURRENCY,
    durationMs,
  });
}

/**
 * The database's own ceiling for a comparable durable commit: pgbench inserting one row per
 * transaction at concurrency 16, with the same synchronous_commit, into a table with one index.
 */
function commitCeiling(url: string): number {
  const script = join(mkdtempSync(join(tmpdir(), 'tender-bench-pgbench-')), 'insert.sql');
  writeFileSync(script, 'INSERT INTO bench_commits (amount, created_at) VALUES (1234, 1);\n');
  const pgbench = join(postgresBinDir(), 'pgbench');
  const psql = join(postgresBinDir(), 'psql');
  const created = spawnSync(
    psql,
    [url, '-c', 'CREATE TABLE bench_commits (id bigserial PRIMARY KEY, amount bigint, created_at bigint)'],
    { encoding: 'utf8' },
  );
  if (created.status !== 0) throw new Error(`psql failed: ${created.stderr}`);
  const run = spawnSync(
    pgbench,
    ['-n', '-c', String(CONCURRENCY), '-j', '2', '-T', String(DURATION_MS / 1000), '-f', script, url],
    { encoding: 'utf8' },
  );
  rmSync(dirname(script), { recursive: true, force: true });
  const tps = /tps = ([\d.]+)/.exec(run.stdout)?.[1];
  if (run.status !== 0 || tps === undefined) throw new Error(`pgbench failed: ${run.stderr}${run.stdout}`);
  return Number(tps);
}

const perSecond = (value: number) => `${value.toFixed(0)}/s`;

/** A delay proxy (delay-proxy.ts) in a process of its own, in front of the database at `url`. */
export async function startDelayProxy(
  url: string,
  delayMs: number,
): Promise<{ url: string; stop(): Promise<void> }> {
  const target = new URL(url);
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'test/bench/delay-proxy.ts'), target.port, String(delayMs)],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const port = await new Promise<number>((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = /\{"port":(\d+)\}/.exec(output);
      if (line) resolve(Number(line[1]));
    });
    child.once('exit', (code) => reject(new Error(`the delay proxy exited with ${code}`)));
  });
  const proxied = new URL(url);
  proxied.port = String(port);
  return {
    url: proxied.href,
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The machine's CPU time so far, busy and in all, summed over its cores (ms). */
function cpuTimes(): { busy: number; total: number } {
  let busy = 0;
  let total = 0;
  for (const { times } of cpus()) {
    const all = times.user + times.nice + times.sys + times.idle + times.irq;
    total += all;
    busy += all - times.idle;
  }
  return { busy, total };
}

/** How many of PostgreSQL's sessions wait on a lock now: a row's, a transaction's, an advisory lock. */
const LOCK_WAITS = `SELECT count(*)::integer AS waiting FROM pg_stat_activity
                    WHERE backend_type = 'client backend' AND wait_event_type = 'Lock'`;
const LOCK_SAMPLE_MS = 20;

/**
 * Looks at PostgreSQL's sessions every LOCK_SAMPLE_MS until the returned function is called, which
 * answers how many sessions were waiting on a lock, on average over the looks.
 */
async function watchLockWaits(adminUrl: string): Promise<() => Promise<number>> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  let stopped = false;
  let looks = 0;
  let waiting = 0;
  const watching = (async () => {
    while (!stopped) {
      const { rows } = await client.query<{ waiting: number }>(LOCK_WAITS);
      looks += 1;
      waiting += rows[0]?.waiting ?? 0;
      await new Promise((resolve) => setTimeout(resolve, LOCK_SAMPLE_MS));
    }
  })();
  return async () => {
    stopped = true;
    try {
      await watching;
    } finally {
      await client.end();
    }
    return looks === 0 ? 0 : waiting / looks;
  };
}

interface EngineCountRun {
  engines: number;
  together: number;
  worstP99: number;
  /** The share of the machine's CPU time that was busy during the run: 1 when the cores were the limit. */
  machineBusy: number;
  /** PostgreSQL's sessions waiting on a lock during the run, on average: 0 when no counter waited for another. */
  lockWaiting: number;
}

/**
 * SALE at concurrency 16 against one engine, then two, three and four on one database, each added
 * engine started (and warmed) before all of them run together; the sales a second of them together,
 * the worst p99, how busy the machine was and how many sessions waited on a lock, for each count.
 * Before each run the server writes out what the runs before it logged (a checkpoint, on the
 * server's own address `adminUrl`), so that no run pays for another's writes.
 */
async function salesByEngineCount(
  url: string,
  cli: readonly string[],
  adminUrl: string,
): Promise<EngineCountRun[]> {
  const counters: Counter[] = [];
  const measured: EngineCountRun[] = [];
  try {
    for (const lane of LANES) {
      const counter = await startCounter({ url, lane }, cli);
      counters.push(counter);
      await saleLoad(counter, WARMUP_MS);
      await administer(adminUrl, ['CHECKPOINT']);
      const lockWaits = await watchLockWaits(adminUrl);
      const before = cpuTimes();
      const runs = await Promise.all(counters.map((each) => saleLoad(each)));
      const after = cpuTimes();
      const lockWaiting = await lockWaits();
      runs.forEach((run) => allApproved(run, `${counters.length} engines`));
      measured.push({
        engines: counters.length,
        together: runs.reduce((sum, run) => sum + run.perSecond, 0),
        worstP99: Math.max(...runs.map((run) => run.p99)),
        machineBusy: (after.busy - before.busy) / (after.total - before.total),
        lockWaiting,
      });
    }
    return measured;
  } finally {
    for (const counter of counters) await stopCounter(counter);
  }
}

const engineCount = (count: number) => `${count} engine${count > 1 ? 's' : ''}`;
/** A run's sales a second, its worst p99, how busy the machine was and the sessions waiting on a lock. */
const runFigures = (run: EngineCountRun) =>
  `${perSecond(run.together)} (${run.worstP99.toFixed(1)} ms, CPU ${(100 * run.machineBusy).toFixed(0)}% busy, ` +
  `${run.lockWaiting.toFixed(2)} waiting on a lock)`;

/**
 * SALE throughput on SQLite, then on the store server with one to four engines, straight to the
 * database and then across a network's delay.
 */
export async function measureStoreServerSales(cli: readonly string[] = CLI): Promise<BenchRow[]> {
  const sqlite = await startCounter(undefined, cli);
  let alone: LoadReport;
  try {
    await saleLoad(sqlite, WARMUP_MS);
    alone = await saleLoad(sqlite);
    allApproved(alone, 'SQLite');
  } finally {
    await stopCounter(sqlite);
  }

  // Four engines hold up to a hundred connections between them (docs/operations.md).
  const server = await startPostgresServer({ maxConnections: 200 });
  try {
    const adminUrl = server.url('postgres');
    const ceiling = commitCeiling(await server.createDatabase());
    const rows: BenchRow[] = [];
    const direct = await salesByEngineCount(await server.createDatabase(), cli, adminUrl);
    const [one] = direct;
    if (one)
      rows.push({
        what: 'SALE c16, store server, 1 engine (p99)',
        engine: `${perSecond(one.together)} (${one.worstP99.toFixed(1)} ms)`,
        baseline: `${perSecond(alone.perSecond)} (${alone.p99.toFixed(1)} ms) SQLite`,
        ratio: one.together / alone.perSecond,
        target: 'for context',
      });
    direct.forEach((run, index) => {
      const fewer = direct[index - 1];
      rows.push({
        what: `SALE c16 each, store server, ${engineCount(run.engines)} together (worst p99)`,
        engine: runFigures(run),
        baseline: `${perSecond(ceiling)} pgbench single-row commits c16`,
        ratio: run.together / ceiling,
        target: `≥ ${CEILING_SHARE}× the commit ceiling${fewer ? `, ≥ ${engineCount(fewer.engines)}` : ''}`,
        pass: run.together >= CEILING_SHARE * ceiling && (!fewer || run.together >= fewer.together),
      });
    });

    const proxy = await startDelayProxy(await server.createDatabase(), NETWORK_DELAY_MS);
    try {
      const across = await salesByEngineCount(proxy.url, cli, adminUrl);
      const first = across[0];
      for (const run of across) {
        if (!first) break;
        rows.push({
          what: `SALE c16 each, store server ${NETWORK_DELAY_MS} ms away, ${engineCount(run.engines)} together`,
          engine: runFigures(run),
          baseline: `${perSecond(first.together)} 1 engine ${NETWORK_DELAY_MS} ms away`,
          ratio: run.together / first.together,
          ...(run.engines === LANES.length
            ? { target: `≥ ${NETWORK_SCALE}× 1 engine`, pass: run.together >= NETWORK_SCALE * first.together }
            : { target: 'for context' }),
        });
      }
    } finally {
      await proxy.stop();
    }
    return rows;
  } finally {
    await server.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  measureStoreServerSales().then(
    (rows) => {
      for (const row of rows)
        console.log(`${row.what}: ${row.engine} vs ${row.baseline} (${row.ratio.toFixed(2)}×)`);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
