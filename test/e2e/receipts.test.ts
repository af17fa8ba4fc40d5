/**
 * Receipts at the counter in Debian's Chromium against a real engine: printed to a real TCP listener
 * standing in for the network printer, emailed to a real SMTP server, previewed on screen, the check
 * printed when a tab opens, reprinted from History and the transaction details, and the printer and
 * mail settings. Screenshots are saved as test-results/receipts-*.png and checked with axe.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { decodeEscPos } from '../support/escpos-decoder';
import { refusedPort, startFakePrinter, type FakePrinter } from '../support/fake-printer';
import { startMailServer, type MailServer } from '../support/mail-server';
import { join } from 'node:path';
import { RESULTS_DIR, startCounter, type Counter, type CounterPage } from './counter-page';

let counter: Counter;
let printer: FakePrinter;
let smtp: MailServer;
const TEST_CARDS = ['4111111111111111', '5454545454545454'];

beforeAll(async () => {
  counter = await startCounter();
  printer = await startFakePrinter();
  smtp = await startMailServer();
  await counter.reader.bridge.invoke('receipts:update-settings', {
    merchantName: 'Blue Door Bistro',
    merchantAddress: ['12 Harbour Street', 'Portland, ME 04101'],
    merchantPhone: '(207) 555-0142',
    footer: ['Thank you!'],
    printer: printer.address,
    width: 42,
    customerCopy: 'ask',
    merchantCopy: 'never',
    checkAtAuth: 'always',
    smtpHost: '127.0.0.1',
    smtpPort: smtp.port,
    smtpSecurity: 'none',
    smtpFrom: 'receipts@bluedoor.test',
  });
});
afterEach(() => counter?.closePages());
afterAll(async () => {
  await counter?.close();
  await printer?.close();
  await smtp?.close();
});

function expectNoCardNumber(text: string) {
  for (const card of TEST_CARDS) expect(text).not.toContain(card);
}

async function keyedSale(cashier: CounterPage, digits: string) {
  await cashier.tapAmount(digits);
  await cashier.chargeAndKeyIn();
  await cashier.fillCard({ number: '4111111111111111', expiry: '1230', csc: '123' });
  await cashier.submitCard();
  await cashier.expectApproved();
}

describe('after a sale', () => {
  it('Print receipt prints the customer copy, Email receipt sends it, and Preview shows each copy', async () => {
    const cashier = await counter.open('receipts');
    const { page } = cashier;
    await keyedSale(cashier, '2750');
    const [sale] = await counter.screens.client.listTransactions({ page_size: 1 });
    const actions = page.getByTestId('receipt-actions');
    // receipt_customer_copy is ask: the screen asks, and prints only when told.
    await actions.getByText('Does the customer want a receipt?').waitFor();
    expect(printer.jobs).toHaveLength(0);
    await cashier.check('01-sale-approved');
    await page.setViewportSize({ width: 800, height: 600 });
    await cashier.check('01b-sale-approved-800x600');
    await page.setViewportSize({ width: 1280, height: 800 });

    const job = printer.nextJob();
    await actions.getByRole('button', { name: 'Print receipt' }).click();
    await actions.getByText(`The printer at ${printer.address} took the receipt.`).waitFor();
    const [printed] = decodeEscPos(await job).copies;
    const expected = await counter.reader.bridge.invoke('receipts:preview', {
      id: Number(sale?.id),
      copy: 'customer',
    });
    expect(printed).toEqual(expected.lines);
    expect(printed?.map((line) => line.trim())).toEqual(
      expect.arrayContaining(['Blue Door Bistro', 'SALE', 'APPROVED', 'CUSTOMER COPY']),
    );
    expectNoCardNumber((printed ?? []).join('\n'));

    await actions.getByRole('button', { name: 'Email receipt' }).click();
    await actions.getByLabel(/Email address/).fill('ann@example.test');
    await cashier.check('02-email-address');
    await actions.getByRole('button', { name: 'Send' }).click();
    await actions.getByText('Receipt emailed to ann@example.test.').waitFor();
    // Typing the address left the answer screen where it was: N and T were the field's letters.
    await cashier.expectApproved();
    const mail = smtp.mails.at(-1);
    expect(mail?.to && 'text' in mail.to ? mail.to.text : '').toBe('ann@example.test');
    expect(mail?.text?.trimEnd()).toBe(expected.lines.join('\n').trimEnd());
    expectNoCardNumber(`${mail?.text ?? ''}${String(mail?.html)}`);

    await actions.getByRole('button', { name: 'Preview' }).click();
    const dialog = page.getByTestId('receipt-dialog');
    const preview = dialog.getByTestId('receipt-preview');
    await preview.and(page.locator('[data-copy="customer"]')).waitFor();
    expect(await preview.textContent()).toContain('Visa **** 1111');
    await cashier.check('03-preview-customer-copy');
    await dialog.getByRole('radio', { name: 'Merchant copy' }).click();
    await preview.and(page.locator('[data-copy="merchant"]')).waitFor();
    expect(await preview.textContent()).toContain('MERCHANT COPY');
    expect(await preview.textContent()).toContain('Signature');
    await cashier.check('04-preview-merchant-copy');

    // Printed on this computer or saved as a PDF, the page holds the paper alone.
    await page.emulateMedia({ media: 'print' });
    expect(await preview.isVisible()).toBe(true);
    expect(await dialog.getByRole('button', { name: 'Close' }).isVisible()).toBe(false);
    expect(await page.getByRole('navigation', { name: 'Screens' }).isVisible()).toBe(false);
    expect(await page.getByTestId('authorization-code').isVisible()).toBe(false);
    await page.screenshot({ path: join(RESULTS_DIR, 'receipts-04b-printed-page.png') });
    const pdf = await page.pdf({ width: '80mm', height: '240mm' });
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await page.emulateMedia({ media: 'screen' });
    const merchantJob = printer.nextJob();
    await dialog.getByRole('button', { name: 'Print merchant copy' }).click();
    await dialog.getByText(`The printer at ${printer.address} took the receipt.`).waitFor();
    expect(decodeEscPos(await merchantJob).copies[0]?.map((line) => line.trim())).toContain('MERCHANT COPY');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('a printer that refuses is said in words, Esc puts that away, and the sale stands', async () => {
    const port = await refusedPort();
    await counter.reader.bridge.invoke('receipts:update-settings', { printer: `tcp://127.0.0.1:${port}` });
    try {
      const cashier = await counter.open('receipts');
      await keyedSale(cashier, '1500');
      const actions = cashier.page.getByTestId('receipt-actions');
      await actions.getByRole('button', { name: 'Print receipt' }).click();
      const problem = actions.getByRole('alert');
      await problem.waitFor();
      expect(await problem.textContent()).toBe(
        `The printer at 127.0.0.1:${port} refused the connection. Check that it is on and that ${port} is its raw printing port (9100 on most).`,
      );
      await cashier.check('05-printer-refused');
      const [sale] = await counter.screens.client.listTransactions({ page_size: 1 });
      expect(sale).toMatchObject({ result: 'Approved', amount: '15.00', voided: 'false' });

      // Esc puts the problem away and nothing else: the approved answer stays, with its buttons.
      await cashier.stepSettled();
      await cashier.page.keyboard.press('Escape');
      await problem.waitFor({ state: 'detached' });
      expect(await cashier.result.and(cashier.page.locator('[data-outcome="approved"]')).count()).toBe(1);
      expect(await actions.getByRole('button', { name: 'Print receipt' }).count()).toBe(1);
      expect(await cashier.result.getByRole('button', { name: /^New sale/ }).count()).toBe(1);
    } finally {
      await counter.reader.bridge.invoke('receipts:update-settings', { printer: printer.address });
    }
  });
});

/** Opens a $40.00 tab with a swiped Mastercard and returns the check that printed by itself. */
async function openTabAndReadCheck(cashier: CounterPage): Promise<string> {
  const { page } = cashier;
  await cashier.goTo('Tabs');
  await page.getByRole('button', { name: 'Start a tab' }).click();
  await page.getByTestId('tab-amount').fill('40.00');
  await page.getByRole('button', { name: 'Take the card for $40.00' }).click();
  await page.getByTestId('waiting-for-swipe').waitFor();
  const job = printer.nextJob();
  await counter.reader.bridge.invoke('simulator:swipe', { card: 'approved-mastercard' });
  await page.getByTestId('outcome').and(page.locator('[data-outcome="approved"]')).waitFor();
  await page.getByTestId('receipt-actions').getByText('Check printed.').waitFor();
  const [check] = decodeEscPos(await job).copies;
  return (check ?? []).join('\n');
}

