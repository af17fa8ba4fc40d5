/**
 * History's Reprint in Debian's Chromium against a real engine: it offers a tab's check, with its
 * blank tip lines, only while the tab is open. A sale tipped at the counter opened no tab and a
 * captured tab has its tip, so their Reprint opens the customer copy and offers no check; a voided
 * tab's opens its receipt, not the engine's refusal of a check, and so does an expired tab's, which
 * can no longer be captured. Screenshots are saved as
 * test-results/history-checks-*.png and checked with axe.
 */
import type { Locator } from 'playwright';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { COUNTER_SALE_WITH_TIP } from '../../shared/tips';
import { afterTime, startCounter, type Counter, type CounterPage } from './counter-page';

const DAY = 86_400_000;
let counter: Counter;
const VISA = { card: '4111111111111111', exp_date: '1230' };

beforeAll(async () => {
  counter = await startCounter();
  await counter.screens.running.gateway.engine.settings.setFromText('tips_enabled', 'true');
});
afterEach(async () => {
  counter?.engineClock.reset();
  await counter?.closePages();
});
afterAll(() => counter?.close());

async function approved(body: Parameters<Counter['screens']['client']['createTransaction']>[0]) {
  const answer = await counter.screens.client.createTransaction(body);
  expect(answer.result).toBe('Approved');
  return answer.id ?? '';
}

/**
 * An AUTH of $48.00 as the counter charges a $40.00 sale with an $8.00 tip, and its capture unless
 * told not to capture.
 */
async function tippedCounterSale(captured = true): Promise<{ authId: string; captureId?: string }> {
  const authId = await approved({
    type: 'AUTH',
    amount: '48.00',
    ...VISA,
    description: COUNTER_SALE_WITH_TIP,
  });
  if (!captured) return { authId };
  const captureId = await approved({
    type: 'CAPTURE',
    id: authId,
    amount: '40.00',
    tip_amount: '8.00',
    description: COUNTER_SALE_WITH_TIP,
  });
  return { authId, captureId };
}

/** Opens History and the Reprint of `id`; answers the dialog once it shows a receipt or a problem. */
async function reprint(id: string): Promise<{ cashier: CounterPage; dialog: Locator }> {
  const cashier = await counter.open('history-checks');
  await cashier.goTo('History');
  await cashier.page.locator('table[aria-busy="false"]').waitFor();
  await openReprint(cashier, id);
  return { cashier, dialog: cashier.page.getByTestId('receipt-dialog') };
}

async function openReprint(cashier: CounterPage, id: string): Promise<void> {
  await cashier.page
    .getByTestId(`history-${id}`)
    .getByRole('button', { name: `Reprint the receipt of #${id}` })
    .click();
  const dialog = cashier.page.getByTestId('receipt-dialog');
  await dialog.getByTestId('receipt-preview').or(dialog.getByRole('alert')).waitFor();
}

/** The dialog shows `copy` of the receipt, with no problem, and offers no check. */
async function expectNoCheck(dialog: Locator, copy = 'customer') {
  expect(await dialog.getByRole('alert').count()).toBe(0);
  expect(await dialog.getByTestId('receipt-preview').getAttribute('data-copy')).toBe(copy);
  const copies = dialog.getByRole('radiogroup', { name: 'Copy' }).getByRole('radio');
  expect(await copies.allTextContents()).toEqual(['Customer copy', 'Merchant copy']);
}

