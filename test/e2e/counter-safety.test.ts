/**
 * Money typed into the right place, answers that a stray tap cannot clear, and large amounts said
 * back before they are charged: the cashier screens in Debian's Chromium against a real engine.
 * Screenshots are saved as test-results/safety-*.png and every state is checked with axe.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startCounter, type Counter, type CounterPage } from './counter-page';

let counter: Counter;

beforeAll(async () => {
  counter = await startCounter();
}, 180_000);
afterEach(async () => {
  await counter?.closePages();
  const { client } = counter.screens;
  const tabs = await client.listTransactions({ type: 'auth', result: 'approved', page_size: 100 });
  for (const tab of tabs.filter((item) => item.expires !== '')) {
    await client.createTransaction({ type: 'VOID', id: tab.id });
  }
  await counter.reader.bridge.invoke('settings:update', { tipsEnabled: false });
});
afterAll(() => counter?.close());

async function openTab(amount: string): Promise<string> {
  const response = await counter.screens.client.createTransaction({
    type: 'AUTH',
    amount,
    card: '5454545454545454',
    exp_date: '1230',
  });
  expect(response.result).toBe('Approved');
  return response.id ?? '';
}

async function tap(cashier: CounterPage, pad: string, keys: string[]): Promise<void> {
  for (const key of keys) {
    await cashier.page
      .getByRole('group', { name: pad })
      .getByRole('button', { name: key, exact: true })
      .click();
  }
}

describe('the on-screen keypad', () => {
  it('types a tip into Other percentage while that field has the focus, and says so', async () => {
    await counter.reader.bridge.invoke('settings:update', { tipsEnabled: true });
    const id = await openTab('62.00');
    const cashier = await counter.open('safety');
    const { page } = cashier;
    await cashier.goTo('Tabs');
    await page.getByTestId(`tab-${id}`).getByRole('button').click();
    await page.getByTestId('tab-detail').waitFor();
    expect(await page.getByTestId('pad-target').textContent()).toBe('Keys type into Tip amount');

    // 1 typed on the keyboard, 8 tapped: 18% of the check, never $0.08 added to the tip amount.
    await page.getByLabel('Other percentage').click();
    await page.keyboard.type('1');
    await tap(cashier, 'Tip keys', ['8']);
    expect(await page.getByLabel('Other percentage').inputValue()).toBe('18');
    expect(await page.getByTestId('pad-target').textContent()).toBe('Keys type into Other percentage');
    expect(await page.getByTestId('tip-amount').inputValue()).toBe('$11.16');
    expect(await page.getByTestId('capture-total').textContent()).toBe('$73.16');
    await cashier.check('01-tip-percent-keys');
    await tap(cashier, 'Tip keys', ['Delete the last digit']);
    expect(await page.getByLabel('Other percentage').inputValue()).toBe('1');
    expect(await page.getByTestId('tip-amount').inputValue()).toBe('$0.62');

    // Back in the tip amount, the first key replaces the amount, as typing would.
    await page.getByTestId('tip-amount').click();
    expect(await page.getByTestId('pad-target').textContent()).toBe('Keys type into Tip amount');
    await tap(cashier, 'Tip keys', ['5', '00']);
    expect(await page.getByTestId('tip-amount').inputValue()).toBe('$5.00');
    expect(await page.getByLabel('Other percentage').inputValue()).toBe('');
    expect(await page.getByTestId('capture-total').textContent()).toBe('$67.00');
  });

  it('types the server number of a new tab into Server, leaving the check amount alone', async () => {
    const cashier = await counter.open('safety');
    const { page } = cashier;
    await cashier.goTo('Tabs');
    await page.getByRole('button', { name: 'Start a tab' }).click();
    await tap(cashier, 'Amount keys', ['4', '2', '00']);
    expect(await page.getByTestId('tab-amount').inputValue()).toBe('$42.00');

    await page.getByLabel(/Server/).click();
    expect(await page.getByTestId('pad-target').textContent()).toBe('Keys type into Server');
    await tap(cashier, 'Amount keys', ['0', '7']);
    expect(await page.getByLabel(/Server/).inputValue()).toBe('07');
    expect(await page.getByTestId('tab-amount').inputValue()).toBe('$42.00');
    await cashier.check('02-server-keys');
    await page.getByRole('button', { name: 'Take the card for $42.00' }).waitFor();
  });

  it('replaces a refund’s prefilled amount with the first key, as typing in the field would', async () => {
    const sale = await counter.screens.client.createTransaction({
      type: 'SALE',
      amount: '12.50',
      card: '4111111111111111',
      exp_date: '1230',
    });
    await counter.screens.client.closeOpenBatch();
    const cashier = await counter.open('safety');
    const { page } = cashier;
    await cashier.goTo('Refund & void');
    await page.getByTestId(`transaction-${sale.id}`).click();
    expect(await page.getByTestId('refund-amount').inputValue()).toBe('$12.50');
    expect(await page.getByTestId('pad-target').textContent()).toBe('Keys type into Refund amount');

    await tap(cashier, 'Refund amount keys', ['5', '00']);
    expect(await page.getByTestId('refund-amount').inputValue()).toBe('$5.00');
    await page.getByRole('button', { name: 'Refund $5.00' }).waitFor();
    await cashier.check('03-refund-keys');
  });
});
