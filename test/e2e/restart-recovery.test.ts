/**
 * Answers that survive a restart: payments whose answer never reached the screens are kept by the
 * host, and after the app starts again the screens show each with its outcome from the ledger, or
 * say that it never reached the engine.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Route } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeEscPos } from '../support/escpos-decoder';
import { startFakePrinter } from '../support/fake-printer';
import { launchChromium, requireChromium, startTestScreens, type TestScreens } from '../support/screens';
import { buildApp, CounterPage } from './counter-page';

let buildDir: string;
let dataDir: string;
let browser: Browser | undefined;

beforeAll(() => {
  requireChromium();
  buildDir = buildApp();
  dataDir = mkdtempSync(join(tmpdir(), 'tender-restart-'));
});
afterAll(async () => {
  await browser?.close();
  rmSync(buildDir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

const OWNER = { name: 'Olga', pin: '2580' } as const;

/** The screens on the test's data dir, opened for the day: the owner, a manager, signed in. */
async function start(port?: number, dir = dataDir): Promise<TestScreens> {
  const screens = await startTestScreens({
    rendererDir: join(buildDir, 'renderer'),
    dataDir: dir,
    ...(port !== undefined && { port }),
  });
  const { engine } = screens.running.gateway;
  if (engine.staff.list().length === 0) {
    await engine.staff.create({ name: OWNER.name, role: 'manager', pin: OWNER.pin }, 'test');
    await engine.settings.setFromText('lock_after_minutes', '0');
  }
  // Each start issues the screens a new key, which is signed in anew.
  const node = await screens.connectBridge();
  await node.bridge.invoke('staff:sign-in', { pin: OWNER.pin });
  return screens;
}

async function openPage(screens: TestScreens, prefix: string): Promise<CounterPage> {
  browser ??= await launchChromium([screens.running.gateway.certificatePem]);
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    deviceScaleFactor: 1,
    ignoreHTTPSErrors: true,
  });
  const page = new CounterPage(await context.newPage(), prefix);
  await page.page.goto(screens.running.pairingAddress());
  await page.readerBadge('Card reader ready').waitFor();
  return page;
}

async function keyedSale(cashier: CounterPage, digits: string): Promise<void> {
  await cashier.tapAmount(digits);
  await cashier.chargeAndKeyIn();
  await cashier.fillCard({ number: '4111111111111111', expiry: '1230' });
  await cashier.submitCard();
}

