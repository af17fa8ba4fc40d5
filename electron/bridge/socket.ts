/**
 * The bridge over a WebSocket on the engine's HTTPS server, for the screens in a browser. The
 * upgrade passes the same Host rule as the API and must come from the screens' own Origin (a
 * browser always sends one; a client that sends none is not a page of ours). Its first message then
 * pairs a new page by its ticket, or presents a paired page's credential (screens-pairing.ts); only
 * then does it receive events and may it make requests. A customer's screen receives only its own
 * view and may make only its few requests; every other channel is refused to it. While the counter
 * is locked, a cashier's page receives only what the lock screen shows (locked-counter.ts).
 */
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import {
  BRIDGE_MAX_MESSAGE_BYTES,
  BRIDGE_SOCKET_PATH,
  clientMessageSchema,
  SOCKET_CLOSE_CODES,
  type ClientMessage,
  type ServerMessage,
} from '../../shared/ipc/socket-protocol';
import { allowedHosts, requestedHost, servedOrigin } from '../gateway/http/loopback';
import { dispatchInvoke, type BridgeHandlers } from './dispatch';
import type { BridgeEvents } from './events';
import type { ScreensPairing } from './screens-pairing';

export interface BridgeHost {
  /** Every request of the cashier's screens. */
  handlers: BridgeHandlers;
  /** The only requests a customer's screen may make. */
  customerHandlers: Partial<BridgeHandlers>;
  /** What a cashier's page is sent. */
  cashierEvents: BridgeEvents;
  /** What a customer's page is sent. */
  customerEvents: BridgeEvents;
  /** A customer's screen connected; returns what to call when it goes. */
  attachCustomerScreen(): () => void;
}

export interface BridgeSocketOptions {
  pairing: Pick<ScreensPairing, 'redeem' | 'pageOf'>;
  /** The terminal behind the bridge, once it has started; sockets are refused before that. */
  host: () => BridgeHost | undefined;
  /** How long a new socket has to pair or present its credential. */
  helloTimeoutMs?: number;
}

const DEFAULT_HELLO_TIMEOUT_MS = 5_000;

/**
 * Sockets that have not yet said which screen they are, at most this many at once. A page says it as
 * soon as its socket opens, so a newer one sends the oldest away: a program opening sockets it never
 * pairs cannot hold the engine's connections, and a page of ours still gets in.
 */
const MAX_UNPAIRED_SOCKETS = 32;

/** How long a socket sent away has to answer the close before the engine cuts it. */
const CLOSE_GRACE_MS = 1_000;

interface Refusal {
  status: number;
  reason: string;
}

/** Why an upgrade request may not become a bridge socket, or undefined when it may. */
export function refuseUpgrade(
  request: Pick<IncomingMessage, 'url' | 'headers'>,
  port: number,
): Refusal | undefined {
  const path = (request.url ?? '').split('?')[0];
  if (path !== BRIDGE_SOCKET_PATH) return { status: 404, reason: 'Not Found' };
  const host = requestedHost(request.headers);
  if (!allowedHosts(port).has(host)) return { status: 421, reason: 'Misdirected Request' };
  // Browsers always send Origin on a WebSocket; only the screens' own page may open this one.
  const origin = request.headers.origin;
  if (origin === undefined || origin.toLowerCase() !== servedOrigin(host)) {
    return { status: 403, reason: 'Forbidden' };
  }
  return undefined;
}

function refuse(socket: Duplex, refusal: Refusal): void {
  socket.end(
    `HTTP/1.1 ${refusal.status} ${refusal.reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`,
  );
}

