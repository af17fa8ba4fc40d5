/**
 * The desktop app's store-server setting, through the bridge as the Settings screen sends it: a
 * manager saves a server only once it answers, the URL's password never comes back, the change is
 * audited, and bad input or an unreachable server changes nothing.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BridgeError, dispatchInvoke, type BridgeHandlers } from '../../electron/bridge/dispatch';
import { storeServerHandlers } from '../../electron/bridge/store-server-setting';
import type { Engine } from '../../electron/gateway/engine';
import { openEngine } from '../../electron/gateway/open-store';
import { readStoreServerFile, STORE_SERVER_FILE } from '../../electron/gateway/store-server-file';
import { startPostgresServer, type PostgresServer } from '../support/postgres-server';

const MANAGER_PIN = '2580';

let server: PostgresServer;
let dataDir: string;
let engine: Engine;
let handlers: BridgeHandlers;

beforeAll(async () => {
  server = await startPostgresServer();
});
afterAll(() => server?.close());
beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'tender-store-setting-'));
  engine = await openEngine(dataDir);
  handlers = storeServerHandlers({
    dataDir,
    engine,
    running: undefined,
    requirePin: async (pin) => {
      if (pin === undefined) throw new BridgeError('pin-required', 'A manager must allow this.');
      if (pin !== MANAGER_PIN) throw new BridgeError('wrong-pin', 'That PIN is not a manager’s.');
      return 'Cal at Tender browser screens (key abc), approved by manager Maya';
    },
  }) as BridgeHandlers;
});
afterEach(async () => {
  await engine.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const invoke = (channel: string, input?: unknown) => dispatchInvoke(handlers, channel, input);
const file = () => join(dataDir, STORE_SERVER_FILE);

function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

describe('the store-server setting', () => {
  it('saves a server that answers for the next start, without ever showing its password back', async () => {
    expect(await invoke('store-server:get')).toEqual({
      ok: true,
      value: { running: null, saved: null, setOutside: null },
    });
    const url = (await server.createDatabase()).replace('://tender@', '://tender:s3cret@');
    const saved = await invoke('store-server:set', { database: url, lane: 'counter-2', pin: MANAGER_PIN });
    expect(saved.ok).toBe(true);
    expect(JSON.stringify(saved)).not.toContain('s3cret');
    expect(saved).toMatchObject({ value: { running: null, saved: { lane: 'counter-2' } } });
    expect(statSync(file()).mode & 0o777).toBe(0o600);
    expect(readStoreServerFile(dataDir)).toEqual({ url, lane: 'counter-2' });

    const [entry] = await engine.reads.recentAudit(1);
    expect(entry).toMatchObject({
      action: 'setting_change',
      subject: 'store_server',
      actor: 'Cal at Tender browser screens (key abc), approved by manager Maya',
    });
    expect(entry?.detail).toContain('as lane counter-2');
    expect(entry?.detail).not.toContain('s3cret');

    // A password given as a parameter of the URL is hidden as well, in the answer and the log.
    const withParameter = `${await server.createDatabase()}?password=s3cret&sslmode=disable`;
    const again = await invoke('store-server:set', {
      database: withParameter,
      lane: 'counter-2',
      pin: MANAGER_PIN,
    });
    expect(again).toMatchObject({
      ok: true,
      value: { saved: { server: expect.stringContaining('password=hidden') } },
    });
    expect(JSON.stringify(again)).not.toContain('s3cret');
    expect(JSON.stringify(await invoke('store-server:get'))).not.toContain('s3cret');
    expect((await engine.reads.recentAudit(1))[0]?.detail).not.toContain('s3cret');

    expect(await invoke('store-server:clear', { pin: MANAGER_PIN })).toMatchObject({
      ok: true,
      value: { saved: null },
    });
    expect(existsSync(file())).toBe(false);
  });

  it('refuses a server that does not answer, a bad counter name, or no manager, and changes nothing', async () => {
    const unreachable = `postgresql://tender@127.0.0.1:${await closedPort()}/tender`;
    const refused = await invoke('store-server:set', {
      database: unreachable,
      lane: 'front',
      pin: MANAGER_PIN,
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'refused' } });
    expect(JSON.stringify(refused)).toMatch(/could not reach the store server.*Nothing was saved/);

    const url = await server.createDatabase();
    expect(
      await invoke('store-server:set', { database: url, lane: 'front desk', pin: MANAGER_PIN }),
    ).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    expect(
      await invoke('store-server:set', { database: 'store.lan', lane: 'front', pin: MANAGER_PIN }),
    ).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    expect(await invoke('store-server:set', { database: url, lane: 'front' })).toMatchObject({
      ok: false,
      error: { code: 'pin-required' },
    });
    expect(existsSync(file())).toBe(false);
    expect((await engine.reads.recentAudit(10)).filter((entry) => entry.subject === 'store_server')).toEqual(
      [],
    );
  });

  it('refuses a lane another counter is serving now, and saves it once that counter stops', async () => {
    const url = await server.createDatabase();
    const barDir = mkdtempSync(join(tmpdir(), 'tender-store-setting-bar-'));
    const bar = await openEngine(barDir, { store: { url, lane: 'bar' }, servesLane: true });
    try {
      const refused = await invoke('store-server:set', { database: url, lane: 'bar', pin: MANAGER_PIN });
      expect(refused).toMatchObject({ ok: false, error: { code: 'refused' } });
      expect(JSON.stringify(refused)).toMatch(/serving the lane \\"bar\\".*Nothing was saved/);
      expect(existsSync(file())).toBe(false);
      expect(
        (await engine.reads.recentAudit(10)).filter((entry) => entry.subject === 'store_server'),
      ).toEqual([]);
      // Looking did not take the lane from the counter serving it.
      const secondDir = mkdtempSync(join(tmpdir(), 'tender-store-setting-bar-'));
      await expect(
        openEngine(secondDir, { store: { url, lane: 'bar' }, servesLane: true }).finally(() =>
          rmSync(secondDir, { recursive: true, force: true }),
        ),
      ).rejects.toThrow(/serving the lane "bar"/);

      // The counter serving the lane saves its own setting again.
      const own = storeServerHandlers({
        dataDir: barDir,
        engine: bar,
        running: { options: { url, lane: 'bar' } },
        requirePin: async () => 'Maya',
      }) as BridgeHandlers;
      expect(
        await dispatchInvoke(own, 'store-server:set', { database: url, lane: 'bar', pin: MANAGER_PIN }),
      ).toMatchObject({ ok: true, value: { saved: { lane: 'bar' } } });

      expect(
        await invoke('store-server:set', { database: url, lane: 'patio', pin: MANAGER_PIN }),
      ).toMatchObject({ ok: true, value: { saved: { lane: 'patio' } } });
    } finally {
      await bar.close();
      rmSync(barDir, { recursive: true, force: true });
    }
    expect(await invoke('store-server:set', { database: url, lane: 'bar', pin: MANAGER_PIN })).toMatchObject({
      ok: true,
      value: { saved: { lane: 'bar' } },
    });
  });

  it('says a damaged setting file is damaged rather than guessing', async () => {
    writeFileSync(file(), '{"version":1,"datab');
    expect(await invoke('store-server:get')).toMatchObject({ ok: false, error: { code: 'unavailable' } });
    expect(readFileSync(file(), 'utf8')).toBe('{"version":1,"datab');
  });
});