describe('after a restart', () => {
  it('the screens show every payment whose answer was lost, with what the engine did with it', async () => {
    const first = await start();
    const cashier = await openPage(first, 'restart');
    // The first sale reaches the engine but its answer is lost; the second never leaves the counter.
    let sent = 0;
    await cashier.page.route('**/rest/v1/transactions', async (route: Route) => {
      if (route.request().method() !== 'POST') return route.continue();
      sent += 1;
      if (sent === 1) await route.fetch();
      await route.abort('connectionreset');
    });
    await keyedSale(cashier, '2500');
    expect(await cashier.outcome()).toBe('unknown');
    await cashier.page.getByRole('button', { name: 'New sale' }).click();
    await keyedSale(cashier, '700');
    expect(await cashier.outcome()).toBe('unknown');
    const [recorded] = await first.client.listTransactions({ page_size: 1 });
    expect(recorded).toMatchObject({ amount: '25.00', result: 'Approved' });
    cashier.problems.length = 0;
    await cashier.page.context().close();
    await first.close();

    const second = await start();
    const after = await openPage(second, 'restart');
    const dialog = after.page.getByTestId('interrupted-payments');
    await dialog.waitFor();
    const items = await dialog.getByTestId('interrupted-payment').allTextContents();
    expect(items).toHaveLength(2);
    expect(items[0]).toMatch(/^Sale \$25\.00 · Visa •••• 1111 · .+Approved \(#\d+\)$/);
    expect(items[0]).toContain(`#${recorded?.id}`);
    expect(items[1]).toMatch(
      /^Sale \$7\.00 · Visa •••• 1111 · .+Never reached the payment engine: nothing was done$/,
    );
    await after.check('01-interrupted-payments');
    await dialog.getByRole('button', { name: 'Got it' }).click();
    await after.page.context().close();

    // Seen once, then gone, after another restart too.
    await second.close();
    const third = await start();
    const again = await openPage(third, 'restart');
    await again.amount.waitFor();
    const node = await third.connectBridge();
    expect(await node.bridge.invoke('attempts:interrupted', undefined)).toEqual([]);
    expect(await again.page.getByTestId('interrupted-payments').count()).toBe(0);
    await again.page.context().close();
    await third.close();
  });
});

describe('a page left open while the engine restarts', () => {
  /**
   * Rings up a sale whose request `lose` handles, restarts the engine on the same port under the
   * open page, and returns the page once it is connected again, without a reload.
   */
  async function saleAcrossRestart(
    lose: (route: Route) => Promise<void>,
  ): Promise<{ cashier: CounterPage; screens: TestScreens }> {
    const first = await start();
    const cashier = await openPage(first, 'reconnect');
    await cashier.page.evaluate(() => Object.assign(window, { pageBeforeRestart: true }));
    let lost = false;
    await cashier.page.route('**/rest/v1/transactions', async (route: Route) => {
      if (route.request().method() !== 'POST' || lost) return route.continue();
      lost = true;
      await lose(route);
    });
    await keyedSale(cashier, '3100');
    expect(await cashier.outcome()).toBe('unknown');

    const { port } = first.running.gateway;
    await first.close();
    await cashier.readerBadge('Reconnecting to Tender…').waitFor();
    const second = await start(port);
    await cashier.readerBadge('Card reader ready').waitFor();
    expect(await cashier.page.evaluate(() => 'pageBeforeRestart' in window)).toBe(true);
    expect(
      await cashier.page
        .getByRole('heading', { name: 'This page is not one of the counter’s screens' })
        .count(),
    ).toBe(0);
    // The socket's drop and the aborted request are expected; nothing else may have gone wrong.
    cashier.problems.length = 0;
    return { cashier, screens: second };
  }

  async function salesOf(screens: TestScreens, amount: string) {
    const all = await screens.client.listTransactions({ page_size: 100 });
    return all.filter((item) => item.amount === amount && item.type === 'Sale');
  }

  it('reconnects by itself and Check again gives the answer the first engine recorded, charging once', async () => {
    const { cashier, screens } = await saleAcrossRestart(async (route) => {
      await route.fetch();
      await route.abort('connectionreset');
    });
    await cashier.page.getByRole('button', { name: 'Check again' }).click();
    await cashier.expectApproved();
    const sales = await salesOf(screens, '31.00');
    expect(sales).toHaveLength(1);
    expect(await cashier.result.textContent()).toContain(`#${sales[0]?.id}`);
    await cashier.check('01-reconnected-answer');
    await cashier.page.context().close();
    await screens.close();
  });

  it('sends the sale under the new key when the first engine never received it, charging once', async () => {
    const { cashier, screens } = await saleAcrossRestart((route) => route.abort('connectionreset'));
    const before = (await salesOf(screens, '31.00')).length;
    await cashier.page.getByRole('button', { name: 'Check again' }).click();
    await cashier.expectApproved();
    expect(await salesOf(screens, '31.00')).toHaveLength(before + 1);
    await cashier.page.context().close();
    await screens.close();
  });
});

describe('a sale rung up while the engine restarts', () => {
  it('ends as unreachable with Check again, and Check again after the restart charges once', async () => {
    const first = await start();
    const { port } = first.running.gateway;
    const cashier = await openPage(first, 'engine-down');
    await first.close();
    await cashier.readerBadge('Reconnecting to Tender…').waitFor();
    const banner = cashier.page.getByRole('alert').filter({ hasText: 'Lost the connection to Tender' });
    expect(await banner.textContent()).not.toMatch(/still work/);
    expect(await banner.textContent()).toContain('Check again');

    await keyedSale(cashier, '725');
    expect(await cashier.outcome()).toBe('unknown');
    expect(await cashier.page.getByRole('heading', { name: 'Tender unreachable' }).count()).toBe(1);
    const checkAgain = cashier.page.getByRole('button', { name: 'Check again' });
    expect(await checkAgain.evaluate((button) => button === document.activeElement)).toBe(true);
    // The refused connections and the journal that could not be written are expected here, and the
    // screens go on retrying the socket while the check runs.
    cashier.problems.length = 0;
    const refusals = cashier.allowProblems(/^WebSocket connection to '\S+\/bridge' failed/);
    await cashier.check('01-engine-unreachable');

    const second = await start(port);
    await cashier.readerBadge('Card reader ready').waitFor();
    refusals();
    cashier.problems.length = 0;
    await checkAgain.click();
    await cashier.expectApproved();
    const sales = (await second.client.listTransactions({ page_size: 100 })).filter(
      (item) => item.amount === '7.25' && item.type === 'Sale',
    );
    expect(sales).toHaveLength(1);
    await cashier.page.context().close();
    await second.close();
  });

  it('refused for the stopped run’s key before the screens reconnect, ends unreachable, never as a bad key', async () => {
    const first = await start();
    const { port } = first.running.gateway;
    const cashier = await openPage(first, 'engine-back');
    // The screens' socket does not come back until the test lets it, as when the engine is up again
    // before the page's next try: the sale leaves with the stopped run's key.
    let reconnect!: () => void;
    const reconnectAllowed = new Promise<void>((resolve) => (reconnect = resolve));
    await cashier.page.routeWebSocket(/\/bridge$/, async (socket) => {
      await reconnectAllowed;
      socket.connectToServer();
    });
    await first.close();
    await cashier.readerBadge('Reconnecting to Tender…').waitFor();
    const second = await start(port);

    await keyedSale(cashier, '726');
    expect(await cashier.outcome()).toBe('unknown');
    const result = (await cashier.result.textContent()) ?? '';
    expect(result).toContain('Tender unreachable');
    expect(result).not.toMatch(/API key|Try another card/);

    reconnect();
    await cashier.readerBadge('Card reader ready').waitFor();
    cashier.problems.length = 0;
    await cashier.page.getByRole('button', { name: 'Check again' }).click();
    await cashier.expectApproved();
    const sales = (await second.client.listTransactions({ page_size: 100 })).filter(
      (item) => item.amount === '7.26' && item.type === 'Sale',
    );
    expect(sales).toHaveLength(1);
    await cashier.page.context().close();
    await second.close();
  });
});

describe('a sale on the customer’s screen while the engine restarts', () => {
  it('goes on at the cashier’s screen, which prints the merchant copy the customer’s screen would have', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tender-restart-customer-'));
    const printer = await startFakePrinter();
    const first = await start(undefined, dir);
    const { port } = first.running.gateway;
    const { bridge } = await first.connectBridge();
    await bridge.invoke('receipts:update-settings', {
      printer: printer.address,
      customerCopy: 'never',
      merchantCopy: 'always',
    });
    await bridge.invoke('settings:update', { tipsEnabled: true, counterTips: true });
    const cashier = await openPage(first, 'customer-restart');
    if (!browser) throw new Error('The cashier’s page opens the browser.');
    const customerContext = await browser.newContext({
      viewport: { width: 1024, height: 600 },
      ignoreHTTPSErrors: true,
    });
    const customer = await customerContext.newPage();
    await customer.goto(first.running.pairingAddress('customer'));
    await cashier.page.getByTestId('customer-screen-badge').waitFor();

    await cashier.tapAmount('4000');
    await cashier.page.getByRole('button', { name: /^Charge \$/ }).click();
    await customer.getByRole('button', { name: /^20%/ }).click();
    await cashier.page.getByTestId('waiting-for-swipe').waitFor();

    await first.close();
    await cashier.readerBadge('Reconnecting to Tender…').waitFor();
    const second = await start(port, dir);
    await cashier.readerBadge('Card reader ready').waitFor();
    cashier.problems.length = 0;
    // The restarted host knows nothing of the sale: the customer's screen welcomes the next
    // customer, and the cashier's screen takes the card for the total the customer chose.
    await customer.getByRole('heading', { name: /^Welcome/ }).waitFor();
    await cashier.page.getByTestId('customer-progress').waitFor({ state: 'detached' });
    expect(await cashier.page.getByTestId('customer-screen-badge').count()).toBe(0);
    expect(await cashier.page.getByTestId('sale-total').textContent()).toBe('$48.00');
    await cashier.check('02-customer-sale-after-restart');

    const job = printer.nextJob();
    await (await second.connectBridge()).bridge.invoke('simulator:swipe', { card: 'approved-visa' });
    await cashier.expectApproved();
    await cashier.page.getByText('Merchant copy to sign printed.').waitFor();
    const copies = decodeEscPos(await job).copies.map((copy) => copy.map((line) => line.trim()));
    expect(copies.some((copy) => copy.includes('MERCHANT COPY'))).toBe(true);
    const [sale] = await second.client.listTransactions({ page_size: 1 });
    expect(sale).toMatchObject({ amount: '48.00', tip_amount: '8.00', result: 'Approved' });

    await customerContext.close();
    await cashier.page.context().close();
    await second.close();
    await printer.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
