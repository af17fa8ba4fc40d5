/**
 * The engine as a relay to the merchant's gateway: a SALE sent to an engine with `processor`
 * `upstream`, which forwards it to a second engine in simulator mode standing for the gateway,
 * beside the same SALE sent straight to that gateway engine, in alternating rounds of one run. Both
 * engines share the machine's two cores, so at concurrency 16 each SALE is worked twice; the figure
 * that belongs to the relay alone is the time from the gateway's answer to its own answer, which the
 * engine reports in its Server-Timing header (`relay`).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { request } from 'node:https';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dataDirLayout } from '../../electron/gateway/paths';
import { allApproved, median, type BenchRow, type LoadReport, type Measure } from './stats';

const ROOT = join(import.meta.dirname, '..', '..');
const TSX = ['--import', 'tsx'];
const ROUNDS = 3;
const ROUND_MS = 4000;

interface TimedMeasure extends LoadReport {
  serverTiming?: Measure;
}

const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 1)} ms`;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

function serve(cli: readonly string[], dataDir: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [...cli, 'serve', '--data-dir', dataDir, '--port', String(port)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(`https://127.0.0.1:${port}/rest/v1`)) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${output}`)));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

function command(cli: readonly string[], dataDir: string, args: string[], input?: string): string {
  return execFileSync(process.execPath, [...cli, ...args, '--data-dir', dataDir], {
    cwd: ROOT,
    encoding: 'utf8',
    ...(input !== undefined && { input }),
  });
}

function newKey(cli: readonly string[], dataDir: string, name: string): string {
  return command(cli, dataDir, ['keys', 'create', '--name', name]).trim().split('\n').at(-1) ?? '';
}

function load(options: Record<string, unknown>): TimedMeasure {
  const output = execFileSync(
    process.execPath,
    [...TSX, join(ROOT, 'test/bench/load.ts'), JSON.stringify(options)],
    { cwd: ROOT, encoding: 'utf8', maxBuffer: 16 << 20 },
  );
  return JSON.parse(output.trim().split('\n').at(-1) ?? '{}') as TimedMeasure;
}

/** GETs a path of an engine and answers its status and body. */
function get(
  port: number,
  path: string,
  key: string,
  caFile: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port,
        path: `/rest/v1/${path}`,
        headers: { api_key: key, accept: 'application/json' },
        ca: readFileSync(caFile),
      },
      (incoming: IncomingMessage) => {
        let body = '';
        incoming.on('data', (chunk: Buffer) => (body += chunk.toString()));
        incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, body }));
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

function medianRun(runs: TimedMeasure[]): TimedMeasure {
  const sorted = [...runs].sort((a, b) => a.perSecond - b.perSecond);
  return sorted[Math.floor(sorted.length / 2)] as TimedMeasure;
}

