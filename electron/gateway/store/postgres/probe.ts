/** Whether a store server answers at a URL, before a counter is set to use it. */
import { isConnectionFailure, openPool } from './connection';

/** Resolves when the server at `url` answers a query within seconds; otherwise throws why not. */
export async function probeStoreServer(url: string): Promise<void> {
  const pool = openPool({ url, max: 1 });
  try {
    await pool.query('SELECT 1');
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
}
