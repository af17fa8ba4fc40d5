/**
 * An HTTPS agent that keeps connections open between requests, and never hands a request one that
 * has sat idle for as long as the server said it keeps one.
 *
 * A kept connection the server closes just as a request goes out on it fails that request before
 * any answer; for a payment, nobody can then tell whether it arrived. Node's agent heeds the server's
 * Keep-Alive hint (retiring a connection a second before the server would) only when it has an idle
 * time of its own to shorten, and retires with a socket timer, which runs only when the event loop
 * gets to it: a process busy for a moment can still hand out a connection whose time is up. So this
 * agent always has an idle time, and `retireExpired`, called before each request, closes the kept
 * connections whose time is up, timer or not.
 */
import { Agent, type AgentOptions } from 'node:https';
import type { Socket } from 'node:net';

/** How long a kept connection waits for its next request when the server gives no shorter time. */
const IDLE_LIMIT_MS = 30_000;

export class KeptAgent extends Agent {
  /** When each kept connection last came back from a request, by the monotonic clock. */
  readonly #freedAt = new WeakMap<Socket, number>();

  constructor(options: Omit<AgentOptions, 'keepAlive' | 'timeout'> = {}) {
    super({ ...options, keepAlive: true, timeout: IDLE_LIMIT_MS });
    // Node's own listener, added first, has already kept the socket and set its idle time.
    this.on('free', (socket: Socket) => this.#freedAt.set(socket, performance.now()));
  }

  /**
   * Closes every kept connection idle for its whole idle time, so that the next request opens a new
   * one.
   */
  retireExpired(): void {
    const now = performance.now();
    for (const sockets of Object.values(this.freeSockets)) {
      for (const socket of sockets ?? []) {
        const freedAt = this.#freedAt.get(socket);
        const idleLimit = socket.timeout ?? 0;
        // Node skips a closed connection at the front of its list, where the longest idle ones are.
        if (freedAt !== undefined && idleLimit > 0 && now - freedAt >= idleLimit) socket.destroy();
      }
    }
  }
}
