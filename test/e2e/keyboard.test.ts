/**
 * The counter by keyboard alone, in Debian's Chromium against a real engine: no clicks, only Tab,
 * Enter, Space, Esc and typing. A tab opened with a keyed card and captured with its tip, a settled
 * sale refunded in part, the batch closed, and an API key created, moving between screens by the menu.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright';
import { startCounter, type Counter } from './counter-page';

let counter: Counter;

beforeAll(async () => {
  counter = await startCounter();
  await counter.reader.bridge.invoke('settings:update', { tipsEnabled: true });
});
afterEach(() => counter?.closePages());
afterAll(() => counter?.close());

/** Presses Tab until the control has the focus; fails when Tab never reaches it. */
async function tabTo(page: Page, control: Locator, limit = 80): Promise<void> {
  for (let presses = 0; presses < limit; presses += 1) {
    if (await control.evaluate((element) => element === document.activeElement).catch(() => false)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${control.toString()}`);
}

async function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const element = document.activeElement;
    return element?.getAttribute('aria-label') ?? element?.textContent?.trim() ?? '';
  });
}

/** Moves to a screen through the top bar's menu, by keyboard. */
async function openScreen(page: Page, name: string): Promise<void> {
  const link = page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name, exact: true });
  await tabTo(page, link);
  await page.keyboard.press('Enter');
  await link.and(page.locator('[aria-current="page"]')).waitFor();
}

describe('by keyboard alone', () => {
  it('opens a tab with a keyed card, then captures it with a typed tip', async () => {
    const cashier = await counter.open('keyboard');
    const { page, keyboard } = { page: cashier.page, keyboard: cashier.page.keyboard };
    await openScreen(page, 'Tabs');
    await tabTo(page, page.getByRole('button', { name: 'Start a tab' }));
    await keyboard.press('Enter');
    await page.getByTestId('tab-amount').and(page.locator(':focus')).waitFor();
    await keyboard.type('2500');
    await keyboard.press('Tab');
    await keyboard.type('05');
    await keyboard.press('Enter');
    await page.getByTestId('waiting-for-swipe').waitFor();
    await keyboard.press('k');
    await page.getByLabel('Card number').and(page.locator(':focus')).waitFor();
    await keyboard.type('5454545454545454');
    await keyboard.press('Tab');
    await keyboard.type('1230');
    await keyboard.press('Enter');
    await page.getByTestId('outcome').and(page.locator('[data-outcome="approved"]')).waitFor();
    expect(await focused(page)).toBe('Done');
    await cashier.check('01-tab-opened-by-keyboard');
    await keyboard.press('Enter');

    const [auth] = await counter.screens.client.listTransactions({ type: 'auth', page_size: 1 });
    expect(auth).toMatchObject({ amount: '25.00', server_id: '05', card: '************5454' });
    await tabTo(page, page.getByTestId(`tab-${auth?.id}`).getByRole('button'));
    await keyboard.press('Enter');
    await page.getByTestId('tip-amount').and(page.locator(':focus')).waitFor();
    await keyboard.type('500');
    expect(await page.getByTestId('capture-total').textContent()).toBe('$30.00');
    await cashier.check('02-tip-typed');
    await keyboard.press('Enter');
    await page.getByTestId('outcome').and(page.locator('[data-outcome="approved"]')).waitFor();
    await keyboard.press('Enter');
    await page.getByText('No open tabs').waitFor();

    const [capture] = await counter.screens.client.listTransactions({ type: 'capture', page_size: 1 });
    expect(capture).toMatchObject({ original_id: auth?.id, amount: '30.00', tip_amount: '5.00' });
  });

  it('refunds part of a settled sale, confirming with Enter', async () => {
    const sale = await counter.screens.client.createTransaction({
      type: 'SALE',
      amount: '45.00',
      card: '4111111111111111',
      exp_date: '1230',
    });
    await counter.screens.client.closeOpenBatch();
    const cashier = await counter.open('keyboard');
    const { page } = cashier;
    const { keyboard } = page;
    await openScreen(page, 'Refund & void');
    await tabTo(page, page.getByTestId(`transaction-${sale.id}`));
    await keyboard.press('Enter');
    await tabTo(page, page.getByTestId('refund-amount'));
    await keyboard.type('700');
    expect(await page.getByTestId('refund-amount').inputValue()).toBe('$7.00');
    await keyboard.press('Enter');
    const dialog = page.getByTestId('confirm-dialog');
    await dialog.waitFor();
    expect(await focused(page)).toBe('Refund $7.00');
    await cashier.check('03-refund-confirm-by-keyboard');
    await keyboard.press('Enter');
    await page.getByTestId('outcome').and(page.locator('[data-outcome="approved"]')).waitFor();
    const [refund] = await counter.screens.client.listTransactions({ type: 'refund', page_size: 1 });
    expect(refund).toMatchObject({ original_id: sale.id, amount: '7.00' });
  });

  it('backs out of a confirmation with Esc, then closes the batch', async () => {
    await counter.screens.client.createTransaction({
      type: 'SALE',
      amount: '11.00',
      card: '4111111111111111',
      exp_date: '1230',
    });
    const open = await counter.screens.client.openBatch();
    const cashier = await counter.open('keyboard');
    const { page } = cashier;
    const { keyboard } = page;
    await openScreen(page, 'End of day');
    const close = page.getByRole('button', { name: 'Close batch' });
    await tabTo(page, close);
    await keyboard.press('Enter');
    await page.getByTestId('confirm-dialog').waitFor();
    await keyboard.press('Escape');
    await page.getByTestId('confirm-dialog').waitFor({ state: 'detached' });
    // Back where it was: Enter asks again.
    expect(await focused(page)).toBe('Close batch');
    await keyboard.press('Enter');
    await page.getByTestId('confirm-dialog').waitFor();
    await keyboard.press('Enter');
    await page.getByTestId('batch-closed').waitFor();
    const [closed] = await counter.screens.client.listBatches({ id: open?.id ?? '', page_size: 1 });
    expect(closed?.status).toBe('CLOSED');
  });

  it('creates an API key, ticking a permission with Space', async () => {
    const cashier = await counter.open('keyboard');
    const { page } = cashier;
    const { keyboard } = page;
    await openScreen(page, 'Settings');
    await tabTo(
      page,
      page.getByRole('navigation', { name: 'Settings' }).getByRole('button', { name: 'API keys' }),
    );
    await keyboard.press('Enter');
    await page.getByRole('heading', { name: 'API keys', level: 2 }).waitFor();
    await tabTo(page, page.getByLabel('Name'));
    await keyboard.type('Ordering system');
    await tabTo(page, page.getByRole('checkbox', { name: /Run every transaction/ }));
    await keyboard.press('Space');
    await tabTo(page, page.getByRole('button', { name: 'Create key' }));
    await keyboard.press('Enter');
    const dialog = page.getByTestId('created-key');
    await dialog.waitFor();
    expect(await focused(page)).toBe('Copy');
    await keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    const keys = await counter.reader.bridge.invoke('keys:list');
    expect(keys.active.find((key) => key.name === 'Ordering system')?.permissions).toEqual([
      'transactions:write',
    ]);
  });
});
