/**
 * The baselines the engine is measured against, each in its own process:
 *   https <port> <dataDir>   a bare Node HTTPS server answering a fixed JSON body (the transport ceiling)
 *   commits <file> <ms>      bare better-sqlite3 single-row commits, WAL and synchronous=FULL (durability)
 *   query <file> <json>      the engine's own list SQL straight through better-sqlite3
 */
import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { join } from 'node:path';

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

function summary(latencies: number[], seconds: number) {
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    perSecond: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
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
  const server = createServer(
    {
      key: readFileSync(join(dataDir, 'tls', 'key.pem')),
      cert: readFileSync(join(dataDir, 'tls', 'cert.pem')),
    },
    (request, response) => {
      request.resume();
      request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end(body));
    },
  );
  server.keepAliveTimeout = 10_000;
  server.listen(Number(port), '127.0.0.1', () => console.log(`ready https://127.0.0.1:${port}`));
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
} else if (mode === 'commits') {
  const [file, duration] = args as [string, string];
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(
    'CREATE TABLE IF NOT EXISTS sale (id INTEGER PRIMARY KEY, amount INTEGER NOT NULL, created_at INTEGER NOT NULL)',
  );
  const insert = db.prepare('INSERT INTO sale (amount, created_at) VALUES (?, ?)');
  const commit = db.transaction(() => insert.run(1000, Date.now()));
  const latencies: number[] = [];
  const started = process.hrtime.bigint();
  const deadline = Date.now() + Number(duration);
  while (Date.now() < deadline) {
    const t0 = process.hrtime.bigint();
    commit.immediate();
    latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  console.log(JSON.stringify(summary(latencies, Number(process.hrtime.bigint() - started) / 1e9)));
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
  console.log(JSON.stringify(summary(latencies, Number(process.hrtime.bigint() - started) / 1e9)));
  db.close();
} else {
  console.error('usage: baselines.ts https|commits|query ...');
  process.exit(2);
}
