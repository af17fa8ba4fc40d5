/**
 * The load generator: a separate process, as a client would be, sending requests over HTTPS with
 * keep-alive at a fixed concurrency, and printing one JSON line of throughput and latencies, with
 * the answers' HTTP statuses and, for money moves, their results (an answer of 200 can be a
 * Rejected or an Error, so a bench of money moves checks the results).
 *
 *   node --import tsx test/bench/load.ts '<json options>'
 *
 * With `untilStopped`, it prints `{"warm":true}` once its connections are warm, then runs until
 * SIGTERM and prints its line: background load for a measure taken meanwhile.
 */
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { passesLuhn } from '../../shared/cards';
import { summarize } from './stats';

interface LoadOptions {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  /** Bodies sent in turn instead of `body`: distinct requests, as different customers' cards make them. */
  bodies?: string[];
  /**
   * Each request's body has `{card}` replaced by a card number of its own, the next of a sequence
   * that starts here: sales of different customers' cards, none a duplicate of another, so the
   * duplicate check runs as it does at a counter and refuses none. Runs whose starting points are
   * a million apart never share a card.
   */
  cardsFrom?: number;
  caFile: string;
  concurrency: number;
  /** Stop after this many requests... */
  requests?: number;
  /** ...or after this long (ms), whichever comes first. */
  durationMs?: number;
  warmupRequests?: number;
  /** Warm the connections with GETs here instead of the measured request (for requests that change state). */
  warmupPath?: string;
  /** Ignore `requests` and `durationMs`: run from the warm line until SIGTERM. */
  untilStopped?: boolean;
  /** A metric of the answers' Server-Timing header whose durations (ms) are reported as `serverTiming`. */
  serverTiming?: string;
}

const options = JSON.parse(process.argv[2] ?? '{}') as LoadOptions;
const agent = new Agent({
  ca: readFileSync(options.caFile),
  keepAlive: true,
  maxSockets: options.concurrency,
});
const target = new URL(options.url);

let sent = 0;

const CHECK_DIGITS = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'];

/** A Visa number of 16 digits, `41` and `n` in 13 digits, with the check digit that passes Luhn. */
function cardNumber(n: number): string {
  const partial = `41${String(n).padStart(13, '0')}`;
  const check = CHECK_DIGITS.find((digit) => passesLuhn(partial + digit));
  return `${partial}${check}`;
}

function nextBody(): string | undefined {
  const { bodies, cardsFrom } = options;
  const index = sent++;
  const body = bodies?.length ? bodies[index % bodies.length] : options.body;
  return cardsFrom === undefined ? body : body?.replace('{card}', cardNumber(cardsFrom + index));
}

/** The `dur` of `metric` in a Server-Timing header, such as `upstream;dur=12.3, relay;dur=0.41`. */
function timingOf(header: string | string[] | undefined, metric: string): number | undefined {
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  for (const entry of text.split(',')) {
    const [name, ...parameters] = entry.trim().split(';');
    if (name !== metric) continue;
    const duration = parameters.find((parameter) => parameter.trim().startsWith('dur='));
    if (duration !== undefined) return Number(duration.trim().slice(4));
  }
  return undefined;
}

interface Answer {
  ms: number;
  status: number;
  bytes: number;
  timing: number | undefined;
  /** A money move's `result` (Approved, Declined, Rejected, Error), read from its JSON answer. */
  result: string | undefined;
}

/** The `result` of a JSON answer to a money move; lists and other answers have none. */
function resultOf(body: string): string | undefined {
  try {
    const { result } = JSON.parse(body) as { result?: unknown };
    return typeof result === 'string' ? result : undefined;
  } catch {
    return undefined;
  }
}

function once(warmup = false): Promise<Answer> {
  const started = process.hrtime.bigint();
  const method = warmup && options.warmupPath ? 'GET' : options.method;
  const path = warmup && options.warmupPath ? options.warmupPath : target.pathname + target.search;
  const body = method === 'GET' ? undefined : nextBody();
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: target.hostname,
        port: target.port,
        path,
        method,
        headers: {
          host: target.host,
          ...options.headers,
          ...(body !== undefined && { 'content-length': String(Buffer.byteLength(body)) }),
        },
        agent,
      },
      (incoming) => {
        let bytes = 0;
        // A money move's answer is read for its result; a list's is only counted.
        const chunks: Buffer[] | undefined = method === 'GET' ? undefined : [];
        incoming.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          chunks?.push(chunk);
        });
        incoming.on('end', () =>
          resolve({
            ms: Number(process.hrtime.bigint() - started) / 1e6,
            status: incoming.statusCode ?? 0,
            bytes,
            result: chunks && resultOf(Buffer.concat(chunks).toString()),
            timing:
              options.serverTiming === undefined
                ? undefined
                : timingOf(incoming.headers['server-timing'], options.serverTiming),
          }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

async function run(): Promise<void> {
  // Warm every connection the run will use, so no TLS handshake lands inside the measurement.
  const warmupEach = Math.ceil((options.warmupRequests ?? 20) / options.concurrency);
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      for (let i = 0; i < warmupEach; i++) await once(true);
    }),
  );
  const latencies: number[] = [];
  const timings: number[] = [];
  const statuses = new Map<number, number>();
  const results = new Map<string, number>();
  const limit = options.untilStopped
    ? Number.POSITIVE_INFINITY
    : (options.requests ?? Number.POSITIVE_INFINITY);
  const deadline =
    Date.now() +
    (options.untilStopped ? Number.POSITIVE_INFINITY : (options.durationMs ?? Number.POSITIVE_INFINITY));
  let stopped = false;
  if (options.untilStopped) {
    process.once('SIGTERM', () => (stopped = true));
    process.stdout.write(`${JSON.stringify({ warm: true })}\n`);
  }
  let issued = 0;
  let bodyBytes = 0;
  const started = process.hrtime.bigint();
  const worker = async () => {
    while (!stopped && issued < limit && Date.now() < deadline) {
      issued++;
      const { ms, status, bytes, timing, result } = await once();
      latencies.push(ms);
      if (result !== undefined) results.set(result, (results.get(result) ?? 0) + 1);
      if (timing !== undefined) timings.push(timing);
      bodyBytes += bytes;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  agent.destroy();
  process.stdout.write(
    `${JSON.stringify({
      ...summarize(latencies, seconds),
      statuses: Object.fromEntries(statuses),
      results: Object.fromEntries(results),
      meanBodyBytes: Math.round(bodyBytes / Math.max(1, latencies.length)),
      ...(options.serverTiming !== undefined && { serverTiming: summarize(timings, seconds) }),
    })}\n`,
  );
}

run().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
