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

/**
 * Runs `work` in one transaction on a connection of `pool`, and settles once COMMIT has returned
 * (with synchronous_commit on, once the commit is durable). BEGIN is sent without waiting for it:
 * the connection pipelines, so the work's first statements go in the same round trip. The work may
 * commit itself (`commit`), sending COMMIT behind statements it has not waited for; otherwise the
 * transaction commits once the work returns. When the work throws, or the server cannot be reached,
 * nothing of it is kept (unless the connection broke during COMMIT, when only the server knows) and
 * the error is the store's.
 */
export async function inTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient, commit: () => Promise<void>) => Promise<T>,
): Promise<T> {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    throw asStoreError(error);
  }
  let broken: Error | undefined;
  // A connection lost between two statements is reported as an event, not by a statement; unheard,
  // it would end the process. The next statement then fails and fails the transaction.
  const onLost = (error: Error) => {
    broken = error;
  };
  client.on('error', onLost);
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
    if (isConnectionFailure(error)) broken = error as Error;
    else
      await client.query('ROLLBACK').catch((failed: unknown) => {
        broken = failed as Error;
      });
    throw asStoreError(error);
  } finally {
    client.off('error', onLost);
    // A connection that broke is closed, not handed to the next transaction.
    client.release(broken);
  }
}
