/**
 * The lists on a million-row store ledger: a store server seeded by seed-store.ts, one engine
 * serving it (`serve --database --lane`), and each list query the API serves asked 2,000 times over
 * HTTPS, one at a time, beside the same SQL asked straight through the pg driver. The engine reads
 * through its store read pool (store/postgres/read-pool.ts), as a counter does.
 *
 * Run alone with `npx tsx test/bench/store-lists.ts`; `npm run bench` runs it after the SALEs on the
 * store server.
 */
import pg from 'pg';
import { pathToFileURL } from 'node:url';
import { readTransactionListQuery } from '../../electron/gateway/http/list-queries';
import { PostgresReadPool } from '../../electron/gateway/store/postgres/read-pool';
import { numbered, POSTGRES_DIALECT } from '../../electron/gateway/store/sql/dialect';
import { LedgerReads } from '../../electron/gateway/store/sql/ledger-reads';
import { startPostgresServer } from '../support/postgres-server';
import { seedStore } from './seed-store';
import { summarize, type BenchRow, type Measure } from './stats';
import { runLoad, startCounter, stopCounter } from './store-server';

const SETTLED = 950_000;
const OPEN = 50_000;
const DAYS = 3 * 365;
/** Requests per list query: the p99 of 2,000 is the 20th slowest, not a single outlier. */
const LIST_REQUESTS = 2000;
/** Every list on the store server answers within this at p99. */
const LIST_P99_MS = 10;

/** The list queries a store's screens and programs ask, as query strings of GET /transactions. */
function storeListQueries(endAt: number): { what: string; query: string }[] {
  const pad = (n: number) => String(n).padStart(2, '0');
  const local = (t: number) => {
    const d = new Date(t);
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
  };
  const dayStart = new Date(endAt - 400 * 86_400_000).setHours(0, 0, 0, 0);
  const day = `start_date=${encodeURIComponent(local(dayStart))}&end_date=${encodeURIComponent(local(dayStart + 86_400_000))}`;
  return [
    { what: 'first page', query: '' },
    { what: 'one lane', query: 'lane=bar' },
    { what: 'one type (refunds)', query: 'type=REFUND' },
    { what: "one lane's voids", query: 'lane=patio&type=VOID' },
    { what: 'one settled batch', query: 'batch_id=700' },
    { what: 'one cashier', query: 'cashier=Carla' },
    { what: 'one cashier, page 400 of 25', query: 'cashier=Carla&page=400' },
    { what: 'a cashier with no sales yet', query: 'cashier=Nobody' },
    { what: 'one day date range', query: day },
    { what: 'one lane, one day', query: `lane=front&${day}` },
    { what: 'page 400 of 25', query: 'page=400' },
    { what: 'one lane, page 400 of 25', query: 'lane=bar&page=400' },
    { what: 'page 40,000 of 25', query: 'page=40000' },
  ];
}

/** The engine's SQL for a list query string, timed straight through the driver, one at a time. */
async function timeSql(
  db: pg.Client,
  reads: LedgerReads,
  query: string,
  iterations: number,
): Promise<Measure> {
  const { filter, page } = readTransactionListQuery(Object.fromEntries(new URLSearchParams(query)));
  const found = await reads.transactionPageQuery(filter, page);
  if (!found) throw new Error(`the engine reads nothing for ${query}`);
  const { sql, params } = found;
  const text = numbered(sql);
  const latencies: number[] = [];
  const started = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) {
    const at = process.hrtime.bigint();
    await db.query(text, params);
    latencies.push(Number(process.hrtime.bigint() - at) / 1e6);
  }
  return summarize(latencies, Number(process.hrtime.bigint() - started) / 1e9);
}

const ms = (value: number) => `${value < 10 ? value.toFixed(2) : value.toFixed(1)} ms`;

/**
 * Seeds a million-row store ledger and measures every list query on it; also how long seeding took.
 * `cli` runs the headless command line, as `startCounter` (store-server.ts) takes it.
 */
export async function measureStoreServerLists(
  cli?: readonly string[],
): Promise<{ rows: BenchRow[]; seedSeconds: number }> {
  const server = await startPostgresServer();
  try {
    const url = await server.createDatabase();
    const endAt = Date.now();
    const seedStarted = Date.now();
    await seedStore(url, { settledTransactions: SETTLED, openTransactions: OPEN, endAt, days: DAYS });
    const seedSeconds = (Date.now() - seedStarted) / 1000;
    console.log(`Seeded the store server in ${seedSeconds.toFixed(1)} s.`);
    const counter = await startCounter({ url, lane: 'front' }, cli);
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    const readPool = new PostgresReadPool({ url });
    const reads = new LedgerReads(readPool, POSTGRES_DIALECT);
    const rows: BenchRow[] = [];
    try {
      for (const { what, query } of storeListQueries(endAt)) {
        const measured = await runLoad({
          url: `${counter.api}/transactions?${query}`,
          method: 'GET',
          headers: { api_key: counter.key, accept: 'application/json' },
          caFile: counter.caFile,
          concurrency: 1,
          requests: LIST_REQUESTS,
        });
        // 204 is the answer of a first page with nothing on it.
        const answered = (measured.statuses?.['200'] ?? 0) + (measured.statuses?.['204'] ?? 0);
        if (answered !== measured.requests) throw new Error(`${what}: ${JSON.stringify(measured.statuses)}`);
        const sql = await timeSql(db, reads, query, LIST_REQUESTS);
        rows.push({
          what: `GET /transactions ${what}, store server (p99)`,
          engine: ms(measured.p99),
          baseline: `${ms(sql.p99)} SQL`,
          ratio: measured.p99 / sql.p99,
          target: `≤ ${LIST_P99_MS} ms`,
          pass: measured.p99 <= LIST_P99_MS,
        });
      }
      return { rows, seedSeconds };
    } finally {
      await db.end();
      await readPool.close();
      await stopCounter(counter);
    }
  } finally {
    await server.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  measureStoreServerLists().then(
    ({ rows }) => {
      for (const row of rows)
        console.log(`${row.what}: ${row.engine} vs ${row.baseline} (${row.ratio.toFixed(2)}×)`);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
