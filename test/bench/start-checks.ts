/**
 * What checking the ledger costs on a million-row ledger, beside reading the whole file once, which
 * no check of every page can beat. At a start after a clean stop the engine hashes the ledger to
 * see it is the file it checked and sealed at that stop; at the stop it runs quick_check and hashes
 * the file; after an unclean stop, or when the ledger changed since, it runs the full integrity
 * check. quick_check alone is measured too: it is what a quick_check at every start would cost,
 * and it would still miss an index key changed in a well-formed page.
 *
 * `dataDir` holds a seeded ledger and no engine serves it. Each figure is the median of three runs
 * (one for the full check), after a first read that brings the file into the page cache, as every
 * start but the first after a reboot finds it.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { ledgerMatchesSeal, sealLedger } from '../../electron/gateway/data-dir';
import { openStore } from '../../electron/gateway/open-store';
import type { LedgerFile } from '../../electron/gateway/store/store';
import { dataDirLayout } from '../../electron/gateway/paths';
import { median, type BenchRow } from './stats';

/** The start check on the million-row ledger leaves start-up this much of its 1 s. */
const START_CHECK_BUDGET_MS = 500;

const ms = (value: number) => (value < 1000 ? `${value.toFixed(0)} ms` : `${(value / 1000).toFixed(2)} s`);

async function timed<T>(work: () => T | Promise<T>): Promise<{ ms: number; value: T }> {
  const started = process.hrtime.bigint();
  const value = await work();
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, value };
}

async function medianOf(runs: number, work: () => unknown): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push((await timed(work)).ms);
  return median(times);
}

function readWholeFile(file: string): number {
  const fd = openSync(file, 'r');
  const buffer = Buffer.allocUnsafe(1 << 20);
  let total = 0;
  try {
    for (let read = readSync(fd, buffer); read > 0; read = readSync(fd, buffer)) total += read;
  } finally {
    closeSync(fd);
  }
  return total;
}

/** Runs a check on the engine's own connection to the ledger file, as startGateway and its close do. */
async function withLedgerFile<T>(dataDir: string, work: (file: LedgerFile) => T): Promise<T> {
  const store = await openStore(dataDir);
  try {
    if (!store.file) throw new Error(`${dataDir} keeps no ledger file`);
    return work(store.file);
  } finally {
    await store.close();
  }
}

export async function measureStartChecks(dataDir: string): Promise<BenchRow[]> {
  const { database } = dataDirLayout(dataDir);
  const bytes = readWholeFile(database);
  const read = await medianOf(3, () => readWholeFile(database));
  const baseline = `${ms(read)} reading ${(bytes / 2 ** 20).toFixed(0)} MiB`;

  const quick = await withLedgerFile(dataDir, (file) => {
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const started = process.hrtime.bigint();
      const problems = file.checkIntegrity('quick');
      times.push(Number(process.hrtime.bigint() - started) / 1e6);
      if (problems.length > 0) throw new Error(`The seeded ledger fails quick_check: ${problems[0]}`);
    }
    return median(times);
  });
  const sealing = await medianOf(3, () => sealLedger(database));
  const seal = await sealLedger(database);
  if (!seal) throw new Error(`${database} has a WAL beside it: is an engine serving it?`);
  const startCheck = await medianOf(3, async () => {
    if (!(await ledgerMatchesSeal(database, seal))) throw new Error('The ledger changed while measured.');
  });
  const full = await withLedgerFile(dataDir, (file) => {
    const started = process.hrtime.bigint();
    const problems = file.checkIntegrity('full');
    if (problems.length > 0) throw new Error(`The seeded ledger fails its integrity check: ${problems[0]}`);
    return Number(process.hrtime.bigint() - started) / 1e6;
  });

  return [
    {
      what: 'Ledger check at start after a clean stop (SHA-256)',
      engine: ms(startCheck),
      baseline,
      ratio: startCheck / read,
      target: `≤ ${START_CHECK_BUDGET_MS} ms (start-up < 1 s)`,
      pass: startCheck <= START_CHECK_BUDGET_MS,
    },
    {
      what: 'Ledger check at a clean stop (quick_check + SHA-256)',
      engine: ms(quick + sealing),
      baseline,
      ratio: (quick + sealing) / read,
      target: 'for context',
    },
    {
      what: 'quick_check alone (not run at start)',
      engine: ms(quick),
      baseline,
      ratio: quick / read,
      target: 'for context',
    },
    {
      what: 'Full check after an unclean stop (integrity + foreign keys)',
      engine: ms(full),
      baseline,
      ratio: full / read,
      target: 'for context',
    },
  ];
}
