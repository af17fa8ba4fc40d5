/**
 * WAL checkpoints off the request path. SQLite's automatic checkpoint runs inside whichever commit
 * crosses the threshold, so one sale in fifty waited for a thousand pages to be copied and synced.
 * Here a worker thread, with its own connection, checkpoints in the background instead; commits only
 * append to the WAL. Durability is unchanged: a commit is durable once its WAL frames are synced.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, workerData.nativeBinding ? { nativeBinding: workerData.nativeBinding } : {});
db.pragma('busy_timeout = 5000');
db.pragma('synchronous = FULL');
// A checkpoint streams pages from the WAL to the file; it needs no page cache of its own.
db.pragma('cache_size = -256');
const checkpoint = (mode) => {
  try {
    db.pragma('wal_checkpoint(' + mode + ')');
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
  stop(): Promise<void>;
}

export function startCheckpointer(
  file: string,
  options: { nativeBinding?: string; intervalMs?: number } = {},
): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { file, driver, nativeBinding: options.nativeBinding, intervalMs: options.intervalMs ?? 250 },
    // The worker only issues a pragma now and then: a small heap is plenty.
    resourceLimits: { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 16 },
  });
  worker.unref();
  let stopping: Promise<void> | undefined;
  return {
    stop: () =>
      (stopping ??= new Promise<void>((resolve) => {
        worker.once('message', () => resolve());
        worker.once('exit', () => resolve());
        worker.postMessage('stop');
      }).then(() => worker.terminate().then(() => undefined))),
  };
}
