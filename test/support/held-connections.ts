/**
 * A local program that holds the engine's connections without using them, as an attacker or a
 * broken integration would: TCP connections that never start TLS, TLS connections that never send a
 * request, requests whose headers trickle in a byte at a time, and keep-alive connections left idle.
 * Each one the engine closes is opened again at once, so the number held stays up.
 */
import { connect as connectTcp, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';

export type HeldKind = 'tcp' | 'tls' | 'slow-headers' | 'idle-keep-alive';

export interface HoldOptions {
  port: number;
  /** PEM of the engine's certificate. */
  ca: string;
  /** How many of each kind to keep open. */
  mix: Partial<Record<HeldKind, number>>;
  /** How often a slow client sends its next byte. */
  trickleEveryMs?: number;
}

export interface HeldConnections {
  /** Resolves once every connection was opened (or refused) at least once. */
  ready: Promise<void>;
  /** Connections open now. */
  readonly open: number;
  /** Connections the engine closed (and that were opened again). */
  readonly closedByEngine: number;
  stop(): void;
}

/**
 * Connections being set up at once: a steady attacker, whose reopened connections keep the engine
 * busy shedding rather than only filling its listen backlog (a burst is tested on its own).
 */
const OPENING_AT_ONCE = 64;

export function holdConnections(options: HoldOptions): HeldConnections {
  const sockets = new Set<Socket>();
  const trickleEveryMs = options.trickleEveryMs ?? 1000;
  const host = `127.0.0.1:${options.port}`;
  const waiting: { kind: HeldKind; opened?: () => void }[] = [];
  let opening = 0;
  let stopped = false;
  let closedByEngine = 0;

  const openNext = (): void => {
    while (!stopped && opening < OPENING_AT_ONCE && waiting.length > 0) {
      const { kind, opened } = waiting.shift() as { kind: HeldKind; opened?: () => void };
      opening++;
      open(kind, () => {
        opening--;
        opened?.();
        openNext();
      });
    }
  };
  const enqueue = (kind: HeldKind, opened?: () => void) => {
    waiting.push({ kind, ...(opened && { opened }) });
    openNext();
  };

  const open = (kind: HeldKind, settled: () => void): void => {
    let done = false;
    const settle = () => {
      if (done) return;
      done = true;
      settled();
    };
    const socket: Socket =
      kind === 'tcp'
        ? connectTcp({ host: '127.0.0.1', port: options.port }, settle)
        : connectTls(
            { host: '127.0.0.1', port: options.port, ca: options.ca, servername: 'localhost' },
            () => {
              settle();
              if (kind === 'slow-headers')
                socket.write(`GET /rest/v1/batches/open HTTP/1.1\r\nHost: ${host}\r\n`);
              if (kind === 'idle-keep-alive')
                socket.write(`GET /rest/v1/openapi.json HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
            },
          );
    sockets.add(socket);
    let trickle: NodeJS.Timeout | undefined;
    if (kind === 'slow-headers') {
      trickle = setInterval(() => {
        if (socket.writable) socket.write('x');
      }, trickleEveryMs);
    }
    socket.on('data', () => undefined);
    socket.on('error', () => undefined);
    socket.once('close', () => {
      clearInterval(trickle);
      sockets.delete(socket);
      settle();
      if (stopped) return;
      closedByEngine++;
      enqueue(kind);
    });
  };

  const opened: Promise<void>[] = [];
  for (const [kind, count] of Object.entries(options.mix) as [HeldKind, number][]) {
    for (let i = 0; i < count; i++) opened.push(new Promise((resolve) => enqueue(kind, resolve)));
  }

  return {
    ready: Promise.all(opened).then(() => undefined),
    get open() {
      return sockets.size;
    },
    get closedByEngine() {
      return closedByEngine;
    },
    stop() {
      stopped = true;
      waiting.length = 0;
      for (const socket of sockets) socket.destroy();
      sockets.clear();
    },
  };
}
