/**
 * The customer's screen and the cashier's, both driven at once in Debian's Chromium over the headless
 * engine (`serve --renderer`): the customer picks the tip, signs and chooses the receipt on theirs,
 * the cashier sees each step and can skip or cancel. A real TCP printer and a real SMTP server take
 * the receipts. Screenshots are saved as test-results/customer-*.png and test-results/counter-*.png,
 * and every customer step is checked with axe at 800x480, 1024x600 and 1280x800.
 */
import { PNG } from 'pngjs';
import type { Page, WebSocketRoute } from 'playwright';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CUSTOMER_DECLINE_WORDS } from '../../shared/ipc/customer-contract';
import { SIGNATURE_PAD } from '../../shared/signature';
import { drawSignature, SIGNATURE_PRINT_SIZE } from '../../electron/gateway/receipts/signature-image';
import { decodeEscPos } from '../support/escpos-decoder';
import { startFakePrinter, type FakePrinter } from '../support/fake-printer';
import { startMailServer, type MailServer } from '../support/mail-server';
import { sampleSignature } from '../support/signatures';
import { CounterPage, expectAccessible, RESULTS_DIR, startCounter, type Counter } from './counter-page';
import { join } from 'node:path';

let counter: Counter;
let printer: FakePrinter;
let smtp: MailServer;

const SIZES = [
  { width: 800, height: 480 },
  { width: 1024, height: 600 },
  { width: 1280, height: 800 },
] as const;

beforeAll(async () => {
  counter = await startCounter();
  printer = await startFakePrinter();
  smtp = await startMailServer();
  const { bridge } = counter.reader;
  await bridge.invoke('receipts:update-settings', {
    merchantName: 'Blue Door Café',
    footer: ['Thank you!'],
    printer: printer.address,
    customerCopy: 'ask',
    merchantCopy: 'never',
    smtpHost: '127.0.0.1',
    smtpPort: smtp.port,
    smtpSecurity: 'none',
    smtpFrom: 'receipts@bluedoor.test',
  });
  await bridge.invoke('settings:update', { tipsEnabled: true, counterTips: true });
}, 180_000);
beforeEach(async () => {
  await counter.reader.bridge.invoke('settings:update', { signatureAboveCents: null });
  // The sale an earlier test left on the customer's screen goes.
  const { saleSequence } = await counter.reader.bridge.invoke('customer:view');
  if (saleSequence !== undefined) await counter.reader.bridge.invoke('customer:finish', { saleSequence });
});
afterEach(() => counter?.closePages());
afterAll(async () => {
  await counter?.close();
  await printer?.close();
  await smtp?.close();
});

/** The customer's page, paired with a ticket of its own, at a panel's size. */
async function openCustomer(size: { width: number; height: number } = SIZES[0]): Promise<Page> {
  const context = await counter.browser.newContext({ viewport: size, deviceScaleFactor: 1, hasTouch: true });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  (page as Page & { problems?: string[] }).problems = problems;
  // Closed with the counter's pages: one left open would take the next test's sale.
  counter.adopt(context);
  await page.goto(counter.screens.running.pairingAddress('customer'));
  await page.getByTestId('customer-screen').waitFor();
  return page;
}

/** The cashier's screen, once it knows the customer's screen is there. */
async function openCashier(prefix = 'counter'): Promise<CounterPage> {
  const cashier = await counter.open(prefix);
  await cashier.page.getByTestId('customer-screen-badge').waitFor();
  return cashier;
}

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(RESULTS_DIR, `${name}.png`), animations: 'disabled' });
}

/** Every button of the customer's screen is a fingertip's size or more. */
async function expectFingerTargets(page: Page, where: string): Promise<void> {
  const small = await page.evaluate(() =>
    Array.from(document.querySelectorAll('button'))
      .filter((button) => button.offsetParent !== null)
      .map((button) => ({
        text: button.textContent ?? button.getAttribute('aria-label'),
        box: button.getBoundingClientRect(),
      }))
      .filter(({ box }) => box.width < 44 || box.height < 44)
      .map(({ text, box }) => `${text} ${Math.round(box.width)}x${Math.round(box.height)}`),
  );
  expect(small, `buttons under 44 px on ${where}`).toEqual([]);
}

/** The cashier charges `digits` (cents); the sale goes to the customer's screen. */
async function charge(cashier: CounterPage, digits: string): Promise<void> {
  await cashier.tapAmount(digits);
  await cashier.page.getByRole('button', { name: /^Charge \$/ }).click();
}

async function swipe(card: 'approved-visa' | 'declined' = 'approved-visa'): Promise<void> {
  await counter.reader.bridge.invoke('simulator:swipe', { card });
}

