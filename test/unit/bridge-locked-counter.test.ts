/**
 * A locked counter's screens, on the host's side of the bridge: while nobody is signed in only the
 * lock screen and the sign-in are answered; every request that reads the counter's data, sends it
 * anywhere or does anything is refused as a money move is there, and answered again once someone
 * signs in. The engine refuses the screens' key its reads too (test/api/locked-counter.test.ts).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eventChannels, invokeChannels, type InvokeChannel } from '../../shared/ipc/contract';
import { customerScreenChannels, type CustomerView } from '../../shared/ipc/customer-contract';
import { BridgeError, dispatchInvoke } from '../../electron/bridge/dispatch';
import {
  CLOSED_TO_THE_CUSTOMER_WHILE_LOCKED,
  CLOSED_WHILE_LOCKED,
  CUSTOMER_WAITS_MESSAGE,
  EVENTS_WHILE_LOCKED,
  OPEN_TO_THE_CUSTOMER_WHILE_LOCKED,
  OPEN_WHILE_LOCKED,
} from '../../electron/bridge/locked-counter';
import type { Terminal } from '../../electron/bridge/terminal';
import { MoneyMoveRefused } from '../../electron/gateway/money-moves';
import { startTerminal } from '../support/terminal';
import { startTestGateway, VISA, type TestGateway } from '../support/gateway';

const MANAGER_PIN = '2580';
/** What the lock screen and the sign-in ask of the host, and nothing more (renderer/src/terminal, renderer/src/staff). */
const LOCK_SCREEN_CHANNELS = [
  'terminal:session',
  'reader:status',
  'settings:get',
  'staff:session',
  'staff:sign-in',
  'staff:first-manager',
  'staff:lock',
  'attempts:resolve',
];

let t: TestGateway;
const running: Terminal[] = [];
/** The idle-lock tests' own gateways, closed after each test once its terminals have stopped. */
const idleGateways: TestGateway[] = [];

beforeAll(async () => {
  t = await startTestGateway();
  await t.gateway.engine.staff.create({ name: 'Olga', role: 'manager', pin: MANAGER_PIN }, 'test');
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((terminal) => terminal.stop()));
  await Promise.all(idleGateways.splice(0).map((gateway) => gateway.close()));
  await t.gateway.engine.settings.setFromText('lock_after_minutes', '0');
});
afterAll(() => t.close());

async function start(
  gateway: TestGateway = t,
  options: { idleLockCheckMs?: number } = {},
): Promise<Terminal> {
  const terminal = await startTerminal(gateway, { reader: { kind: 'simulator' }, ...options });
  running.push(terminal);
  return terminal;
}

/** A counter of its own that locks after a minute idle, its manager signed in; `clock.now` is its engine's time. */
async function idleCounter(
  options: { settings?: Record<string, string>; idleLockCheckMs?: number } = {},
): Promise<{ terminal: Terminal; clock: { now: number } }> {
  const clock = { now: Date.now() };
  const idle = await startTestGateway({ engine: { now: () => clock.now } });
  idleGateways.push(idle);
  const { engine } = idle.gateway;
  await engine.staff.create({ name: 'Maya', role: 'manager', pin: MANAGER_PIN }, 'test');
  await engine.settings.setFromText('lock_after_minutes', '1');
  for (const [name, value] of Object.entries(options.settings ?? {})) {
    await engine.settings.setFromText(name, value);
  }
  const terminal = await start(idle, { idleLockCheckMs: options.idleLockCheckMs });
  await invoke(terminal, 'staff:sign-in', { pin: MANAGER_PIN });
  return { terminal, clock };
}

async function invoke(terminal: Terminal, channel: string, input?: unknown) {
  const result = await dispatchInvoke(terminal.handlers, channel, input);
  if (!result.ok) throw Object.assign(new Error(result.error.message), { code: result.error.code });
  return result.value;
}

/** Resolves with the customer's screen once it is sent its welcome. */
function customerWelcome(terminal: Terminal): Promise<CustomerView> {
  return new Promise((resolve) => {
    const off = terminal.customerEvents.subscribe((event, payload) => {
      if (event !== 'customer:changed' || (payload as CustomerView).step.step !== 'idle') return;
      off();
      resolve(payload as CustomerView);
    });
  });
}

