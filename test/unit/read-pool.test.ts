/** The reader threads: reads off the thread that answers payments, each with a time limit. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Connection } from '../../electron/gateway/store/sqlite/database';
import {
  defaultReaderCount,
  ReadPool,
  type ReadPoolOptions,
} from '../../electron/gateway/store/sqlite/read-pool';
import { ReadTimeoutError } from '../../electron/gateway/store/store-errors';

/** About 300 ms of work for SQLite, whatever the ledger holds, that never returns to JavaScript meanwhile. */
const SLOW_COUNT =
  'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000000) SELECT count(*) AS c FROM n';

let dir: string;
let file: string;
let writer: Connection;
const pools: ReadPool[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tender-read-pool-'));
  file = join(dir, 'ledger.db');
  writer = openDatabase(file);
});
afterEach(async () => {
  for (const pool of pools.splice(0)) await pool.close();
});
afterAll(() => {
  writer.close();
  rmSync(dir, { recursive: true, force: true });
});

function startPool(options: ReadPoolOptions = {}): ReadPool {
  const pool = new ReadPool(file, options);
  pools.push(pool);
  return pool;
}

/** Settles at the event loop's next turn: it cannot while a statement holds this thread. */
const nextTurn = () => new Promise<'turn'>((resolve) => setImmediate(() => resolve('turn')));

describe('the read pool', () => {
  it('answers a read with the rows of every commit made before it was asked', async () => {
    const pool = startPool();
    for (let i = 1; i <= 5; i++) {
      writer.prepare("INSERT INTO settings (key, value) VALUES (?, 'on')").run(`flag_${i}`);
      const rows = await pool.all<{ n: number }>(
        "SELECT count(*) AS n FROM settings WHERE key LIKE 'flag_%'",
      );
      expect(rows).toEqual([{ n: i }]);
    }
  });

  it('reads on another thread: the event loop turns while a long statement runs', async () => {
    const pool = startPool({ timeoutMs: 10_000 });
    const slow = pool.all(SLOW_COUNT);
    expect(await Promise.race([slow.then(() => 'read' as const), nextTurn()])).toBe('turn');
    expect(await slow).toEqual([{ c: 2_000_000 }]);
  });

  it('refuses a read past its time limit, and answers the next one on a fresh reader', async () => {
    const pool = startPool({ timeoutMs: 30 });
    await expect(pool.all(SLOW_COUNT)).rejects.toBeInstanceOf(ReadTimeoutError);
    // The stopped reader's statement runs on until SQLite returns; the next read waits for its place.
    // A fresh reader may take longer than 30 ms to start on a busy machine, so reads are asked again
    // until one is answered; any failure but the time limit fails the test at once.
    let answer: unknown;
    const giveUpAt = Date.now() + 30_000;
    while (answer === undefined && Date.now() < giveUpAt) {
      answer = await pool.all('SELECT 1 AS one').catch((error: unknown) => {
        if (!(error instanceof ReadTimeoutError)) throw error;
        return undefined;
      });
    }
    expect(answer).toEqual([{ one: 1 }]);
  });

  it('a read past its time limit says how long it may take and what to do', async () => {
    const pool = startPool({ timeoutMs: 30 });
    const refusal = await pool.all(SLOW_COUNT).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ReadTimeoutError);
    expect((refusal as ReadTimeoutError).timeoutMs).toBe(30);
  });

  it('reads beyond its readers wait their turn, and each is answered', async () => {
    const pool = startPool({ workers: 1 });
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => pool.all<{ i: number }>('SELECT ? AS i', [i])),
    );
    expect(answers.map((rows) => rows[0]?.i)).toEqual(Array.from({ length: 12 }, (_, i) => i));
  });

  it('a read that waited past its time limit in the queue is refused without running', async () => {
    const pool = startPool({ workers: 1, timeoutMs: 60 });
    const first = pool.all(SLOW_COUNT).catch((error: unknown) => error);
    const queued = pool.all('SELECT 1 AS one').catch((error: unknown) => error);
    expect(await first).toBeInstanceOf(ReadTimeoutError);
    expect(await queued).toBeInstanceOf(ReadTimeoutError);
  });

  it('hands answers back one per turn of the event loop, so a payment waits behind one page at most', async () => {
    const pool = startPool({ workers: 1 });
    await pool.all('SELECT 1');
    let turn = 0;
    let ticking = true;
    const tick = () => {
      turn += 1;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const reads = Array.from({ length: 8 }, (_, i) => pool.all('SELECT ? AS i', [i]).then(() => turn));
    // This thread is busy meanwhile, as the engine's is with a payment: the answers pile up.
    const busyUntil = Date.now() + 100;
    while (Date.now() < busyUntil);
    const turns = await Promise.all(reads);
    ticking = false;
    expect(new Set(turns).size).toBe(8);
  });

  it('leaves a core to the payments: one reader on two cores, at most two on many', () => {
    expect([1, 2, 3, 4, 16].map((cores) => defaultReaderCount(cores))).toEqual([1, 1, 2, 2, 2]);
  });

  it('passes SQL errors back as they are', async () => {
    const pool = startPool();
    await expect(pool.all('SELECT * FROM no_such_table')).rejects.toThrow(/no such table/);
    expect(await pool.all('SELECT 2 AS two')).toEqual([{ two: 2 }]);
  });

  it('never writes: its connections are read-only', async () => {
    const pool = startPool();
    await expect(
      pool.all("INSERT INTO settings (key, value) VALUES ('sneaky', 'x') RETURNING key"),
    ).rejects.toThrow(/readonly|read-only/i);
  });

  it('refuses the reads still waiting when it closes', async () => {
    const pool = new ReadPool(file, { workers: 1 });
    const running = pool.all(SLOW_COUNT).catch((error: unknown) => error);
    const waiting = pool.all('SELECT 1 AS one').catch((error: unknown) => error);
    await pool.close();
    expect(await waiting).toBeInstanceOf(Error);
    expect(await running).toBeInstanceOf(Error);
    await expect(pool.all('SELECT 1')).rejects.toThrow(/closed/);
  });
});
