/**
 * The store of a counter that keeps its own ledger: one SQLite file, its reader threads and
 * background checkpoints, and the keys, settings and staff in the same file.
 */
import { existsSync } from 'node:fs';
import type { AuditEntry } from '../audit';
import type { DataDirAdmin } from '../admin-store';
import { LOCAL_LANE } from '../read-port';
import { SQLITE_DIALECT } from '../sql/dialect';
import { LedgerReads } from '../sql/ledger-reads';
import type { Store } from '../store';
import { dataDirAdmin, SqliteAdminStore } from './admin-store';
import { AuditLog } from './audit-log';
import { startCheckpointer } from './checkpoints';
import { SqliteCustomerRecords } from './customer-records';
import { backupDatabase, integrityProblems, openDatabase } from './database';
import { SqliteLedger } from './ledger';
import { ReadPool, type ReadPoolOptions } from './read-pool';

export interface SqliteStoreOptions {
  /** The ledger file, made (owner only) and migrated when new. */
  file: string;
  /** The data dir's secret for keyed hashes (kept beside the file, never inside it). */
  cardHashKey: Buffer;
  /** Path of a better-sqlite3 addon built for the running runtime (Electron's ABI differs from Node's). */
  nativeBinding?: string;
  /** The reader threads that serve lists: how many, and each read's time limit. */
  reads?: Omit<ReadPoolOptions, 'nativeBinding'>;
}

export function openSqliteStore(options: SqliteStoreOptions): Store {
  const native = options.nativeBinding ? { nativeBinding: options.nativeBinding } : {};
  const db = openDatabase(options.file, native);
  const checkpointer = startCheckpointer(db, options.file, native);
  const readPool = new ReadPool(options.file, { ...options.reads, ...native });
  const audit = new AuditLog(db);
  const ledger = new SqliteLedger(db, audit);
  const admin = new SqliteAdminStore(db, audit, ledger.commits);
  return {
    ledger,
    reads: new LedgerReads(readPool, SQLITE_DIALECT),
    admin,
    customerRecords: new SqliteCustomerRecords(db, ledger.commits),
    cardHashKey: options.cardHashKey,
    lane: LOCAL_LANE,
    shared: false,
    file: {
      path: options.file,
      checkIntegrity: (depth = 'full') => integrityProblems(db, depth),
      backup: (file) => backupDatabase(db, file),
    },
    // The readers and the checkpoints first; closing the ledger then checkpoints what is left.
    close: async () => {
      await readPool.close();
      await admin.close();
      await checkpointer.stop();
      db.close();
    },
  };
}

/**
 * What a data dir's file holds of keys, settings and staff, for a store server to take over when
 * the counter joins it; nothing when the data dir has no file.
 */
export function readDataDirAdmin(file: string, options: { nativeBinding?: string } = {}): DataDirAdmin {
  if (!existsSync(file)) return { keys: [], settings: [], staff: [] };
  const db = openDatabase(file, options);
  try {
    return dataDirAdmin(db);
  } finally {
    db.close();
  }
}

/**
 * The audit log a data dir's file kept, newest first: a counter that joined a store server keeps the
 * entries of its keys, settings and staff from before.
 */
export function readDataDirAudit(file: string, limit: number): AuditEntry[] {
  if (!existsSync(file)) return [];
  const db = openDatabase(file);
  try {
    return new AuditLog(db).recent(limit);
  } finally {
    db.close();
  }
}