/** What a money move of the counter's own key is refused with while nobody is signed in there. */
async function lockedMoneyMove(terminal: Terminal): Promise<{ code: string; message: string }> {
  const { apiKey } = (await invoke(terminal, 'terminal:session')) as { apiKey: string };
  const key = t.gateway.engine.keys.authenticate(apiKey);
  if (!key) throw new Error('the screens have no key');
  try {
    await t.gateway.engine.transact({ type: 'SALE', amount: '1.00', ...VISA }, { key });
  } catch (error) {
    if (error instanceof MoneyMoveRefused) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('the sale at a locked counter was not refused');
}

/** A sale made by another program, whose receipt the screens could preview, print or email. */
async function someSale(): Promise<number> {
  const answer = await t.client.createTransaction({
    type: 'SALE',
    amount: '8.40',
    ...VISA,
    email: 'ada@example.com',
  });
  return Number(answer.id);
}

describe('the channels open while the counter is locked', () => {
  it('are decided for every channel of the contract, each once, and are only what the lock screen needs', () => {
    const open = Object.keys(OPEN_WHILE_LOCKED);
    const closed: readonly string[] = CLOSED_WHILE_LOCKED;
    expect([...open, ...closed].sort()).toEqual(Object.keys(invokeChannels).sort());
    expect(open.filter((channel) => closed.includes(channel))).toEqual([]);
    expect(open.sort()).toEqual([...LOCK_SCREEN_CHANNELS].sort());
  });
});

describe('the events a locked counter’s pages are sent', () => {
  it('are decided for every event of the contract, and only the lock screen’s are sent while locked', () => {
    expect(Object.keys(EVENTS_WHILE_LOCKED).sort()).toEqual(Object.keys(eventChannels).sort());
    const sent = Object.entries(EVENTS_WHILE_LOCKED)
      .filter(([, rule]) => rule.whileLocked === 'sent')
      .map(([event]) => event);
    expect(sent.sort()).toEqual(['reader:status-changed', 'staff:session-changed']);
    expect(EVENTS_WHILE_LOCKED['reader:swipe'].whileLocked).toBe('dropped');
  });
});

describe('the customer’s screen of a locked counter', () => {
  it('may only read its welcome: every answer to a step is decided, and refused', () => {
    const open = Object.keys(OPEN_TO_THE_CUSTOMER_WHILE_LOCKED);
    const closed: readonly string[] = CLOSED_TO_THE_CUSTOMER_WHILE_LOCKED;
    expect([...open, ...closed].sort()).toEqual(Object.keys(customerScreenChannels).sort());
    expect(open).toEqual(['customer:view']);
  });

  it('shows its welcome once the idle lock has fallen, and takes no tip until someone signs in', async () => {
    const { terminal, clock } = await idleCounter({
      settings: { tips_enabled: 'true', counter_tips: 'true' },
    });
    const customer = async (channel: string, input?: unknown) => {
      const result = await dispatchInvoke(terminal.customerHandlers, channel, input);
      if (!result.ok) throw Object.assign(new Error(result.error.message), { code: result.error.code });
      return result.value as CustomerView;
    };
    const tip = (await invoke(terminal, 'customer:start', {
      amountCents: 2200,
      askTip: true,
    })) as CustomerView;
    expect(tip.step.step).toBe('tip');
    const welcome = customerWelcome(terminal);
    // Nobody touches the cashier's screen; the customer takes their time over the tip.
    clock.now += 61_000;
    await expect(
      customer('customer:choose-tip', { sequence: tip.sequence, tipCents: 440, confirmed: false }),
    ).rejects.toMatchObject({ code: 'refused', message: CUSTOMER_WAITS_MESSAGE });
    expect((await welcome).saleSequence).toBeUndefined();
    expect(await customer('customer:view')).toMatchObject({
      step: { step: 'idle' },
      choices: { receiptNotices: [] },
    });
    expect(await invoke(terminal, 'staff:session')).toMatchObject({ signedIn: null });

    await invoke(terminal, 'staff:sign-in', { pin: MANAGER_PIN });
    const chosen = await customer('customer:choose-tip', {
      sequence: tip.sequence,
      tipCents: 440,
      confirmed: false,
    });
    expect(chosen.step).toMatchObject({ step: 'swipe', totalCents: 2640 });
  });
});

describe('the idle lock with nothing asking', () => {
  it('is found by the host itself: the pages hear of it, and the customer screen leaves the sale', async () => {
    const { terminal, clock } = await idleCounter({ idleLockCheckMs: 20 });
    const waiting = (await invoke(terminal, 'customer:start', {
      amountCents: 1800,
      askTip: false,
    })) as CustomerView;
    expect(waiting.step.step).not.toBe('idle');
    const pagesHear = new Promise<unknown>((resolve) => {
      const off = terminal.cashierEvents.subscribe((event, payload) => {
        if (event !== 'staff:session-changed') return;
        off();
        resolve(payload);
      });
    });
    const welcome = customerWelcome(terminal);
    // The cashier's page has gone; nobody and nothing asks the host anything from here on.
    clock.now += 61_000;
    expect(await pagesHear).toMatchObject({ signedIn: null });
    expect((await welcome).saleSequence).toBeUndefined();
  });
});

describe('a locked counter', () => {
  it('refuses what the page asked for after Lock: the audit log, the keys, any receipt, printing and email', async () => {
    const terminal = await start();
    const id = await someSale();
    await invoke(terminal, 'staff:sign-in', { pin: MANAGER_PIN });
    // Signed in, the same requests are answered (receipts go nowhere here: no printer, no mail server).
    await expect(invoke(terminal, 'audit:recent', { limit: 5, offset: 0 })).resolves.toBeDefined();
    await expect(invoke(terminal, 'receipts:preview', { id, copy: 'customer' })).resolves.toMatchObject({
      id,
    });

    await invoke(terminal, 'staff:lock');
    const locked = await lockedMoneyMove(terminal);
    expect(locked.code).toBe('counter_locked');
    const asked: [InvokeChannel, unknown][] = [
      ['audit:recent', { limit: 5, offset: 0 }],
      ['keys:list', undefined],
      ['receipts:preview', { id, copy: 'customer' }],
      ['receipts:print', { id, copies: ['customer'] }],
      ['receipts:email', { id, to: 'someone@example.com' }],
      ['receipts:customer-kept', { id }],
      ['terminal:connection', undefined],
      ['staff:list', undefined],
      ['processor:get', undefined],
      ['customer:view', undefined],
      ['simulator:swipe', { card: 'approved-visa' }],
    ];
    for (const [channel, input] of asked) {
      expect(await dispatchInvoke(terminal.handlers, channel, input), channel).toEqual({
        ok: false,
        error: { code: 'refused', message: locked.message },
      });
    }
  });

  it('refuses every channel not open while locked, before its handler does anything', async () => {
    const terminal = await start();
    const handlers = terminal.handlers as unknown as Record<string, (input: unknown) => unknown>;
    for (const channel of CLOSED_WHILE_LOCKED) {
      let thrown: unknown;
      try {
        await handlers[channel]?.(undefined);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, channel).toBeInstanceOf(BridgeError);
      expect(thrown, channel).toMatchObject({ code: 'refused', message: /^The counter is locked\./ });
    }
  });

  it('answers the lock screen, and everything again once someone signs in', async () => {
    const terminal = await start();
    expect(await invoke(terminal, 'staff:session')).toMatchObject({ signedIn: null });
    await expect(invoke(terminal, 'terminal:session')).resolves.toMatchObject({ readerSimulator: true });
    await expect(invoke(terminal, 'reader:status')).resolves.toMatchObject({ state: 'connected' });
    await expect(invoke(terminal, 'settings:get')).resolves.toMatchObject({ managerPin: true });
    await expect(invoke(terminal, 'keys:list')).rejects.toMatchObject({ code: 'refused' });

    await invoke(terminal, 'staff:sign-in', { pin: MANAGER_PIN });
    const keys = (await invoke(terminal, 'keys:list')) as { active: unknown[] };
    expect(keys.active.length).toBeGreaterThan(0);
    await expect(invoke(terminal, 'staff:active')).resolves.toBeNull();
  });

  it('is locked for the bridge once the idle lock has signed its person out, whatever the page does', async () => {
    const { terminal, clock } = await idleCounter();
    await expect(invoke(terminal, 'audit:recent', { limit: 5, offset: 0 })).resolves.toBeDefined();
    clock.now += 61_000;
    // The page, left alone, asks for the log: the lock comes first.
    await expect(invoke(terminal, 'audit:recent', { limit: 5, offset: 0 })).rejects.toMatchObject({
      code: 'refused',
      message: 'The counter is locked. Sign in with your PIN.',
    });
    expect(await invoke(terminal, 'staff:session')).toMatchObject({ signedIn: null });
  });
});
