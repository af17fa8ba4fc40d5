/**
 * The terminal behind the bridge, on a real engine with the swipe simulator as its reader: the
 * screens' own key, the reader's status, and swipes that go through the real report parsing.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TenderApiError } from '../../shared/api/client';
import type { EventName, EventPayload } from '../../shared/ipc/contract';
import { dispatchInvoke } from '../../electron/bridge/dispatch';
import { ReaderStatusTracker } from '../../electron/bridge/reader-status';
import type { Terminal } from '../../electron/bridge/terminal';
import { hidReaderSetup, TERMINAL_KEY_NAMES } from '../../electron/bridge/terminal';
import { startTerminal } from '../support/terminal';
import { READER_PROBLEMS, type ReaderInfo } from '../../electron/reader/reader';
import { startTestGateway, type TestGateway } from '../support/gateway';

let t: TestGateway;
const running: Terminal[] = [];

/** The manager signed in at each counter the tests start: a locked counter swipes and reads nothing. */
const MANAGER_PIN = '2580';

beforeAll(async () => {
  t = await startTestGateway();
  await t.gateway.engine.staff.create({ name: 'Olga', role: 'manager', pin: MANAGER_PIN }, 'test');
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((terminal) => terminal.stop()));
});
afterAll(() => t.close());

async function start(reader: Parameters<typeof Terminal.start>[0]['reader'] = { kind: 'simulator' }) {
  const terminal = await startTerminal(t, { shell: 'desktop', reader });
  running.push(terminal);
  await invoke(terminal, 'staff:sign-in', { pin: MANAGER_PIN });
  return terminal;
}

/** Resolves with the first payload of an event that passes the test (by default, the next one). */
function next<E extends EventName>(
  terminal: Terminal,
  event: E,
  test: (payload: EventPayload<E>) => boolean = () => true,
): Promise<EventPayload<E>> {
  return new Promise((resolve) => {
    const off = terminal.events.subscribe((name: EventName, raw: unknown) => {
      const payload = raw as EventPayload<E>;
      if (name !== event || !test(payload)) return;
      off();
      resolve(payload);
    });
  });
}

async function invoke(terminal: Terminal, channel: string, input?: unknown) {
  const result = await dispatchInvoke(terminal.handlers, channel, input);
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
}

describe('the screens’ API key', () => {
  it('is issued at start able to sell and read, never to refund, void or close', async () => {
    const terminal = await start();
    const session = (await invoke(terminal, 'terminal:session')) as { apiKey: string; engineUrl: string };
    expect(session.engineUrl).toBe(t.gateway.url);
    const key = t.gateway.engine.keys.authenticate(session.apiKey);
    expect(key?.name).toBe(TERMINAL_KEY_NAMES.desktop);
    expect(key?.permissions).toEqual(['transactions:sale', 'transactions:read', 'batches:read']);
  });

  it('is revoked by the next start and when the terminal stops', async () => {
    const first = await start();
    const firstKey = ((await invoke(first, 'terminal:session')) as { apiKey: string }).apiKey;
    const second = await start();
    const secondKey = ((await invoke(second, 'terminal:session')) as { apiKey: string }).apiKey;
    await expect(t.clientWith(firstKey).openBatch()).rejects.toBeInstanceOf(TenderApiError);
    await expect(t.clientWith(secondKey).listTransactions()).resolves.toBeDefined();
    await second.stop();
    await expect(t.clientWith(secondKey).listTransactions()).rejects.toMatchObject({ status: 401 });
    const live = t.gateway.engine.keys
      .list()
      .filter((key) => key.name === TERMINAL_KEY_NAMES.desktop && key.revoked === null);
    expect(live).toEqual([]);
  });
});