describe('a tab', () => {
  it('at a counter that takes no tips prints a check that asks for none, saying Tab and Swiped', async () => {
    expect(counter.screens.running.gateway.engine.settings.get('tips_enabled')).toBe(false);
    const cashier = await counter.open('receipts');
    const text = await openTabAndReadCheck(cashier);
    expect(text).toMatch(/^ +AUTH \(TAB\)$/m);
    expect(text).toMatch(/^Swiped\s+Mastercard \*\*\*\* 5454$/m);
    expect(text).toMatch(/^AMOUNT\s+\$40\.00$/m);
    expect(text).toMatch(/^TOTAL\s+\$40\.00$/m);
    expect(text).not.toMatch(/^TIP|\btips?\b|Entry/im);
    expectNoCardNumber(text);
    await cashier.page.getByTestId('receipt-actions').getByRole('button', { name: 'Preview' }).click();
    const preview = cashier.page.getByTestId('receipt-dialog').getByTestId('receipt-preview');
    await preview.and(cashier.page.locator('[data-copy="check"]')).waitFor();
    expect((await preview.textContent())?.trimEnd()).toBe(text);
    await cashier.check('05-check-without-tips');
  });

  it('prints its check when it opens, with the tip lines and the suggested tips while tips are on', async () => {
    const { settings } = counter.screens.running.gateway.engine;
    await settings.setFromText('tips_enabled', 'true');
    try {
      const cashier = await counter.open('receipts');
      const { page } = cashier;
      const text = await openTabAndReadCheck(cashier);
      expect(text).toMatch(/^AMOUNT\s+\$40\.00$/m);
      expect(text).toMatch(/^TIP\s+_{20}$/m);
      expect(text).toMatch(/^TOTAL\s+_{20}$/m);
      expect(text).toMatch(/^15% {2}tip \$6\.00\s+total \$46\.00$/m);
      expect(text).toContain('Signature');
      expectNoCardNumber(text);
      await cashier.check('06-tab-opened-check-printed');

      await page.getByTestId('receipt-actions').getByRole('button', { name: 'Preview' }).click();
      const preview = page.getByTestId('receipt-dialog').getByTestId('receipt-preview');
      await preview.and(page.locator('[data-copy="check"]')).waitFor();
      expect((await preview.textContent())?.trimEnd()).toBe(text);
      await cashier.check('07-preview-check');
      await page.setViewportSize({ width: 800, height: 600 });
      await cashier.check('08-preview-check-800x600');
    } finally {
      await settings.setFromText('tips_enabled', 'false');
    }
  });
});