function customerStep(cashier: CounterPage, step: string) {
  return cashier.page.locator(`[data-customer-step="${step}"]`);
}

describe('a counter sale on the customer’s screen', () => {
  it('the customer picks 20% and Email: the receipt with the tip reaches the mail server', async () => {
    const customer = await openCustomer();
    const cashier = await openCashier();
    await customer.getByRole('heading', { name: 'Welcome to Blue Door Café' }).waitFor();
    await shoot(customer, 'customer-01-idle');
    await charge(cashier, '4000');
    await customer.getByRole('heading', { name: 'Add a tip?' }).waitFor();
    await customerStep(cashier, 'tip').waitFor();
    await shoot(customer, 'customer-02-tip');
    await cashier.check('01-customer-choosing-tip');
    await cashier.page.setViewportSize({ width: 1024, height: 768 });
    await cashier.check('01b-customer-choosing-tip-1024x768');
    await cashier.page.setViewportSize({ width: 800, height: 600 });
    await cashier.check('01c-customer-choosing-tip-800x600');
    await cashier.page.setViewportSize({ width: 1280, height: 800 });

    await customer.getByRole('button', { name: /^20%/ }).click();
    await customer.getByRole('heading', { name: 'Swipe your card' }).waitFor();
    expect(await customer.getByTestId('customer-total').textContent()).toBe('$48.00');
    await shoot(customer, 'customer-03-swipe');
    await cashier.page.getByTestId('waiting-for-swipe').waitFor();
    expect(await cashier.page.getByTestId('sale-total').textContent()).toBe('$48.00');
    expect(await cashier.page.getByTestId('sale-tip').textContent()).toContain('$8.00 (20%)');
    await cashier.check('02-tip-chosen');
    // In a window 600 px tall, Cancel the sale is in view without scrolling while the card is awaited.
    await cashier.page.setViewportSize({ width: 800, height: 600 });
    await cashier.check('02b-tip-chosen-800x600');
    const cancel = await cashier.page
      .getByTestId('customer-progress')
      .getByRole('button', { name: 'Cancel the sale' })
      .evaluate((button) => button.getBoundingClientRect().bottom);
    expect(cancel).toBeLessThanOrEqual(600);
    await cashier.page.setViewportSize({ width: 1280, height: 800 });

    await swipe();
    await cashier.expectApproved();
    await customer.getByRole('heading', { name: 'Would you like a receipt?' }).waitFor();
    await shoot(customer, 'customer-04-receipt');
    await customerStep(cashier, 'receipt').waitFor();
    await cashier.check('03-customer-choosing-receipt');

    await customer.getByRole('button', { name: 'Email' }).click();
    const keys = customer.getByRole('group', { name: 'Keyboard' });
    for (const key of 'ann') await keys.getByRole('button', { name: key, exact: true }).click();
    await keys.getByRole('button', { name: '@', exact: true }).click();
    for (const key of 'bluedoor') await keys.getByRole('button', { name: key, exact: true }).click();
    await keys.getByRole('button', { name: '.com', exact: true }).click();
    expect(await customer.getByRole('textbox', { name: 'Your email address' }).inputValue()).toBe(
      'ann@bluedoor.com',
    );
    await shoot(customer, 'customer-05-email');
    const mailed = smtp.mails.length;
    await customer.getByRole('button', { name: 'Send receipt' }).click();
    await customer.getByRole('heading', { name: 'Thank you!' }).waitFor();
    await shoot(customer, 'customer-06-thanks');

    await expect.poll(() => smtp.mails.length).toBe(mailed + 1);
    const mail = smtp.mails.at(-1);
    expect(mail?.to && 'text' in mail.to ? mail.to.text : '').toBe('ann@bluedoor.com');
    expect(mail?.text).toMatch(/^TIP\s+\$8\.00$/m);
    expect(mail?.text).toMatch(/^TOTAL\s+\$48\.00$/m);
    expect(mail?.text).not.toContain('4111111111111111');
    // The customer made a sale and opened no tab: the receipt says so.
    expect(mail?.text).toMatch(/^\s*SALE$/m);
    expect(mail?.text).not.toMatch(/TAB|CAPTURE/);

    const choices = cashier.page.getByTestId('customer-choices');
    await choices.getByText('Receipt: Email to ann@bluedoor.com').waitFor();
    expect(await choices.textContent()).toContain('Tip: $8.00 (20%)');
    await cashier.page.getByText('Receipt emailed to ann@bluedoor.com.').waitFor();
    await cashier.check('04-customer-done');

    // Recorded as a tip: the capture of an AUTH of the total, with its tip_amount.
    const [capture] = await counter.screens.client.listTransactions({ page_size: 1 });
    expect(capture).toMatchObject({ type: 'Capture', amount: '48.00', tip_amount: '8.00' });
    await customer.getByRole('heading', { name: 'Welcome to Blue Door Café' }).waitFor();
  });

  it('a tipped sale whose capture got no answer: Enter checks again and completes it, charging once', async () => {
    const customer = await openCustomer();
    const cashier = await openCashier('lost-capture');
    let captures = 0;
    // The capture of the tipped AUTH is lost on its way: the AUTH holds the card, its answer unknown.
    await cashier.page.route('**/rest/v1/transactions', (route) => {
      const request = route.request();
      const isCapture = request.method() === 'POST' && (request.postData() ?? '').includes('"CAPTURE"');
      return isCapture && ++captures === 1 ? route.abort('connectionreset') : route.continue();
    });
    await charge(cashier, '4000');
    await customer.getByRole('button', { name: /^20%/ }).click();
    await cashier.page.getByTestId('waiting-for-swipe').waitFor();
    await swipe();
    expect(await cashier.outcome()).toBe('unknown');
    cashier.problems.splice(0);
    const checkAgain = cashier.page.getByRole('button', { name: /^Check again/ });
    expect(await checkAgain.getAttribute('class')).toContain('button-primary');
    await cashier.stepSettled();
    expect(await checkAgain.evaluate((button) => button === document.activeElement)).toBe(true);
    await cashier.check('04b-capture-unknown');
    await cashier.page.keyboard.press('Enter');
    await cashier.expectApproved();
    const [capture] = await counter.screens.client.listTransactions({ type: 'capture', page_size: 1 });
    expect(capture).toMatchObject({ amount: '48.00', tip_amount: '8.00', result: 'Approved' });
    expect(captures).toBe(2);
  });

  it('Esc then Enter at once after a tip: the customer is asked again, and the old tip is not charged', async () => {
    const customer = await openCustomer();
    const cashier = await openCashier('asked-again');
    await charge(cashier, '4000');
    await customer.getByRole('button', { name: /^20%/ }).click();
    await cashier.page.getByTestId('waiting-for-swipe').waitFor();
    // Back to the amount and on to the tip again, before the host has answered either step: the
    // customer's screen still says "swipe" with the old tip until it hears of the new sale.
    await cashier.page.evaluate(async () => {
      const key = (name: string) =>
        document.body.dispatchEvent(
          new KeyboardEvent('keydown', { key: name, bubbles: true, cancelable: true }),
        );
      key('Escape');
      await Promise.resolve();
      key('Enter');
    });
    await customer.getByRole('heading', { name: 'Add a tip?' }).waitFor();
    await customerStep(cashier, 'tip').waitFor();
    expect(await cashier.page.getByTestId('waiting-for-swipe').count()).toBe(0);
    await customer.getByRole('button', { name: 'No tip' }).click();
    await cashier.page.getByTestId('waiting-for-swipe').waitFor();
    expect(await cashier.page.getByTestId('sale-total').textContent()).toBe('$40.00');
    await swipe();
    await cashier.expectApproved();
    const [sale] = await counter.screens.client.listTransactions({ page_size: 1 });
    expect(sale).toMatchObject({ amount: '40.00', result: 'Approved' });
    expect(sale?.tip_amount ?? '0.00').toBe('0.00');
  });

  it('below the smart tip amount the customer sees dollars, and No receipt sends nothing', async () => {
    const customer = await openCustomer();
    const cashier = await openCashier();
    await charge(cashier, '650');
    const choices = customer.getByRole('group', { name: 'Suggested tips' });
    await choices.waitFor();
    expect(await choices.getByRole('button').allTextContents()).toEqual(['$1.00', '$2.00', '$3.00']);
    await shoot(customer, 'customer-07-smart-tip');
    await choices.getByRole('button', { name: '$2.00' }).click();
    await customer.getByRole('heading', { name: 'Swipe your card' }).waitFor();
    await swipe();
    await customer.getByRole('heading', { name: 'Would you like a receipt?' }).waitFor();
    const jobs = printer.jobs.length;
    const mailed = smtp.mails.length;
    await customer.getByRole('button', { name: 'No receipt' }).click();
    await customer.getByRole('heading', { name: 'Thank you!' }).waitFor();
    await cashier.page.getByTestId('customer-choices').getByText('Receipt: No receipt').waitFor();
    expect([printer.jobs.length, smtp.mails.length]).toEqual([jobs, mailed]);
    const [capture] = await counter.screens.client.listTransactions({ page_size: 1 });
    expect(capture).toMatchObject({ type: 'Capture', amount: '8.50', tip_amount: '2.00' });
  });

  it('a custom tip above the warning is confirmed on the customer’s screen first', async () => {
    const customer = await openCustomer();
    const cashier = await openCashier();
    await charge(cashier, '1500');
    await customer.getByRole('button', { name: 'Custom' }).click();
    const pad = customer.getByRole('group', { name: 'Tip keypad' });
    for (const key of ['1', '0', '00']) await pad.getByRole('button', { name: key, exact: true }).click();
    expect(await customer.getByTestId('custom-tip').textContent()).toBe('$10.00');
    await shoot(customer, 'customer-08-custom-tip');
    await customer.getByRole('button', { name: 'Add tip' }).click();
    await customer.getByTestId('tip-confirm').waitFor();
    expect(await customer.getByTestId('tip-confirm').textContent()).toContain(
      '66.7% of your $15.00 purchase',
    );
    await shoot(customer, 'customer-09-confirm-tip');
    // Nothing reached the cashier's sale before the customer confirmed.
    expect(await cashier.page.getByTestId('waiting-for-swipe').count()).toBe(0);
    await customer.getByRole('button', { name: 'Yes, add $10.00' }).click();
    await customer.getByRole('heading', { name: 'Swipe your card' }).waitFor();
    expect(await customer.getByTestId('customer-total').textContent()).toBe('$25.00');
    await swipe();
    await customer.getByRole('button', { name: 'No receipt' }).click();
    await cashier.page.getByTestId('customer-choices').getByText('Tip: $10.00').waitFor();
  });

  it('a signature drawn with pointer events is kept, returned as a PNG and printed on the merchant copy', async () => {
    await counter.reader.bridge.invoke('settings:update', { signatureAboveCents: 2000 });
    await counter.reader.bridge.invoke('receipts:update-settings', { merchantCopy: 'always' });
    try {
      const customer = await openCustomer({ width: 1024, height: 600 });
      const cashier = await openCashier();
      await charge(cashier, '3000');
      await customer.getByRole('button', { name: 'No tip' }).click();
      await customer.getByRole('heading', { name: 'Swipe your card' }).waitFor();
      const job = printer.nextJob();
      await swipe();
      await customer.getByRole('heading', { name: 'Please sign below' }).waitFor();
      await customerStep(cashier, 'signature').waitFor();
      await cashier.check('05-customer-signing');
      await shoot(customer, 'customer-10-sign');
      expect(await customer.getByRole('button', { name: 'Done' }).isDisabled()).toBe(true);

      // Drawn on the pad with pointer events, stroke by stroke.
      const box = await customer.getByTestId('signature-pad').boundingBox();
      if (!box) throw new Error('no signature pad');
      const at = (x: number, y: number) =>
        [
          box.x + (x / SIGNATURE_PAD.width) * box.width,
          box.y + (y / SIGNATURE_PAD.height) * box.height,
        ] as const;
      // A finger first: touch events, which the page reads as touch pointers. Clear takes it off.
      const touch = await customer.context().newCDPSession(customer);
      const [fx, fy] = at(200, 150);
      await touch.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: fx, y: fy }] });
      for (let step = 1; step <= 20; step += 1) {
        const [x, y] = at(200 + step * 30, 150 + (step % 2) * 60);
        await touch.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y }] });
      }
      await touch.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      await customer.getByRole('button', { name: 'Done' }).and(customer.locator(':enabled')).waitFor();
      await shoot(customer, 'customer-10b-signed-by-finger');
      await customer.getByRole('button', { name: 'Clear' }).click();
      expect(await customer.getByRole('button', { name: 'Done' }).isDisabled()).toBe(true);
      // Then the signature kept: strokes drawn with the mouse, pointer events all the same.
      for (const stroke of sampleSignature()) {
        await customer.mouse.move(...at(stroke[0] ?? 0, stroke[1] ?? 0));
        await customer.mouse.down();
        for (let i = 2; i + 1 < stroke.length; i += 2) {
          await customer.mouse.move(...at(stroke[i] ?? 0, stroke[i + 1] ?? 0));
        }
        await customer.mouse.up();
      }
      await shoot(customer, 'customer-11-signed');
      await customer.getByRole('button', { name: 'Done' }).click();
      await customer.getByRole('heading', { name: 'Would you like a receipt?' }).waitFor();

      const [capture] = await counter.screens.client.listTransactions({ page_size: 1 });
      const sale = capture?.id ?? '';
      expect(capture).toMatchObject({ type: 'Sale', amount: '30.00' });
      const strokes = await counter.screens.running.gateway.engine.signatures.strokes(Number(sale));
      expect(strokes?.length).toBe(sampleSignature().length);
      const png = await counter.screens.client.signature(sale);
      const picture = PNG.sync.read(Buffer.from(png ?? new Uint8Array()));
      expect([picture.width, picture.height]).toEqual([600, 200]);

      // The merchant copy printed by itself once signed, with the signature as a raster picture.
      const paper = decodeEscPos(await job);
      expect(paper.copies[0]?.map((line) => line.trim())).toEqual(
        expect.arrayContaining(['MERCHANT COPY', '[picture 384x128]', 'Signed on screen']),
      );
      const drawn = drawSignature(strokes ?? [], SIGNATURE_PRINT_SIZE);
      expect(Array.from(paper.pictures[0]?.dots ?? [])).toEqual(
        Array.from(drawn.gray, (v) => (v === 0 ? 1 : 0)),
      );

      await cashier.page.getByTestId('customer-choices').getByText('Signed on screen').waitFor();
      await customer.getByRole('button', { name: 'No receipt' }).click();
      // The signature is shown in the transaction's details.
      await cashier.page.getByRole('button', { name: 'New sale' }).click();
      await cashier.goTo('Refund & void');
      await cashier.page.getByTestId(`transaction-${sale}`).click();
      await cashier.page
        .getByTestId('transaction-details')
        .getByRole('img', { name: 'The customer’s signature' })
        .waitFor();
      await cashier.check('06-details-signature');
    } finally {
      await counter.reader.bridge.invoke('receipts:update-settings', { merchantCopy: 'never' });
    }
  });

  it('a decline is said in customer words, and another card goes on with the same total', async () => {
    const customer = await openCustomer();
    const cashier = await openCashier();
    await charge(cashier, '2200');
    await customer.getByRole('button', { name: 'No tip' }).click();
    await customer.getByRole('heading', { name: 'Swipe your card' }).waitFor();
    await swipe('declined');
    expect(await cashier.outcome()).toBe('declined');
    const issuer = (await cashier.page.getByTestId('result-message').textContent()) ?? '';
    await customer.getByRole('heading', { name: CUSTOMER_DECLINE_WORDS }).waitFor();
    expect(await customer.locator('body').textContent()).not.toContain(issuer.replace(/\.$/, ''));
    await shoot(customer, 'customer-12-declined');
    await cashier.stepSettled();
    await cashier.page.getByRole('button', { name: 'Try another card' }).click();
    await customer.getByRole('heading', { name: 'Swipe your card' }).waitFor();
    await swipe();
    await cashier.expectApproved();
    await customer.getByRole('heading', { name: 'Would you like a receipt?' }).waitFor();
  });

  it('the cashier skips the tip and the signature, and cancels before the card is read', async () => {
    await counter.reader.bridge.invoke('settings:update', { signatureAboveCents: 1000 });
    const customer = await openCustomer();
    const cashier = await openCashier();
    await charge(cashier, '1800');
    await customerStep(cashier, 'tip').waitFor();
    await cashier.page.getByRole('button', { name: 'Skip the tip' }).click();
    await customer.getByRole('heading', { name: 'Swipe your card' }).waitFor();
    expect(await customer.getByTestId('customer-total').textContent()).toBe('$18.00');
    await cashier.page.getByTestId('waiting-for-swipe').waitFor();
    await cashier.page.getByRole('button', { name: 'Cancel the sale' }).click();
    await customer.getByRole('heading', { name: 'Welcome to Blue Door Café' }).waitFor();
    await expect.poll(() => cashier.amount.textContent()).toBe('$0.00');

    await charge(cashier, '1800');
    await customer.getByRole('button', { name: 'No tip' }).click();
    await swipe();
    await customerStep(cashier, 'signature').waitFor();
    await cashier.page.getByRole('button', { name: 'Skip the signature' }).click();
    await customer.getByRole('heading', { name: 'Would you like a receipt?' }).waitFor();
    await cashier.page.getByTestId('customer-choices').getByText('Signature skipped').waitFor();
    const [sale] = await counter.screens.client.listTransactions({ page_size: 1 });
    expect(await counter.screens.client.signature(sale?.id ?? '')).toBeUndefined();
  });

  it('a cashier’s page reloaded mid-sale takes its sale off the customer’s screen, and no other page’s', async () => {
    const customer = await openCustomer();
    const cashier = await openCashier('reloaded');
    await charge(cashier, '2500');
    await customer.getByRole('heading', { name: 'Add a tip?' }).waitFor();
    // Another cashier's page opening leaves the sale where it is: the customer goes on with it.
    const other = await openCashier('other-page');
    await expect.poll(() => other.amount.textContent()).toBe('$0.00');
    await customer.getByRole('button', { name: 'No tip' }).click();
    await cashier.page.getByTestId('waiting-for-swipe').waitFor();
    await customer.getByRole('heading', { name: 'Swipe your card' }).waitFor();
    // The page that rang it up starts again with no sale: the customer is no longer asked to swipe.
    await cashier.page.reload();
    await cashier.readerBadge('Card reader ready').waitFor();
    await customer.getByRole('heading', { name: 'Welcome to Blue Door Café' }).waitFor();
    expect(await cashier.amount.textContent()).toBe('$0.00');
    // The next sale runs on the customer's screen as ever.
    await charge(cashier, '1300');
    await customer.getByRole('button', { name: 'No tip' }).click();
    await swipe();
    await cashier.expectApproved();
    const [sale] = await counter.screens.client.listTransactions({ page_size: 1 });
    expect(sale).toMatchObject({ amount: '13.00', result: 'Approved' });
  });

  it('a customer’s screen that reconnects finds the sale where it was', async () => {
    const customer = await openCustomer();
    const cashier = await openCashier();
    await charge(cashier, '1200');
    await customer.getByRole('heading', { name: 'Add a tip?' }).waitFor();
    // A reload: the page presents its credential again and reads its step from the host.
    await customer.reload();
    await customer.getByRole('heading', { name: 'Add a tip?' }).waitFor();
    // Closed and opened again with a new ticket: the cashier sees it go and come back.
    await customer.context().close();
    await cashier.page.getByText('The customer screen is not connected').waitFor();
    await cashier.check('07-customer-screen-gone');
    const again = await openCustomer();
    await again.getByRole('heading', { name: 'Add a tip?' }).waitFor();
    await customerStep(cashier, 'tip').waitFor();
    await again.getByRole('button', { name: /^15%/ }).click();
    await cashier.page.getByTestId('waiting-for-swipe').waitFor();
    expect(await cashier.page.getByTestId('sale-total').textContent()).toBe('$13.80');
  });

  it('without a customer’s screen, the cashier runs the same tip choice', async () => {
    const cashier = await counter.open('counter');
    await charge(cashier, '4000');
    const tip = cashier.page.getByTestId('counter-tip');
    await tip.waitFor();
    await cashier.check('08-cashier-tip');
    await cashier.page.setViewportSize({ width: 1024, height: 768 });
    await cashier.check('08b-cashier-tip-1024x768');
    await cashier.page.setViewportSize({ width: 800, height: 600 });
    await cashier.check('08c-cashier-tip-800x600');
    await cashier.page.setViewportSize({ width: 1280, height: 800 });
    await tip.getByRole('button', { name: /^18%/ }).click();
    await cashier.page.getByTestId('waiting-for-swipe').waitFor();
    await swipe();
    await cashier.expectApproved();
    expect(await cashier.page.getByTestId('result-tip').textContent()).toContain('$7.20 on $40.00 (18%)');
    await cashier.page.getByTestId('receipt-actions').waitFor();
    await cashier.check('09-cashier-tip-approved');
  });
});