describe('a simulated reader', () => {
  it('reports itself connected, then waiting when unplugged and connected again when plugged', async () => {
    const terminal = await start();
    expect(await invoke(terminal, 'reader:status')).toEqual({
      state: 'connected',
      product: 'Simulated MagneSafe reader',
      simulated: true,
    });
    // Like a real reader pulled out mid-read: a read error first, then it is gone from the bus.
    const seen: unknown[] = [];
    terminal.events.subscribe((name, payload) => name === 'reader:status-changed' && seen.push(payload));
    const unplugged = next(terminal, 'reader:status-changed', (status) => status.state === 'waiting');
    await invoke(terminal, 'simulator:plug', { plugged: false });
    await unplugged;
    expect(seen).toEqual([
      { state: 'problem', code: 'device-error', message: READER_PROBLEMS['device-error'] },
      { state: 'waiting' },
    ]);
    const plugged = next(terminal, 'reader:status-changed');
    await invoke(terminal, 'simulator:plug', { plugged: true });
    expect(await plugged).toMatchObject({ state: 'connected' });
  });

  it('swipes a card as masked display data and a swipe string the engine approves', async () => {
    const terminal = await start();
    const swiped = next(terminal, 'reader:swipe');
    await invoke(terminal, 'simulator:swipe', { card: 'approved-visa' });
    const swipe = await swiped;
    expect(swipe.card).toEqual({
      maskedPan: '************1111',
      lastFour: '1111',
      brand: 'visa',
      cardholderName: 'PAT MORGAN',
    });
    expect(JSON.stringify(swipe)).not.toContain('4111111111111111');
    const answer = await t.client.createTransaction({
      type: 'SALE',
      amount: '4.20',
      encrypted_track_data: swipe.encryptedTrackData,
      track_format: swipe.trackFormat,
    });
    expect(answer.result).toBe('Approved');
  });

  it('keeps swiping after the counter restarts, never repeating a KSN the engine has seen', async () => {
    const sell = async (terminal: Terminal) => {
      const swiped = next(terminal, 'reader:swipe');
      await invoke(terminal, 'simulator:swipe', { card: 'approved-mastercard' });
      const swipe = await swiped;
      return t.client.createTransaction({
        type: 'SALE',
        amount: '3.10',
        encrypted_track_data: swipe.encryptedTrackData,
        track_format: swipe.trackFormat,
        duplicate_override: true,
      });
    };
    const before = await start();
    expect((await sell(before)).result).toBe('Approved');
    await before.stop();
    const after = await start();
    const answer = await sell(after);
    expect(answer.error_code).toBeUndefined();
    expect(answer.result).toBe('Approved');
  });

  it('reports a bad read as a failed swipe and keeps the reader connected', async () => {
    const terminal = await start();
    const statuses: unknown[] = [];
    terminal.events.subscribe((name, payload) => name === 'reader:status-changed' && statuses.push(payload));
    const failed = next(terminal, 'reader:swipe-failed');
    await invoke(terminal, 'simulator:swipe', { card: 'bad-read' });
    expect(await failed).toEqual({ code: 'bad-read', message: READER_PROBLEMS['bad-read'] });
    expect(statuses).toEqual([]);
    expect(await invoke(terminal, 'reader:status')).toMatchObject({ state: 'connected' });
  });

  it('refuses a simulated swipe while unplugged, saying what to do', async () => {
    const terminal = await start();
    await invoke(terminal, 'simulator:plug', { plugged: false });
    await expect(invoke(terminal, 'simulator:swipe', { card: 'approved-visa' })).rejects.toThrow(
      /unplugged\. Plug it in first/,
    );
  });
});

describe('a terminal whose USB library cannot load', () => {
  it('starts anyway and shows the reader problem with its fix', async () => {
    const reader = hidReaderSetup(() => {
      throw new Error('libudev.so.1: cannot open shared object file');
    });
    const terminal = await start(reader);
    expect(await invoke(terminal, 'reader:status')).toEqual({
      state: 'problem',
      code: 'hid-unavailable',
      message: READER_PROBLEMS['hid-unavailable'],
    });
    expect(await invoke(terminal, 'terminal:session')).toMatchObject({ shell: 'desktop' });
  });
});

