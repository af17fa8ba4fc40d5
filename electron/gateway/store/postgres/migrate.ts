/**
 * Bringing the store server's database up to the newest schema. Several counters may start at once
 * against one database: an advisory lock lets one of them migrate while the others wait, and then
 * find nothing left to do. Each step runs in its own transaction with the row recording it.
 */
import type pg from 'pg';
import type { Migration } from '../migrations/migration';
import { POSTGRES_MIGRATIONS } from './migrations';

/** The advisory lock key of migrations: any number other applications of the database do not use. */
const MIGRATION_LOCK = 0x74656e64; // "tend"

export class NewerStoreSchemaError extends Error {
  constructor(found: number, known: number) {
    super(
      `The store database was migrated by a newer Tender (schema ${found}, this one knows ${known}). ` +
        'Update Tender on this counter before connecting it.',
    );
  }
}

/** The last step the database has taken; 0 for an empty database. */
export async function storeSchemaVersion(client: pg.ClientBase): Promise<number> {
  const { rows } = await client.query<{ version: number | null }>(
    "SELECT CASE WHEN to_regclass('schema_migrations') IS NULL THEN 0 ELSE (SELECT COALESCE(max(version), 0) FROM schema_migrations) END AS version",
  );
  return rows[0]?.version ?? 0;
}

export async function migrateStore(
  pool: pg.Pool,
  migrations: readonly Migration[] = POSTGRES_MIGRATIONS,
): Promise<void> {
  const client = await pool.connect();
  let failure: Error | undefined;
  // A connection lost between two statements is an event; the next statement fails with it.
  const onLost = (error: Error) => {
    failure = error;
  };
  client.on('error', onLost);
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await client.query(`
        CREATE TABLE IF NOT EXISTS schema_migrations (
          version     integer PRIMARY KEY,
          description text NOT NULL,
          applied_at  timestamptz NOT NULL DEFAULT now()
        )`);
      const known = migrations.at(-1)?.version ?? 0;
      const current = await storeSchemaVersion(client);
      if (current > known) throw new NewerStoreSchemaError(current, known);
      for (const migration of migrations) {
        if (migration.version <= current) continue;
        await client.query('BEGIN');
        try {
          await client.query(migration.sql);
          await client.query('INSERT INTO schema_migrations (version, description) VALUES ($1, $2)', [
            migration.version,
            migration.description,
          ]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          throw error;
        }
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } catch (error) {
    failure = error as Error;
    throw error;
  } finally {
    client.off('error', onLost);
    // A connection that failed mid-way may still hold the lock: it is closed rather than reused.
    client.release(failure);
  }
}
