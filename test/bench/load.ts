/**
 * The load generator: a separate process, as a client would be, sending requests over HTTPS with
 * keep-alive at a fixed concurrency, and printing one JSON line of throughput and latencies.
 *
 *   node --import tsx test/bench/load.ts '<json options>'
 *
 * With `untilStopped`, it prints `{"warm":true}` once its connections are warm, then runs until
 * SIGTERM and prints its line: background load for a measure taken meanwhile.
 */
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { summarize } from './stats';

interface LoadOptions {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  /** Bodies sent in turn instead of `body`: distinct requests, as different customers' cards make them. */
  bodies?: string[];
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

function nextBody(): string | undefined {
  const { bodies } = options;
  return bodies?.length ? bodies[sent++ % bodies.length] : options.body;
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

function once(
  warmup = false,
): Promise<{ ms: number; status: number; bytes: number; timing: number | undefined }> {
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
        incoming.on('data', (chunk: Buffer) => (bytes += chunk.length));
        incoming.on('end', () =>
          resolve({
            ms: Number(process.hrtime.bigint() - started) / 1e6,
            status: incoming.statusCode ?? 0,
            bytes,
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
      const { ms, status, bytes, timing } = await once();
      latencies.push(ms);
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
      meanBodyBytes: Math.round(bodyBytes / Math.max(1, latencies.length)),
      ...(options.serverTiming !== undefined && { serverTiming: summarize(timings, seconds) }),
    })}\n`,
  );
}

run().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
