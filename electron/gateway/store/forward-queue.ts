/**
 * The store-and-forward queue and the lookups still to make, as the engine sees them in either
 * store: what waits to be forwarded to the merchant's gateway (oldest first), what the gateway
 * answered, the declines a manager has not acknowledged yet, and the requests whose outcome could
 * not be learned. An offline sale's swipe, as the reader encrypted it, is kept only until the
 * gateway has answered; then it is deleted, and what is left of it in the store's files erased.
 */

/** One transaction waiting to be forwarded. */
export interface QueuedForward {
  transactionId: number;
  queuedAt: number;
  /** The request to send, as JSON, without the card (UpstreamRequest, the caller's fields, the reference). */
  form: string;
  /** An offline sale's encrypted_track_data, exactly as the reader made it. */
  swipe: string | null;
  /**
   * How many times it was sent, or may have been: after the first, it is looked up before it is sent
   * again.
   */
  attempts: number;
  /**
   * When its last send that may have reached the gateway ended; null when it was never sent, or was
   * queued as sent (then `queuedAt` is that time).
   */
  lastAttemptAt: number | null;
}

/** What waits, store-wide: every transaction, and the offline sales the limits count. */
export interface ForwardSummary {
  count: number;
  cents: number;
  oldestAt: number | null;
  offlineSalesCents: number;
  oldestOfflineSaleAt: number | null;
}

/** An offline transaction the gateway refused once forwarded, until a manager acknowledges it. */
export interface DeclinedForward {
  transactionId: number;
  amount: number;
  createdAt: number;
  lastFour: string | null;
  email: string | null;
  /** The gateway's answer (JSON): result, result_code, display_message. */
  answer: string;
}

/** A request answered 9004: sent, outcome not learned, to be looked up again. */
export interface GatewayCheck {
  reference: string;
  transactionId: number;
  since: number;
}

export type ForwardSettlement = {
  state: 'forwarded' | 'declined' | 'cancelled';
  upstreamId: string | null;
  /** The gateway's answer as JSON; for a cancelled one, why. */
  answer: string;
  at: number;
};

/** The queue inside a ledger write: changes commit with the rest of the write, or not at all. */
export interface ForwardQueueWrite {
  /** `attempts` 1 for a request that may have reached the gateway already: it is looked up before it is sent. */
  queue(entry: {
    transactionId: number;
    queuedAt: number;
    form: string;
    swipe: string | null;
    attempts: number;
  }): Promise<void>;
  /**
   * What waits, for an offline approval: on a store server it is read under a lock held to the
   * commit, so that the offline total holds whichever counters approve at once.
   */
  summary(): Promise<ForwardSummary>;
  /**
   * A setting's text as stored, read after `summary` (on a store server, under its lock): an offline
   * approval takes the processor and its limits as they are, not as this counter last heard them
   * (a change of processor counts what waits under the same lock, inside its own write).
   */
  storedSetting(name: string): Promise<string | undefined>;
  /**
   * Marks an entry as sent, before it is sent, with the latest its send can end (its time limit
   * from now: a crash ends it sooner); false when it no longer waits (a void cancelled it
   * meanwhile), and then it must not be sent.
   */
  noteAttempt(transactionId: number, endsBy: number): Promise<boolean>;
  /**
   * Takes back the mark `noteAttempt` made, when the request never left (no connection could be
   * made) or the gateway refused it before acting on it: nothing can have been charged by it, and
   * the entry is as it was before, `lastAttemptAt` as given (the one `waiting` read).
   */
  noteNotSent(transactionId: number, lastAttemptAt: number | null): Promise<void>;
  /** A send that may have reached the gateway ended without an answer: the time it could last arrive from. */
  noteSendEnded(transactionId: number, at: number): Promise<void>;
  /** Records the gateway's answer on the transaction and its entry, and deletes its swipe. */
  settle(transactionId: number, settlement: ForwardSettlement): Promise<void>;
  /**
   * Cancels an entry that was never sent, as `settle` does; false, changing nothing, when it was
   * sent (or marked as sent) or no longer waits: the gateway may have it.
   */
  cancelUnsent(transactionId: number, settlement: ForwardSettlement): Promise<boolean>;
  /** False when there is no unacknowledged decline of that transaction. */
  acknowledge(transactionId: number, at: number, by: string): Promise<boolean>;
  addCheck(check: GatewayCheck): Promise<void>;
  resolveCheck(reference: string, at: number, outcome: string): Promise<void>;
}

/** The queue read outside any write (committed data only), and what only runs outside one. */
export interface ForwardQueueReads {
  /** The oldest waiting entries first. */
  waiting(limit: number): Promise<QueuedForward[]>;
  summary(): Promise<ForwardSummary>;
  declined(): Promise<DeclinedForward[]>;
  pendingChecks(limit: number): Promise<GatewayCheck[]>;
  /**
   * Erases from the store's files what deleted swipes left behind (free pages, the write-ahead
   * log); run after swipes were deleted. True once nothing is left, false to try again later.
   */
  eraseSwipeRemnants(): Promise<boolean>;
  /**
   * Runs `work` only if no other forwarder of the store runs it now (on a store server, whichever
   * counter); resolves undefined without running it otherwise.
   */
  asOnlyForwarder<T>(work: () => Promise<T>): Promise<T | undefined>;
}
