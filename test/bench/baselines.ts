/**
 * The baselines the engine is measured against, each in its own process:
 *   https <port> <dataDir>   a bare Node HTTPS server answering a fixed JSON body (the transport ceiling),
 *                            or, asked for ?bytes=<n>, a JSON body of that size
 *   commits <file> <ms>      bare better-sqlite3 single-row commits, WAL and synchronous=FULL (durability)
 *   query <file> <json>      the engine's own list SQL straight through better-sqlite3
 *   ledger-commits <file> <ms> <rows>
 *                            a SALE's own row written into a copy of the seeded ledger, with all its
 *                            indexes and the batch counters, <rows> to a commit (1: single commits);
 *                            each a card of its own, as the bench's sales are
 */
import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { join } from 'node:path';
import { summarize } from './stats';

/** A database as the durability ceiling has it: WAL, and every commit synced before it returns. */
function openDurable(file: string): Database.Database {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  return db;
}

/** Runs `commit` back to back for `durationMs`, timing each. */
function timeCommits(commit: () => unknown, durationMs: number) {
  const latencies: number[] = [];
  const started = process.hrtime.bigint();
  const deadline = Date.now() + durationMs;
  while (Date.now() < deadline) {
    const t0 = process.hrtime.bigint();
    commit();
    latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return summarize(latencies, Number(process.hrtime.bigint() - started) / 1e9);
}

const [mode, ...args] = process.argv.slice(2);

if (mode === 'https') {
  const [port, dataDir] = args as [string, string];
  const body = JSON.stringify({
    id: '1',
    result: 'Approved',
    result_code: '0000',
    display_message: 'Approved',
    authorization_code: 'ABC123',
  });
  const sized = new Map<number, string>();
  const bodyOf = (url: string | undefined) => {
    const bytes = Number(/[?&]bytes=(\d+)/.exec(url ?? '')?.[1] ?? 0);
    if (bytes <= body.length) return body;
    let answer = sized.get(bytes);
    if (answer === undefined) {
      answer = JSON.stringify({ padding: 'x'.repeat(bytes - 14) });
      sized.set(bytes, answer);
    }
    return answer;
  };
  const server = createServer(
    {
      key: readFileSync(join(dataDir, 'tls', 'key.pem')),
      cert: readFileSync(join(dataDir, 'tls', 'cert.pem')),
    },
    (request, response) => {
      request.resume();
      request.on('end', () =>
        response.writeHead(200, { 'content-type': 'application/json' }).end(bodyOf(request.url)),
      );
    },
  );
  server.keepAliveTimeout = 10_000;
  server.listen(Number(port), '127.0.0.1', () => console.log(`ready https://127.0.0.1:${port}`));
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
} else if (mode === 'commits') {
  const [file, duration] = args as [string, string];
  const db = openDurable(file);
  db.exec(
    'CREATE TABLE IF NOT EXISTS sale (id INTEGER PRIMARY KEY, amount INTEGER NOT NULL, created_at INTEGER NOT NULL)',
  );
  const insert = db.prepare('INSERT INTO sale (amount, created_at) VALUES (?, ?)');
  const commit = db.transaction(() => insert.run(1000, Date.now()));
  console.log(JSON.stringify(timeCommits(() => commit.immediate(), Number(duration))));
  db.close();
} else if (mode === 'ledger-commits') {
  const [file, duration, rowsPerCommit] = args as [string, string, string];
  const db = openDurable(file);
  const batch = (db.prepare("SELECT id FROM batches WHERE status = 'OPEN'").get() as { id: number }).id;
  // The columns a keyed SALE of 12.50 on a Visa card fills, as the engine writes them for the bench's
  // key: each sale a card of its own, as the bench sends them, so its keyed hash and last four land
  // at places of their own in their indexes, as the authorization code does.
  const insert = db.prepare(
    `INSERT INTO transactions (type, result, result_code, display_message, amount, authorization_code,
       avs_result_code, csc_result_code, card_last_four, card_length, card_brand, entry_mode,
       purchase_order, batch_id, api_key_id, created_at, card_hash, cashier)
     VALUES ('Sale', 'Approved', '0000', 'Approved', 1250, ?, 'U', 'P', ?, 16, 'visa', 'keyed',
       ?, ?, 1, ?, ?, 'bench')`,
  );
  const counters = db.prepare(
    'UPDATE batches SET sales_count = sales_count + 1, sales_total = sales_total + 1250 WHERE id = ?',
  );
  const rows = Number(rowsPerCommit);
  let sales = 0;
  const commit = db.transaction(() => {
    for (let i = 0; i < rows; i++) {
      sales += 1;
      insert.run(
        Math.random().toString(36).slice(2, 8).toUpperCase(),
        String(Math.floor(Math.random() * 10_000)).padStart(4, '0'),
        `PO${String(sales).padStart(10, '0')}`,
        batch,
        Date.now(),
        randomBytes(32).toString('hex'),
      );
      counters.run(batch);
    }
  });
  for (let i = 0; i < 100; i++) commit.immediate();
  const measured = timeCommits(() => commit.immediate(), Number(duration));
  console.log(JSON.stringify({ ...measured, perSecond: measured.perSecond * rows }));
  db.close();
} else if (mode === 'query') {
  const [file, json] = args as [string, string];
  const { sql, params, iterations } = JSON.parse(json) as {
    sql: string;
    params: unknown[];
    iterations: number;
  };
  const db = new Database(file, { readonly: true });
  const statement = db.prepare(sql);
  for (let i = 0; i < 20; i++) statement.all(...params);
  const latencies: number[] = [];
  const started = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) {
    const t0 = process.hrtime.bigint();
    statement.all(...params);
    latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  console.log(JSON.stringify(summarize(latencies, Number(process.hrtime.bigint() - started) / 1e9)));
  db.close();
} else {
  console.error('usage: baselines.ts https|commits|ledger-commits|query ...');
  process.exit(2);
}