describe('a terminal without the simulator', () => {
  it('has its reader off when it has none, and refuses simulated swipes', async () => {
    const terminal = await start({ kind: 'none' });
    expect(await invoke(terminal, 'reader:status')).toEqual({ state: 'off' });
    const result = await dispatchInvoke(terminal.handlers, 'simulator:swipe', { card: 'approved-visa' });
    expect(result).toMatchObject({ ok: false, error: { code: 'unavailable' } });
  });

  it('reads and changes the tips setting of the engine', async () => {
    const terminal = await start({ kind: 'none' });
    expect(await invoke(terminal, 'settings:get')).toMatchObject({ tipsEnabled: false });
    expect(await invoke(terminal, 'settings:update', { tipsEnabled: true })).toMatchObject({
      tipsEnabled: true,
    });
    expect(t.gateway.engine.settings.get('tips_enabled')).toBe(true);
    await invoke(terminal, 'settings:update', { tipsEnabled: false });
  });
});

describe('the reader status line', () => {
  const reader = (id: string, productId = 0x11): ReaderInfo => ({
    id,
    productId,
    mode: productId === 0x0001 ? 'keyboard' : 'magnesafe',
    product: 'USB Swipe Reader',
  });
  const problem = (code: keyof typeof READER_PROBLEMS, info?: ReaderInfo) => ({
    code,
    message: READER_PROBLEMS[code],
    ...(info && { reader: info }),
  });

  it('waits for a reader, then shows it connected', () => {
    const tracker = new ReaderStatusTracker(false);
    expect(tracker.status).toEqual({ state: 'waiting' });
    tracker.attached(reader('a'));
    expect(tracker.status).toEqual({ state: 'connected', product: 'USB Swipe Reader', simulated: false });
    tracker.detached(reader('a'));
    expect(tracker.status).toEqual({ state: 'waiting' });
  });

  it('shows a reader in keyboard mode as a problem with the fix', () => {
    const tracker = new ReaderStatusTracker(false);
    const keyboard = reader('k', 0x0001);
    tracker.attached(keyboard);
    tracker.problem(problem('keyboard-mode', keyboard));
    expect(tracker.status).toEqual({
      state: 'problem',
      code: 'keyboard-mode',
      message: READER_PROBLEMS['keyboard-mode'],
    });
  });

  it('clears a device error once the reader is opened again', () => {
    const tracker = new ReaderStatusTracker(false);
    tracker.attached(reader('a'));
    tracker.problem(problem('device-error', reader('a')));
    expect(tracker.status).toMatchObject({ state: 'problem', code: 'device-error' });
    tracker.attached(reader('a'));
    expect(tracker.status).toMatchObject({ state: 'connected' });
  });

  it('clears a lapsed encryption problem after a good swipe', () => {
    const tracker = new ReaderStatusTracker(false);
    tracker.attached(reader('a'));
    tracker.problem(problem('encryption-off', reader('a')));
    expect(tracker.status).toMatchObject({ state: 'problem', code: 'encryption-off' });
    tracker.swiped(reader('a'));
    expect(tracker.status).toMatchObject({ state: 'connected' });
  });

  it('shows USB HID being unavailable, and prefers a working reader over a broken one', () => {
    const tracker = new ReaderStatusTracker(false);
    tracker.problem(problem('hid-unavailable'));
    expect(tracker.status).toMatchObject({ state: 'problem', code: 'hid-unavailable' });
    tracker.attached(reader('a'));
    tracker.attached(reader('b'));
    tracker.problem(problem('open-failed-linux', reader('b')));
    expect(tracker.status).toMatchObject({ state: 'connected' });
  });

  it('ignores problems of a single swipe', () => {
    const tracker = new ReaderStatusTracker(false);
    tracker.attached(reader('a'));
    tracker.problem(problem('bad-read', reader('a')));
    tracker.problem(problem('not-payment-card', reader('a')));
    expect(tracker.status).toMatchObject({ state: 'connected' });
  });
});
