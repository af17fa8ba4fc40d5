/**
 * Opening the ledger file: the durability settings every connection needs, and the migrations. This
 * folder is the only place that imports better-sqlite3.
 */
import Database from 'better-sqlite3';
import { chmodSync, closeSync, openSync } from 'node:fs';
import type { IntegrityDepth } from '../store';
import { MIGRATIONS, type Migration } from './migrations';

/** How long a statement of the ledger's connections waits for a lock another connection holds. */
export const BUSY_TIMEOUT_MS = 5_000;

export type Connection = Database.Database;

export class NewerSchemaError extends Error {
  constructor(found: number, known: number) {
    super(
      `The ledger was written by a newer Tender (schema ${found}, this one knows ${known}). ` +
        'Update Tender before opening it.',
    );
  }
}

/**
 * WAL lets readers carry on while a write commits; synchronous=FULL makes every commit reach the
 * disk before the call returns, which is what lets the engine answer only after a row is durable.
 */
export function openDatabase(
  file: string,
  options: {
    /**
     * The better-sqlite3 addon to load. Electron needs one built for its own ABI, kept apart from the
     * Node build the tests use; see resources/ for the step that builds it.
     */
    nativeBinding?: string;
    migrations?: readonly Migration[];
  } = {},
): Connection {
  const db = new Database(file, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
  const migrations = options.migrations ?? MIGRATIONS;
  try {
    // Owner only, before the WAL and shared-memory files exist: SQLite creates them with the
    // ledger's own mode.
    if (!db.memory) chmodSync(file, 0o600);
    addonOf.set(db, options.nativeBinding);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    // 8 MiB of page cache holds the hot index pages; the OS file cache holds the rest, and the
    // engine stays small on a counter PC.
    db.pragma('cache_size = -8192');
    // Every write of a group commit runs in its own savepoint, whose undo journal holds the pages
    // the write changes: about fifteen for a sale and its indexes. On disk that journal spilled to a
    // temporary file on every sale; in memory it is about 60 KiB, freed when the savepoint ends.
    db.pragma('temp_store = MEMORY');
    // Checkpoints run in the background (see checkpoints.ts), never inside a request's commit; the
    // WAL file is cut back to this size once they have caught up.
    db.pragma('wal_autocheckpoint = 0');
    db.pragma(`journal_size_limit = ${64 * 1024 * 1024}`);
    migrate(db, migrations);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

export function schemaVersion(db: Connection): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/** Brings a database up to the newest schema, one step per transaction. */
export function migrate(db: Connection, migrations: readonly Migration[] = MIGRATIONS): void {
  const known = migrations.at(-1)?.version ?? 0;
  const current = schemaVersion(db);
  if (current > known) throw new NewerSchemaError(current, known);
  for (const migration of migrations) {
    if (migration.version <= current) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      db.pragma(`user_version = ${migration.version}`);
    }).immediate();
  }
}

/**
 * What SQLite's integrity check finds wrong with the database: nothing, when it is sound. 'full' is
 * integrity_check and foreign_key_check, 'quick' is quick_check (../store.ts).
 */
export function integrityProblems(db: Connection, depth: IntegrityDepth = 'full'): string[] {
  const check = depth === 'full' ? 'integrity_check' : 'quick_check';
  try {
    const rows = db.pragma(check) as Record<string, string>[];
    const problems = rows.map((row) => row[check] ?? '').filter((line) => line !== 'ok');
    if (depth === 'quick') return problems;
    const foreignKeys = db.pragma('foreign_key_check') as { table: string; rowid: number }[];
    return [...problems, ...foreignKeys.map((row) => `foreign key broken in ${row.table} row ${row.rowid}`)];
  } catch (error) {
    // A page too damaged to read stops the check itself; that is its finding.
    const code = (error as { code?: string }).code;
    if (code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB') return [(error as Error).message];
    throw error;
  }
}

/** The addon each ledger connection was opened with, for the connections made beside it. */
const addonOf = new WeakMap<Connection, string | undefined>();

/**
 * Copies the database to `file` through SQLite's online backup API: a consistent snapshot, taken
 * while the engine keeps serving, never a raw copy of a file that may be mid-write. The copy is
 * readable by its owner only and is one file: it never needs a -wal or -shm beside it.
 */
export async function backupDatabase(db: Connection, file: string): Promise<void> {
  // Made here, owner only; 'wx' refuses a file that exists, so no backup is ever written over.
  closeSync(openSync(file, 'wx', 0o600));
  await db.backup(file);
  // The copy's header still says WAL, as the ledger's does, so opening it would make a -wal and a
  // -shm beside it. With a rollback journal it opens on its own, wherever it is carried.
  const nativeBinding = addonOf.get(db);
  const copy = new Database(file, nativeBinding ? { nativeBinding } : {});
  try {
    copy.pragma('journal_mode = DELETE');
  } finally {
    copy.close();
  }
}

/** Tables every Tender ledger has had from its first schema: a file without them is not one. */
const LEDGER_TABLES = ['transactions', 'batches', 'api_keys', 'settings'] as const;

/**
 * A ledger file's schema version and integrity, and whether it is a Tender ledger at all, read
 * without changing it (for restores); a write-ahead log beside it is read too.
 */
export function inspectLedgerFile(file: string): {
  schemaVersion: number;
  problems: string[];
  isLedger: boolean;
} {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const tables = new Set(
      db
        .prepare<[], { name: string }>("SELECT name FROM sqlite_schema WHERE type = 'table'")
        .all()
        .map((row) => row.name),
    );
    const version = schemaVersion(db);
    return {
      schemaVersion: version,
      problems: integrityProblems(db),
      isLedger: version >= 1 && LEDGER_TABLES.every((table) => tables.has(table)),
    };
  } finally {
    db.close();
  }
}

/**
 * Copies a ledger file to `to` (which must not exist) through SQLite's backup API, so a write-ahead
 * log beside it comes along, without changing it; owner only, with a rollback journal.
 */
export async function copyLedgerFile(from: string, to: string): Promise<void> {
  const db = new Database(from, { readonly: true, fileMustExist: true });
  try {
    await backupDatabase(db, to);
  } finally {
    db.close();
  }
}

/**
 * A lock on `file` through SQLite's own file locking, held in exclusive locking mode until released.
 * The operating system drops the lock when the process holding it ends, however it ends, so it
 * never outlives its holder the way a pid written to a file does; two connections of one process
 * exclude each other too. The file keeps one text that the holder rewrites as it goes.
 */
export interface HeldLock {
  /** The text the last holder left; undefined when none ever did. */
  readonly text: string | undefined;
  write(text: string): void;
  release(): void;
}

/** Takes the lock on `file`, creating it owner-only; undefined when another connection holds it. */
export function holdLockFile(file: string, options: { nativeBinding?: string } = {}): HeldLock | undefined {
  // timeout 0: a held lock is an answer, not something to wait for.
  const db = new Database(file, {
    timeout: 0,
    ...(options.nativeBinding && { nativeBinding: options.nativeBinding }),
  });
  try {
    chmodSync(file, 0o600);
    db.pragma('locking_mode = EXCLUSIVE');
    db.pragma('synchronous = FULL');
    db.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code === 'SQLITE_BUSY') return undefined;
    throw error;
  }
  try {
    db.exec(
      'CREATE TABLE IF NOT EXISTS lock_text (id INTEGER PRIMARY KEY CHECK (id = 1), text TEXT NOT NULL)',
    );
    const text = db.prepare('SELECT text FROM lock_text WHERE id = 1').pluck().get() as string | undefined;
    // In exclusive locking mode the lock taken by BEGIN EXCLUSIVE outlasts the commit.
    db.exec('COMMIT');
    const write = db.prepare('INSERT OR REPLACE INTO lock_text (id, text) VALUES (1, ?)');
    return {
      text,
      write: (next) => void write.run(next),
      release: () => db.close(),
    };
  } catch (error) {
    db.close();
    throw error;
  }
}
