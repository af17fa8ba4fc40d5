/**
 * The screens' side of the WebSocket bridge, as a BridgeTransport for createBridge. A new page pairs
 * with the ticket it was opened with and keeps the credential the host makes for it; it presents that
 * credential from then on, and reconnects after a drop (the credential is the data dir's, so a
 * restarted engine takes it again). It queues requests until the host says ready; a refused page
 * ends it. The socket itself comes from the caller (the browser's WebSocket, or `ws` in tests), as do
 * timers: shared/ has neither DOM nor Node.
 */
import { BridgeCallError, type BridgeTransport } from './facade';
import type { EventName, InvokeChannel } from './contract';
import {
  SOCKET_CLOSE_CODES,
  serverMessageSchema,
  type ClientMessage,
  type ServerMessage,
} from './socket-protocol';

export interface SocketHandlers {
  open(): void;
  message(text: string): void;
  close(code: number, reason: string): void;
}

export interface OpenSocket {
  send(text: string): void;
  close(code?: number, reason?: string): void;
}

/** Opens a socket to the bridge and reports its life through the handlers. */
export type SocketOpener = (handlers: SocketHandlers) => OpenSocket;

export type SocketState =
  | { state: 'connecting' }
  | { state: 'ready' }
  | { state: 'reconnecting' }
  /** The host refused this page, or another window took its place: only opening it again helps. */
  | { state: 'refused'; message: string }
  | { state: 'closed' };

/** Who the page is to the host: the ticket it was opened with, until it holds a credential of its own. */
export interface PagePass {
  ticket?: string;
  credential?: string;
  /** Keeps the credential the host made for this page, for its reloads (session storage in a browser). */
  keep?(credential: string): void;
}

export interface SocketTransportOptions {
  schedule: (callback: () => void, delayMs: number) => () => void;
  /** The first wait before reconnecting; it doubles up to maxReconnectDelayMs. */
  reconnectDelayMs?: number;
  maxReconnectDelayMs?: number;
  /**
   * How long a request waits for a lost connection to come back before it fails. A cashier must
   * learn within seconds that Tender cannot be reached, not watch a charge that never leaves.
   */
  unsentLimitMs?: number;
}

export interface SocketTransport extends BridgeTransport {
  readonly state: SocketState;
  onStateChange(listener: (state: SocketState) => void): () => void;
  close(): void;
}

interface Pending {
  message: ClientMessage;
  resolve(value: unknown): void;
  reject(error: Error): void;
  sent: boolean;
  /** Cancels the time limit of a request waiting for a lost connection. */
  cancelLimit?: () => void;
}

const LOST_CONNECTION =
  'Lost the connection to Tender. It reconnects by itself; if this lasts, check that Tender is running.';
export const NOT_PAIRED =
  'This page is not paired with the counter: the link it was opened with was used already or has run out, or the counter’s pages were reset. Open the cashier screens again from Tender on this computer.';
export const REPLACED =
  'These screens were opened again in another window, which took over from this one. Close this window, or reload it to use the counter here.';
/** What a request waiting for a lost connection fails with once its time is up. */
export const UNREACHABLE =
  'Tender cannot be reached: the connection to it was lost and has not come back. It reconnects by itself; check that Tender is running.';
/** The wait for a lost connection that a request allows (see SocketTransportOptions.unsentLimitMs). */
export const UNSENT_LIMIT_MS = 3_000;

