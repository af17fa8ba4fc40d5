/**
 * WAL checkpoints off the request path. SQLite's automatic checkpoint runs inside whichever commit
 * crosses the threshold, so one sale in fifty waited for a thousand pages to be copied and synced.
 * Here a worker thread, with its own connection, checkpoints in the background instead; commits only
 * append to the WAL. Durability is unchanged: a commit is durable once its WAL frames are synced.
 *
 * A background checkpoint alone cannot keep the WAL short under sustained writes. SQLite starts the
 * WAL over only when a write begins with every frame already copied, and while sales keep arriving,
 * new frames land during each checkpoint, so the file would grow for as long as the load lasts (a
 * third of a gigabyte in four seconds of benchmark), and every page read would search a longer WAL
 * index. So when the worker finds the WAL long, the writer's own connection copies the few frames
 * written since, between two commits; the next commit then starts the WAL from its beginning.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { BUSY_TIMEOUT_MS, type Connection } from './database';

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, workerData.nativeBinding ? { nativeBinding: workerData.nativeBinding } : {});
db.pragma('busy_timeout = ${BUSY_TIMEOUT_MS}');
db.pragma('synchronous = FULL');
// A checkpoint streams pages from the WAL to the file; it needs no page cache of its own.
db.pragma('cache_size = -256');
const checkpoint = (mode) => {
  try {
    const [result] = db.pragma('wal_checkpoint(' + mode + ')');
    if (result && result.log >= workerData.restartFrames) {
      // Copy what arrived during that pass too, so the writer's own share is only the last commits.
      db.pragma('wal_checkpoint(' + mode + ')');
      parentPort.postMessage({ walFrames: result.log });
    }
  } catch (error) {
    // A busy database is checkpointed on the next tick; nothing is lost by waiting.
  }
};
const timer = setInterval(() => checkpoint('PASSIVE'), workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  checkpoint('PASSIVE');
  db.close();
  parentPort.postMessage('stopped');
});
`;

export interface Checkpointer {
  /** How many times the writer's connection brought a long WAL back to its start. */
  readonly restarts: number;
  stop(): Promise<void>;
}

export interface CheckpointOptions {
  nativeBinding?: string;
  intervalMs?: number;
  /** A WAL longer than this many frames (pages) is brought back to its start. */
  restartFrames?: number;
}

/** 4,096 frames of 4 KiB: a 16 MiB WAL, four times SQLite's own automatic checkpoint size. */
export const WAL_RESTART_FRAMES = 4096;

export function startCheckpointer(
  writer: Connection,
  file: string,
  options: CheckpointOptions = {},
): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      file,
      driver,
      nativeBinding: options.nativeBinding,
      intervalMs: options.intervalMs ?? 250,
      restartFrames: options.restartFrames ?? WAL_RESTART_FRAMES,
    },
    // The worker only issues a pragma now and then: a small heap is plenty.
    resourceLimits: { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 16 },
  });
  worker.unref();
  let restarts = 0;
  let stopping: Promise<void> | undefined;
  worker.on('message', (message: unknown) => {
    if (stopping || !writer.open || typeof message !== 'object') return;
    // Commits are synchronous, so this runs between two of them. PASSIVE never waits: if the worker
    // is checkpointing again already, or the copy fails, its next report brings this back. Nothing
    // committed depends on it: a checkpoint only copies pages already safe in the WAL.
    try {
      const [result] = writer.pragma('wal_checkpoint(PASSIVE)') as {
        busy: number;
        log: number;
        checkpointed: number;
      }[];
      if (result?.busy === 0 && result.log === result.checkpointed) restarts += 1;
    } catch {
      // Left for the next report.
    }
  });
  return {
    get restarts() {
      return restarts;
    },
    stop: () =>
      (stopping ??= new Promise<void>((resolve) => {
        // A WAL report may still be on its way: only the worker's goodbye means its connection is closed.
        worker.on('message', (message: unknown) => {
          if (message === 'stopped') resolve();
        });
        worker.once('exit', () => resolve());
        worker.postMessage('stop');
      }).then(() => worker.terminate().then(() => undefined))),
  };
}
