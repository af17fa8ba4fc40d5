/**
 * A TCP proxy that holds every chunk a fixed time before passing it on, each way: a store server
 * across a shop's network, for the store-server bench. Run in a process of its own, so its work is
 * not the load generator's or an engine's:
 *
 *   node --import tsx test/bench/delay-proxy.ts <target port> <delay ms>
 *
 * It prints `{"port":<port>}` once it listens on 127.0.0.1. Order is kept on each connection: a chunk
 * leaves no sooner than `delay` after it arrived, and never before the chunk that arrived before it.
 * Timers on a busy machine are late rather than early, so the delay is a floor.
 */
import { connect, createServer, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';

const [targetText, delayText] = process.argv.slice(2);
const targetPort = Number(targetText);
const delayMs = Number(delayText);
if (!Number.isInteger(targetPort) || !(delayMs >= 0)) {
  console.error('usage: delay-proxy.ts <target port> <delay ms>');
  process.exit(2);
}

/** Passes what `from` sends on to `to`, each chunk `delayMs` late, in order; ends `to` after the last. */
function delayed(from: Socket, to: Socket): void {
  const queue: { due: number; chunk: Buffer | null }[] = [];
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    timer = undefined;
    const now = performance.now();
    while (queue.length > 0 && (queue[0]?.due ?? 0) <= now) {
      const { chunk } = queue.shift() as { due: number; chunk: Buffer | null };
      if (chunk === null) to.end();
      else to.write(chunk);
    }
    const next = queue[0];
    if (next) timer = setTimeout(flush, Math.max(0, next.due - now));
  };
  const push = (chunk: Buffer | null) => {
    queue.push({ due: performance.now() + delayMs, chunk });
    timer ??= setTimeout(flush, delayMs);
  };
  from.on('data', (chunk: Buffer) => push(chunk));
  from.on('end', () => push(null));
}

const proxy = createServer((client) => {
  client.setNoDelay(true);
  const server = connect({ host: '127.0.0.1', port: targetPort });
  server.setNoDelay(true);
  delayed(client, server);
  delayed(server, client);
  const close = () => {
    client.destroy();
    server.destroy();
  };
  // An orderly end travels with the delay, after the data before it; a broken side breaks both.
  client.on('error', close);
  server.on('error', close);
});

proxy.listen(0, '127.0.0.1', () => {
  const { port } = proxy.address() as { port: number };
  console.log(JSON.stringify({ port }));
});