export function socketTransport(
  open: SocketOpener,
  pass: PagePass,
  options: SocketTransportOptions,
): SocketTransport {
  let { ticket, credential } = pass;
  const firstDelay = options.reconnectDelayMs ?? 500;
  const maxDelay = options.maxReconnectDelayMs ?? 5_000;
  const unsentLimit = options.unsentLimitMs ?? UNSENT_LIMIT_MS;
  const subscribers = new Map<EventName, Set<(payload: unknown) => void>>();
  const stateListeners = new Set<(state: SocketState) => void>();
  /** Requests not yet answered, by id; those not yet sent wait for ready. */
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let state: SocketState = { state: 'connecting' };
  let socket: OpenSocket | undefined;
  let delay = firstDelay;
  let cancelReconnect: (() => void) | undefined;

  const setState = (next: SocketState) => {
    state = next;
    for (const listener of [...stateListeners]) listener(next);
  };

  const send = (message: ClientMessage) => socket?.send(JSON.stringify(message));

  const failPending = (message: string, onlySent: boolean) => {
    for (const [id, request] of pending) {
      if (onlySent && !request.sent) continue;
      pending.delete(id);
      request.cancelLimit?.();
      request.reject(new BridgeCallError('unavailable', message));
    }
  };

  /**
   * Once the connection is lost, a request still waiting to be sent fails after the limit. The first
   * connection has none: the page was just served by this host, and its first requests wait for it.
   */
  const limitUnsent = (id: number, request: Pending) => {
    if (request.sent || request.cancelLimit) return;
    request.cancelLimit = options.schedule(() => {
      if (pending.get(id) !== request || request.sent) return;
      pending.delete(id);
      request.reject(new BridgeCallError('unavailable', UNREACHABLE));
    }, unsentLimit);
  };

  const receive = (message: ServerMessage) => {
    if (message.type === 'ready') {
      if (message.credential !== undefined) {
        credential = message.credential;
        ticket = undefined;
        pass.keep?.(credential);
      }
      delay = firstDelay;
      // What waited for the connection goes first, then listeners hear of it: a request a listener
      // makes on hearing it is sent at once, and must not be sent a second time from the queue.
      for (const request of pending.values()) {
        if (request.sent) continue;
        request.sent = true;
        request.cancelLimit?.();
        send(request.message);
      }
      setState({ state: 'ready' });
      return;
    }
    if (message.type === 'result') {
      const request = pending.get(message.id);
      pending.delete(message.id);
      request?.resolve(message.result);
      return;
    }
    for (const listener of [...(subscribers.get(message.event as EventName) ?? [])])
      listener(message.payload);
  };

  const connect = () => {
    cancelReconnect = undefined;
    const current = open({
      open: () =>
        current.send(
          JSON.stringify(
            (credential !== undefined
              ? { type: 'hello', credential }
              : { type: 'pair', ticket: ticket ?? '' }) satisfies ClientMessage,
          ),
        ),
      message: (text) => {
        let parsed: ServerMessage | undefined;
        try {
          parsed = serverMessageSchema.parse(JSON.parse(text));
        } catch {
          return current.close(SOCKET_CLOSE_CODES.BAD_MESSAGE, 'Not a bridge message.');
        }
        receive(parsed);
      },
      close: (code) => {
        if (socket !== current) return;
        socket = undefined;
        // A request already sent may or may not have run; only the caller can decide to retry it.
        failPending(LOST_CONNECTION, true);
        if (state.state === 'closed') return;
        const refusal =
          code === SOCKET_CLOSE_CODES.UNAUTHORIZED
            ? NOT_PAIRED
            : code === SOCKET_CLOSE_CODES.REPLACED
              ? REPLACED
              : undefined;
        if (refusal !== undefined) {
          failPending(refusal, false);
          return setState({ state: 'refused', message: refusal });
        }
        setState({ state: 'reconnecting' });
        for (const [id, request] of pending) limitUnsent(id, request);
        cancelReconnect = options.schedule(connect, delay);
        delay = Math.min(delay * 2, maxDelay);
      },
    });
    socket = current;
  };

  connect();

  return {
    get state() {
      return state;
    },
    onStateChange(listener) {
      stateListeners.add(listener);
      return () => stateListeners.delete(listener);
    },
    invoke(channel: InvokeChannel, input: unknown) {
      if (state.state === 'refused') return Promise.reject(new BridgeCallError('unavailable', state.message));
      if (state.state === 'closed')
        return Promise.reject(new BridgeCallError('unavailable', LOST_CONNECTION));
      return new Promise((resolve, reject) => {
        const id = nextId++;
        const message: ClientMessage = { type: 'invoke', id, channel, input };
        const ready = state.state === 'ready';
        const request: Pending = { message, resolve, reject, sent: ready };
        pending.set(id, request);
        if (ready) send(message);
        else if (state.state === 'reconnecting') {
          limitUnsent(id, request);
          // Someone is waiting now: try at once rather than after the backoff, which may be longer
          // than the request's limit while the host is in fact back.
          if (cancelReconnect) {
            cancelReconnect();
            connect();
          }
        }
      });
    },
    subscribe(event, listener) {
      const set = subscribers.get(event) ?? new Set();
      set.add(listener);
      subscribers.set(event, set);
      return () => {
        set.delete(listener);
      };
    },
    close() {
      setState({ state: 'closed' });
      cancelReconnect?.();
      failPending(LOST_CONNECTION, false);
      socket?.close(1000, 'The page is closing.');
      socket = undefined;
    },
  };
}
