/**
 * History's Reprint of a tab past its expiry, in Debian's Chromium against a real engine: it can no
 * longer be captured, so a tip written on its check could never be charged, and the engine refuses
 * the check. Reprint opens the tab's customer copy and offers no check, not the engine's refusal.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { afterTime, startCounter, type Counter } from './counter-page';

const DAY = 86_400_000;
let counter: Counter;

beforeAll(async () => {
  counter = await startCounter();
  await counter.screens.running.gateway.engine.settings.setFromText('tips_enabled', 'true');
});
afterEach(async () => {
  counter.engineClock.reset();
  await counter?.closePages();
});
afterAll(() => counter?.close());

describe('Reprint in History', () => {
  it('of an expired tab opens its customer copy and offers no check', async () => {
    const tab = await counter.screens.client.createTransaction({
      type: 'AUTH',
      amount: '30.00',
      card: '4111111111111111',
      exp_date: '1230',
    });
    expect(tab.result).toBe('Approved');
    const id = tab.id ?? '';
    const cashier = await counter.open('history-expired-tab');
    await afterTime(counter, cashier, 7 * DAY + 60_000);
    const { page } = cashier;
    await cashier.goTo('History');
    await page.locator('table[aria-busy="false"]').waitFor();
    await page
      .getByTestId(`history-${id}`)
      .getByRole('button', { name: `Reprint the receipt of #${id}` })
      .click();
    const dialog = page.getByTestId('receipt-dialog');
    await dialog.getByTestId('receipt-preview').or(dialog.getByRole('alert')).waitFor();
    expect(await dialog.getByRole('alert').count()).toBe(0);
    expect(await dialog.getByTestId('receipt-preview').getAttribute('data-copy')).toBe('customer');
    const copies = dialog.getByRole('radiogroup', { name: 'Copy' }).getByRole('radio');
    expect(await copies.allTextContents()).toEqual(['Customer copy', 'Merchant copy']);
    await cashier.check('01-expired-tab');
  });
});
