/**
 * Whether the merchant's gateway can be reached, as the last exchange with it found: offline from a
 * connection that could not be made, online again from the next answer. Every screen shows it, and
 * the forwarder of offline sales waits for it to come back.
 */
import { EventEmitter } from 'node:events';

export type LineState = 'online' | 'offline';

export class GatewayLine extends EventEmitter<{ changed: [LineState] }> {
  #state: LineState = 'online';

  get state(): LineState {
    return this.#state;
  }

  /** The gateway answered (whatever it answered): the line is up. */
  reached(): void {
    this.#set('online');
  }

  /** No connection to the gateway could be made. */
  unreachable(): void {
    this.#set('offline');
  }

  #set(state: LineState): void {
    if (state === this.#state) return;
    this.#state = state;
    this.emit('changed', state);
  }
}