export function hostBridgeSocket(app: FastifyInstance, options: BridgeSocketOptions): void {
  const { pairing } = options;
  /** The socket each paired page holds now: one page, one socket. */
  const pages = new Map<string, WebSocket>();
  const helloTimeoutMs = options.helloTimeoutMs ?? DEFAULT_HELLO_TIMEOUT_MS;
  /** Sockets not paired yet, oldest first. */
  const unpaired = new Set<WebSocket>();
  const sockets = new WebSocketServer({
    noServer: true,
    maxPayload: BRIDGE_MAX_MESSAGE_BYTES,
    perMessageDeflate: false,
  });

  app.server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const port = (app.server.address() as AddressInfo).port;
    const refusal = refuseUpgrade(request, port);
    if (refusal) return refuse(socket, refusal);
    const host = options.host();
    if (!host) return refuse(socket, { status: 503, reason: 'Service Unavailable' });
    sockets.handleUpgrade(request, socket, head, (ws) => serve(ws, host));
  });

  // Open sockets would hold the server's close forever; they are told the engine is going away.
  app.addHook('preClose', async () => {
    for (const client of sockets.clients)
      sendAway(client, SOCKET_CLOSE_CODES.GOING_AWAY, 'Tender is stopping.');
    await new Promise<void>((resolve) => sockets.close(() => resolve()));
  });

  function serve(ws: WebSocket, host: BridgeHost): void {
    let unsubscribe: (() => void) | undefined;
    let handlers: Partial<BridgeHandlers> = host.handlers;
    const send = (message: ServerMessage) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
    };
    let pageId: string | undefined;
    const hello = setTimeout(
      () => sendAway(ws, SOCKET_CLOSE_CODES.TOO_SLOW, 'The page did not say which screen it is.'),
      helloTimeoutMs,
    );
    unpaired.add(ws);
    if (unpaired.size > MAX_UNPAIRED_SOCKETS) {
      // Cut at once rather than closed: a page of ours would have said which screen it is by now.
      const oldest = unpaired.values().next().value;
      if (oldest) unpaired.delete(oldest);
      oldest?.terminate();
    }

    ws.on('message', (data: RawData, isBinary: boolean) => {
      const message = isBinary ? undefined : readMessage(data);
      if (!message) return sendAway(ws, SOCKET_CLOSE_CODES.BAD_MESSAGE, 'Not a bridge message.');
      if (!unsubscribe) {
        const credential =
          message.type === 'pair'
            ? pairing.redeem(message.ticket)
            : message.type === 'hello'
              ? message.credential
              : undefined;
        const page = credential === undefined ? undefined : pairing.pageOf(credential);
        if (page === undefined) {
          return sendAway(ws, SOCKET_CLOSE_CODES.UNAUTHORIZED, 'This page is not paired with the counter.');
        }
        clearTimeout(hello);
        unpaired.delete(ws);
        pageId = page.pageId;
        // The newest socket of a page wins: a reload's socket may arrive before the old one's close.
        const earlier = pages.get(page.pageId);
        pages.set(page.pageId, ws);
        earlier?.close(SOCKET_CLOSE_CODES.REPLACED, 'This screen was opened again in another window.');
        if (page.role === 'customer') {
          handlers = host.customerHandlers;
          const detach = host.attachCustomerScreen();
          const events = host.customerEvents.subscribe((event, payload) =>
            send({ type: 'event', event, payload }),
          );
          unsubscribe = () => {
            events();
            detach();
          };
        } else {
          unsubscribe = host.cashierEvents.subscribe((event, payload) =>
            send({ type: 'event', event, payload }),
          );
        }
        return send(message.type === 'pair' ? { type: 'ready', credential } : { type: 'ready' });
      }
      if (message.type !== 'invoke') return ws.close(SOCKET_CLOSE_CODES.BAD_MESSAGE, 'Already connected.');
      void dispatchInvoke(handlers, message.channel, message.input).then((result) =>
        send({ type: 'result', id: message.id, result }),
      );
    });
    ws.on('close', () => {
      clearTimeout(hello);
      unpaired.delete(ws);
      unsubscribe?.();
      if (pageId !== undefined && pages.get(pageId) === ws) pages.delete(pageId);
    });
    // A socket error is followed by close; there is nothing else to do with it.
    ws.on('error', () => undefined);
  }
}

/**
 * Closes a socket with the reason, and cuts it if it has not answered the close within the grace:
 * a client that never answers would otherwise hold its connection for the WebSocket library's 30 s.
 */
function sendAway(ws: WebSocket, code: number, reason: string): void {
  ws.close(code, reason);
  setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
}

function readMessage(data: RawData): ClientMessage | undefined {
  try {
    const bytes = Buffer.isBuffer(data)
      ? data
      : Array.isArray(data)
        ? Buffer.concat(data)
        : Buffer.from(data);
    const parsed = clientMessageSchema.safeParse(JSON.parse(bytes.toString('utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