/** `cli` runs the headless command line (the bundle `npm run bench` builds, or tsx and cli.ts). */
export async function measureRelay(cli: readonly string[]): Promise<BenchRow[]> {
  const gatewayDir = mkdtempSync(join(tmpdir(), 'tender-bench-gateway-'));
  const relayDir = mkdtempSync(join(tmpdir(), 'tender-bench-relay-'));
  const children: ChildProcess[] = [];
  try {
    // The same card and amount again and again: the duplicate check is off on both.
    for (const dir of [gatewayDir, relayDir])
      command(cli, dir, ['settings', 'set', 'duplicate_window_minutes', '0']);
    const gatewayKey = newKey(cli, gatewayDir, 'relay');
    const relayKey = newKey(cli, relayDir, 'benchmark');
    const gatewayPort = await freePort();
    children.push(await serve(cli, gatewayDir, gatewayPort));
    const gatewayCa = dataDirLayout(gatewayDir).certificate;
    command(cli, relayDir, ['settings', 'set', 'upstream_url', `https://127.0.0.1:${gatewayPort}/rest/v1`]);
    command(cli, relayDir, ['settings', 'set', 'upstream_api_key', '-'], `${gatewayKey}\n`);
    command(cli, relayDir, ['settings', 'set', 'upstream_ca_file', gatewayCa]);
    command(cli, relayDir, ['settings', 'set', 'processor', 'upstream']);
    const relayPort = await freePort();
    children.push(await serve(cli, relayDir, relayPort));

    const sale = JSON.stringify({
      type: 'SALE',
      amount: '12.50',
      card: '4111111111111111',
      exp_date: '1230',
    });
    const headers = { accept: 'application/json', 'content-type': 'application/json' };
    const direct = (concurrency: number) =>
      load({
        url: `https://127.0.0.1:${gatewayPort}/rest/v1/transactions`,
        method: 'POST',
        headers: { ...headers, api_key: gatewayKey },
        body: sale,
        caFile: gatewayCa,
        concurrency,
        durationMs: ROUND_MS,
        warmupRequests: 32,
      });
    const relayed = (concurrency: number) =>
      load({
        url: `https://127.0.0.1:${relayPort}/rest/v1/transactions`,
        method: 'POST',
        headers: { ...headers, api_key: relayKey },
        body: sale,
        caFile: dataDirLayout(relayDir).certificate,
        concurrency,
        durationMs: ROUND_MS,
        warmupRequests: 32,
        serverTiming: 'relay',
      });
    const rounds: Record<'direct' | 'relayed', Record<number, TimedMeasure>>[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const each: Record<'direct' | 'relayed', Record<number, TimedMeasure>> = { direct: {}, relayed: {} };
      for (const concurrency of [1, 16]) {
        each.direct[concurrency] = direct(concurrency);
        each.relayed[concurrency] = relayed(concurrency);
      }
      rounds.push(each);
    }
    // Every relayed SALE must have been approved by the gateway: an answer of 200 can carry an Error.
    const relayCa = dataDirLayout(relayDir).certificate;
    const unapproved = await get(relayPort, 'transactions?result=Error&page_size=1', relayKey, relayCa);
    const approved = await get(relayPort, 'transactions?result=Approved&page_size=1', relayKey, relayCa);
    if (unapproved.status !== 204 || approved.status !== 200)
      throw new Error(`relayed SALEs that were not approved: ${unapproved.body}`);
    for (const run of rounds.flatMap((round) => [
      ...Object.values(round.direct),
      ...Object.values(round.relayed),
    ]))
      allApproved(run, 'relay SALE');
    const at = (side: 'direct' | 'relayed', concurrency: number) =>
      medianRun(rounds.map((round) => round[side][concurrency] as TimedMeasure));
    // Latency added is taken round by round, each relay run against the direct run beside it.
    const added = (percentile: 'p50' | 'p99') =>
      median(
        rounds.map(
          (round) =>
            (round.relayed[1] as TimedMeasure)[percentile] - (round.direct[1] as TimedMeasure)[percentile],
        ),
      );
    const c1Direct = at('direct', 1);
    const c1Relayed = at('relayed', 1);
    const c16Direct = at('direct', 16);
    const c16Relayed = at('relayed', 16);
    const addedP50 = added('p50');
    const addedP99 = added('p99');
    const afterAnswer = c16Relayed.serverTiming;
    const afterAnswerC1 = c1Relayed.serverTiming;
    return [
      {
        what: 'SALE relayed to the gateway engine, concurrency 1, p50 added',
        engine: `${ms(c1Relayed.p50)} (+${ms(addedP50)})`,
        baseline: `${ms(c1Direct.p50)} straight to the gateway`,
        ratio: c1Relayed.p50 / c1Direct.p50,
        target: '≤ +2 ms',
        pass: addedP50 <= 2,
      },
      {
        what: 'SALE relayed to the gateway engine, concurrency 1, p99 added',
        engine: `${ms(c1Relayed.p99)} (+${ms(addedP99)})`,
        baseline: `${ms(c1Direct.p99)} straight to the gateway`,
        ratio: c1Relayed.p99 / c1Direct.p99,
        target: '≤ +5 ms',
        pass: addedP99 <= 5,
      },
      {
        what: 'SALE relayed, concurrency 16 (both engines on the two cores)',
        engine: `${c16Relayed.perSecond.toFixed(0)}/s`,
        baseline: `${c16Direct.perSecond.toFixed(0)}/s straight to the gateway`,
        ratio: c16Relayed.perSecond / c16Direct.perSecond,
        target: 'for context',
      },
      {
        what: "Relay: the gateway's answer to the engine's, p50 / p99, concurrency 1 and 16",
        engine: `${ms(afterAnswerC1?.p50 ?? Number.NaN)} / ${ms(afterAnswerC1?.p99 ?? Number.NaN)}; ${ms(afterAnswer?.p50 ?? Number.NaN)} / ${ms(afterAnswer?.p99 ?? Number.NaN)}`,
        baseline: `${ms(c16Relayed.p50)} / ${ms(c16Relayed.p99)} whole SALE, c16`,
        ratio: (afterAnswer?.p50 ?? Number.NaN) / c16Relayed.p50,
        target: 'for context',
      },
    ];
  } finally {
    for (const child of children.reverse()) await stop(child);
    rmSync(gatewayDir, { recursive: true, force: true });
    rmSync(relayDir, { recursive: true, force: true });
  }
}

// `node --import tsx test/bench/relay.ts` measures the relay alone.
if (import.meta.filename === process.argv[1]) {
  measureRelay([...TSX, join(ROOT, 'electron', 'cli.ts')]).then(
    (rows) => console.table(rows),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