describe('Reprint in History', () => {
  it('of a sale tipped at the counter opens its receipt and offers no check to tip again', async () => {
    const { authId, captureId = '' } = await tippedCounterSale();
    const { cashier, dialog } = await reprint(authId);
    await expectNoCheck(dialog);
    // Listed as the sale it is and its hold on the card, never as a tab.
    const kind = (id: string) => cashier.page.getByTestId(`history-${id}`).locator('td').nth(2);
    expect(await kind(captureId).textContent()).toBe('Sale');
    expect(await kind(authId).textContent()).toBe('Sale hold');
    const text = (await dialog.getByTestId('receipt-preview').textContent()) ?? '';
    expect(text).toMatch(/^TOTAL\s+\$48\.00$/m);
    expect(text).not.toMatch(/TAB|^TIP\s+_+$/m);
    await cashier.check('01-counter-sale-auth');
  });

  it('of a counter sale’s AUTH whose capture did not go through offers no check either', async () => {
    const { authId } = await tippedCounterSale(false);
    const { cashier, dialog } = await reprint(authId);
    await expectNoCheck(dialog);
    expect(
      await cashier.page.getByTestId(`history-${authId}`).getByText('Not captured', { exact: true }).count(),
    ).toBe(1);
  });

  it('of a captured tab opens its customer copy: its tip is set, so there is no check', async () => {
    const tabId = await approved({ type: 'AUTH', amount: '30.00', ...VISA });
    await approved({ type: 'CAPTURE', id: tabId, amount: '30.00', tip_amount: '6.00' });
    const { dialog } = await reprint(tabId);
    await expectNoCheck(dialog);
  });

  it('of a voided tab opens its receipt, saying VOIDED, not a refusal', async () => {
    const tabId = await approved({ type: 'AUTH', amount: '25.00', ...VISA });
    await approved({ type: 'VOID', id: tabId });
    const { cashier, dialog } = await reprint(tabId);
    await expectNoCheck(dialog);
    expect(await dialog.getByTestId('receipt-preview').textContent()).toMatch(/^\s*VOIDED$/m);
    await cashier.check('02-voided-tab');
  });

  it('of a tab past its expiry opens its customer copy: it can no longer be captured, so there is no check', async () => {
    const tabId = await approved({ type: 'AUTH', amount: '30.00', ...VISA });
    const cashier = await counter.open('history-checks');
    await afterTime(counter, cashier, 7 * DAY + 60_000);
    await cashier.goTo('History');
    await cashier.page.locator('table[aria-busy="false"]').waitFor();
    await openReprint(cashier, tabId);
    await expectNoCheck(cashier.page.getByTestId('receipt-dialog'));
    await cashier.check('04-expired-tab');
  });

  it('of an open tab offers its check, with the tip lines to write on', async () => {
    const tabId = await approved({ type: 'AUTH', amount: '30.00', ...VISA });
    const { cashier, dialog } = await reprint(tabId);
    expect(await dialog.getByRole('alert').count()).toBe(0);
    await dialog.getByRole('radio', { name: 'Check' }).click();
    const check = dialog.getByTestId('receipt-preview').and(cashier.page.locator('[data-copy="check"]'));
    await check.waitFor();
    const text = (await check.textContent()) ?? '';
    expect(text).toMatch(/^TIP\s+_+$/m);
    expect(text).toContain('AUTH (TAB)');
    await cashier.check('03-open-tab-check');
  });
});

describe('Reprint on Refund & void', () => {
  /** Opens the details of `id` on Refund & void and its Reprint; answers the dialog once it shows. */
  async function reprintFromDetails(id: string): Promise<Locator> {
    const cashier = await counter.open('refunds-checks');
    await cashier.goTo('Refund & void');
    await cashier.page.getByTestId(`transaction-${id}`).click();
    const details = cashier.page.getByTestId('transaction-details');
    await details.getByRole('button', { name: `Reprint the receipt of #${id}` }).click();
    const dialog = cashier.page.getByTestId('receipt-dialog');
    await dialog.getByTestId('receipt-preview').or(dialog.getByRole('alert')).waitFor();
    return dialog;
  }

  it('of a captured tab or a voided one opens its receipt, and offers no check', async () => {
    const captured = await approved({ type: 'AUTH', amount: '32.00', ...VISA });
    await approved({ type: 'CAPTURE', id: captured, amount: '32.00', tip_amount: '5.00' });
    await expectNoCheck(await reprintFromDetails(captured));
    const voided = await approved({ type: 'AUTH', amount: '27.00', ...VISA });
    await approved({ type: 'VOID', id: voided });
    await expectNoCheck(await reprintFromDetails(voided));
  });
});