describe('Settings → Counter sales', () => {
  it('opens a customer window paired with the counter, and turns tips at the counter off and on', async () => {
    const cashier = await counter.open('counter');
    const { page } = cashier;
    await cashier.goTo('Settings');
    await page
      .getByRole('navigation', { name: 'Settings' })
      .getByRole('button', { name: 'Counter sales' })
      .click();
    const status = page.getByTestId('customer-screen-status');
    await status.getByText('Not connected').waitFor();
    await cashier.check('10-settings-counter-sales');
    await page.setViewportSize({ width: 1024, height: 768 });
    await cashier.check('10b-settings-counter-sales-1024x768');
    await page.setViewportSize({ width: 800, height: 600 });
    await cashier.check('10c-settings-counter-sales-800x600');
    await page.setViewportSize({ width: 1280, height: 800 });

    // Opened without an opener, it pairs with the ticket in its address alone.
    const opened = page.context().waitForEvent('page');
    await page.getByRole('button', { name: 'Open the window' }).click();
    const customer = await opened;
    await customer.getByTestId('customer-screen').waitFor();
    expect(customer.url()).toMatch(/\/customer$/);
    await status.getByText('Connected').waitFor();

    await page.getByRole('switch', { name: 'Tips at the counter' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved').waitFor();
    expect((await counter.reader.bridge.invoke('settings:get')).counterTips).toBe(false);
    await page.getByRole('switch', { name: 'Tips at the counter' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved').waitFor();
    expect((await counter.reader.bridge.invoke('settings:get')).counterTips).toBe(true);
  });
});

describe('the customer’s screen on counter panels', () => {
  it('every step passes axe, with targets a fingertip wide, at 800x480, 1024x600 and 1280x800', async () => {
    await counter.reader.bridge.invoke('settings:update', { signatureAboveCents: 1000 });
    let cashier: CounterPage | undefined;
    for (const size of SIZES) {
      const customer = await openCustomer(size);
      cashier ??= await openCashier();
      await cashier.page.getByTestId('customer-screen-badge').waitFor();
      const named = `${size.width}x${size.height}`;
      const check = async (step: string) => {
        await shoot(customer, `customer-size-${named}-${step}`);
        await expectAccessible(customer, `${step} at ${named}`);
        await expectFingerTargets(customer, `${step} at ${named}`);
      };
      await check('idle');
      await charge(cashier, '2500');
      await customer.getByRole('heading', { name: 'Add a tip?' }).waitFor();
      await check('tip');
      await customer.getByRole('button', { name: 'Custom' }).click();
      await check('custom-tip');
      const pad = customer.getByRole('group', { name: 'Tip keypad' });
      for (const key of ['9', '00']) await pad.getByRole('button', { name: key, exact: true }).click();
      await customer.getByRole('button', { name: 'Add tip' }).click();
      await customer.getByTestId('tip-confirm').waitFor();
      await check('confirm-tip');
      await customer.getByRole('button', { name: 'Change the tip' }).click();
      await customer.getByRole('button', { name: 'Back' }).click();
      await customer.getByRole('button', { name: /^20%/ }).click();
      await customer.getByRole('heading', { name: 'Swipe your card' }).waitFor();
      await check('swipe');
      await swipe('declined');
      await customer.getByRole('heading', { name: CUSTOMER_DECLINE_WORDS }).waitFor();
      await check('declined');
      await cashier.stepSettled();
      await cashier.page.getByRole('button', { name: 'Try another card' }).click();
      await swipe();
      await customer.getByRole('heading', { name: 'Please sign below' }).waitFor();
      await check('signature');
      await cashier.page.getByRole('button', { name: 'Skip the signature' }).click();
      await customer.getByRole('heading', { name: 'Would you like a receipt?' }).waitFor();
      await check('receipt');
      await customer.getByRole('button', { name: 'Email' }).click();
      await check('email');
      await customer.getByRole('button', { name: 'Back' }).click();
      await customer.getByRole('button', { name: 'No receipt' }).click();
      await customer.getByRole('heading', { name: 'Thank you!' }).waitFor();
      await check('thanks');
      expect((customer as Page & { problems?: string[] }).problems).toEqual([]);
      await cashier.stepSettled();
      await cashier.page.getByRole('button', { name: 'New sale' }).click();
      await customer.context().close();
      // The cashier's screen has seen it go, so the next one's badge is the next one's.
      await cashier.page.getByTestId('customer-screen-badge').waitFor({ state: 'detached' });
    }
  }, 180_000);
});

/**
 * A cashier's page whose bridge socket runs through the test: while held, what the host sends the
 * page waits, in order, until released; what the page sends is seen in `sent`. The page's charges
 * to the engine are counted in `charges`.
 */
async function openHeldCashier(prefix = 'counter-held') {
  const context = await counter.browser.newContext({
    viewport: { width: 1280, height: 800 },
    deviceScaleFactor: 1,
  });
  counter.adopt(context);
  const page = await context.newPage();
  const cashier = new CounterPage(page, prefix);
  let holding = false;
  const held: (string | Buffer)[] = [];
  const sent: string[] = [];
  const charges: string[] = [];
  let route: WebSocketRoute | undefined;
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/rest/v1/transactions')) {
      charges.push(request.url());
    }
  });
  await page.routeWebSocket(/\/bridge$/, (ws) => {
    route = ws;
    const server = ws.connectToServer();
    ws.onMessage((message) => {
      sent.push(String(message));
      server.send(message);
    });
    server.onMessage((message) => {
      if (holding) held.push(message);
      else ws.send(message);
    });
  });
  await page.goto(counter.screens.running.pairingAddress());
  await cashier.readerBadge('Card reader ready').waitFor();
  await page.getByTestId('customer-screen-badge').waitFor();
  return {
    cashier,
    sent,
    charges,
    hold() {
      holding = true;
    },
    /** Hands the page what was held, up to and including the first message that passes `test`. */
    releaseThrough(test: (message: string) => boolean) {
      while (held.length > 0) {
        const message = held.shift() as string | Buffer;
        route?.send(message);
        if (test(String(message))) return;
      }
      throw new Error('No message held passes the test.');
    },
    release() {
      holding = false;
      for (const message of held.splice(0)) route?.send(message);
    },
  };
}

describe('the cashier’s Cancel and the customer’s tip at the same moment, with a card already swiped', () => {
  it('a Cancel the customer’s screen took leaves the card uncharged', async () => {
    const customer = await openCustomer();
    const { cashier, sent, charges, hold, releaseThrough, release } = await openHeldCashier();
    await charge(cashier, '4000');
    await customer.getByRole('heading', { name: 'Add a tip?' }).waitFor();
    await customerStep(cashier, 'tip').waitFor();
    // The customer swipes early: the card is held, masked, on the cashier's screen.
    await swipe();
    await cashier.swipesReceived(1);
    const before = (await counter.screens.client.listTransactions({ page_size: 1 }))[0]?.id ?? '0';
    // The customer taps 20% as the cashier taps Cancel: the host's word that the tip was chosen is
    // still on its way to the cashier's page when Cancel is pressed.
    hold();
    await customer.getByRole('button', { name: /^20%/ }).click();
    await customer.getByRole('heading', { name: 'Swipe your card' }).waitFor();
    await cashier.page.getByRole('button', { name: 'Cancel the sale' }).click();
    await expect.poll(() => sent.some((message) => message.includes('"customer:cancel"'))).toBe(true);
    // The page hears of the tip first, while its Cancel is still unanswered, and takes the sale on
    // to the card with the tip...
    releaseThrough((message) => message.includes('"customer:changed"') && message.includes('"step":"swipe"'));
    await cashier.page.getByTestId('sale-tip').filter({ hasText: '(20%)' }).waitFor();
    await cashier.page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
    // ...then hears that the customer's screen took the Cancel.
    release();
    await customer.getByRole('heading', { name: 'Welcome to Blue Door Café' }).waitFor();
    // The cashier's screen settles: a fresh sale (the keypad), or a charge's answer.
    const keypad = cashier.page.getByRole('group', { name: 'Amount keys' });
    await keypad.or(cashier.result).first().waitFor();
    await cashier.page.screenshot({ path: join(RESULTS_DIR, 'counter-cancel-race.png') });
    expect(await cashier.result.count()).toBe(0);
    expect(await cashier.amount.textContent()).toContain('$0.00');
    expect(charges).toEqual([]);
    expect(sent.some((message) => message.includes('"customer:charging"'))).toBe(false);
    const after = await counter.screens.client.listTransactions({ page_size: 5 });
    expect(after.filter((item) => Number(item.id) > Number(before))).toEqual([]);
    // The next sale goes as usual, with no card left held from this one.
    expect(await cashier.page.getByText('Card held').count()).toBe(0);
  });
});

describe('New sale while the customer is signing', () => {
  it('the merchant copy to sign still prints for that sale, once', async () => {
    await counter.reader.bridge.invoke('settings:update', { signatureAboveCents: 2000 });
    await counter.reader.bridge.invoke('receipts:update-settings', { merchantCopy: 'always' });
    try {
      const customer = await openCustomer();
      const cashier = await openCashier();
      await charge(cashier, '3100');
      await customer.getByRole('button', { name: 'No tip' }).click();
      await customer.getByRole('heading', { name: 'Swipe your card' }).waitFor();
      await swipe();
      await cashier.expectApproved();
      await customer.getByRole('heading', { name: 'Please sign below' }).waitFor();
      await customerStep(cashier, 'signature').waitFor();
      const [sale] = await counter.screens.client.listTransactions({ page_size: 1 });
      expect(sale).toMatchObject({ amount: '31.00', result: 'Approved' });
      // The customer walks off without signing; the cashier starts the next sale.
      const printed = printer.nextJob();
      await cashier.stepSettled();
      await cashier.page.getByRole('button', { name: 'New sale' }).click();
      await customer.getByRole('heading', { name: 'Welcome to Blue Door Café' }).waitFor();
      const paper = decodeEscPos(await printed)
        .copies.flat()
        .join('\n');
      expect(paper).toContain('MERCHANT COPY');
      expect(paper).toMatch(new RegExp(`#${sale?.id ?? 'x'}\\b`));
      // A later sale's customer copy, printed on the customer's choice, comes after everything before.
      await counter.reader.bridge.invoke('receipts:update-settings', { merchantCopy: 'never' });
      await charge(cashier, '500');
      await customer.getByRole('button', { name: 'No tip' }).click();
      await customer.getByRole('heading', { name: 'Swipe your card' }).waitFor();
      await swipe();
      await cashier.expectApproved();
      const next = printer.nextJob();
      await customer.getByRole('button', { name: 'Print' }).click();
      await next;
      const merchantCopies = printer.jobs.filter((job) => {
        const text = decodeEscPos(job).copies.flat().join('\n');
        return text.includes('MERCHANT COPY') && new RegExp(`#${sale?.id ?? 'x'}\\b`).test(text);
      });
      expect(merchantCopies).toHaveLength(1);
      expect(await counter.screens.client.signature(sale?.id ?? '')).toBeUndefined();
    } finally {
      await counter.reader.bridge.invoke('receipts:update-settings', { merchantCopy: 'never' });
    }
  });
});
