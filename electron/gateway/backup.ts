/**
 * Backups and restores of a data dir's ledger. A backup goes through SQLite's online backup API, so
 * it is consistent even while the engine serves, and is one file readable by its owner only; a
 * restore replaces the ledger only after the backup has passed its integrity check, and keeps the
 * ledger it replaces beside it.
 */
import { existsSync, renameSync, rmSync } from 'node:fs';
import { claimDataDir } from './data-dir';
import { dataDirLayout } from './paths';
import { backupDatabase, copyLedgerFile, inspectLedgerFile, openDatabase } from './store/sqlite/database';
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
 * replacement computer). Refused while an engine serves the data dir, and for a file that is not a
 * Tender ledger, fails its integrity check or comes from a newer Tender. The backup is first copied
 * beside the ledger through SQLite (a write-ahead log beside it included), and only that whole copy
 * takes the ledger's place; the replaced ledger (with its WAL, if any) is renamed, never deleted, and
 * its path returned. Whatever fails, the data dir keeps the ledger it had. The next start checks the
 * restored ledger in full.
 */
export async function restoreLedger(
  dataDir: string,
  from: string,
  now = new Date(),
): Promise<{ keptAs: string | undefined }> {
  if (!existsSync(from)) throw new BackupError(`${from} does not exist.`);
  const inspected = inspectLedgerFile(from);
  if (!inspected.isLedger) throw new BackupError(`${from} is not a Tender ledger; nothing was restored.`);
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
  const incoming = `${database}.restoring-${stamp}`;
  const keptAs = existsSync(database) ? `${database}.before-restore-${stamp}` : undefined;
  const moved: string[] = [];
  try {
    await copyLedgerFile(from, incoming);
    if (keptAs) {
      for (const suffix of ['', '-wal', '-shm']) {
        if (!existsSync(database + suffix)) continue;
        renameSync(database + suffix, keptAs + suffix);
        moved.push(suffix);
      }
    }
    renameSync(incoming, database);
  } catch (error) {
    // The ledger goes back where it was, and the partial copy away.
    for (const suffix of moved) if (keptAs) renameSync(keptAs + suffix, database + suffix);
    rmSync(incoming, { force: true });
    claim.release({ clean: claim.lastStop.clean });
    throw error;
  }
  claim.release({ clean: true });
  return { keptAs };
}
