/**
 * The merchant's side of the bridge on a real engine: settings, the swipe key, the manager PIN, API
 * keys for other programs, the audit log and the connection details, each through the dispatcher as
 * the screens reach them.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TenderApiError } from '../../shared/api/client';
import type { AppSettings, EventPayload } from '../../shared/ipc/contract';
import {
  COUNTER_SETTINGS_FILE,
  CounterPreferences,
  DamagedPreferencesError,
} from '../../electron/bridge/counter-preferences';
import { dispatchInvoke } from '../../electron/bridge/dispatch';
import { hashPin, pinMatches } from '../../electron/bridge/manager-pin';
import type { Terminal } from '../../electron/bridge/terminal';
import { CASHIER_APP } from '../../electron/bridge/terminal';
import { startTerminal } from '../support/terminal';
import { certificateFingerprint } from '../../electron/gateway/crypto/certificate';
import type { Engine } from '../../electron/gateway/engine';
import { openEngine } from '../../electron/gateway/open-store';
import { PinRefusedError } from '../../electron/gateway/staff/staff';
import {
  nextPinGate,
  OPEN_PIN_GATE,
  PIN_GATE_RULE,
  wornPinGate,
  type PinGateState,
} from '../../electron/gateway/store/admin-store';
import { auditWords, startTestGateway, VISA, type TestGateway } from '../support/gateway';

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
  const terminal = await startTerminal(t, rest);
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
  it('start with tips off, 15/18/20 suggested, tabs capturable for 7 days, tips over 30% confirmed, no counter tips or signatures, the customer screen on, a manager needed and the test BDK', async () => {
    const terminal = await start();
    expect(await invoke(terminal, 'settings:get')).toEqual({
      tipsEnabled: false,
      tipPercentages: [15, 18, 20],
      authExpiryDays: 7,
      tipWarnPercent: 30,
      // The test gateway turns the duplicate check off (its default is 2 minutes).
      duplicateWindowMinutes: 0,
      confirmAmountAboveCents: 100_000,
      counterTips: false,
      smartTipBelowCents: 1000,
      smartTipAmountsCents: [100, 200, 300],
      signatureAboveCents: null,
      customerScreen: true,
      // Refunds, voids, the close and settings always need a manager now.
      managerPin: true,
      swipeKey: {
        held: true,
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

  it('counter tips, smart tips, the signature amount and the customer screen are set from the screens and audited', async () => {
    const terminal = await start();
    const changed = (await invoke(terminal, 'settings:update', {
      counterTips: true,
      smartTipBelowCents: 1500,
      smartTipAmountsCents: [100, 150, 250],
      signatureAboveCents: 5000,
      customerScreen: false,
    })) as AppSettings;
    expect(changed).toMatchObject({
      counterTips: true,
      smartTipBelowCents: 1500,
      smartTipAmountsCents: [100, 150, 250],
      signatureAboveCents: 5000,
      customerScreen: false,
    });
    const { settings } = t.gateway.engine;
    expect(settings.get('counter_tips')).toBe(true);
    expect(settings.get('smart_tip_amounts')).toEqual([100, 150, 250]);
    expect(settings.display('signature_above')).toBe('50.00');
    const details = (await t.gateway.engine.reads.recentAudit(5)).map(
      (entry) => `${entry.subject}: ${entry.detail}`,
    );
    expect(details.sort()).toEqual([
      'counter_tips: false → true',
      'customer_screen: on → off',
      'signature_above: none → 50.00',
      'smart_tip_amounts: 1.00,2.00,3.00 → 1.00,1.50,2.50',
      'smart_tip_below: 10.00 → 15.00',
    ]);
    // The counter's own switch is kept in its file, read again at the next start.
    expect(CounterPreferences.open(t.dataDir).customerScreen).toBe(false);
    const back = (await invoke(terminal, 'settings:update', { signatureAboveCents: null })) as AppSettings;
    expect(back.signatureAboveCents).toBeNull();
    await expect(invoke(terminal, 'settings:update', { smartTipAmountsCents: [200, 100] })).rejects.toThrow();
    await expect(invoke(terminal, 'settings:update', { smartTipAmountsCents: [] })).rejects.toThrow();
    expect(settings.get('smart_tip_amounts')).toEqual([100, 150, 250]);
  });

  it('change together, reach every screen, and are recorded in the audit log with the manager who allowed them', async () => {
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
    const approved = expect.stringMatching(
      /^Olga at Tender browser screens \(key \w+\), approved by manager Olga$/,
    );
    expect(percentages).toMatchObject({
      actor: approved,
      action: 'setting_change',
      subject: 'tip_percentages',
      detail: '15, 18, 20 → 18, 20, 25',
    });
    expect(days).toMatchObject({ actor: approved, subject: 'auth_expiry_days' });
    expect(tips).toMatchObject({ actor: approved, subject: 'tips_enabled' });

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
    expect(entry).toMatchObject({
      actor: expect.stringMatching(/, approved by manager Olga$/),
      subject: 'swipe_bdk',
    });
    expect(JSON.stringify(entry)).not.toContain(bdk);
  });

  it('still say it is the test key when it is the test key with other parity bits, which DES ignores', async () => {
    const terminal = await start();
    // The public test key with the low bit of every byte flipped: the same key, KCV 08D7B4.
    const bdk = '0022446688AACCEEFFDDBB9977553311';
    const changed = (await invoke(terminal, 'settings:set-swipe-key', { bdk })) as AppSettings;
    expect(changed.swipeKey).toEqual({
      held: true,
      testKey: true,
      kcv: '08D7B4',
      description: expect.stringContaining('TEST ONLY'),
    });
    expect(t.gateway.engine.settings.display('swipe_bdk')).toMatch(/^ANSI test BDK \(TEST ONLY/);
    expect(JSON.stringify(changed)).not.toContain(bdk);
  });

  it('stop the start when the counter settings file is damaged, rather than dropping a PIN', async () => {
    writeFileSync(join(t.dataDir, COUNTER_SETTINGS_FILE), '{"version":1,"tipPercentages":');
    await expect(start()).rejects.toBeInstanceOf(DamagedPreferencesError);
    const keys = t.gateway.engine.keys.list().filter((key) => key.revoked === null);
    expect(keys.map((key) => key.name)).not.toContain('Tender browser screens');
  });

  it('read a file from before the customer screen as showing it, and refuse a switch that is not on or off', () => {
    const file = join(t.dataDir, COUNTER_SETTINGS_FILE);
    writeFileSync(file, JSON.stringify({ version: 1, tipPercentages: [15, 18, 20], managerPin: null }));
    expect(CounterPreferences.open(t.dataDir).customerScreen).toBe(true);
    writeFileSync(
      file,
      JSON.stringify({ version: 1, tipPercentages: [15, 18, 20], customerScreen: 'yes', managerPin: null }),
    );
    expect(() => CounterPreferences.open(t.dataDir)).toThrow(DamagedPreferencesError);
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
      message: 'Wrong PIN. 4 more tries before a pause.',
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
    // Named as the cashier who asked and the manager whose PIN allowed it, not "cashier app".
    expect(change).toMatchObject({
      action: 'setting_change',
      subject: 'tips_enabled',
      actor: expect.stringMatching(/^Cal at Tender browser screens \(key \w+\), approved by manager Olga$/),
    });
    await invoke(terminal, 'keys:create', {
      name: 'till',
      permissions: ['transactions:read'],
      pin: OWNER_PIN,
    });
    expect((await t.gateway.engine.reads.recentAudit(1))[0]).toMatchObject({
      action: 'key_create',
      actor: expect.stringMatching(/approved by manager Olga$/),
    });
    const failures = (await t.gateway.engine.reads.recentAudit(20)).filter(
      (entry) => entry.action === 'pin_failed',
    );
    expect(failures.length).toBeGreaterThanOrEqual(3);
    expect(auditWords(await t.gateway.engine.reads.recentAudit(30))).not.toMatch(/\b(9999|1111)\b/);
  });
});

describe('a manager signed in at the counter', () => {
  it('loses the powers at once when made a cashier or retired from the command line meanwhile', async () => {
    await t.gateway.engine.staff.create({ name: 'Rex', role: 'manager', pin: '3691' }, 'test');
    const terminal = await start({ signIn: '3691' });
    expect(await invoke(terminal, 'settings:update', { tipsEnabled: true })).toMatchObject({
      tipsEnabled: true,
    });
    // The command line opens the same data dir in a process of its own.
    const commandLine = async (change: (engine: Engine) => Promise<unknown>) => {
      const engine = await openEngine(t.dataDir);
      try {
        await change(engine);
      } finally {
        await engine.close();
      }
    };

    await commandLine((engine) => engine.staff.change('Rex', { role: 'cashier' }, 'command line'));
    expect(await refusal(terminal, 'settings:update', { tipsEnabled: false })).toMatchObject({
      code: 'pin-required',
    });
    expect(await invoke(terminal, 'staff:session')).toMatchObject({
      signedIn: { name: 'Rex', role: 'cashier' },
    });

    await commandLine((engine) => engine.staff.retire('Rex', 'command line'));
    expect(await invoke(terminal, 'staff:session')).toMatchObject({ signedIn: null });
    expect(t.gateway.engine.settings.get('tips_enabled')).toBe(true);
  });
});

describe('the PIN gate', () => {
  const rule = PIN_GATE_RULE;
  let now: number;
  let dataDir: string;
  let engine: Engine;
  beforeEach(async () => {
    now = 1_800_000_000_000;
    dataDir = mkdtempSync(join(tmpdir(), 'tender-staff-'));
    engine = await openEngine(dataDir, { now: () => now });
    await engine.staff.create({ name: 'Olga', role: 'manager', pin: OWNER_PIN }, 'test');
    await engine.staff.create({ name: 'Cal', role: 'cashier', pin: CASHIER_PIN }, 'test');
  });
  afterEach(async () => {
    await engine.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const reason = (attempt: Promise<unknown>) =>
    attempt.then(
      () => 'accepted',
      (error: unknown) => (error instanceof PinRefusedError ? error.reason : String(error)),
    );
  const approve = (pin: string, counter = 'front') =>
    engine.staff.approvingManager(pin, 'void', CASHIER_APP, counter);
  const signIn = (pin: string, counter = 'front', prompt?: string) =>
    engine.staff.identify(pin, 'sign-in', CASHIER_APP, counter, prompt);
  /** What the screen says to a wrong PIN, or 'accepted'. */
  const said = (attempt: Promise<unknown>) =>
    attempt.then(
      () => 'accepted',
      (error: unknown) => (error instanceof PinRefusedError ? error.message : String(error)),
    );

  it('counts a cashier’s own PIN slipped between guesses at a manager’s, so the pause comes all the same', async () => {
    const seen: string[] = [];
    for (const pin of ['0000', '0001', '0002', '0003', CASHIER_PIN]) seen.push(await reason(approve(pin)));
    expect(seen).toEqual(['wrong', 'wrong', 'wrong', 'wrong', 'locked']);
    // Paused, even for the manager's own PIN; the cashier's sign-in, another target, still works.
    expect(await reason(approve(OWNER_PIN))).toBe('locked');
    expect((await signIn(CASHIER_PIN)).name).toBe('Cal');
    expect(await reason(approve(OWNER_PIN))).toBe('locked');
  });

  it('lets no correct PIN, a colleague’s at another counter or the manager’s own, forgive the guesses', async () => {
    for (const pin of ['0000', '0001', '0002', '0003']) await reason(approve(pin));
    expect((await approve(OWNER_PIN, 'bar')).name).toBe('Olga');
    expect((await signIn(CASHIER_PIN, 'front')).name).toBe('Cal');
    now += rule.pauseMs;
    expect((await approve(OWNER_PIN)).name).toBe('Olga');
    // Still four counted at the front counter: the next guess pauses it.
    expect(await reason(approve('0004'))).toBe('locked');
  });

  it('pauses the counter where the guesses were typed, not the rest of the store', async () => {
    for (const pin of ['0000', '0001', '0002', '0003', '0004']) await reason(signIn(pin, 'front'));
    expect(await reason(signIn(CASHIER_PIN, 'front'))).toBe('locked');
    expect((await signIn(CASHIER_PIN, 'bar')).name).toBe('Cal');
    expect((await approve(OWNER_PIN, 'bar')).name).toBe('Olga');
  });

  it('doubles the pause with each wrong PIN past the fifth, and takes guesses sent at once one by one', async () => {
    const all = await Promise.all(
      [...Array.from({ length: 20 }, (_, index) => `90${String(index).padStart(2, '0')}`), OWNER_PIN].map(
        (pin) => reason(signIn(pin)),
      ),
    );
    expect(all.filter((outcome) => outcome === 'wrong')).toHaveLength(rule.attempts - 1);
    expect(all.filter((outcome) => outcome === 'accepted')).toEqual([]);
    const pauses: number[] = [];
    for (let guess = 0; guess < 4; guess += 1) {
      const gate = await engine.admin.pinGate('sign-in at front');
      now = gate.pausedUntil;
      await reason(signIn(`80${guess}0`));
      pauses.push((await engine.admin.pinGate('sign-in at front')).pausedUntil - now);
    }
    expect(pauses).toEqual([2, 4, 8, 16].map((times) => times * rule.pauseMs));
  });

  it('forgives a typing slip of the PIN typed right next on the same sign-in keypad, and nothing else', async () => {
    expect(await reason(signIn('9999', 'front', 'keypad-1'))).toBe('wrong');
    now += 5_000;
    expect(await reason(signIn('2850', 'front', 'keypad-1'))).toBe('wrong');
    now += 5_000;
    expect((await signIn(OWNER_PIN, 'front', 'keypad-1')).name).toBe('Olga');
    // '2850' is 2580 with two digits swapped; '9999' is no slip of anyone's and stays counted.
    expect((await engine.admin.pinGate('sign-in at front')).failures).toBe(1);
    expect(await said(signIn('0000', 'front', 'keypad-2'))).toBe('Wrong PIN. 3 more tries before a pause.');
  });

  it('takes back two slips an hour at a counter, so slips typed on purpose before one’s own PIN are counted', async () => {
    // A cashier guessing at PINs one digit from their own (1470), each pair followed by their own PIN.
    const outcomes: string[] = [];
    const guesses = ['1471', '1472', '1473', '1474', '1475', '1476', '1477'];
    for (let pair = 0; pair * 2 < guesses.length; pair += 1) {
      const prompt = `keypad-${pair}`;
      for (const guess of guesses.slice(pair * 2, pair * 2 + 2)) {
        outcomes.push(await reason(signIn(guess, 'front', prompt)));
        now += 2_000;
      }
      outcomes.push(await reason(signIn(CASHIER_PIN, 'front', prompt)));
      now += 2_000;
    }
    // The first pair is taken back; the next four guesses count, and the fifth wrong PIN pauses.
    expect(outcomes).toEqual([
      ...['wrong', 'wrong', 'accepted'],
      ...['wrong', 'wrong', 'accepted'],
      ...['wrong', 'wrong', 'accepted'],
      ...['locked', 'locked'],
    ]);
  });

  it('takes slips back again an hour after the last two', async () => {
    const pair = async (prompt: string) => {
      for (const slip of ['1471', '1407']) {
        expect(await reason(signIn(slip, 'front', prompt))).toBe('wrong');
        now += 2_000;
      }
      expect((await signIn(CASHIER_PIN, 'front', prompt)).name).toBe('Cal');
      now += 2_000;
      return (await engine.admin.pinGate('sign-in at front')).failures;
    };
    expect(await pair('keypad-1')).toBe(0);
    expect(await pair('keypad-2')).toBe(2);
    now += 3_600_000;
    expect(await pair('keypad-3')).toBe(2);
  });

  it('tells a guess near the manager’s PIN from one far from it in nothing the guesser sees next', async () => {
    // The same steps at two counters: a guess near the manager's PIN (2589, one digit from 2580) at
    // the bar, one far from it (9999) at the front. The manager then comes over and types their PIN,
    // in the guesser's own approval dialog, or signing in on a keypad shown anew, or on the same
    // keypad once the guesser has stepped aside; the guesser's next wrong PIN reads the same.
    const steps = async (counter: string, guess: string) => {
      const seen: string[] = [];
      seen.push(await said(approve(guess, counter)));
      now += 2_000;
      seen.push(await said(approve(OWNER_PIN, counter)));
      now += 1_000;
      seen.push(await said(approve('0000', counter)));

      seen.push(await said(signIn(guess, counter, `${counter}-keypad-1`)));
      now += 2_000;
      seen.push(await said(signIn(OWNER_PIN, counter, `${counter}-keypad-2`)));
      now += 1_000;
      seen.push(await said(signIn('0000', counter, `${counter}-keypad-3`)));

      seen.push(await said(signIn(guess, counter, `${counter}-keypad-4`)));
      now += 40_000;
      seen.push(await said(signIn(OWNER_PIN, counter, `${counter}-keypad-4`)));
      now += 1_000;
      seen.push(await said(signIn('0001', counter, `${counter}-keypad-5`)));
      const gates = await Promise.all(
        ['approval', 'sign-in'].map((target) => engine.admin.pinGate(`${target} at ${counter}`)),
      );
      return { seen, failures: gates.map((gate) => gate.failures) };
    };
    const far = await steps('front', '9999');
    const near = await steps('bar', '2589');
    expect(near).toEqual(far);
    expect(far).toEqual({
      seen: [
        'Wrong PIN. 4 more tries before a pause.',
        'accepted',
        'Wrong PIN. 3 more tries before a pause.',
        'Wrong PIN. 4 more tries before a pause.',
        'accepted',
        'Wrong PIN. 3 more tries before a pause.',
        'Wrong PIN. 2 more tries before a pause.',
        'accepted',
        'Wrong PIN. 1 more try before a pause.',
      ],
      failures: [2, 4],
    });
  });

  it('takes back no slip typed without a keypad prompt, or in an approval dialog', async () => {
    expect(await reason(signIn('2850'))).toBe('wrong');
    expect((await signIn(OWNER_PIN)).name).toBe('Olga');
    expect(await reason(approve('2850'))).toBe('wrong');
    expect((await approve(OWNER_PIN)).name).toBe('Olga');
    expect((await engine.admin.pinGate('sign-in at front')).failures).toBe(1);
    expect((await engine.admin.pinGate('approval at front')).failures).toBe(1);
  });

  it('writes a burst of refusals during a pause as one entry with its count', async () => {
    for (const pin of ['0000', '0001', '0002', '0003', '0004']) await reason(signIn(pin));
    const before = (await engine.reads.recentAudit(100)).length;
    for (let attempt = 0; attempt < 200; attempt += 1) expect(await reason(signIn(OWNER_PIN))).toBe('locked');
    expect((await engine.reads.recentAudit(100)).length).toBe(before);
    now += rule.pauseMs;
    expect((await signIn(OWNER_PIN)).name).toBe('Olga');
    expect((await engine.reads.recentAudit(1))[0]?.detail).toMatch(
      /^200 PINs refused at front while PIN entry there was paused/,
    );
  });

  it('writes a burst of refusals still counting when the engine stops, with its count', async () => {
    for (const pin of ['0000', '0001', '0002', '0003', '0004']) await reason(signIn(pin));
    for (let attempt = 0; attempt < 300; attempt += 1) expect(await reason(signIn(OWNER_PIN))).toBe('locked');
    await engine.close();
    engine = await openEngine(dataDir, { now: () => now });
    const refused = (await engine.reads.recentAudit(10)).filter((entry) => /refused/.test(entry.detail));
    expect(refused.map((entry) => entry.detail)).toEqual([
      expect.stringMatching(/^300 PINs refused at front while PIN entry there was paused/),
    ]);
    // The pause still holds after the restart, and its next refusals are a burst of their own.
    expect(await reason(signIn(OWNER_PIN))).toBe('locked');
    now += rule.pauseMs;
    expect((await signIn(OWNER_PIN)).name).toBe('Olga');
    const bursts = (await engine.reads.recentAudit(10)).filter((entry) => /refused/.test(entry.detail));
    expect(bursts.map((entry) => entry.detail)).toEqual([
      expect.stringMatching(/^1 PIN refused at front/),
      expect.stringMatching(/^300 PINs refused at front/),
    ]);
  });

  it('says how long to wait once the pause has begun', async () => {
    for (const pin of ['0000', '0001', '0002', '0003', '0004']) await reason(signIn(pin));
    now += 15_000;
    await expect(signIn(OWNER_PIN)).rejects.toThrow(
      'Too many wrong PINs at this counter. Wait 45 seconds, then try again.',
    );
    const failed = (await engine.reads.recentAudit(10)).filter((entry) => entry.action === 'pin_failed');
    expect(failed.map((entry) => entry.detail)).toEqual([
      'wrong PIN at front; PIN entry here paused for 60 seconds',
      'wrong PIN at front',
      'wrong PIN at front',
      'wrong PIN at front',
      'wrong PIN at front',
    ]);
  });

  it('keeps its count across a restart of the engine', async () => {
    for (const pin of ['0000', '0001', '0002', '0003', '0004']) await reason(signIn(pin));
    await engine.close();
    engine = await openEngine(dataDir, { now: () => now });
    expect(await reason(signIn(OWNER_PIN))).toBe('locked');
  });

  it('leaves a four-digit space longer than a working life to search at the fastest pace it allows', () => {
    // Two targets at a counter, each with its own count: half the space each, tried at the pace that
    // reaches it soonest (waiting for the count to fall to `floor` before each guess), from a clean start.
    const YEAR = 365.25 * 24 * 3_600_000;
    let fastest = Infinity;
    for (let floor = 0; floor <= 30; floor += 1) {
      let at = 0;
      let gate: PinGateState = OPEN_PIN_GATE;
      for (let guess = 0; guess < 5_000; guess += 1) {
        at = Math.max(at, gate.pausedUntil);
        while (wornPinGate(gate, at, rule).failures > floor) at += rule.forgetMs / 24;
        gate = nextPinGate(gate, at, rule);
        if (at > fastest) break;
      }
      fastest = Math.min(fastest, at);
    }
    expect(fastest / YEAR).toBeGreaterThan(45);
  });

  it('counts the PINs chosen for people, taken or free: a manager cannot find others’ PINs by choosing', async () => {
    const choose = (pin: string) =>
      engine.staff.change('Cal', { pin }, 'test').then(
        () => 'free',
        (error: unknown) => (error instanceof Error ? error.message : String(error)),
      );
    // The two people added above chose two; eighteen more pass, whether the PIN is taken or not.
    const answers = [];
    for (let choice = 0; choice < 18; choice += 1)
      answers.push(await choose(choice % 2 === 0 ? OWNER_PIN : String(5000 + choice)));
    expect(answers.filter((answer) => answer === 'free')).toHaveLength(9);
    expect(answers.filter((answer) => answer.startsWith('That PIN is taken'))).toHaveLength(9);
    // The next, taken or not, is refused before any PIN is compared, with the wait in words.
    for (const pin of [OWNER_PIN, '7777']) {
      expect(await choose(pin)).toBe(
        'PINs were chosen too many times in a row. Wait 60 seconds, then choose again.',
      );
    }
    expect(await reason(engine.staff.identify('7777', 'sign in', 'test'))).toBe('wrong');
    now += 60_000;
    expect(await choose('7777')).toBe('free');
    expect(await choose('7778')).toMatch(/^PINs were chosen too many times in a row\. Wait 2 minutes/);
    // One choice is forgotten an hour.
    now += 2 * 3_600_000;
    expect(await choose('7779')).toBe('free');
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
      counterScreens: false,
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
      active: { id: string; name: string; current: boolean; counterScreens: boolean }[];
    };
    const own = list.active.filter((key) => key.current);
    expect(own.map((key) => [key.name, key.counterScreens])).toEqual([['Tender browser screens', true]]);
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
    expect(entry).toMatchObject({
      actor: expect.stringMatching(/, approved by manager Olga$/),
      action: 'key_revoke',
    });
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
