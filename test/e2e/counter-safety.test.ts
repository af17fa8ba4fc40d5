/**
 * Money typed into the right place, answers that a stray tap cannot clear, and large amounts said
 * back before they are charged: the cashier screens in Debian's Chromium against a real engine.
 * Screenshots are saved as test-results/safety-*.png and every state is checked with axe.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { decodeEscPos } from '../support/escpos-decoder';
import { startFakePrinter } from '../support/fake-printer';
import { openTab, startCounter, type Counter, type CounterPage } from './counter-page';

let counter: Counter;

beforeAll(async () => {
  counter = await startCounter();
});
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
    const id = await openTab(counter, '62.00');
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

  it('types into Order number while it has the focus on a new sale, and into the amount otherwise', async () => {
    const cashier = await counter.open('safety');
    const { page } = cashier;
    expect(await page.getByTestId('sale-pad-target').textContent()).toBe('Keys type into Amount');
    await tap(cashier, 'Amount keys', ['1', '2', '5', '0']);
    expect(await cashier.amount.textContent()).toBe('$12.50');

    await page.getByLabel(/Order number/).click();
    expect(await page.getByTestId('sale-pad-target').textContent()).toBe('Keys type into Order number');
    await tap(cashier, 'Amount keys', ['4', '2', 'Delete the last digit', '7']);
    expect(await page.getByLabel(/Order number/).inputValue()).toBe('47');
    expect(await cashier.amount.textContent()).toBe('$12.50');
    await cashier.check('02a-order-number-keys');

    // A tap outside the fields gives the keys back to the amount.
    await page.getByRole('heading', { name: 'New sale' }).click();
    expect(await page.getByTestId('sale-pad-target').textContent()).toBe('Keys type into Amount');
    await tap(cashier, 'Amount keys', ['0']);
    expect(await cashier.amount.textContent()).toBe('$125.00');
    expect(await page.getByLabel(/Order number/).inputValue()).toBe('47');
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

describe('a large amount', () => {
  it('is said back in words and digits before the card is taken, above $1,000.00 until changed', async () => {
    const cashier = await counter.open('safety');
    const { page } = cashier;
    await cashier.tapAmount('12500000');
    expect(await cashier.amount.textContent()).toBe('$125,000.00');
    await page.getByRole('button', { name: 'Charge $125,000.00' }).click();
    const dialog = page.getByTestId('confirm-dialog');
    await dialog.waitFor();
    expect(await dialog.getByTestId('large-amount').textContent()).toBe(
      '$125,000.00One hundred twenty-five thousand dollars',
    );
    expect(await dialog.textContent()).toContain('This is above $1,000.00');
    await cashier.check('04-large-amount');

    // Changing the amount takes no card, and keys typed meanwhile went nowhere.
    await page.keyboard.press('5');
    await dialog.getByRole('button', { name: 'Change the amount' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await cashier.amount.textContent()).toBe('$125,000.00');
    expect(await page.getByTestId('waiting-for-swipe').count()).toBe(0);
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    // Enter pressed twice: the second does not answer the question it raised.
    await page.keyboard.press('Enter');
    await cashier.stepSettled();
    expect(await dialog.isVisible()).toBe(true);
    expect(await page.getByTestId('waiting-for-swipe').count()).toBe(0);
    expect(await dialog.getByTestId('large-amount').textContent()).toBe(
      '$1,250.00One thousand two hundred fifty dollars',
    );
    // Enter, once the question has settled, changes the amount: charging it takes a deliberate press.
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    expect(await page.getByTestId('waiting-for-swipe').count()).toBe(0);
    expect(await cashier.amount.textContent()).toBe('$1,250.00');
    await page.getByRole('button', { name: 'Charge $1,250.00' }).click();
    await dialog.getByRole('button', { name: 'Charge $1,250.00' }).click();
    await page.getByTestId('waiting-for-swipe').waitFor();

    // An amount at the limit is charged without asking.
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await cashier.tapAmount('100000');
    await page.getByRole('button', { name: 'Charge $1,000.00' }).click();
    await page.getByTestId('waiting-for-swipe').waitFor();
  });

  it('is said in words too when refunded', async () => {
    const sale = await counter.screens.client.createTransaction({
      type: 'SALE',
      amount: '1500.00',
      card: '4111111111111111',
      exp_date: '1230',
    });
    await counter.screens.client.closeOpenBatch();
    const cashier = await counter.open('safety');
    const { page } = cashier;
    await cashier.goTo('Refund & void');
    await page.getByTestId(`transaction-${sale.id}`).click();
    await page.getByRole('button', { name: 'Refund $1,500.00' }).click();
    const dialog = page.getByTestId('confirm-dialog');
    await dialog.waitFor();
    expect(await dialog.getByTestId('large-amount').textContent()).toBe('One thousand five hundred dollars');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('follows the amount set in Settings, on a new tab too', async () => {
    const cashier = await counter.open('safety');
    const { page } = cashier;
    await cashier.goTo('Settings');
    await page
      .getByRole('navigation', { name: 'Settings' })
      .getByRole('button', { name: 'Tips & tabs' })
      .click();
    const limit = page.getByLabel('Confirm amounts above');
    expect(await limit.inputValue()).toBe('$1,000.00');
    await limit.fill('50.00');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved').waitFor();
    expect(counter.screens.running.gateway.engine.settings.get('confirm_amount_above')).toBe(5000);
    try {
      const fresh = await counter.open('safety');
      await fresh.goTo('Tabs');
      await fresh.page.getByRole('button', { name: 'Start a tab' }).click();
      await fresh.page.getByTestId('tab-amount').fill('62.00');
      await fresh.page.getByRole('button', { name: 'Take the card for $62.00' }).click();
      const dialog = fresh.page.getByTestId('confirm-dialog');
      await dialog.waitFor();
      expect(await dialog.getByTestId('large-amount').textContent()).toBe('$62.00Sixty-two dollars');
      await fresh.check('05-large-tab');
      // Esc changes the amount: the tab being started stays.
      await fresh.page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      expect(await fresh.page.getByTestId('tab-amount').inputValue()).toBe('$62.00');
      await fresh.page.getByRole('button', { name: 'Take the card for $62.00' }).click();
      await dialog.getByRole('button', { name: 'Take the card for $62.00' }).click();
      await fresh.page.getByTestId('waiting-for-swipe').waitFor();
    } finally {
      await counter.reader.bridge.invoke('settings:update', { confirmAmountAboveCents: 100_000 });
    }
  });
});

describe('the answer screen', () => {
  it('keeps an approval on screen through a second Enter, then Enter starts the next sale', async () => {
    const cashier = await counter.open('safety');
    const { page } = cashier;
    await cashier.tapAmount('1250');
    await page.keyboard.press('Enter');
    await page.getByTestId('waiting-for-swipe').waitFor();
    await cashier.stopClock();
    await counter.reader.bridge.invoke('simulator:swipe', { card: 'approved-visa' });
    await cashier.result.waitFor();
    // The Enter that came a beat late, and a tap: both land on the answer's first moment.
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: /^New sale/ }).click({ force: true });
    await cashier.stepSettled();
    await cashier.expectApproved();
    await cashier.check('06-approved-after-late-enter');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Enter an amount' }).waitFor();
  });

  it('makes Try another card the default after a decline, for the same amount', async () => {
    const cashier = await counter.open('safety');
    const { page } = cashier;
    await cashier.tapAmount('4000');
    await cashier.chargeAndKeyIn();
    await cashier.fillCard({ number: '4000 0000 0000 0002', expiry: '1230' });
    await cashier.stopClock();
    await cashier.submitCard();
    expect(await cashier.outcome()).toBe('declined');
    await page.keyboard.press('Enter');
    await cashier.stepSettled();
    expect(await cashier.outcome()).toBe('declined');
    const tryAgain = page.getByRole('button', { name: /^Try another card/ });
    expect(await tryAgain.evaluate((button) => button === document.activeElement)).toBe(true);
    expect(await tryAgain.getAttribute('class')).toContain('button-primary');
    await cashier.check('07-declined-try-another');
    await page.keyboard.press('Enter');
    await page.getByTestId('waiting-for-swipe').waitFor();
    expect(await cashier.amount.textContent()).toBe('$40.00');
  });

  it('makes Try again the default after a processor error, whose words say to try again', async () => {
    const cashier = await counter.open('safety');
    const { page } = cashier;
    await cashier.tapAmount('1900');
    await cashier.chargeAndKeyIn();
    await cashier.fillCard({ number: '4000000000000119', expiry: '1230' });
    await cashier.submitCard();
    expect(await cashier.outcome()).toBe('error');
    expect(await cashier.result.textContent()).toMatch(/[Tt]ry (the sale )?again/);
    await cashier.stepSettled();
    const tryAgain = page.getByRole('button', { name: /^Try again/ });
    expect(await tryAgain.evaluate((button) => button === document.activeElement)).toBe(true);
    expect(await tryAgain.getAttribute('class')).toContain('button-primary');
    expect(await page.getByRole('button', { name: /^Try another card/ }).count()).toBe(0);
    await cashier.check('07b-error-try-again');
    await page.keyboard.press('Enter');
    await page.getByTestId('waiting-for-swipe').waitFor();
    expect(await cashier.amount.textContent()).toBe('$19.00');
  });

  it('a double tap on Charge does not key the card in', async () => {
    const cashier = await counter.open('safety');
    const { page } = cashier;
    await cashier.tapAmount('1800');
    await cashier.stopClock();
    await page.getByRole('button', { name: 'Charge $18.00' }).dblclick();
    await page.getByTestId('waiting-for-swipe').waitFor();
    // The second tap of the pair landed where Charge was, on Key in the card, and did nothing.
    await page.getByRole('button', { name: /^Key in the card/ }).click({ force: true });
    await cashier.stepSettled();
    expect(await page.getByLabel('Card number').count()).toBe(0);
    await counter.reader.bridge.invoke('simulator:swipe', { card: 'approved-visa' });
    await cashier.expectApproved();
  });

  it('approves a sale whose Idempotency-Key, a UUID, reads as a card number across its dashes', async () => {
    const cashier = await counter.open('safety');
    const { page } = cashier;
    // About three of the screens' keys in a thousand are such a UUID; this one is the next.
    const key = 'a55e666f-8025-4162-9288-5ca6f11b9005';
    await page.evaluate((next) => {
      const random = crypto.randomUUID.bind(crypto);
      let given = false;
      Object.defineProperty(crypto, 'randomUUID', {
        configurable: true,
        value: () => (given ? random() : ((given = true), next)),
      });
    }, key);
    const sent = page.waitForRequest(
      (request) => request.method() === 'POST' && request.url().endsWith('/rest/v1/transactions'),
    );
    await cashier.tapAmount('1475');
    await cashier.chargeAndKeyIn();
    await cashier.fillCard({ number: '4111111111111111', expiry: '1230' });
    await cashier.submitCard();
    expect((await sent).headers()['idempotency-key']).toBe(key);
    await cashier.expectApproved();
  });

  it('holds a card swiped before Charge, masked, and charges it once the amount is confirmed', async () => {
    const cashier = await counter.open('safety');
    const { page } = cashier;
    await cashier.tapAmount('26');
    await counter.reader.bridge.invoke('simulator:swipe', { card: 'approved-visa' });
    const held = page.getByTestId('held-card');
    await held.waitFor();
    expect(await held.textContent()).toContain('Visa •••• 1111');
    expect(await held.textContent()).not.toContain('4111');
    await cashier.tapAmount('75');
    await cashier.check('08-card-held');
    await page.getByRole('button', { name: 'Charge $26.75' }).click();
    await cashier.expectApproved();
    const [sale] = await counter.screens.client.listTransactions({ page_size: 1 });
    expect(sale).toMatchObject({ type: 'Sale', amount: '26.75', card: '************1111' });
  });
});

describe('tabs', () => {
  it('Start a tab starts the next one while the Tab opened answer shows', async () => {
    const cashier = await counter.open('safety');
    const { page } = cashier;
    await cashier.goTo('Tabs');
    await page.getByRole('button', { name: 'Start a tab' }).click();
    await page.getByTestId('tab-amount').fill('20.00');
    await page.getByRole('button', { name: 'Take the card for $20.00' }).click();
    await page.getByTestId('waiting-for-swipe').waitFor();
    await counter.reader.bridge.invoke('simulator:swipe', { card: 'approved-visa' });
    const opened = page.getByTestId('outcome').and(page.locator('[data-outcome="approved"]'));
    await opened.waitFor();
    await page.getByText('1 open · $20.00 held').waitFor();

    await page.getByRole('button', { name: 'Start a tab' }).click();
    await opened.waitFor({ state: 'detached' });
    expect(await page.getByTestId('tab-amount').inputValue()).toBe('$0.00');
    await cashier.check('09-next-tab');
  });

  it('a captured tab leaves Open tabs as soon as it is captured, its answer still on screen', async () => {
    const id = await openTab(counter, '30.00');
    const cashier = await counter.open('safety');
    const { page } = cashier;
    await cashier.goTo('Tabs');
    await page.getByTestId(`tab-${id}`).getByRole('button').click();
    await page.getByRole('button', { name: 'Capture $30.00' }).click();
    const captured = page.getByTestId('outcome').and(page.locator('[data-outcome="approved"]'));
    await captured.waitFor();
    await page.getByText('No open tabs').waitFor();
    expect(await page.getByTestId(`tab-${id}`).count()).toBe(0);
    expect(await page.getByText('0 open · $0.00 held').count()).toBe(1);
    expect(await captured.textContent()).toContain('Tab captured');
    await page.getByRole('button', { name: 'Done' }).click();
  });

  it('the void of a captured tab says the tab goes back to Open tabs with its hold', async () => {
    const id = await openTab(counter, '44.00');
    const capture = await counter.screens.client.createTransaction({ type: 'CAPTURE', id, amount: '44.00' });
    const cashier = await counter.open('safety');
    const { page } = cashier;
    await cashier.goTo('Refund & void');
    await page.getByTestId(`transaction-${capture.id}`).click();
    const details = page.getByTestId('transaction-details');
    expect(await details.textContent()).toContain(
      `Tab #${id} then goes back to Open tabs, still held on the card.`,
    );
    await details.getByRole('button', { name: `Void capture #${capture.id}` }).click();
    const dialog = page.getByTestId('confirm-dialog');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(
      `Tab #${id} goes back to Open tabs and stays held on the card: capture it again there, or void the tab to release the hold.`,
    );
    await cashier.check('10-void-capture-confirm');
    await dialog.getByRole('button', { name: 'Void it' }).click();
    await page.getByTestId('outcome').and(page.locator('[data-outcome="approved"]')).waitFor();
    const [auth] = await counter.screens.client.listTransactions({ id, page_size: 1 });
    expect(auth).toMatchObject({ captured: 'false', voided: 'false' });
  });
});

describe('history', () => {
  it('opens a transaction to its details on Refund & void', async () => {
    const sale = await counter.screens.client.createTransaction({
      type: 'SALE',
      amount: '33.10',
      card: '4111111111111111',
      exp_date: '1230',
      invoice: 'DET-1',
    });
    const cashier = await counter.open('safety');
    const { page } = cashier;
    await cashier.goTo('History');
    await page.getByRole('link', { name: `Details of #${sale.id}` }).click();
    const details = page.getByTestId('transaction-details');
    await page.getByRole('heading', { name: new RegExp(`#${sale.id}$`) }).waitFor();
    expect(await details.textContent()).toContain('DET-1');
    expect(page.url()).toMatch(new RegExp(`#refunds/${sale.id}$`));
    await details.getByRole('button', { name: `Void sale #${sale.id}` }).waitFor();
    await cashier.check('12-history-to-details');
  });

  it('shows a refund as negative, and the CSV says what the screen says with a Net column that sums', async () => {
    const { client } = counter.screens;
    const card = { card: '4111111111111111', exp_date: '1230' };
    const kept = await client.createTransaction({ type: 'SALE', amount: '40.00', invoice: 'NET-1', ...card });
    const voided = await client.createTransaction({
      type: 'SALE',
      amount: '15.00',
      invoice: 'NET-2',
      ...card,
    });
    await client.createTransaction({ type: 'VOID', id: voided.id });
    const tab = await client.createTransaction({ type: 'AUTH', amount: '20.00', ...card });
    const capture = await client.createTransaction({ type: 'CAPTURE', id: tab.id, amount: '20.00' });
    await client.closeOpenBatch();
    const refund = await client.createTransaction({ type: 'REFUND', id: kept.id, amount: '40.00' });

    const cashier = await counter.open('safety');
    const { page } = cashier;
    await cashier.goTo('History');
    const refundRow = page.getByTestId(`history-${refund.id}`);
    await refundRow.waitFor();
    expect(await refundRow.textContent()).toContain('-$40.00');
    await cashier.check('11-history-refund-negative');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    const lines = (await readFile(await download.path(), 'utf8')).trimEnd().split('\r\n');
    const header = lines[0]?.split(',') ?? [];
    const rows = new Map(
      lines.slice(1).map((line) => {
        const cells = line.split(',');
        return [cells[0], Object.fromEntries(header.map((title, index) => [title, cells[index] ?? '']))];
      }),
    );
    expect(rows.get(kept.id)).toMatchObject({
      Result: 'Refunded',
      'Engine result': 'Approved',
      Net: '40.00',
    });
    expect(rows.get(voided.id)).toMatchObject({ Result: 'Voided', Net: '0.00' });
    expect(rows.get(tab.id)).toMatchObject({ Result: 'Captured', Net: '0.00' });
    expect(rows.get(capture.id)).toMatchObject({ Net: '20.00' });
    expect(rows.get(refund.id)).toMatchObject({ Type: 'Refund', Net: '-40.00' });
    const ours = [kept.id, voided.id, tab.id, capture.id, refund.id];
    const net = ours.reduce((sum, id) => sum + Math.round(Number(rows.get(id)?.Net) * 100), 0);
    expect(net).toBe(2000);
  });
});

describe('the end-of-day report', () => {
  it('prints the open batch mid-day marked not yet settled, with totals by card brand, voids and declines, on the receipt printer too', async () => {
    const { client } = counter.screens;
    await client.closeOpenBatch().catch(() => undefined);
    await client.createTransaction({
      type: 'SALE',
      amount: '30.00',
      card: '4111111111111111',
      exp_date: '1230',
    });
    await client.createTransaction({
      type: 'SALE',
      amount: '12.50',
      card: '4111111111111111',
      exp_date: '1230',
    });
    await client.createTransaction({
      type: 'SALE',
      amount: '20.00',
      card: '5454545454545454',
      exp_date: '1230',
    });
    const voided = await client.createTransaction({
      type: 'SALE',
      amount: '7.00',
      card: '4111111111111111',
      exp_date: '1230',
    });
    await counter.screens.running.gateway.engine.transactions.submit(
      { type: 'VOID', id: voided.id ?? '' },
      { apiKeyId: null },
    );
    await client.createTransaction({
      type: 'SALE',
      amount: '8.00',
      card: '4000000000000002',
      exp_date: '1230',
    });
    const printer = await startFakePrinter();
    await counter.reader.bridge.invoke('receipts:update-settings', { printer: printer.address, width: 32 });
    try {
      const cashier = await counter.open('safety');
      const { page } = cashier;
      await cashier.goTo('End of day');
      await page.getByTestId('batch-exceptions').filter({ hasText: '1 voided' }).waitFor();
      expect(await page.getByTestId('batch-exceptions').textContent()).toBe(
        '1 voided1 declined while the batch was open',
      );
      await page.getByRole('button', { name: 'Print report' }).click();
      const report = page.getByTestId('batch-report');
      await report.waitFor();
      expect(await report.getByTestId('not-settled').textContent()).toMatch(
        /^Not yet settled: the open batch as of/,
      );
      expect(await report.getByTestId('brand-Visa').textContent()).toBe('Visa2$42.50');
      expect(await report.getByTestId('brand-Mastercard').textContent()).toBe('Mastercard1$20.00');
      expect(await report.getByTestId('batch-exceptions').textContent()).toContain('1 declined');
      await cashier.check('13-open-batch-report');

      // On receipt paper, the report is the printer's lines at its width, within the paper.
      await page.getByRole('radio', { name: 'Receipt paper' }).click();
      const paper = page.locator('[data-testid="batch-report"][data-paper="receipt"]');
      await paper.waitFor();
      expect(await paper.getAttribute('data-width')).toBe('32');
      const shown = ((await paper.locator('pre').textContent()) ?? '').split('\n');
      expect(shown.every((line) => line.length <= 32)).toBe(true);
      const text = shown.join('\n');
      expect(text).toMatch(/^ +NOT YET SETTLED$/m);
      expect(text).toMatch(/^Voided +1$/m);
      expect(text).toMatch(/^Declined +1$/m);
      expect(text).toMatch(/^Visa +2 +\$42\.50$/m);
      expect(text).not.toMatch(/4111111111111111|\d{12,}/);
      await cashier.check('14-report-receipt-paper');
      await page.emulateMedia({ media: 'print' });
      const box = await paper.boundingBox();
      expect(box?.width ?? Infinity).toBeLessThanOrEqual(303);
      const overflow = await paper.evaluate((figure) => figure.scrollWidth - figure.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await page.emulateMedia({ media: 'screen' });

      const job = printer.nextJob();
      await page.getByRole('button', { name: 'Print on receipt printer' }).click();
      await page.getByTestId('report-printed').waitFor();
      expect(decodeEscPos(await job).copies).toEqual([shown]);
      await cashier.check('15-report-printed');
    } finally {
      await counter.reader.bridge.invoke('receipts:update-settings', { printer: '', width: 42 });
      await printer.close();
    }
  });
});
