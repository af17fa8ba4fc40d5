/**
 * One serving engine per data dir, and a way to know whether the last one stopped cleanly. A serving
 * engine leaves its pid in the data dir and removes it when it stops; a marker found with no live
 * process behind it means the engine was killed or the power went, and the ledger is checked
 * before anything is served from it.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dataDirLayout } from './paths';

export class DataDirInUseError extends Error {}

export interface DataDirClaim {
  /** True when the previous engine on this data dir did not stop cleanly. */
  readonly unclean: boolean;
  release(): void;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else; it is running all the same.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Markers this process holds: a pid cannot tell two engines of one process apart. */
const claimedHere = new Set<string>();

export function claimDataDir(dataDir: string): DataDirClaim {
  const marker = dataDirLayout(dataDir).servingMarker;
  if (claimedHere.has(marker)) {
    throw new DataDirInUseError(`An engine in this process is already serving ${dataDir}.`);
  }
  let unclean = false;
  try {
    const pid = Number(readFileSync(marker, 'utf8').trim());
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isRunning(pid)) {
      throw new DataDirInUseError(
        `Another Tender engine (process ${pid}) is serving ${dataDir}. Stop it first, or use another --data-dir.`,
      );
    }
    unclean = true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  writeFileSync(marker, `${process.pid}\n`, { mode: 0o600 });
  claimedHere.add(marker);
  return {
    unclean,
    release: () => {
      claimedHere.delete(marker);
      rmSync(marker, { force: true });
    },
  };
}
