/**
 * The merchant's gateway on the screens, in Debian's Chromium against a real engine relaying to a
 * real gateway behind the fault proxy: every screen says when the card network is down and what
 * waits; a declined offline sale alerts until a manager has seen it; the end-of-day report shows the
 * batch beside the gateway's and the offline sales' fate. Screenshots are saved as
 * test-results/offline-*.png and every state is checked with axe.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { relaySettings, swipe } from '../support/relay';
import { startUpstreamGateway, type UpstreamGateway } from '../support/upstream-gateway';
import { startCounter, type Counter } from './counter-page';

let counter: Counter;
let upstream: UpstreamGateway;
const SIZES = [
  { width: 1280, height: 800 },
  { width: 1024, height: 768 },
  { width: 800, height: 600 },
] as const;

beforeAll(async () => {
  upstream = await startUpstreamGateway();
  counter = await startCounter();
  await counter.screens.running.gateway.engine.settings.change(relaySettings(upstream, { offline: true }));
}, 180_000);
afterAll(async () => {
  await counter?.close();
  await upstream?.close();
});

const SCREENS = ['Sale', 'Tabs', 'Refund & void', 'History', 'End of day', 'Settings'] as const;

describe('store and forward on the screens', () => {
  it(
    'every screen says the card network is down and what waits; a decline alerts until seen; the report shows both sides',
    { timeout: 120_000 },
    async () => {
      const { client } = counter.screens;
      const engine = counter.screens.running.gateway.engine;
      await upstream.proxy.line('refuse');
      const kept = await client.createTransaction({
        type: 'SALE',
        amount: '12.00',
        ...swipe({ pan: '4916338506082832', expMmyy: '1230', firstName: 'Kim', lastName: 'Ode' }),
      });
      const declined = await client.createTransaction({
        type: 'SALE',
        amount: '8.00',
        email: 'ana@example.com',
        ...swipe({ pan: '4000000000000002', expMmyy: '1230' }),
      });
      expect([kept.offline, declined.offline]).toEqual(['true', 'true']);

      const cashier = await counter.open('offline');
      const { page } = cashier;
      for (const screen of SCREENS) {
        await cashier.goTo(screen);
        const banner = page.getByTestId('offline-banner');
        await banner.waitFor();
        expect(await banner.textContent()).toMatch(
          /^Offline: the card network cannot be reached\. Swiped sales up to \$50\.00 are approved offline.* 2 sales, \$20\.00, waiting to be sent\.$/,
        );
      }
      await cashier.goTo('Sale');
      await cashier.check('01-offline');
      for (const size of SIZES.slice(1)) {
        await page.setViewportSize(size);
        await page.screenshot({ path: `test-results/offline-01-offline-${size.width}.png` });
      }
      await page.setViewportSize(SIZES[0]);

      await upstream.proxy.line('up');
      await engine.forwarder.drain();
      const alert = page.getByTestId(`declined-${declined.id}`);
      await alert.waitFor();
      expect(await alert.textContent()).toMatch(
        /The card network declined an offline sale: \$8\.00 on the card ending 0002, taken .* contact the customer \(ana@example\.com\)\./,
      );
      await expect.poll(() => page.getByTestId('offline-banner').count()).toBe(0);
      await cashier.check('02-declined-alert');
      for (const size of SIZES.slice(1)) {
        await page.setViewportSize(size);
        await page.screenshot({ path: `test-results/offline-02-declined-alert-${size.width}.png` });
      }
      await page.setViewportSize(SIZES[0]);

      // The owner, a manager, is signed in: seeing it is their approval.
      await alert.getByRole('button', { name: 'Seen' }).click();
      await alert.waitFor({ state: 'detached' });
      expect(await engine.ledger.forwards.declined()).toEqual([]);

      await cashier.goTo('End of day');
      await page.getByRole('button', { name: 'Close batch' }).click();
      await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Close the batch' }).click();
      await page.getByTestId('batch-closed').waitFor();
      const gateway = page.getByTestId('report-gateway');
      expect(await gateway.getByRole('row', { name: /^Sales total/ }).textContent()).toBe(
        'Sales total$12.00$12.00',
      );
      expect(await page.getByTestId('reconciled').textContent()).toBe(
        'The gateway settled exactly what Tender recorded.',
      );
      const offline = page.getByTestId('report-offline');
      expect(await offline.getByRole('row', { name: new RegExp(`^${kept.id}`) }).textContent()).toMatch(
        /Sent, approved$/,
      );
      expect(await offline.getByRole('row', { name: new RegExp(`^${declined.id}`) }).textContent()).toMatch(
        /Sent, declined: left the batch$/,
      );
      await cashier.check('03-report');
      await gateway.screenshot({ path: 'test-results/offline-03-report-gateway.png' });
      await offline.screenshot({ path: 'test-results/offline-03-report-offline.png' });
      for (const size of SIZES.slice(1)) {
        await page.setViewportSize(size);
        await page.screenshot({ path: `test-results/offline-03-report-${size.width}.png`, fullPage: true });
      }
    },
  );
});
