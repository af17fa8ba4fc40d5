/**
 * Two counters on one store server: each rings up sales in its own lane, and the end-of-day screen
 * of either shows the store's one open batch with each counter's share beside it. The ledger is on
 * a real PostgreSQL server (Debian's), started for this file.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgresServer, type PostgresServer } from '../support/postgres-server';
import { launchChromium, requireChromium, startTestScreens, type TestScreens } from '../support/screens';
import { buildApp, CounterPage, OWNER } from './counter-page';

let buildDir: string;
let server: PostgresServer;
let front: TestScreens;
let bar: TestScreens;
let browser: Browser;

/** A counter of the store in `lane`, opened for the day by the owner. */
async function counterIn(url: string, lane: string): Promise<TestScreens> {
  const screens = await startTestScreens({
    rendererDir: join(buildDir, 'renderer'),
    engine: { store: { url, lane } },
  });
  const { bridge } = await screens.connectBridge();
  const session = await bridge.invoke('staff:session');
  if (session.needsFirstManager) {
    await bridge.invoke('staff:first-manager', { name: OWNER.name, newPin: OWNER.pin });
  } else {
    await bridge.invoke('staff:sign-in', { pin: OWNER.pin });
  }
  await bridge.invoke('staff:set-lock-minutes', { minutes: 0 });
  return screens;
}

beforeAll(async () => {
  requireChromium();
  buildDir = buildApp();
  server = await startPostgresServer();
  const url = await server.createDatabase('store');
  front = await counterIn(url, 'front');
  bar = await counterIn(url, 'bar');
  browser = await launchChromium([front.running.gateway.certificatePem]);
});
afterAll(async () => {
  await browser?.close();
  await front?.close();
  await bar?.close();
  await server?.close();
  rmSync(buildDir, { recursive: true, force: true });
});

const CARD = { card: '4111111111111111', exp_date: '1230' } as const;

/** The counter screens every view is looked at on. */
const COUNTER_SCREENS = [
  { width: 1280, height: 800 },
  { width: 1024, height: 768 },
  { width: 800, height: 600 },
];

/** Runs `work` on the front counter's cashier page, opened paired at 1280x800 in a context of its own. */
async function atTheFront(work: (cashier: CounterPage) => Promise<void>): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
  try {
    const cashier = new CounterPage(await context.newPage(), 'lanes');
    await cashier.page.goto(front.running.pairingAddress());
    await cashier.readerBadge('Card reader ready').waitFor();
    await work(cashier);
  } finally {
    await context.close();
  }
}

describe('the end of day of a store', () => {
  it('shows the one open batch of the store with each counter’s share', async () => {
    expect((await front.client.createTransaction({ type: 'SALE', amount: '20.00', ...CARD })).result).toBe(
      'Approved',
    );
    expect((await bar.client.createTransaction({ type: 'SALE', amount: '7.50', ...CARD })).result).toBe(
      'Approved',
    );
    // A refund without a sale (a return): the store takes it in the bar's lane.
    expect((await bar.client.createTransaction({ type: 'REFUND', amount: '4.00', ...CARD })).result).toBe(
      'Approved',
    );

    await atTheFront(async (cashier) => {
      await cashier.goTo('End of day');
      const lanes = cashier.screen.getByTestId('by-lane');
      await lanes.waitFor();
      const row = async (lane: string) =>
        (await lanes.getByTestId(`lane-${lane}`).locator('th, td').allTextContents()).map((cell) =>
          cell.trim(),
        );
      expect(await row('front')).toEqual(['front', '1', '$20.00', '$0.00', '$0.00', '$20.00']);
      expect(await row('bar')).toEqual(['bar', '2', '$7.50', '−$4.00', '$0.00', '$3.50']);
      // The store's batch is the sum of its counters' shares.
      await expect.poll(() => cashier.screen.getByTestId('batch-net').textContent()).toContain('$23.50');
      for (const size of COUNTER_SCREENS) {
        await cashier.page.setViewportSize(size);
        await lanes.scrollIntoViewIfNeeded();
        await cashier.check(`01-by-counter-${size.width}x${size.height}`);
      }
    });
  });
});

describe('the keys of a store', () => {
  it('lists another counter’s screens key as such, and says what revoking it stops', async () => {
    await atTheFront(async (cashier) => {
      await cashier.goTo('Settings');
      await cashier.page
        .getByRole('navigation', { name: 'Settings' })
        .getByRole('button', { name: 'API keys' })
        .click();
      const barKey = cashier.page.getByRole('row', { name: /Tender browser screens \(bar\)/ });
      await barKey.waitFor();
      expect(await barKey.textContent()).toContain('Cashier screens');
      const ownKey = cashier.page.getByRole('row', { name: /Tender browser screens \(front\)/ });
      expect(await ownKey.textContent()).toContain('These screens');
      expect(await ownKey.textContent()).not.toContain('Cashier screens');
      for (const size of COUNTER_SCREENS) {
        await cashier.page.setViewportSize(size);
        await barKey.scrollIntoViewIfNeeded();
        await cashier.check(`02-keys-${size.width}x${size.height}`);
        // Neither the page nor the screen beneath the menu bar scrolls sideways.
        const sideways = await cashier.page.evaluate(() =>
          [document.documentElement, document.querySelector('main')].map((element) =>
            element ? element.scrollWidth - element.clientWidth : 0,
          ),
        );
        expect(sideways, `sideways at ${size.width}x${size.height}`).toEqual([0, 0]);
      }

      await barKey.getByRole('button', { name: 'Revoke Tender browser screens (bar)' }).click();
      const confirm = cashier.page.getByTestId('confirm-dialog');
      await confirm.waitFor();
      expect(await confirm.textContent()).toContain(
        'another counter’s screens: that counter takes no payment and reads nothing from now on',
      );
      await cashier.check('03-revoke-another-counter');
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await confirm.waitFor({ state: 'detached' });
      // Nothing was revoked: the bar still sells.
      expect((await bar.client.createTransaction({ type: 'SALE', amount: '3.10', ...CARD })).result).toBe(
        'Approved',
      );
    });
  });
});
