/**
 * The headless engine as a separate process, as an integrator runs it (`serve`), so that a test can
 * SIGKILL it mid-load and start it again on the same data dir; and an HTTPS client for it that keeps
 * every answer exactly as it arrived, or says that none did.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request as httpsRequest } from 'node:https';
import { createServer } from 'node:net';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');
const CLI = ['--import', 'tsx', join(ROOT, 'electron', 'cli.ts')];

/** Runs a CLI command to completion (never `serve`). */
export function runCli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [...CLI, ...args], { cwd: ROOT, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** `keys create`: the key is printed alone on the last line. */
export function createKeyWithCli(dataDir: string, name: string): string {
  const created = runCli('keys', 'create', '--data-dir', dataDir, '--name', name);
  if (created.status !== 0) throw new Error(`keys create failed (${created.status}): ${created.stderr}`);
  const key = created.stdout.trim().split('\n').at(-1)?.trim() ?? '';
  if (!key) throw new Error(`keys create printed no key: ${created.stdout}`);
  return key;
}

/** A port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface EngineProcess {
  child: ChildProcess;
  port: number;
  /** Milliseconds from spawn to the ready line. */
  startupMs: number;
  /** Everything the process printed so far, stdout and stderr interleaved. */
  output(): string;
  /** Settles when the process has exited. */
  exited: Promise<ExitStatus>;
  /** Sends SIGKILL (no chance to clean up) and resolves once the process is gone. */
  kill(): Promise<ExitStatus>;
  /** Sends SIGTERM (a clean stop) and resolves once the process is gone. */
  stop(): Promise<ExitStatus>;
}

/**
 * Starts `serve` (with `args` besides, such as a store server's) and resolves once it prints
 * `https://127.0.0.1:<port>/rest/v1`.
 */
export function startEngineProcess(
  dataDir: string,
  port: number,
  options: { readyTimeoutMs?: number; args?: readonly string[] } = {},
): Promise<EngineProcess> {
  // A bound on a start that never comes, not a measure: a busy machine starts Node and tsx slowly.
  const readyTimeoutMs = options.readyTimeoutMs ?? 120_000;
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [...CLI, 'serve', '--data-dir', dataDir, '--port', String(port), ...(options.args ?? [])],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const exited = new Promise<ExitStatus>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const readyLine = `https://127.0.0.1:${port}/rest/v1`;
  const signalAndWait = (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return exited;
  };
  return new Promise<EngineProcess>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve was not ready within ${readyTimeoutMs} ms:\n${output}`));
    }, readyTimeoutMs);
    let ready = false;
    const onOutput = (chunk: Buffer) => {
      output += chunk.toString();
      if (ready || !output.includes(readyLine)) return;
      ready = true;
      clearTimeout(timer);
      resolve({
        child,
        port,
        startupMs: performance.now() - started,
        output: () => output,
        exited,
        kill: () => signalAndWait('SIGKILL'),
        stop: () => signalAndWait('SIGTERM'),
      });
    };
    child.stdout?.on('data', onOutput);
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`serve exited (code ${code}, signal ${signal}) before it was ready:\n${output}`));
    });
  });
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * An HTTPS client of one engine process, trusting the data dir's certificate. A request either
 * resolves with the whole answer or rejects: an answer cut off by a crash never counts as received.
 */
export class EngineClient {
  private readonly agent: Agent;
  /** How many times requestSafely found a kept-alive connection closed and tried a new one. */
  staleConnections = 0;

  constructor(
    readonly port: number,
    private readonly ca: string,
    readonly key: string,
    maxSockets = 32,
  ) {
    this.agent = new Agent({ ca, keepAlive: true, maxSockets });
  }

  static forDataDir(dataDir: string, port: number, key: string, maxSockets?: number): EngineClient {
    return new EngineClient(port, readFileSync(join(dataDir, 'tls', 'cert.pem'), 'utf8'), key, maxSockets);
  }

  request(
    method: string,
    path: string,
    options: { body?: string; headers?: Record<string, string>; newConnection?: boolean } = {},
  ): Promise<Answer> {
    const headers: Record<string, string> = {
      host: `127.0.0.1:${this.port}`,
      accept: 'application/json',
      api_key: this.key,
      ...options.headers,
    };
    if (options.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      headers['content-length'] = String(Buffer.byteLength(options.body));
    }
    return new Promise<Answer>((resolve, reject) => {
      const outgoing = httpsRequest(
        {
          host: '127.0.0.1',
          port: this.port,
          path: path.startsWith('/') ? path : `/rest/v1/${path}`,
          method,
          headers,
          ...(options.newConnection ? { agent: false, ca: this.ca } : { agent: this.agent }),
          servername: 'localhost',
        },
        (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
          incoming.on('error', reject);
          incoming.on('aborted', () => reject(new Error('answer cut off')));
          incoming.on('end', () => {
            if (!incoming.complete) return reject(new Error('answer cut off'));
            resolve({
              status: incoming.statusCode ?? 0,
              headers: incoming.headers,
              body: Buffer.concat(chunks).toString('utf8'),
            });
          });
        },
      );
      outgoing.on('error', reject);
      outgoing.end(options.body);
    }).catch((error: unknown) => {
      throw new Error(`${method} ${path}: ${(error as Error).message}`, { cause: error });
    });
  }

  /**
   * A request that may be sent twice: a GET, or a POST with an Idempotency-Key. A connection the
   * engine closed while idle (the keep-alive race every HTTP client meets) gets one more try on a
   * fresh one; a real failure fails again.
   */
  async requestSafely(
    method: string,
    path: string,
    options: { body?: string; headers?: Record<string, string> } = {},
  ): Promise<Answer> {
    try {
      return await this.request(method, path, options);
    } catch (error) {
      const code = ((error as Error).cause as NodeJS.ErrnoException | undefined)?.code;
      const message = ((error as Error).cause as Error | undefined)?.message ?? '';
      if (code !== 'EPIPE' && code !== 'ECONNRESET' && message !== 'socket hang up') throw error;
      this.staleConnections += 1;
      return this.request(method, path, { ...options, newConnection: true });
    }
  }

  /** GET a JSON resource: undefined for 204, the parsed body for 200, an error otherwise. */
  async getJson<T>(path: string): Promise<T | undefined> {
    const answer = await this.requestSafely('GET', path);
    if (answer.status === 204) return undefined;
    if (answer.status !== 200) throw new Error(`GET ${path} answered ${answer.status}: ${answer.body}`);
    return JSON.parse(answer.body) as T;
  }

  close(): void {
    this.agent.destroy();
  }
}
