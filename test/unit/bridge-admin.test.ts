/**
 * The merchant's side of the bridge on a real engine: settings, the swipe key, the manager PIN, API
 * keys for other programs, the audit log and the connection details, each through the dispatcher as
 * the screens reach them.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TenderApiError } from '../../shared/api/client';
import type { AppSettings, EventPayload } from '../../shared/ipc/contract';
import { COUNTER_SETTINGS_FILE, DamagedPreferencesError } from '../../electron/bridge/counter-preferences';
import { dispatchInvoke } from '../../electron/bridge/dispatch';
import { hashPin, PIN_ATTEMPTS, PIN_LOCK_MS, PinGate, pinMatches } from '../../electron/bridge/manager-pin';
import { CASHIER_APP, Terminal } from '../../electron/bridge/terminal';
import { certificateFingerprint } from '../../electron/gateway/crypto/certificate';
import { openEngine } from '../../electron/gateway/open-store';
import { startTestGateway, VISA, type TestGateway } from '../support/gateway';

let t: TestGateway;
const running: Terminal[] = [];

/** The owner, a manager, and a cashier: settings changes need a manager signed in or their PIN. */
const OWNER_PIN = '2580';
const CASHIER_PIN = '1470';

beforeAll(async () => {
  t = await startTestGateway();
  await t.gateway.engine.staff.create({ name: 'Olga', role: 'manager', pin: OWNER_PIN }, 'test');
  await t.gateway.engine.staff.create({ name: 'Cal', role: 'cashier', pin: CASHIER_PIN }, 'test');
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((terminal) => terminal.stop()));
  rmSync(join(t.dataDir, COUNTER_SETTINGS_FILE), { force: true });
  await t.gateway.engine.settings.setFromText('tips_enabled', 'false');
  await t.gateway.engine.settings.setFromText('swipe_bdk', '0123456789ABCDEFFEDCBA9876543210');
});
afterAll(() => t.close());

/** A counter with the owner signed in, or with `signIn` the cashier's PIN, or no one. */
async function start(
  options: { documents?: { savePdf(name: string): Promise<boolean> }; signIn?: string | null } = {},
) {
  const { signIn = OWNER_PIN, ...rest } = options;
  const terminal = await Terminal.start({
    gateway: t.gateway,
    dataDir: t.dataDir,
    shell: 'browser',
    version: '0.1.0',
    reader: { kind: 'none' },
    ...rest,
  });
  running.push(terminal);
  if (signIn !== null) await invoke(terminal, 'staff:sign-in', { pin: signIn });
  return terminal;
}

async function invoke(terminal: Terminal, channel: string, input?: unknown) {
  const result = await dispatchInvoke(terminal.handlers, channel, input);
  if (!result.ok) throw Object.assign(new Error(result.error.message), { code: result.error.code });
  return result.value;
}

async function refusal(terminal: Terminal, channel: string, input?: unknown) {
  const result = await dispatchInvoke(terminal.handlers, channel, input);
  if (result.ok) throw new Error(`${channel} was not refused`);
  return result.error;
}

function settingsEvents(terminal: Terminal): EventPayload<'settings:changed'>[] {
  const seen: EventPayload<'settings:changed'>[] = [];
  terminal.events.subscribe((event, payload) => {
    if (event === 'settings:changed') seen.push(payload as EventPayload<'settings:changed'>);
  });
  return seen;
}

