/**
 * `npm run seed -- --data-dir <dir> [--transactions 1000000] [--open 50000] [--days 1095]`
 * Fills a data dir's ledger with realistic history for demos and measurements. It refuses a ledger
 * that already holds transactions: seeded rows must never mix with real ones.
 */
import { existsSync } from 'node:fs';
import { mkdirSync } from 'node:fs';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { dataDirLayout } from '../../electron/gateway/paths';
import { seedLedger } from './seed-ledger';

const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    transactions: { type: 'string', default: '1000000' },
    open: { type: 'string', default: '50000' },
    days: { type: 'string', default: '1095' },
  },
});
const dataDir = values['data-dir'];
if (!dataDir) {
  console.error('seed needs --data-dir <dir>');
  process.exit(2);
}
const { database } = dataDirLayout(dataDir);
if (existsSync(database)) {
  const db = new Database(database, { readonly: true });
  const held = (
    db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'transactions'").get() as { n: number }
  ).n
    ? (db.prepare('SELECT count(*) AS n FROM transactions').get() as { n: number }).n
    : 0;
  db.close();
  if (held > 0) {
    console.error(`The ledger in ${dataDir} already holds ${held} transactions; seed an empty data dir.`);
    process.exit(1);
  }
}
mkdirSync(dataDir, { recursive: true, mode: 0o700 });
const open = Number(values.open);
const total = Number(values.transactions);
const started = Date.now();
const seeded = seedLedger(database, {
  settledTransactions: Math.max(total - open, 0),
  openTransactions: Math.min(open, total),
  endAt: Date.now(),
  days: Number(values.days),
});
console.log(
  `Seeded ${seeded.transactions.toLocaleString('en-US')} transactions in ${seeded.batches} batches in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
);
