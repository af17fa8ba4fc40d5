/**
 * Reads off the thread that answers payments. better-sqlite3 runs a statement to its end on the
 * thread that called it, so one list page that stepped over a million rows held every SALE behind
 * it for a second. Here each read runs on a reader thread with its own read-only connection: in WAL
 * mode SQLite serves such readers beside the writer, and a reader's statement begins after every
 * commit made before the read was asked for, so it sees every payment already answered.
 *
 * Readers leave a core to the thread that answers payments (there are at most as many as the cores
 * but one), and reads beyond the readers wait their turn. Each read has a time limit, counted from when it was asked for. SQLite
 * cannot be interrupted from another thread through better-sqlite3, so a reader past the limit is
 * terminated: its read is refused at once, and its thread ends when SQLite returns. Only then is a
 * fresh reader started in its place, so that stopped readers never add up to more threads than the
 * pool's size while the statements they left behind run out.
 */
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { READ_TIMEOUT_MS, ReadTimeoutError } from '../store-errors';
import { BUSY_TIMEOUT_MS } from './database';

const READER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, {
  readonly: true,
  fileMustExist: true,
  ...(workerData.nativeBinding ? { nativeBinding: workerData.nativeBinding } : {}),
});
db.pragma('busy_timeout = ${BUSY_TIMEOUT_MS}');
db.pragma('cache_size = -' + workerData.cacheKib);
// Lists are a handful of shapes of SQL asked again and again; the filters a client combines are many
// more, so only the most recent shapes stay prepared.
const statements = new Map();
const prepared = (sql) => {
  let statement = statements.get(sql);
  if (statement) statements.delete(sql);
  else statement = db.prepare(sql);
  statements.set(sql, statement);
  if (statements.size > workerData.statementsKept) statements.delete(statements.keys().next().value);
  return statement;
};
parentPort.on('message', ({ id, sql, params }) => {
  try {
    parentPort.postMessage({ id, rows: prepared(sql).all(...params) });
  } catch (error) {
    parentPort.postMessage({ id, error: { message: String(error && error.message), code: error && error.code } });
  }
});
parentPort.postMessage('ready');
`;

export interface ReadPoolOptions {
  /** Path of a better-sqlite3 addon built for the running runtime (see engine.ts). */
  nativeBinding?: string;
  /** Reader threads; by default defaultReaderCount(). */
  workers?: number;
  /** See READ_TIMEOUT_MS. */
  timeoutMs?: number;
}

export class ReadPoolClosedError extends Error {
  constructor() {
    super('The ledger is closed; the read was not run.');
    this.name = 'ReadPoolClosedError';
  }
}

/** SQLite's own error, as the reader thread met it. */
export class ReadFailedError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
    this.name = 'ReadFailedError';
  }
}

/** Readers for a machine with this many cores: every core but one, at least one and at most two. */
export function defaultReaderCount(cores = availableParallelism()): number {
  return Math.max(1, Math.min(2, cores - 1));
}

interface Read {
  id: number;
  sql: string;
  params: readonly unknown[];
  resolve(rows: unknown[]): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

interface Reader {
  worker: Worker;
  /** Its connection is open: reads are sent to it only from then on. */
  ready: boolean;
  read?: Read;
}

/** A place for one reader; `stopping` holds it while a reader stopped past its limit runs out. */
type Slot = Reader | 'empty' | 'stopping';

type ReaderMessage =
  'ready' | { id: number; rows: unknown[] } | { id: number; error: { message: string; code?: string } };

export class ReadPool {
  readonly size: number;
  readonly timeoutMs: number;
  private readonly slots: Slot[];
  private readonly queue: Read[] = [];
  private readonly stopping = new Set<Promise<unknown>>();
  private readonly driver = createRequire(import.meta.url).resolve('better-sqlite3');
  private nextId = 1;
  private closing: Promise<void> | undefined;
  /** Reads answered by their reader, waiting to be handed back (see handBack). */
  private readonly answered: (() => void)[] = [];
  private handingBack = false;

  constructor(
    private readonly file: string,
    private readonly options: ReadPoolOptions = {},
  ) {
    this.size = Math.max(1, Math.floor(options.workers ?? defaultReaderCount()));
    this.timeoutMs = options.timeoutMs ?? READ_TIMEOUT_MS;
    this.slots = Array.from({ length: this.size }, () => 'empty' as const);
  }

  /** The rows of one read-only statement, read on a reader thread. */
  all<Row>(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
    if (this.closing) return Promise.reject(new ReadPoolClosedError());
    return new Promise<Row[]>((resolve, reject) => {
      const read: Read = {
        id: this.nextId++,
        sql,
        params,
        resolve: resolve as (rows: unknown[]) => void,
        reject,
        timer: setTimeout(() => this.expire(read), this.timeoutMs),
      };
      this.queue.push(read);
      this.dispatch();
    });
  }

  /** Refuses the reads not yet answered, and ends every reader thread. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      for (const read of this.queue.splice(0)) settle(read, new ReadPoolClosedError());
      const ending = this.slots.map((slot, index) => {
        if (typeof slot === 'string') return undefined;
        if (slot.read) settle(slot.read, new ReadPoolClosedError());
        this.slots[index] = 'stopping';
        return slot.worker.terminate();
      });
      await Promise.all([...ending, ...this.stopping]);
    })();
    return this.closing;
  }

  private dispatch(): void {
    for (let index = 0; index < this.slots.length && this.queue.length > 0; index++) {
      const slot = this.slots[index] as Slot;
      if (slot === 'stopping') continue;
      if (slot === 'empty') {
        this.slots[index] = this.startReader(index);
        continue;
      }
      if (!slot.ready || slot.read) continue;
      const read = this.queue.shift() as Read;
      slot.read = read;
      // A reader at work keeps the process alive until it answers; an idle one never does.
      slot.worker.ref();
      slot.worker.postMessage({ id: read.id, sql: read.sql, params: read.params });
    }
  }

  private startReader(index: number): Reader {
    const worker = new Worker(READER_SOURCE, {
      eval: true,
      workerData: {
        file: this.file,
        driver: this.driver,
        nativeBinding: this.options.nativeBinding,
        // Pages of a list are found through indexes and read once; the OS's file cache holds the rest,
        // so a larger cache only adds to the engine's memory on a counter PC.
        cacheKib: 2048,
        statementsKept: 64,
      },
      // A page of at most a hundred rows is small: a bounded heap keeps each reader cheap.
      resourceLimits: { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 48 },
    });
    worker.unref();
    const reader: Reader = { worker, ready: false };
    worker.on('message', (message: ReaderMessage) => {
      if (message === 'ready') {
        reader.ready = true;
        this.dispatch();
        return;
      }
      const read = reader.read;
      if (!read || read.id !== message.id) return;
      reader.read = undefined;
      worker.unref();
      this.handBack(() =>
        'rows' in message
          ? settle(read, undefined, message.rows)
          : settle(read, new ReadFailedError(message.error.message, message.error.code)),
      );
      this.dispatch();
    });
    worker.on('error', (error) => {
      if (reader.read) settle(reader.read, error);
      reader.read = undefined;
      // A reader that cannot open the ledger tells every waiting read why, rather than being
      // started again for each of them.
      if (!reader.ready) for (const read of this.queue.splice(0)) settle(read, error);
    });
    worker.on('exit', () => {
      if (reader.read) settle(reader.read, new Error('A reader thread ended before it answered.'));
      reader.read = undefined;
      if (this.slots[index] !== reader) return;
      this.slots[index] = 'empty';
      this.dispatch();
    });
    return reader;
  }

  /**
   * Hands answers back one per turn of the event loop. What a caller does with its rows (presenting
   * and serializing a page, encrypting it for the socket) runs on the thread that answers payments;
   * this way a payment read from its socket meanwhile waits behind one page at most, not behind
   * every page that came back at once, and reads still go as fast as the loop turns when no payment
   * is waiting.
   */
  private handBack(answer: () => void): void {
    this.answered.push(answer);
    if (this.handingBack) return;
    this.handingBack = true;
    const next = () => {
      this.answered.shift()?.();
      if (this.answered.length > 0) setImmediate(next);
      else this.handingBack = false;
    };
    setImmediate(next);
  }

  private expire(read: Read): void {
    const queued = this.queue.indexOf(read);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
      settle(read, new ReadTimeoutError(this.timeoutMs));
      return;
    }
    const index = this.slots.findIndex((slot) => typeof slot !== 'string' && slot.read === read);
    const reader = this.slots[index];
    if (reader === undefined || typeof reader === 'string') return;
    settle(read, new ReadTimeoutError(this.timeoutMs));
    reader.read = undefined;
    this.slots[index] = 'stopping';
    // The addon closes the thread's connection as the thread ends.
    const ended = reader.worker.terminate().finally(() => {
      this.stopping.delete(ended);
      if (this.closing) return;
      this.slots[index] = 'empty';
      this.dispatch();
    });
    this.stopping.add(ended);
  }
}

/** Answers a read once: its timer is cleared, and whichever comes second of rows and refusal is dropped. */
function settle(read: Read, error: Error | undefined, rows: unknown[] = []): void {
  clearTimeout(read.timer);
  if (error) read.reject(error);
  else read.resolve(rows);
}
