/**
 * Backups and restores of a data dir's ledger. A backup goes through SQLite's online backup API, so
 * it is consistent even while the engine serves, and is one file readable by its owner only; a
 * restore replaces the ledger only after the backup has passed its integrity check, and keeps the
 * ledger it replaces beside it.
 */
import { chmodSync, copyFileSync, existsSync, renameSync } from 'node:fs';
import { claimDataDir } from './data-dir';
import { dataDirLayout } from './paths';
import { backupDatabase, inspectLedgerFile, openDatabase } from './store/sqlite/database';
import { LATEST_SCHEMA_VERSION } from './store/sqlite/migrations';

export class BackupError extends Error {}

/** Writes a consistent copy of the data dir's ledger to `file`, which must not exist yet. */
export async function backupLedger(dataDir: string, file: string): Promise<{ problems: string[] }> {
  if (existsSync(file)) throw new BackupError(`${file} already exists; choose a new file for the backup.`);
  if (!existsSync(dataDirLayout(dataDir).database))
    throw new BackupError(`There is no ledger in ${dataDir}.`);
  const db = openDatabase(dataDirLayout(dataDir).database);
  try {
    await backupDatabase(db, file);
  } finally {
    db.close();
  }
  return { problems: inspectLedgerFile(file).problems };
}

/**
 * Replaces the data dir's ledger with a backup, creating the data dir when there is none yet (a
 * replacement computer). Refused while an engine serves the data dir, and for a backup that fails
 * its integrity check or comes from a newer Tender. The replaced ledger (with its WAL, if any) is
 * renamed, never deleted; its path is returned. The next start checks the restored ledger in full.
 */
export function restoreLedger(
  dataDir: string,
  from: string,
  now = new Date(),
): { keptAs: string | undefined } {
  if (!existsSync(from)) throw new BackupError(`${from} does not exist.`);
  const inspected = inspectLedgerFile(from);
  if (inspected.problems.length > 0) {
    throw new BackupError(
      `${from} failed its integrity check (${inspected.problems.slice(0, 3).join('; ')}).`,
    );
  }
  if (inspected.schemaVersion > LATEST_SCHEMA_VERSION) {
    throw new BackupError(`${from} was written by a newer Tender; update Tender before restoring it.`);
  }
  const claim = claimDataDir(dataDir);
  const { database } = dataDirLayout(dataDir);
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  const keptAs = existsSync(database) ? `${database}.before-restore-${stamp}` : undefined;
  try {
    if (keptAs) {
      for (const suffix of ['', '-wal', '-shm']) {
        if (existsSync(database + suffix)) renameSync(database + suffix, keptAs + suffix);
      }
    }
    copyFileSync(from, database);
    chmodSync(database, 0o600);
  } catch (error) {
    // Whatever was moved or copied, no seal vouches for the ledger now: the next start checks it in full.
    claim.release({ clean: claim.lastStop.clean });
    throw error;
  }
  claim.release({ clean: true });
  return { keptAs };
}
