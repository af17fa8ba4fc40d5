/**
 * Events from the host to the screens. Each payload is parsed with its contract schema on the way
 * out, which also drops any field the contract does not name.
 */
import { eventChannels, type EventName, type EventPayload } from '../../shared/ipc/contract';

export type BridgeEventListener = <E extends EventName>(event: E, payload: EventPayload<E>) => void;

/** What a page's transport follows: events, in order, until it unsubscribes. */
export interface BridgeEvents {
  /** Every event this follower is sent, in order; returns the unsubscribe function. */
  subscribe(listener: BridgeEventListener): () => void;
}

export class BridgeEventHub implements BridgeEvents {
  readonly #listeners = new Set<BridgeEventListener>();

  emit<E extends EventName>(event: E, payload: EventPayload<E>): void {
    const checked = eventChannels[event].parse(payload) as EventPayload<E>;
    for (const listener of [...this.#listeners]) {
      try {
        listener(event, checked);
      } catch (error) {
        // One broken transport (a closed window, a dropped socket) must not starve the others.
        console.error(`tender: delivering the bridge event ${event} failed.`, error);
      }
    }
  }

  /** Every event, in order; returns the unsubscribe function. */
  subscribe(listener: BridgeEventListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