describe('reprint', () => {
  it('from History prints any transaction again', async () => {
    const sale = await counter.screens.client.createTransaction({
      type: 'SALE',
      amount: '9.99',
      card: '5454545454545454',
      exp_date: '1230',
      invoice: 'R-42',
    });
    const cashier = await counter.open('receipts');
    const { page } = cashier;
    await cashier.goTo('History');
    const row = page.getByTestId(`history-${sale.id}`);
    await row.getByRole('button', { name: `Reprint the receipt of #${sale.id}` }).click();
    const dialog = page.getByTestId('receipt-dialog');
    await dialog.getByTestId('receipt-preview').waitFor();
    expect(await dialog.getByTestId('receipt-preview').textContent()).toContain('R-42');
    await cashier.check('09-history-reprint');
    const job = printer.nextJob();
    await dialog.getByRole('button', { name: 'Print customer copy' }).click();
    await dialog.getByText(`The printer at ${printer.address} took the receipt.`).waitFor();
    const [paper] = decodeEscPos(await job).copies;
    expect(paper?.join('\n')).toMatch(/^Invoice\s+R-42$/m);
    expect(paper?.join('\n')).toContain('Mastercard **** 5454');
  });

  it('from the transaction details', async () => {
    const sale = await counter.screens.client.createTransaction({
      type: 'SALE',
      amount: '4.25',
      card: '4111111111111111',
      exp_date: '1230',
    });
    const cashier = await counter.open('receipts');
    const { page } = cashier;
    await cashier.goTo('Refund & void');
    await page.getByTestId(`transaction-${sale.id}`).click();
    const details = page.getByTestId('transaction-details');
    await details.getByRole('button', { name: `Reprint the receipt of #${sale.id}` }).click();
    const dialog = page.getByTestId('receipt-dialog');
    await dialog.getByTestId('receipt-preview').waitFor();
    const job = printer.nextJob();
    await dialog.getByRole('button', { name: 'Print customer copy' }).click();
    await dialog.getByText(`The printer at ${printer.address} took the receipt.`).waitFor();
    expect(decodeEscPos(await job).copies[0]?.join('\n')).toMatch(/^TOTAL\s+\$4\.25$/m);
    await dialog.getByRole('button', { name: 'Close' }).click();

    // Voided, the void's receipt names the sale it reverses.
    const voided = await counter.screens.client.createTransaction({ type: 'VOID', id: sale.id ?? '' });
    await cashier.goTo('History');
    await page
      .getByTestId(`history-${voided.id}`)
      .getByRole('button', { name: `Reprint the receipt of #${voided.id}` })
      .click();
    const voidPreview = page.getByTestId('receipt-dialog').getByTestId('receipt-preview');
    await voidPreview.waitFor();
    const voidText = (await voidPreview.textContent()) ?? '';
    expect(voidText).toMatch(new RegExp(`^Void of\\s+#${sale.id}$`, 'm'));
    expect(voidText).toMatch(/^\s*VOID$/m);
    await cashier.check('11-void-receipt');
  });
});

