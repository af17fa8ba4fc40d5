/**
 * Bringing the store server's database up to the newest schema. Several counters may start at once
 * against one database: an advisory lock lets one of them migrate while the others wait, and then
 * find nothing left to do. Each step runs in its own transaction with the row recording it.
 */
import type pg from 'pg';
import type { Migration } from '../migration';
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

/**
 * How long one migration statement may run. A step that builds an index on a large ledger takes far
 * longer than the few seconds a payment is allowed, and a counter starting while another migrates
 * waits for it.
 */
const MIGRATION_TIME_LIMIT_MS = 30 * 60_000;

export async function migrateStore(
  pool: pg.Pool,
  migrations: readonly Migration[] = POSTGRES_MIGRATIONS,
): Promise<void> {
  const client = await pool.connect();
  // A connection lost between two statements is an event; the next statement fails with it.
  const onLost = () => undefined;
  client.on('error', onLost);
  // The driver reads query_timeout from each query's config too, though its types leave it out.
  const run = (text: string, values: unknown[] = []) =>
    client.query({ text, values, query_timeout: MIGRATION_TIME_LIMIT_MS } as pg.QueryConfig);
  try {
    await run(`SET statement_timeout = ${MIGRATION_TIME_LIMIT_MS}; SET lock_timeout = 0`);
    await run('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await run(`
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
        await run('BEGIN');
        try {
          await run(migration.sql);
          await run('INSERT INTO schema_migrations (version, description) VALUES ($1, $2)', [
            migration.version,
            migration.description,
          ]);
          await run('COMMIT');
        } catch (error) {
          await run('ROLLBACK');
          throw error;
        }
      }
    } finally {
      await run('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    client.off('error', onLost);
    // Closed rather than handed to the ledger: its time limits were lifted, and after a failure it
    // may still hold the lock.
    client.release(true);
  }
}
