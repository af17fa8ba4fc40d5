/**
 * A locked counter's pages over the bridge socket, as a browser holds them. The cashier's page is
 * sent only what the lock screen shows: a card swiped at the locked counter reaches it neither then
 * nor after the next sign-in, and what was held back (the customer's screen) is sent as it is at the
 * sign-in. The customer's page shows its welcome, and its answers are refused, until someone signs
 * in. The reader is a simulated one the test swipes itself, since the screens' test swipes are
 * refused while the counter is locked.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EventName, EventPayload, TenderBridge } from '../../shared/ipc/contract';
import { eventChannels } from '../../shared/ipc/contract';
import { CUSTOMER_WAITS_MESSAGE } from '../../electron/bridge/locked-counter';
import { simulatedSwipePlan } from '../../electron/bridge/simulated-cards';
import { randomSimulatorInitialKsn, SwipeSimulator } from '../../electron/reader/simulator';
import { startTestScreens, type TestScreens } from '../support/screens';

const PIN = '2580';
let rendererDir: string;
let screens: TestScreens;
let simulator: SwipeSimulator;

beforeAll(async () => {
  rendererDir = mkdtempSync(join(tmpdir(), 'tender-renderer-'));
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Tender</title>');
  writeFileSync(join(rendererDir, 'customer.html'), '<!doctype html><title>Tender customer</title>');
  simulator = new SwipeSimulator({ initialKsn: randomSimulatorInitialKsn() });
  screens = await startTestScreens({ rendererDir, reader: { kind: 'hid', backend: simulator.backend } });
  const { engine } = screens.running.gateway;
  await engine.staff.create({ name: 'Olga', role: 'manager', pin: PIN }, 'test');
  await engine.settings.setFromText('tips_enabled', 'true');
  await engine.settings.setFromText('counter_tips', 'true');
});
afterEach(async () => {
  // Each test starts at a locked counter.
  await (await screens.connectBridge()).bridge.invoke('staff:lock');
});
afterAll(async () => {
  await screens.close();
  rmSync(rendererDir, { recursive: true, force: true });
});

/** Resolves with the first payload of `event` the page is sent that passes the test. */
function heard<E extends EventName>(
  bridge: TenderBridge,
  event: E,
  test: (payload: EventPayload<E>) => boolean = () => true,
): Promise<EventPayload<E>> {
  return new Promise((resolve) => {
    const off = bridge.on(event, (payload) => {
      if (!test(payload)) return;
      off();
      resolve(payload);
    });
  });
}

/** Resolves once the host itself has emitted `event`, whoever it was then sent to. */
function hostEmitted(event: EventName): Promise<void> {
  return new Promise((resolve) => {
    const off = screens.running.terminal.events.subscribe((name) => {
      if (name !== event) return;
      off();
      resolve();
    });
  });
}

/** Every event the page is sent, by name, in order. */
function everyEvent(bridge: TenderBridge): EventName[] {
  const names: EventName[] = [];
  for (const name of Object.keys(eventChannels) as EventName[]) bridge.on(name, () => names.push(name));
  return names;
}

async function readerConnected(bridge: TenderBridge): Promise<void> {
  await expect.poll(async () => (await bridge.invoke('reader:status')).state).toBe('connected');
}