describe('settings', () => {
  it('show the receipt settings, keep the mail password hidden, and print a test page', async () => {
    await counter.reader.bridge.invoke('receipts:update-settings', { smtpPassword: 'correct horse' });
    const cashier = await counter.open('receipts');
    const { page } = cashier;
    await cashier.goTo('Settings');
    await page.getByRole('button', { name: 'Receipts & printer' }).click();
    const section = page.getByTestId('receipts-settings');
    await section.waitFor();
    expect(await section.getByLabel('Business name').inputValue()).toBe('Blue Door Bistro');
    expect(await section.getByLabel('Receipt printer').inputValue()).toBe(printer.address);
    expect(await section.getByLabel('Password').inputValue()).toBe('');
    expect(await section.textContent()).toContain('A password is kept; it is never shown.');
    expect(await page.content()).not.toContain('correct horse');
    await cashier.check('10-settings');
    await section.getByLabel('Password').scrollIntoViewIfNeeded();
    await cashier.check('10b-settings-email');

    const job = printer.nextJob();
    await section.getByRole('button', { name: 'Test print' }).click();
    await section.getByText(`The printer at ${printer.address} took the receipt.`).waitFor();
    expect(decodeEscPos(await job).copies[0]).toContain('TEST PRINT');

    await section.getByLabel('Paper width').selectOption('32');
    await section.getByLabel('Receipt printer').fill('tcp://not a printer');
    await section.getByRole('button', { name: 'Save' }).click();
    await section.getByRole('alert').waitFor();
    // Said before anything is sent, so no manager is asked for a change that cannot be made.
    expect(await section.getByRole('alert').textContent()).toBe(
      'The receipt printer is tcp://<address>:<port> (port 9100 on most printers), or the name of a print queue such as counter-epson.',
    );
    const kept = await counter.reader.bridge.invoke('receipts:settings');
    expect(kept).toMatchObject({ printer: printer.address, width: 42 });

    await section.getByRole('button', { name: 'Remove password' }).click();
    await section.getByText('No password is kept.').waitFor();
    expect((await counter.reader.bridge.invoke('receipts:settings')).smtp.passwordSet).toBe(false);
  });
});
