/**
 * On the store server every ledger write made with an API key checks in the database, inside its
 * transaction, that the key is still live. A group that commits at once checks each key once, at
 * its first write; a revoked key still fails every write made with it, and only those.
 */
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { PostgresLedger } from '../../electron/gateway/store/postgres/ledger';
import { SQL } from '../../electron/gateway/store/postgres/ledger-sql';
import { KeyRevokedError } from '../../electron/gateway/store/store-errors';
import { addRow, queryLedger, type LedgerPlace } from '../support/ledger-rows';
import { startPostgresServer, type PostgresServer } from '../support/postgres-server';

let server: PostgresServer;
beforeAll(async () => {
  server = await startPostgresServer();
});
afterAll(() => server?.close());

let place: LedgerPlace;
let ledger: PostgresLedger;
/** The key checks the ledger sends, counted where the driver takes each of its statements. */
let keyChecks: number;
const query = pg.Client.prototype.query;
const KEY_CHECK = SQL.expectLiveKey().name;

beforeEach(async () => {
  const store = { url: await server.createDatabase(), lane: 'front' };
  place = { dataDir: '', store };
  ledger = await PostgresLedger.open(store);
  keyChecks = 0;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const [config] = args as [{ name?: string } | string];
    if (typeof config === 'object' && config.name === KEY_CHECK) keyChecks += 1;
    return (query as (...given: unknown[]) => unknown).apply(this, args);
  } as typeof query;
});
afterEach(async () => {
  pg.Client.prototype.query = query;
  await ledger?.close();
});

/** Adds an API key to the store, revoked or not; its id. */
async function storeKey(name: string, revoked = false): Promise<number> {
  const [row] = await queryLedger<{ id: string }>(
    place,
    `INSERT INTO api_keys (public_id, secret_hash, name, permissions, created_at, revoked_at)
     VALUES (?, '\\x00', ?, 'transactions:write', 1, ?) RETURNING id`,
    [name, name, revoked ? 2 : null],
    { write: true },
  );
  return Number(row?.id);
}

/** A SALE written with `keyId`, as the engine writes one: the key checked, then the row. */
function sale(keyId: number) {
  return ledger.write(async (write) => {
    await write.requireLiveKey(keyId);
    return addRow(write, { apiKeyId: keyId });
  });
}

it('checks a key once for all of a group’s writes made with it, and each key of the group', async () => {
  const till = await storeKey('till');
  const kiosk = await storeKey('kiosk');
  const groups = ledger.committed.groups;
  // Asked for in one turn of the event loop: one group.
  const rows = await Promise.all([sale(till), sale(till), sale(kiosk), sale(till), sale(kiosk)]);
  expect(ledger.committed.groups - groups).toBe(1);
  expect(keyChecks).toBe(2);
  for (const row of rows) expect(await ledger.find(row.id)).toMatchObject({ apiKeyId: row.apiKeyId });
  expect(rows.map((row) => row.apiKeyId)).toEqual([till, till, kiosk, till, kiosk]);
});

it('refuses every write of a group made with a revoked key, and keeps the others', async () => {
  const till = await storeKey('till');
  const gone = await storeKey('gone', true);
  const groups = ledger.committed.groups;
  const settled = await Promise.allSettled([sale(gone), sale(till), sale(gone), sale(till)]);
  expect(ledger.committed.groups - groups).toBe(1);
  expect(settled.map((outcome) => outcome.status)).toEqual([
    'rejected',
    'fulfilled',
    'rejected',
    'fulfilled',
  ]);
  for (const outcome of settled) {
    if (outcome.status === 'rejected') expect(outcome.reason).toBeInstanceOf(KeyRevokedError);
    else expect(await ledger.find(outcome.value.id)).toMatchObject({ apiKeyId: till });
  }
  const kept = await queryLedger(
    place,
    'SELECT count(*)::int AS kept FROM transactions WHERE api_key_id = ?',
    [gone],
  );
  expect(kept).toEqual([{ kept: 0 }]);
});

it('refuses a key revoked after an earlier group checked it', async () => {
  const till = await storeKey('till');
  await sale(till);
  await queryLedger(place, 'UPDATE api_keys SET revoked_at = 3 WHERE id = ?', [till], { write: true });
  await expect(sale(till)).rejects.toBeInstanceOf(KeyRevokedError);
  // The first group's check, then the second group's: at once, and again with its write in a
  // savepoint of its own once the check had failed the transaction.
  expect(keyChecks).toBe(3);
});