describe('settings', () => {
  it('start with tips off, 15/18/20 suggested, tabs capturable for 7 days, tips over 30% confirmed, a manager needed and the test BDK', async () => {
    const terminal = await start();
    expect(await invoke(terminal, 'settings:get')).toEqual({
      tipsEnabled: false,
      tipPercentages: [15, 18, 20],
      authExpiryDays: 7,
      tipWarnPercent: 30,
      // The test gateway turns the duplicate check off (its default is 2 minutes).
      duplicateWindowMinutes: 0,
      confirmAmountAboveCents: 100_000,
      // Refunds, voids, the close and settings always need a manager now.
      managerPin: true,
      swipeKey: {
        testKey: true,
        kcv: '08D7B4',
        description: expect.stringContaining('TEST ONLY'),
      },
    });
  });

  it('the tip confirmation share and the duplicate window are set from the screens and audited', async () => {
    const terminal = await start();
    const before = (await invoke(terminal, 'settings:get', undefined)) as AppSettings;
    // The test gateway starts with the duplicate check off.
    expect(before).toMatchObject({ tipWarnPercent: 30, duplicateWindowMinutes: 0 });
    const changed = (await invoke(terminal, 'settings:update', {
      tipWarnPercent: 45,
      duplicateWindowMinutes: 5,
    })) as AppSettings;
    expect(changed).toMatchObject({ tipWarnPercent: 45, duplicateWindowMinutes: 5 });
    expect(t.gateway.engine.settings.get('tip_warn_percent')).toBe(45);
    expect(t.gateway.engine.settings.get('duplicate_window_minutes')).toBe(5);
    const subjects = (await t.gateway.engine.reads.recentAudit(2)).map((entry) => entry.subject);
    expect(subjects.sort()).toEqual(['duplicate_window_minutes', 'tip_warn_percent']);
    await expect(invoke(terminal, 'settings:update', { duplicateWindowMinutes: 2000 })).rejects.toThrow();
    expect(t.gateway.engine.settings.get('duplicate_window_minutes')).toBe(5);
  });

  it('change together, reach every screen, and are recorded in the audit log as the cashier app', async () => {
    const terminal = await start();
    const seen = settingsEvents(terminal);
    const changed = (await invoke(terminal, 'settings:update', {
      tipsEnabled: true,
      tipPercentages: [18, 20, 25],
      authExpiryDays: 3,
    })) as AppSettings;
    expect(changed).toMatchObject({ tipsEnabled: true, tipPercentages: [18, 20, 25], authExpiryDays: 3 });
    expect(seen).toEqual([changed]);
    expect(t.gateway.engine.settings.get('tips_enabled')).toBe(true);
    expect(t.gateway.engine.settings.get('auth_expiry_days')).toBe(3);
    const [percentages, days, tips] = await t.gateway.engine.reads.recentAudit(3);
    expect(percentages).toMatchObject({
      actor: CASHIER_APP,
      action: 'setting_change',
      subject: 'tip_percentages',
      detail: '15, 18, 20 → 18, 20, 25',
    });
    expect(days).toMatchObject({ actor: CASHIER_APP, subject: 'auth_expiry_days' });
    expect(tips).toMatchObject({ actor: CASHIER_APP, subject: 'tips_enabled' });

    // The percentages live in the data dir, so the next start (or the other shell) has them.
    await terminal.stop();
    const again = await start();
    expect(await invoke(again, 'settings:get')).toMatchObject({ tipPercentages: [18, 20, 25] });
    await t.gateway.engine.settings.setFromText('auth_expiry_days', '7');
  });

  it('write only what changes, so the audit log holds no empty changes', async () => {
    const terminal = await start();
    const before = (await t.gateway.engine.reads.recentAudit(1))[0]?.id;
    await invoke(terminal, 'settings:update', {
      tipsEnabled: false,
      tipPercentages: [15, 18, 20],
      authExpiryDays: 7,
    });
    expect((await t.gateway.engine.reads.recentAudit(1))[0]?.id).toBe(before);
  });

  it('take a new swipe key without ever sending it back, and say it is no longer the test key', async () => {
    const terminal = await start();
    const bdk = 'FEDCBA98765432100123456789ABCDEF';
    const changed = (await invoke(terminal, 'settings:set-swipe-key', { bdk })) as AppSettings;
    expect(changed.swipeKey.testKey).toBe(false);
    expect(changed.swipeKey.kcv).toMatch(/^[0-9A-F]{6}$/);
    expect(changed.swipeKey.kcv).not.toBe('08D7B4');
    expect(JSON.stringify(changed)).not.toContain(bdk);
    expect(t.gateway.engine.settings.get('swipe_bdk')).toBe(bdk);
    const [entry] = await t.gateway.engine.reads.recentAudit(1);
    expect(entry).toMatchObject({ actor: CASHIER_APP, subject: 'swipe_bdk' });
    expect(JSON.stringify(entry)).not.toContain(bdk);
  });

  it('stop the start when the counter settings file is damaged, rather than dropping a PIN', async () => {
    writeFileSync(join(t.dataDir, COUNTER_SETTINGS_FILE), '{"version":1,"tipPercentages":');
    await expect(start()).rejects.toBeInstanceOf(DamagedPreferencesError);
    const keys = t.gateway.engine.keys.list().filter((key) => key.revoked === null);
    expect(keys.map((key) => key.name)).not.toContain('Tender browser screens');
  });
});

