/** Whether a store server answers at a URL, before a counter is set to use it. */
import { LaneInUseError } from '../store-errors';
import { isConnectionFailure, openPool } from './connection';
import { laneLock, SQL } from './ledger-sql';

/**
 * Resolves when the server at `url` answers a query within seconds; otherwise throws why not. With
 * `lane`, also throws a LaneInUseError when an engine is serving that lane there now (the lock it
 * holds while it serves, ledger.ts `claimLane`), taking the lane's lock only for that moment.
 */
export async function probeStoreServer(url: string, lane?: string): Promise<void> {
  const pool = openPool({ url, max: 1 });
  try {
    let free = true;
    try {
      await pool.query('SELECT 1');
      if (lane !== undefined) {
        const client = await pool.connect();
        try {
          free = (await client.query<{ held: boolean }>(SQL.tryHold(laneLock(lane)))).rows[0]?.held === true;
        } finally {
          // A session lock dies with its connection: this one is closed, not kept in the pool.
          client.release(true);
        }
      }
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(
        isConnectionFailure(error)
          ? `Tender could not reach the store server (${reason}).`
          : `The store server refused the connection (${reason}).`,
      );
    }
    if (!free && lane !== undefined) throw new LaneInUseError(lane);
  } finally {
    await pool.end();
  }
}
