/**
 * Ledger rows written straight through the store port, for the tests of the stores themselves; and
 * the rows a test gateway's ledger keeps, read straight from where it keeps them (the data dir's
 * SQLite file, or its database on the store server) for the tests of what is stored.
 */
import { existsSync, readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { StoreServerOptions } from '../../electron/gateway/open-store';
import { blankRow, type NewRow } from '../../electron/gateway/operations/recording';
import type { LedgerWrite } from '../../electron/gateway/store/ledger-store';
import { numbered } from '../../electron/gateway/store/sql/dialect';
import { dataDirLayout } from '../../electron/gateway/paths';

export const T0 = Date.UTC(2026, 10, 24, 9, 30);

/** An approved keyed SALE of 25.00 with this id, changed by `fields`. */
export function saleRow(id: number, fields: Partial<NewRow> = {}): NewRow {
  return {
    ...blankRow(id, null, T0 + id),
    type: 'Sale',
    displayMessage: 'Approved',
    resultCode: '0000',
    amount: 2500,
    cardLastFour: '1111',
    cardLength: 16,
    cardBrand: 'Visa',
    entryMode: 'Keyed',
    ...fields,
  };
}

/**
 * Inside a write: adds a row with the next id; an approved SALE, CAPTURE or REFUND joins the open
 * batch (opening one when there is none) and adds to its counters.
 */
export async function addRow(ledger: LedgerWrite, fields: Partial<NewRow> = {}): Promise<NewRow> {
  const id = await ledger.nextTransactionId();
  const row = saleRow(id, fields);
  const settles =
    row.result === 'Approved' && (row.type === 'Sale' || row.type === 'Refund' || row.type === 'Capture');
  if (!settles) {
    await ledger.insert(row);
    return row;
  }
  const batch = await ledger.openBatchForWrite(row.createdAt);
  row.batchId = batch.id;
  await ledger.insert(row);
  const refund = row.type === 'Refund';
  await ledger.applyBatchDelta(batch.id, {
    salesCount: refund ? 0 : 1,
    salesTotal: refund ? 0 : (row.amount ?? 0),
    refundCount: refund ? 1 : 0,
    refundTotal: refund ? (row.amount ?? 0) : 0,
    tipTotal: refund ? 0 : row.tipAmount,
  });
  return row;
}

/** Where a test gateway keeps its ledger: the data dir's file, or the store server's database. */
export interface LedgerPlace {
  dataDir: string;
  store: StoreServerOptions | undefined;
}

/**
 * Runs one statement on the ledger's own tables (`?` for each parameter) where the ledger is kept,
 * and returns its rows. The column names are the same in both stores; bigint columns come back as
 * text from PostgreSQL and as numbers from SQLite. Reads only, unless `write` (to show what the
 * store itself refuses).
 */
export async function queryLedger<T = Record<string, unknown>>(
  place: LedgerPlace,
  sql: string,
  params: unknown[] = [],
  { write = false } = {},
): Promise<T[]> {
  if (!place.store) {
    const db = new Database(dataDirLayout(place.dataDir).database, { readonly: !write });
    try {
      const statement = db.prepare(sql);
      return (statement.reader ? statement.all(...params) : (statement.run(...params), [])) as T[];
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: place.store.url });
  await client.connect();
  try {
    return (await client.query(numbered(sql), params)).rows as T[];
  } finally {
    await client.end();
  }
}

/** Every file the engine writes its SQLite data to in a data dir: the database and its write-ahead log. */
function dataDirBytes(dataDir: string): string {
  const { database } = dataDirLayout(dataDir);
  return [database, `${database}-wal`]
    .filter(existsSync)
    .map((file) => readFileSync(file).toString('latin1'))
    .join('');
}

/**
 * All that is stored, as text, to search for what must never be: the data dir's SQLite file and its
 * WAL byte for byte and, with the ledger on the store server, every row of every table of its
 * database.
 */
export async function storedText(place: LedgerPlace): Promise<string> {
  const local = dataDirBytes(place.dataDir);
  if (!place.store) return local;
  const tables = await queryLedger<{ name: string }>(
    place,
    "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename",
  );
  const rows: string[] = [];
  for (const { name } of tables) {
    const read = await queryLedger<{ row: string }>(place, `SELECT t::text AS row FROM "${name}" t`);
    rows.push(...read.map((each) => each.row));
  }
  return [local, ...rows].join('\n');
}
