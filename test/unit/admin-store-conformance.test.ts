/**
 * The port of keys, settings, staff and the PIN gate (store/admin-store.ts), held by both stores: the
 * data dir's SQLite file and a real PostgreSQL store server. The same scenarios run against each.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PIN_GATE_RULE, wornPinGate, type AdminStore } from '../../electron/gateway/store/admin-store';
import { SqliteAdminStore } from '../../electron/gateway/store/sqlite/admin-store';
import { AuditLog } from '../../electron/gateway/store/sqlite/audit-log';
import { type AuditEntry } from '../../electron/gateway/store/audit';
import { openDatabase } from '../../electron/gateway/store/sqlite/database';
import { SqliteLedger } from '../../electron/gateway/store/sqlite/ledger';
import { PostgresAdminStore } from '../../electron/gateway/store/postgres/admin-store';
import { PostgresLedger } from '../../electron/gateway/store/postgres/ledger';
import { PostgresReadPool } from '../../electron/gateway/store/postgres/read-pool';
import { POSTGRES_DIALECT } from '../../electron/gateway/store/sql/dialect';
import { LedgerReads } from '../../electron/gateway/store/sql/ledger-reads';
import { startPostgresServer, type PostgresServer } from '../support/postgres-server';

interface StoreUnderTest {
  admin: AdminStore;
  auditEntries(): Promise<AuditEntry[]>;
  close(): Promise<void>;
}

let server: PostgresServer;
beforeAll(async () => {
  server = await startPostgresServer();
});
afterAll(() => server?.close());

const STORES: Record<string, () => Promise<StoreUnderTest>> = {
  SQLite: async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tender-admin-conformance-'));
    const db = openDatabase(join(dir, 'ledger.db'));
    const audit = new AuditLog(db);
    const admin = new SqliteAdminStore(db, audit, new SqliteLedger(db, audit).commits);
    return {
      admin,
      auditEntries: async () => audit.recent(100),
      close: async () => {
        db.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
  PostgreSQL: async () => {
    const url = await server.createDatabase();
    // The ledger brings the database to the newest schema.
    await (await PostgresLedger.open({ url, lane: 'counter-1' })).close();
    const admin = await PostgresAdminStore.open({ url });
    const pool = new PostgresReadPool({ url });
    const reads = new LedgerReads(pool, POSTGRES_DIALECT);
    return {
      admin,
      auditEntries: () => reads.recentAudit(100),
      close: async () => {
        await Promise.all([admin.close(), pool.close()]);
      },
    };
  },
};

const KEY = {
  publicId: '0123456789abcdef',
  secretHash: Buffer.alloc(32, 7),
  name: 'kitchen display',
  permissions: ['transactions:read'],
  createdAt: 1_700_000_000_000,
  counterScreens: false,
};
const ENTRY = {
  at: 1_700_000_000_000,
  actor: 'test',
  action: 'key_create',
  subject: 'key',
  detail: '',
} as const;

describe.each(Object.keys(STORES))('the %s keys, settings and staff', (storeName) => {
  let store: StoreUnderTest;
  let admin: AdminStore;
  beforeEach(async () => {
    store = await (STORES[storeName] as () => Promise<StoreUnderTest>)();
    admin = store.admin;
  });
  afterEach(() => store.close());

  it('reads a committed write at once, the record and its audit entry together', async () => {
    const inserted = await admin.write(async (tx) => {
      const key = await tx.insertKey(KEY);
      await tx.appendAudit(ENTRY);
      return key;
    });
    expect(admin.findKey(KEY.publicId)).toMatchObject({ id: inserted.id, name: 'kitchen display' });
    expect(admin.keys().map((key) => key.permissions)).toEqual([['transactions:read']]);
    expect(await store.auditEntries()).toMatchObject([{ action: 'key_create' }]);
    expect((await admin.write((tx) => tx.revokeKey(KEY.publicId, 5)))?.revokedAt).toBe(5);
    expect(admin.findKey(KEY.publicId)?.revokedAt).toBe(5);
    expect(await admin.write((tx) => tx.revokeKey(KEY.publicId, 6))).toBeUndefined();
  });

  it('keeps whether a key is a counter’s screens key', async () => {
    const screens = { ...KEY, publicId: 'fedcba9876543210', name: 'counter screens', counterScreens: true };
    await admin.write(async (tx) => {
      await tx.insertKey(KEY);
      await tx.insertKey(screens);
    });
    expect(admin.findKey(KEY.publicId)?.counterScreens).toBe(false);
    expect(admin.findKey(screens.publicId)?.counterScreens).toBe(true);
    expect(admin.keys().map((key) => [key.publicId, key.counterScreens])).toEqual([
      [KEY.publicId, false],
      [screens.publicId, true],
    ]);
  });

  it('keeps nothing of a write that throws, its audit entry included', async () => {
    await expect(
      admin.write(async (tx) => {
        await tx.setSetting('tips_enabled', 'true');
        await tx.insertStaff({ name: 'Maya', role: 'manager', pinHash: '{}', serverId: null, createdAt: 1 });
        await tx.appendAudit({ ...ENTRY, action: 'setting_change' });
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(admin.setting('tips_enabled')).toBeUndefined();
    expect(admin.staff()).toEqual([]);
    expect(await store.auditEntries()).toEqual([]);
  });

  it('lists staff as SQLite does: the live first, by name with letter case aside, then id', async () => {
    await admin.write(async (tx) => {
      for (const name of ['cole', 'Ana', 'bea', 'Dan']) {
        const member = await tx.insertStaff({
          name,
          role: 'cashier',
          pinHash: '{}',
          serverId: null,
          createdAt: 1,
        });
        if (name === 'bea') await tx.updateStaff(member.id, member, { serverId: '07' });
        if (name === 'Ana') await tx.retireStaff(member.id, 2);
      }
    });
    expect(admin.staff().map((member) => `${member.name}${member.serverId ?? ''}`)).toEqual([
      'bea07',
      'cole',
      'Dan',
      'Ana',
    ]);
  });

  it('counts wrong PINs per scope, pausing the fifth and doubling each after, kept as stored', async () => {
    const rule = PIN_GATE_RULE;
    const wrong = (scope: string, at: number) => admin.write((tx) => tx.recordWrongPin(scope, at, rule));
    for (let attempt = 1; attempt < rule.attempts; attempt += 1) await wrong('sign-in at front', 1000);
    expect(await admin.pinGate('sign-in at front')).toEqual({
      failures: rule.attempts - 1,
      pausedUntil: 0,
      lastFailureAt: 1000,
    });
    // Another counter's, and another target's, count is its own.
    expect(await admin.pinGate('sign-in at bar')).toEqual({ failures: 0, pausedUntil: 0, lastFailureAt: 0 });
    expect(await wrong('approval at front', 1000)).toEqual({
      failures: 1,
      pausedUntil: 0,
      lastFailureAt: 1000,
    });

    expect(await wrong('sign-in at front', 2000)).toEqual({
      failures: rule.attempts,
      pausedUntil: 2000 + rule.pauseMs,
      lastFailureAt: 2000,
    });
    const later = 2000 + rule.pauseMs;
    expect((await wrong('sign-in at front', later)).pausedUntil).toBe(later + 2 * rule.pauseMs);

    // Slips of a PIN typed right are taken back; time takes one off for each quiet period.
    await admin.write((tx) => tx.forgiveWrongPins('sign-in at front', 2));
    expect((await admin.pinGate('sign-in at front')).failures).toBe(rule.attempts - 1);
    const quiet = later + 2 * rule.forgetMs;
    expect(wornPinGate(await admin.pinGate('sign-in at front'), quiet, rule)).toEqual({
      failures: rule.attempts - 3,
      pausedUntil: later + 2 * rule.pauseMs,
      lastFailureAt: later + 2 * rule.forgetMs,
    });
  });

  it('lifts a pause by hand, keeping the count just below one, and leaves an open gate as it is', async () => {
    const rule = PIN_GATE_RULE;
    const wrong = (at: number) => admin.write((tx) => tx.recordWrongPin('sign-in at front', at, rule));
    for (let attempt = 0; attempt < rule.attempts + 2; attempt += 1) await wrong(1000);
    const paused = await admin.pinGate('sign-in at front');
    expect(paused.pausedUntil).toBe(1000 + 4 * rule.pauseMs);

    const lift = (scope: string) => admin.write((tx) => tx.liftPinPause(scope, 5000, rule));
    expect(await lift('sign-in at front')).toEqual(paused);
    expect(await admin.pinGate('sign-in at front')).toEqual({
      failures: rule.attempts - 1,
      pausedUntil: 0,
      lastFailureAt: 1000,
    });
    // The next wrong PIN pauses again, for the first pause's length.
    expect((await wrong(6000)).pausedUntil).toBe(6000 + rule.pauseMs);
    // A gate that is not paused is left as it is.
    await admin.write((tx) => tx.recordWrongPin('approval at front', 1000, rule));
    expect(await lift('approval at front')).toEqual({ failures: 1, pausedUntil: 0, lastFailureAt: 1000 });
    expect(await admin.pinGate('approval at front')).toEqual({
      failures: 1,
      pausedUntil: 0,
      lastFailureAt: 1000,
    });
    expect(await lift('sign-in at bar')).toEqual({ failures: 0, pausedUntil: 0, lastFailureAt: 0 });
  });
});
