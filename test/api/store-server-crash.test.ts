/**
 * Crashes under load on a store: two counters, each a `serve --database --lane` process, sell at once
 * on one real PostgreSQL database. One counter is killed (SIGKILL) mid-load and started again; then
 * the database server itself is killed mid-load and started again. Nothing answered Approved is
 * lost, nothing is recorded twice, the batch totals and each lane's share equal their rows, and the
 * counters sell again without a restart once the database is back.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Batch, TransactionListItem, TransactionResponse } from '../../shared/api/schemas';
import {
  createKeyWithCli,
  EngineClient,
  freePort,
  startEngineProcess,
  type EngineProcess,
} from '../support/engine-process';
import { auditBatches, expectedTotals, listAll, rowProblems, type GetJson } from '../support/ledger-audit';
import { startPostgresServer, type PostgresServer } from '../support/postgres-server';

let server: PostgresServer;
const dirs: string[] = [];

beforeAll(async () => {
  server = await startPostgresServer();
});

afterAll(async () => {
  await server?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface Counter {
  lane: string;
  dataDir: string;
  port: number;
  key: string;
  engine: EngineProcess;
  client: EngineClient;
}

async function startCounter(url: string, lane: string, existing?: Counter): Promise<Counter> {
  const dataDir = existing?.dataDir ?? mkdtempSync(join(tmpdir(), `tender-store-crash-${lane}-`));
  if (!existing) dirs.push(dataDir);
  const key = existing?.key ?? createKeyWithCli(dataDir, `${lane} till`);
  const port = existing?.port ?? (await freePort());
  const engine = await startEngineProcess(dataDir, port, { args: ['--database', url, '--lane', lane] });
  return { lane, dataDir, port, key, engine, client: EngineClient.forDataDir(dataDir, port, key) };
}

/** Sells until told to stop, one sale at a time, each with its own amount; keeps what was answered Approved. */
function sellUntilStopped(counter: Counter, first: number) {
  const approved = new Map<string, string>();
  let stopped = false;
  let n = first;
  const done = (async () => {
    while (!stopped) {
      const cents = n++;
      const amount = `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
      try {
        const answer = await counter.client.request('POST', 'transactions', {
          body: JSON.stringify({ type: 'SALE', amount, card: '4111111111111111', exp_date: '1230' }),
        });
        const parsed = JSON.parse(answer.body) as TransactionResponse;
        if (answer.status === 200 && parsed.result === 'Approved' && parsed.id)
          approved.set(parsed.id, amount);
      } catch {
        // No whole answer (the counter was killed): the sale may or may not be in the ledger.
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  })();
  return {
    approved,
    stop: async () => {
      stopped = true;
      await done;
    },
  };
}

function getter(counter: Counter): GetJson {
  return async <T>(path: string) => {
    const answer = await counter.client.request('GET', path);
    if (answer.status === 204) return undefined;
    if (answer.status !== 200) throw new Error(`GET ${path} answered ${answer.status}: ${answer.body}`);
    return JSON.parse(answer.body) as T;
  };
}

async function expectLedgerHolds(counter: Counter, approved: Map<string, string>[]): Promise<void> {
  const get = getter(counter);
  const rows = await listAll<TransactionListItem>(get, 'transactions');
  const byId = new Map(rows.map((row) => [row.id, row]));
  for (const answers of approved)
    for (const [id, amount] of answers) expect(byId.get(id)?.amount, `sale ${id}`).toBe(amount);
  // One row per amount: nothing was recorded twice.
  const amounts = rows.filter((row) => row.result === 'Approved').map((row) => row.amount);
  expect(new Set(amounts).size).toBe(amounts.length);
  expect(rowProblems(rows)).toEqual([]);
  expect(await auditBatches(get)).toEqual([]);
  const open = await get<Batch>('batches/open');
  for (const share of open?.lanes ?? []) {
    const { lane, ...stated } = share;
    const inLane = rows.filter((row) => row.lane === lane && row.batch_id === open?.id);
    expect(stated, `lane ${lane}`).toEqual(expectedTotals(inLane));
  }
}

const waitFor = async (condition: () => boolean) => {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 25));
};

describe('crashes on a store with two counters', () => {
  it('a counter killed mid-load loses nothing it answered, and starts again on the same store', async () => {
    const url = await server.createDatabase();
    const front = await startCounter(url, 'front');
    let bar = await startCounter(url, 'bar');
    try {
      const atFront = sellUntilStopped(front, 100);
      const atBar = sellUntilStopped(bar, 50_000);
      await waitFor(() => atBar.approved.size >= 40 && atFront.approved.size >= 20);
      await bar.engine.kill();
      await waitFor(() => atFront.approved.size >= 40);
      bar = await startCounter(url, 'bar', bar);
      await waitFor(() => atBar.approved.size >= 60);
      await Promise.all([atFront.stop(), atBar.stop()]);
      await expectLedgerHolds(front, [atFront.approved, atBar.approved]);
    } finally {
      await Promise.all([front.engine.stop(), bar.engine.stop()]);
    }
  });

  it('the database server killed mid-load loses nothing answered, and both counters sell again once it is back', async () => {
    const url = await server.createDatabase();
    const front = await startCounter(url, 'front');
    const bar = await startCounter(url, 'bar');
    try {
      const atFront = sellUntilStopped(front, 100);
      const atBar = sellUntilStopped(bar, 50_000);
      await waitFor(() => atFront.approved.size >= 30 && atBar.approved.size >= 30);
      await server.kill();
      const before = [atFront.approved.size, atBar.approved.size];
      await new Promise((resolve) => setTimeout(resolve, 500));
      await server.start();
      await waitFor(
        () => atFront.approved.size >= (before[0] ?? 0) + 20 && atBar.approved.size >= (before[1] ?? 0) + 20,
      );
      await Promise.all([atFront.stop(), atBar.stop()]);
      await expectLedgerHolds(bar, [atFront.approved, atBar.approved]);
    } finally {
      await Promise.all([front.engine.stop(), bar.engine.stop()]);
    }
  });
});
