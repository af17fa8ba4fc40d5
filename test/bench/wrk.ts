/**
 * SALEs sent by wrk (Debian's package: a load generator written in C, on OpenSSL), with
 * sales.lua counting each answer's status and result. Where the engines, their load generators and
 * the database share the machine's two cores, a client in Node costs about as much CPU a request as
 * the engine that answers it, and takes that from the engines; wrk costs a small share of it, as
 * pgbench does beside the database it measures. It keeps its connections open across the run and
 * does not check the engine's certificate (every connection is to this machine).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoadReport } from './stats';

export interface WrkSales {
  /** The engine's `POST /transactions` address. */
  url: string;
  headers: Record<string, string>;
  /** JSON bodies, sent in turn on each connection; `{card}` in them is a card of its own with `cardsFrom`. */
  bodies: string[];
  /**
   * Each body's `{card}` is replaced by the next card of a sequence starting here, so that no two
   * sales of a run share a card (runs a million apart never do).
   */
  cardsFrom?: number;
  concurrency: number;
  /** Whole seconds, at least one. */
  durationMs: number;
}

const SCRIPT = join(import.meta.dirname, 'sales.lua');

/** A timed run of SALEs by wrk, reported as load.ts reports its own. */
export function wrkSales(options: WrkSales): Promise<LoadReport> {
  const dir = mkdtempSync(join(tmpdir(), 'tender-bench-wrk-'));
  const bodiesFile = join(dir, 'bodies.jsonl');
  writeFileSync(bodiesFile, `${options.bodies.join('\n')}\n`);
  const seconds = Math.max(1, Math.round(options.durationMs / 1000));
  const child = spawn(
    'wrk',
    [
      '--threads',
      '1',
      '--connections',
      String(options.concurrency),
      '--duration',
      `${seconds}s`,
      '--timeout',
      '30s',
      '--script',
      SCRIPT,
      ...Object.entries(options.headers).flatMap(([name, value]) => ['--header', `${name}: ${value}`]),
      options.url,
      '--',
      bodiesFile,
      ...(options.cardsFrom === undefined ? [] : [String(options.cardsFrom)]),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', (error) => {
      rmSync(dir, { recursive: true, force: true });
      reject(new Error(`wrk could not start (${error.message}): install Debian's wrk package`));
    });
    child.once('exit', (code) => {
      rmSync(dir, { recursive: true, force: true });
      const line = output
        .split('\n')
        .reverse()
        .find((each) => each.startsWith('{'));
      if (code !== 0 || line === undefined) {
        reject(new Error(`wrk exited with ${code}: ${output}`));
        return;
      }
      const report = JSON.parse(line) as LoadReport & { failed: number };
      if (report.failed > 0) {
        reject(new Error(`wrk: ${report.failed} requests failed on the connection: ${output}`));
        return;
      }
      resolve(report);
    });
  });
}
