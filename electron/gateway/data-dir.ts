/**
 * One serving engine per data dir, and what the last one left behind. An engine holds the data dir
 * through a lock on `engine.lock` that the operating system releases when the engine's process
 * ends, however it ends: a crashed engine never keeps the next one from starting, and the pid of a
 * process that is not an engine means nothing. The same file records how the holder stopped. A
 * clean stop leaves the ledger's size and SHA-256, taken after checking it, so that the next start
 * can tell the ledger is byte for byte the one that passed; anything else calls for the full check.
 */
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { dataDirLayout } from './paths';
import { holdLockFile, type HeldLock } from './store/sqlite/database';

export class DataDirInUseError extends Error {}

/** The ledger file as an engine left it at a clean stop, after checking it. */
export interface LedgerSeal {
  readonly bytes: number;
  readonly sha256: string;
}

export interface LastStop {
  /** False when the engine that held the data dir ended without letting go: killed, crashed, power lost. */
  readonly clean: boolean;
  /** Present when that engine checked the ledger as it stopped and sealed what it left. */
  readonly ledger?: LedgerSeal;
}

export interface DataDirClaim {
  readonly lastStop: LastStop;
  /**
   * Records how this holder stops, then lets go: a clean stop with the seal of the ledger it
   * checked, or the last stop as it was found when nothing was served.
   */
  release(stop: LastStop): void;
}

const HOLDING: LastStop = { clean: false };

/**
 * Claims the data dir, creating it when new (a restore onto a replacement computer starts from no
 * folder at all), and brings its folder and ledger files to owner-only modes.
 */
export function claimDataDir(dataDir: string, options: { nativeBinding?: string } = {}): DataDirClaim {
  const layout = dataDirLayout(dataDir);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const lock = takeLock(layout.servingLock, options);
  if (!lock) {
    throw new DataDirInUseError(
      `Another Tender engine is serving ${dataDir}. Stop it first, or use another --data-dir.`,
    );
  }
  let lastStop: LastStop;
  try {
    lastStop = existsSync(layout.oldServingMarker) ? HOLDING : readLastStop(lock);
    lock.write(JSON.stringify(HOLDING));
    rmSync(layout.oldServingMarker, { force: true });
    keepToOwner(dataDir);
  } catch (error) {
    lock.release();
    throw error;
  }
  return {
    lastStop,
    release: (stop) => {
      try {
        lock.write(JSON.stringify(stop));
      } finally {
        lock.release();
      }
    },
  };
}

function takeLock(file: string, options: { nativeBinding?: string }): HeldLock | undefined {
  try {
    return holdLockFile(file, options);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== 'SQLITE_CORRUPT' && code !== 'SQLITE_NOTADB') throw error;
    // SQLite reads the file only once it holds the lock, so a file found damaged is held by nobody.
    // It is set aside, and what it said is lost: this start is treated as one after a crash.
    renameSync(file, `${file}.damaged-${Date.now()}`);
    const lock = holdLockFile(file, options);
    return lock && { ...lock, text: JSON.stringify(HOLDING) };
  }
}

function readLastStop(lock: HeldLock): LastStop {
  // A new lock file: no engine stopped here before, cleanly or not.
  if (lock.text === undefined) return { clean: true };
  try {
    const recorded = JSON.parse(lock.text) as Partial<LastStop>;
    const seal = recorded.ledger;
    return {
      clean: recorded.clean === true,
      ...(seal && Number.isInteger(seal.bytes) && typeof seal.sha256 === 'string' && { ledger: seal }),
    };
  } catch {
    return HOLDING;
  }
}

/**
 * Owner-only modes for the folder and the files of the ledger: the ledger, its WAL and shared memory,
 * the ledgers kept by restores, and the lock; the TLS key's folder too. Files made before this rule
 * (world-readable 0644 under a usual umask) are brought to it at the next start.
 */
function keepToOwner(dataDir: string): void {
  chmodSync(dataDir, 0o700);
  for (const entry of readdirSync(dataDir, { withFileTypes: true })) {
    if (entry.isFile() && (entry.name.startsWith('tender.db') || entry.name.startsWith('engine.')))
      chmodSync(join(dataDir, entry.name), 0o600);
  }
  const { tlsDir, privateKey } = dataDirLayout(dataDir);
  if (existsSync(tlsDir)) chmodSync(tlsDir, 0o700);
  if (existsSync(privateKey)) chmodSync(privateKey, 0o600);
}

/**
 * The seal of the ledger file as it is now, read after every connection to it has closed; undefined
 * when a WAL still holds frames beside it (another process has the ledger open), since the file
 * alone is then not the whole ledger.
 */
export async function sealLedger(file: string): Promise<LedgerSeal | undefined> {
  if (walHoldsFrames(file) || !existsSync(file)) return undefined;
  return { bytes: statSync(file).size, sha256: await sha256Of(file) };
}

/** True when the ledger file is byte for byte the one sealed, with no WAL to add to it. */
export async function ledgerMatchesSeal(file: string, seal: LedgerSeal): Promise<boolean> {
  if (walHoldsFrames(file) || !existsSync(file) || statSync(file).size !== seal.bytes) return false;
  return (await sha256Of(file)) === seal.sha256;
}

function walHoldsFrames(file: string): boolean {
  return existsSync(`${file}-wal`) && statSync(`${file}-wal`).size > 0;
}

/**
 * Hashing takes most of the time and reading the rest, so the next chunk is read while the one
 * before is hashed; neither blocks the event loop for longer than one chunk's hash.
 */
async function sha256Of(file: string): Promise<string> {
  const CHUNK = 4 << 20;
  const hash = createHash('sha256');
  const handle = await open(file, 'r');
  try {
    let buffers = [Buffer.allocUnsafe(CHUNK), Buffer.allocUnsafe(CHUNK)] as const;
    let reading = handle.read(buffers[0], 0, CHUNK, null);
    for (;;) {
      const { bytesRead } = await reading;
      if (bytesRead === 0) break;
      const filled = buffers[0];
      buffers = [buffers[1], buffers[0]];
      reading = handle.read(buffers[0], 0, CHUNK, null);
      hash.update(filled.subarray(0, bytesRead));
    }
  } finally {
    await handle.close();
  }
  return hash.digest('hex');
}
