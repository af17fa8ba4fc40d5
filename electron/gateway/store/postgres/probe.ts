/** Whether a store server answers at a URL, before a counter is set to use it. */
import { LaneInUseError } from '../store-errors';
import { isConnectionFailure, openPool } from './connection';
import { laneLock, SQL } from './ledger-sql';

/**
 * Resolves when the server at `url` answers a query within seconds; otherwise throws why not. With
 * `lane`, that query tries the lock an engine holds on the lane while it serves it (ledger.ts
 * `claimLane`), for that moment only, and a LaneInUseError says when an engine is serving it now.
 */
export async function probeStoreServer(url: string, lane?: string): Promise<void> {
  const pool = openPool({ url, max: 1 });
  let laneFree = true;
  try {
    const client = await pool.connect();
    try {
      if (lane === undefined) await client.query('SELECT 1');
      else
        laneFree =
          (await client.query<{ held: boolean }>(SQL.tryHold(laneLock(lane)))).rows[0]?.held === true;
    } finally {
      // A session lock dies with its connection: this one is closed, not kept in the pool.
      client.release(true);
    }
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      isConnectionFailure(error)
        ? `Tender could not reach the store server (${reason}).`
        : `The store server refused the connection (${reason}).`,
    );
  } finally {
    await pool.end();
  }
  if (lane !== undefined && !laneFree) throw new LaneInUseError(lane);
}
