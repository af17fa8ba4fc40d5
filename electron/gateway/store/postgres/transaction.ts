/**
 * One transaction on the store server, and its failures as the engine names them
 * (../store-errors.ts): the connection taken and given back (closed when it broke, so no later
 * transaction gets it), READ COMMITTED, and a COMMIT that is checked, since a transaction that failed
 * answers COMMIT with ROLLBACK.
 */
import type pg from 'pg';
import {
  isConnectionFailure,
  isPastTimeLimit,
  sendTogether,
  StoreBusyError,
  StoreUnreachableError,
} from './connection';

/** A lost server becomes a StoreUnreachableError, a statement past its time a StoreBusyError. */
export function asStoreError(error: unknown): unknown {
  if (isConnectionFailure(error)) return new StoreUnreachableError(error);
  return isPastTimeLimit(error) ? new StoreBusyError(error) : error;
}

/** Runs a request to the server; its failures become the store's errors. */
export async function asStoreRequest<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    throw asStoreError(error);
  }
}

/** COMMIT was answered ROLLBACK: a statement of the transaction had failed, and nothing was kept. */
export class NotCommittedError extends Error {
  constructor(readonly answer: string | null) {
    super(`the transaction was not committed (${answer ?? 'no answer'})`);
  }
}

/** A connection lent by a pool, and why it is to be closed rather than lent again, if it is. */
export interface Lease {
  readonly client: pg.PoolClient;
  /** Set when the connection broke, or was left in a state the next borrower must not inherit. */
  broken: Error | undefined;
}

/**
 * Runs `use` on a connection of `pool`, then gives the connection back, closed when the lease is
 * broken. A connection lost between two statements is reported as an event, not by a statement;
 * unheard, it would end the process. Heard here, it breaks the lease, and the next statement fails.
 */
export async function withConnection<T>(pool: pg.Pool, use: (lease: Lease) => Promise<T>): Promise<T> {
  const client = await asStoreRequest(() => pool.connect());
  const lease: Lease = { client, broken: undefined };
  const onLost = (error: Error) => {
    lease.broken = error;
  };
  client.on('error', onLost);
  try {
    return await use(lease);
  } finally {
    client.off('error', onLost);
    client.release(lease.broken);
  }
}

/**
 * Runs `work` in one transaction on a connection of `pool`, and settles once COMMIT has returned
 * (with synchronous_commit on, once the commit is durable). BEGIN is sent without waiting for it:
 * the connection pipelines, so the work's first statements go in the same round trip. The work may
 * commit itself (`commit`), sending COMMIT behind statements it has not waited for; otherwise the
 * transaction commits once the work returns. When the work throws, or the server cannot be reached,
 * nothing of it is kept (unless the connection broke during COMMIT, when only the server knows) and
 * the error is the store's. A connection that broke is closed, not lent to the next transaction.
 */
export function inTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient, commit: () => Promise<void>) => Promise<T>,
): Promise<T> {
  return withConnection(pool, async (lease) => {
    const { client } = lease;
    let ended = false;
    const commit = async () => {
      ended = true;
      sendTogether(client);
      const committed = await client.query('COMMIT');
      if (committed.command !== 'COMMIT') throw new NotCommittedError(committed.command);
    };
    try {
      sendTogether(client);
      const begun = client.query('BEGIN ISOLATION LEVEL READ COMMITTED');
      begun.catch(() => undefined);
      const value = await work(client, commit);
      await begun;
      if (!ended) await commit();
      return value;
    } catch (error) {
      if (isConnectionFailure(error)) lease.broken = error as Error;
      else
        await client.query('ROLLBACK').catch((failed: unknown) => {
          lease.broken = failed as Error;
        });
      throw asStoreError(error);
    }
  });
}