describe('manager approval of settings changes', () => {
  it('is stored only as a salted scrypt hash, for each person', async () => {
    const stored = await hashPin('4826');
    expect(JSON.stringify(stored)).not.toContain('4826');
    expect(stored).toMatchObject({ algorithm: 'scrypt', N: 32768, r: 8, p: 1 });
    expect(Buffer.from(stored.salt, 'base64')).toHaveLength(16);
    expect(await pinMatches('4826', stored)).toBe(true);
    expect(await pinMatches('4827', stored)).toBe(false);
    // The same PIN hashed again gets another salt, so two people's hashes never match.
    expect((await hashPin('4826')).hash).not.toBe(stored.hash);
  });

  it("passes with a manager signed in; a cashier needs a manager's PIN for every settings change", async () => {
    const terminal = await start({ signIn: CASHIER_PIN });
    expect(await invoke(terminal, 'manager:verify', { pin: OWNER_PIN, action: 'refund' })).toBeNull();
    expect(await refusal(terminal, 'manager:verify', { pin: '1111', action: 'batch-close' })).toEqual({
      code: 'wrong-pin',
      message: 'Wrong PIN. 4 more tries before a one-minute pause.',
    });
    expect(await refusal(terminal, 'settings:update', { tipsEnabled: true })).toMatchObject({
      code: 'pin-required',
    });
    expect(
      await refusal(terminal, 'keys:create', { name: 'x', permissions: ['transactions:read'] }),
    ).toMatchObject({ code: 'pin-required' });
    expect(
      await refusal(terminal, 'settings:set-swipe-key', { bdk: 'F'.repeat(32), pin: '9999' }),
    ).toMatchObject({ code: 'wrong-pin' });
    // A cashier's own PIN approves nothing.
    expect(await refusal(terminal, 'settings:update', { tipsEnabled: true, pin: CASHIER_PIN })).toMatchObject(
      { code: 'wrong-pin', message: 'Cal is a cashier. A manager must enter their PIN.' },
    );
    expect(t.gateway.engine.settings.get('tips_enabled')).toBe(false);
    expect(await invoke(terminal, 'settings:update', { tipsEnabled: true, pin: OWNER_PIN })).toMatchObject({
      tipsEnabled: true,
    });
    const change = (await t.gateway.engine.reads.recentAudit(1))[0];
    expect(change).toMatchObject({ action: 'setting_change', subject: 'tips_enabled' });
    const failures = (await t.gateway.engine.reads.recentAudit(20)).filter(
      (entry) => entry.action === 'pin_failed',
    );
    expect(failures.length).toBeGreaterThanOrEqual(3);
    expect(JSON.stringify(await t.gateway.engine.reads.recentAudit(30))).not.toMatch(/9999|1111"/);
    // Right PINs start the count afresh for the next test.
    await invoke(terminal, 'manager:verify', { pin: OWNER_PIN, action: 'void' });
  });

  it('pauses for a minute after five wrong PINs in a row, even for the right one', async () => {
    let now = 1_000_000;
    const gate = new PinGate(() => now);
    const stored = await hashPin('2468');
    for (let attempt = 1; attempt < PIN_ATTEMPTS; attempt += 1) {
      expect(await gate.check('1111', stored)).toEqual({ ok: false, reason: 'wrong' });
    }
    expect(await gate.check('1111', stored)).toEqual({ ok: false, reason: 'locked', retryInSeconds: 60 });
    expect(await gate.check('2468', stored)).toMatchObject({ ok: false, reason: 'locked' });
    now += PIN_LOCK_MS;
    expect(await gate.check('2468', stored)).toEqual({ ok: true });
    expect(gate.attemptsLeft).toBe(PIN_ATTEMPTS);
  });

  it('takes guesses sent all at once one after another, so the pause still comes after five', async () => {
    const gate = new PinGate(() => 1_000_000);
    const stored = await hashPin('2468');
    const guesses = [...Array.from({ length: 20 }, () => '1111'), '2468'];
    const checks = await Promise.all(guesses.map((pin) => gate.check(pin, stored)));
    expect(checks.filter((check) => check.ok)).toEqual([]);
    expect(checks.filter((check) => !check.ok && check.reason === 'wrong')).toHaveLength(PIN_ATTEMPTS - 1);
    expect(checks.at(-1)).toMatchObject({ ok: false, reason: 'locked' });
  });

  it('says how long to wait once the pause has begun', async () => {
    let now = 0;
    const dataDir = mkdtempSync(join(tmpdir(), 'tender-staff-'));
    const engine = await openEngine(dataDir, { now: () => now });
    try {
      await engine.staff.create({ name: 'Olga', role: 'manager', pin: OWNER_PIN }, 'test');
      for (let attempt = 0; attempt < PIN_ATTEMPTS; attempt += 1) {
        await expect(engine.staff.identify('1357', 'sign-in', CASHIER_APP)).rejects.toThrow();
      }
      now += 15_000;
      await expect(engine.staff.identify(OWNER_PIN, 'sign-in', CASHIER_APP)).rejects.toThrow(
        'Too many wrong PINs. Wait 45 seconds, then try again.',
      );
      const failed = (await engine.reads.recentAudit(10)).filter((entry) => entry.action === 'pin_failed');
      expect(failed.map((entry) => entry.detail)).toEqual([
        'refused: PIN entry paused for 45 s',
        'refused: PIN entry paused for 60 s',
        'wrong PIN',
        'wrong PIN',
        'wrong PIN',
        'wrong PIN',
      ]);
    } finally {
      await engine.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('API keys for other programs', () => {
  it('are created with a name and permissions, shown once, and work for another client', async () => {
    const terminal = await start();
    const created = (await invoke(terminal, 'keys:create', {
      name: '  Kitchen display ',
      permissions: ['transactions:read'],
    })) as { key: string; info: { id: string; name: string; permissions: string[]; current: boolean } };
    expect(created.info).toMatchObject({
      name: 'Kitchen display',
      permissions: ['transactions:read'],
      current: false,
    });
    expect(created.key).toContain(created.info.id);

    const kitchen = t.clientWith(created.key);
    await t.client.createTransaction({ type: 'SALE', amount: '8.25', ...VISA });
    expect((await kitchen.listTransactions({ page_size: 1 }))[0]).toMatchObject({ amount: '8.25' });
    await expect(kitchen.createTransaction({ type: 'SALE', amount: '1.00', ...VISA })).rejects.toMatchObject({
      status: 403,
    });

    const list = (await invoke(terminal, 'keys:list')) as {
      active: { id: string; lastUsed: string | null }[];
    };
    const listed = list.active.find((key) => key.id === created.info.id);
    expect(listed?.lastUsed).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(JSON.stringify(list)).not.toContain(created.key);
  });

  it('list the screens’ own key as theirs, and refuse to revoke it', async () => {
    const terminal = await start();
    const list = (await invoke(terminal, 'keys:list')) as {
      active: { id: string; name: string; current: boolean }[];
    };
    const own = list.active.filter((key) => key.current);
    expect(own.map((key) => key.name)).toEqual(['Tender browser screens']);
    expect(await refusal(terminal, 'keys:revoke', { id: own[0]?.id })).toMatchObject({ code: 'refused' });
  });

  it('are revoked, after which the engine refuses them, and the list moves them aside', async () => {
    const terminal = await start();
    const created = (await invoke(terminal, 'keys:create', {
      name: 'Ordering system',
      permissions: ['transactions:write', 'transactions:read'],
    })) as { key: string; info: { id: string } };
    const revoked = (await invoke(terminal, 'keys:revoke', { id: created.info.id })) as { revoked: string };
    expect(revoked.revoked).toMatch(/^\d{4}-/);
    const error = await t
      .clientWith(created.key)
      .listTransactions()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TenderApiError);
    expect((error as TenderApiError).status).toBe(401);
    const list = (await invoke(terminal, 'keys:list')) as {
      active: { id: string }[];
      revoked: { id: string }[];
      revokedTotal: number;
    };
    expect(list.active.map((key) => key.id)).not.toContain(created.info.id);
    expect(list.revoked[0]?.id).toBe(created.info.id);
    expect(list.revokedTotal).toBeGreaterThanOrEqual(1);
    expect(await refusal(terminal, 'keys:revoke', { id: created.info.id })).toMatchObject({
      code: 'refused',
    });
    const [entry] = await t.gateway.engine.reads.recentAudit(1);
    expect(entry).toMatchObject({ actor: CASHIER_APP, action: 'key_revoke' });
  });
});

describe('the audit log', () => {
  it('pages newest first and says whether older entries follow', async () => {
    const terminal = await start();
    await invoke(terminal, 'settings:update', { tipPercentages: [10, 15] });
    await invoke(terminal, 'settings:update', { tipPercentages: [10, 15, 20] });
    const first = (await invoke(terminal, 'audit:recent', { limit: 1, offset: 0 })) as {
      entries: { id: number; detail: string; at: string }[];
      more: boolean;
    };
    expect(first.entries).toHaveLength(1);
    expect(first.entries[0]?.detail).toBe('10, 15 → 10, 15, 20');
    expect(first.entries[0]?.at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(first.more).toBe(true);
    const second = (await invoke(terminal, 'audit:recent', { limit: 1, offset: 1 })) as typeof first;
    expect(second.entries[0]?.detail).toBe('15, 18, 20 → 10, 15');
    expect(second.entries[0]?.id).toBeLessThan(first.entries[0]?.id ?? 0);
  });
});

describe('connection details for integrators', () => {
  it('give the loopback address, the certificate’s SHA-256 fingerprint and its file', async () => {
    const terminal = await start();
    const connection = (await invoke(terminal, 'terminal:connection')) as {
      engineUrl: string;
      certificate: { sha256: string; file: string; validTo: string };
      platform: string;
    };
    expect(connection.engineUrl).toBe(t.gateway.url);
    expect(connection.certificate.sha256).toBe(certificateFingerprint(t.gateway.certificatePem));
    expect(connection.certificate.file).toBe(join(t.dataDir, 'tls', 'cert.pem'));
    expect(readFileSync(connection.certificate.file, 'utf8')).toBe(t.gateway.certificatePem);
    expect(Date.parse(connection.certificate.validTo)).toBeGreaterThan(Date.now());
    expect(connection.platform).toBe(process.platform === 'linux' ? 'linux' : expect.any(String));
  });
});

describe('saving the report as PDF', () => {
  it('is the desktop app’s to do; a browser is told to print to PDF', async () => {
    const browser = await start();
    expect(await refusal(browser, 'report:save-pdf', { fileName: 'Batch 3.pdf' })).toMatchObject({
      code: 'unavailable',
      message: expect.stringContaining('Save as PDF'),
    });
    await browser.stop();
    const asked: string[] = [];
    const desktop = await start({
      documents: { savePdf: async (name) => (asked.push(name), name !== 'cancelled.pdf') },
    });
    expect(await invoke(desktop, 'report:save-pdf', { fileName: 'Batch 3.pdf' })).toEqual({ saved: true });
    expect(await invoke(desktop, 'report:save-pdf', { fileName: 'cancelled.pdf' })).toEqual({ saved: false });
    expect(asked).toEqual(['Batch 3.pdf', 'cancelled.pdf']);
  });
});
