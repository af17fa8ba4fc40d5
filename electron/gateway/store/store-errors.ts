/**
 * The ways a store server can fail a request, apart from the rules: it cannot be reached, or it did
 * not finish in time. Kept apart from the driver so that the engine's answers and the HTTP layer can
 * name them without loading it. Each carries a stable code.
 */

/**
 * The store server cannot be reached, or dropped the connection mid-request. What the write was
 * doing was not committed, unless the connection dropped during its COMMIT, when only the server
 * knows.
 */
export class StoreUnreachableError extends Error {
  readonly code = 'store_unreachable';
  constructor(readonly reason: unknown) {
    super(
      `The store server cannot be reached (${reason instanceof Error ? reason.message : String(reason)}). ` +
        'Check the network and the database server; the counter resumes by itself once it answers.',
    );
  }
}

/**
 * The store server answers but did not let a write take the ledger's lock, or finish a statement,
 * within the time limit: another counter may be holding the ledger. Nothing of the write was kept.
 */
export class StoreBusyError extends Error {
  readonly code = 'store_busy';
  constructor(readonly reason: unknown) {
    super(
      `The store server did not finish in time (${reason instanceof Error ? reason.message : String(reason)}). ` +
        'Nothing was recorded; try again in a moment.',
    );
  }
}

export type StoreError = StoreUnreachableError | StoreBusyError;

export function isStoreError(error: unknown): error is StoreError {
  return error instanceof StoreUnreachableError || error instanceof StoreBusyError;
}

/**
 * Another engine already serves this counter's lane on the store server. Two engines on one lane
 * would share its PIN pauses and its share of each batch, and each would revoke the other's screens
 * key when it starts, so the second is refused.
 */
export class LaneInUseError extends Error {
  readonly code = 'lane_in_use';
  constructor(readonly lane: string) {
    super(
      `Another counter is serving the lane "${lane}" on this store server. ` +
        'Give this counter a lane of its own (--lane, or Settings → Store server), or stop the other one first.',
    );
  }
}

/**
 * The API key a write is made with was revoked: checked inside the write, since a counter's copy of
 * the store's keys may be a moment behind (a revocation made at another counter). Nothing is kept.
 */
export class KeyRevokedError extends Error {
  readonly code = 'key_revoked';
  constructor() {
    super('The API key is not valid, or was revoked.');
  }
}

/**
 * Another counter stored an answer under the same API key and Idempotency-Key first: the write that
 * tried to store its own was undone whole, and the stored answer is the one to give.
 */
export class AnswerStoredMeanwhileError extends Error {
  constructor() {
    super('An answer was stored under this Idempotency-Key meanwhile.');
  }
}

/**
 * Another counter of the store is still answering a request with the same API key and
 * Idempotency-Key: this one is refused as a retry made too soon, as at the same counter.
 */
export class AnswerHeldElsewhereError extends Error {
  constructor() {
    super('A request with this Idempotency-Key is being answered at another counter.');
    this.name = 'AnswerHeldElsewhereError';
  }
}

/** How long a read may take, from when it is asked for, before it is refused. */
export const READ_TIMEOUT_MS = 5000;

/** A read that took longer than its time limit and was stopped. */
export class ReadTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`The read took longer than ${timeoutMs} ms and was stopped.`);
    this.name = 'ReadTimeoutError';
  }
}
