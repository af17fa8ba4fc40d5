/**
 * The batch close at the merchant's gateway and this counter's transactions, kept apart: while the
 * gateway closes its batch, a transaction going up meanwhile would land in the gateway's next batch
 * but in the ledger's closing one. Transactions share the gate; a close waits for those in progress
 * to finish, and holds new ones back until it has closed on both sides.
 */
export class CloseGate {
  #active = 0;
  #closing: Promise<void> | undefined;
  #idle: (() => void)[] = [];

  /** Enters a transaction: after any close in progress. Call the answer once it is done. */
  async enter(): Promise<() => void> {
    while (this.#closing) await this.#closing;
    this.#active += 1;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.#active -= 1;
      if (this.#active === 0) for (const resume of this.#idle.splice(0)) resume();
    };
  }

  /** Runs `close` alone: after the transactions in progress, before any new one. */
  async exclusive<T>(close: () => Promise<T>): Promise<T> {
    while (this.#closing) await this.#closing;
    let finished!: () => void;
    const closing = new Promise<void>((resolve) => (finished = resolve));
    this.#closing = closing;
    try {
      if (this.#active > 0) await new Promise<void>((resolve) => this.#idle.push(resolve));
      return await close();
    } finally {
      this.#closing = undefined;
      finished();
    }
  }
}