describe('a cashier’s page at a locked counter', () => {
  it('is sent no swipe made while locked, then or after the next sign-in', async () => {
    const { bridge } = await screens.connectBridge();
    await readerConnected(bridge);
    const swiped: string[] = [];
    bridge.on('reader:swipe', (swipe) => swiped.push(swipe.card.lastFour));
    const received = everyEvent(bridge);

    const swipe = hostEmitted('reader:swipe');
    simulator.swipe(simulatedSwipePlan('approved-visa').card);
    await swipe;
    const failed = hostEmitted('reader:swipe-failed');
    simulator.swipe(simulatedSwipePlan('bad-read').card, { badRead: true });
    await failed;
    // The sign-in's event is sent after anything sent before it on the same socket.
    const signedIn = heard(bridge, 'staff:session-changed', (session) => session.signedIn !== null);
    await bridge.invoke('staff:sign-in', { pin: PIN });
    await signedIn;
    expect(swiped).toEqual([]);
    expect(received).not.toContain('reader:swipe-failed');

    // Signed in, the next card reaches the page, and only that one.
    const next = heard(bridge, 'reader:swipe');
    simulator.swipe(simulatedSwipePlan('approved-mastercard').card);
    expect((await next).card.lastFour).toBe('5454');
    expect(swiped).toEqual(['5454']);
  });

  it('is sent only the lock screen’s events while locked, and the customer’s screen again at sign-in', async () => {
    const cashier = (await screens.connectBridge()).bridge;
    await cashier.invoke('staff:sign-in', { pin: PIN });
    const started = await cashier.invoke('customer:start', { amountCents: 1875, askTip: false });
    const locked = heard(cashier, 'staff:session-changed', (session) => session.signedIn === null);
    await cashier.invoke('staff:lock');
    await locked;
    const received = everyEvent(cashier);

    // A customer's page comes while the counter is locked: the host tells both screens so.
    const changed = hostEmitted('customer:changed');
    const customer = await screens.connectBridge({ ticket: screens.running.issueTicket('customer') });
    await changed;
    const reopened = heard(cashier, 'customer:changed');
    const signedIn = heard(cashier, 'staff:session-changed', (session) => session.signedIn !== null);
    await cashier.invoke('staff:sign-in', { pin: PIN });
    await signedIn;
    const view = await reopened;
    expect(received.slice(0, received.indexOf('staff:session-changed'))).toEqual([]);
    expect(view.saleSequence).toBe(started.saleSequence);
    expect(view.step).toEqual({ step: 'swipe', amountCents: 1875, tipCents: 0, totalCents: 1875 });
    expect(view.screen.connected).toBe(true);

    await cashier.invoke('customer:finish', { saleSequence: started.saleSequence ?? 0 });
    customer.transport.close();
  });
});

describe('the customer’s page at a locked counter', () => {
  it('shows its welcome and takes no answer until someone signs in, then the sale waiting for its card', async () => {
    const cashier = (await screens.connectBridge()).bridge;
    const customer = (await screens.connectBridge({ ticket: screens.running.issueTicket('customer') }))
      .bridge;
    await cashier.invoke('staff:sign-in', { pin: PIN });
    const tip = heard(customer, 'customer:changed', (view) => view.step.step === 'tip');
    await cashier.invoke('customer:start', { amountCents: 4000, askTip: true });
    const onScreen = await tip;

    const welcome = heard(customer, 'customer:changed', (view) => view.step.step === 'idle');
    await cashier.invoke('staff:lock');
    const shown = await welcome;
    expect(shown.saleSequence).toBeUndefined();
    expect(shown.choices).toEqual({ receiptNotices: [] });
    expect(JSON.stringify(shown)).not.toContain('4000');
    expect(await customer.invoke('customer:view')).toEqual(shown);
    await expect(
      customer.invoke('customer:choose-tip', { sequence: onScreen.sequence, tipCents: 0, confirmed: false }),
    ).rejects.toMatchObject({ code: 'refused', message: CUSTOMER_WAITS_MESSAGE });

    const back = heard(customer, 'customer:changed', (view) => view.step.step === 'tip');
    await cashier.invoke('staff:sign-in', { pin: PIN });
    expect((await back).saleSequence).toBe(onScreen.saleSequence);
    const swipeStep = await customer.invoke('customer:choose-tip', {
      sequence: onScreen.sequence,
      tipCents: 0,
      confirmed: false,
    });
    expect(swipeStep.step).toMatchObject({ step: 'swipe', totalCents: 4000 });
    await cashier.invoke('customer:finish', { saleSequence: onScreen.saleSequence ?? 0 });
  });
});
