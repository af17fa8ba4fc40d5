/**
 * Refund and void in Debian's Chromium against a real engine: a sale voided while its batch is open,
 * refunded in parts after the close up to what is left, a refusal of the engine shown as it is, a
 * card refunded with no sale behind a confirmation, and the manager PIN. Screenshots are saved as
 * test-results/refunds-*.png and every state is checked with axe.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TransactionRequestBody } from '../../shared/api/schemas';
import { OWNER, startCounter, type Counter, type CounterPage } from './counter-page';

let counter: Counter;

beforeAll(async () => {
  counter = await startCounter();
});
afterEach(() => counter?.closePages());
afterAll(() => counter?.close());

async function sale(amount: string, extra: Partial<TransactionRequestBody> = {}) {
  const response = await counter.screens.client.createTransaction({
    type: 'SALE',
    amount,
    card: '4111111111111111',
    exp_date: '1230',
    billing: { first_name: 'Dana', last_name: 'Whitfield' },
    ...extra,
  });
  expect(response.result).toBe('Approved');
  return { id: response.id ?? '', code: response.authorization_code ?? '' };
}

async function refundScreen(): Promise<CounterPage> {
  const cashier = await counter.open('refunds');
  await cashier.goTo('Refund & void');
  await cashier.page.getByRole('heading', { name: 'Refund & void' }).waitFor();
  return cashier;
}

/** Opens a transaction from the list on the left. */
async function openTransaction(cashier: CounterPage, id: string) {
  await cashier.page.getByTestId(`transaction-${id}`).click();
  await cashier.page.getByRole('heading', { name: new RegExp(`#${id}$`) }).waitFor();
  return cashier.page.getByTestId('transaction-details');
}

async function confirm(cashier: CounterPage, button: string | RegExp) {
  const dialog = cashier.page.getByTestId('confirm-dialog');
  await dialog.waitFor();
  await dialog.getByRole('button', { name: button }).click();
}

function approvedOutcome(cashier: CounterPage) {
  return cashier.page.getByTestId('outcome').and(cashier.page.locator('[data-outcome="approved"]'));
}

describe('a sale in the open batch', () => {
  it('is offered a void, not a refund, and is voided after a confirmation', async () => {
    const { id } = await sale('27.80', { invoice: 'INV-2210' });
    const cashier = await refundScreen();
    const { page } = cashier;
    await page.getByTestId(`transaction-${id}`).waitFor();
    await cashier.check('01-latest-transactions');

    const details = await openTransaction(cashier, id);
    const text = await details.textContent();
    expect(text).toContain('$27.80');
    expect(text).toContain('Visa •••• 1111');
    expect(text).toContain('INV-2210');
    expect(text).toMatch(/#\d+, open/);
    expect(await details.getByRole('button', { name: /^Refund/ }).count()).toBe(0);
    await cashier.check('02-open-batch-sale');

    await details.getByRole('button', { name: `Void sale #${id}` }).click();
    const dialog = page.getByTestId('confirm-dialog');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(
      `Sale #${id} of $27.80 on Visa •••• 1111 is cancelled in full`,
    );
    await cashier.check('03-void-confirm');
    await dialog.getByRole('button', { name: 'Void it' }).click();
    await approvedOutcome(cashier).waitFor();
    expect(await approvedOutcome(cashier).textContent()).toContain('Voided');
    // The list beside the answer says so at once, before Done.
    const row = page.getByTestId(`transaction-${id}`);
    await expect.poll(() => row.locator('.pill').textContent()).toBe('Voided');
    await cashier.check('04-voided');
    await page.getByRole('button', { name: 'Done' }).click();
    await details.getByText('It has been voided already').waitFor();

    const [voided] = await counter.screens.client.listTransactions({ id, page_size: 1 });
    expect(voided?.voided).toBe('true');
    const [void_] = await counter.screens.client.listTransactions({ type: 'void', page_size: 1 });
    expect(void_).toMatchObject({ result: 'Approved', original_id: id });
  });

  it('is not voided when the confirmation is cancelled', async () => {
    const { id } = await sale('9.99');
    const cashier = await refundScreen();
    const details = await openTransaction(cashier, id);
    await details.getByRole('button', { name: `Void sale #${id}` }).click();
    await cashier.page.getByTestId('confirm-dialog').getByRole('button', { name: 'Cancel' }).click();
    await cashier.page.getByTestId('confirm-dialog').waitFor({ state: 'detached' });
    const [item] = await counter.screens.client.listTransactions({ id, page_size: 1 });
    expect(item?.voided).toBe('false');
  });
});

describe('a settled sale', () => {
  it('is refunded in parts, showing what is left, and never beyond it', async () => {
    const { id } = await sale('50.00');
    await counter.screens.client.closeOpenBatch();
    const cashier = await refundScreen();
    const { page } = cashier;
    const details = await openTransaction(cashier, id);
    expect(await details.textContent()).toMatch(/#\d+, settled/);
    expect(await page.getByTestId('refund-remaining').textContent()).toBe('$50.00 left');
    expect(await details.getByRole('button', { name: /^Void/ }).count()).toBe(0);

    await page.getByTestId('refund-amount').fill('20.00');
    await cashier.check('05-partial-refund');
    await details.getByRole('button', { name: 'Refund $20.00' }).click();
    const dialog = page.getByTestId('confirm-dialog');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(
      `$20.00 goes back to Visa •••• 1111 (Dana Whitfield), against sale #${id} of $50.00`,
    );
    await cashier.check('06-refund-confirm');
    await dialog.getByRole('button', { name: 'Refund $20.00' }).click();
    await approvedOutcome(cashier).waitFor();
    await cashier.check('07-refunded');
    await page.getByRole('button', { name: 'Done' }).click();

    await page.getByTestId('refund-remaining').filter({ hasText: '$30.00 left' }).waitFor();
    expect(await page.getByTestId('refunded-so-far').textContent()).toContain('$20.00 refunded of $50.00');
    expect(await page.getByTestId('refund-amount').inputValue()).toBe('$30.00');
    const [firstRefund] = await counter.screens.client.listTransactions({ type: 'refund', page_size: 1 });
    expect(firstRefund).toMatchObject({ original_id: id, amount: '20.00', result: 'Approved' });
    expect(await details.textContent()).toContain(`Refund #${firstRefund?.id}`);
    await cashier.check('08-partly-refunded');

    // More than is left is said at once, and Refund offers no amount beyond it; nothing is sent.
    await page.getByTestId('refund-amount').fill('40.00');
    await page.getByText('At most $30.00 is left to refund.').waitFor();
    expect(await details.getByRole('button', { name: /^Refund \$40/ }).count()).toBe(0);
    expect(await details.getByRole('button', { name: 'Only $30.00 left to refund' }).isDisabled()).toBe(true);
    await page.getByTestId('refund-amount').press('Enter');
    expect(await page.getByTestId('confirm-dialog').count()).toBe(0);

    await details.getByRole('button', { name: 'All $30.00' }).click();
    await details.getByRole('button', { name: 'Refund $30.00' }).click();
    await confirm(cashier, 'Refund $30.00');
    await approvedOutcome(cashier).waitFor();
    await page.getByRole('button', { name: 'Done' }).click();
    await details.getByText('It has been refunded in full.').waitFor();
    expect(await details.getByRole('button', { name: /^Refund \$/ }).count()).toBe(0);
    await cashier.check('09-fully-refunded');

    const [original] = await counter.screens.client.listTransactions({ id, page_size: 1 });
    expect(original?.refunded_amount).toBe('50.00');
  });

  it('shows the engine’s refusal when another program refunded it meanwhile, then what is left', async () => {
    const { id } = await sale('10.00');
    await counter.screens.client.closeOpenBatch();
    const cashier = await refundScreen();
    const { page } = cashier;
    const details = await openTransaction(cashier, id);
    expect(await page.getByTestId('refund-remaining').textContent()).toBe('$10.00 left');

    // Behind the screen's back, another program refunds part of it.
    await counter.screens.client.createTransaction({ type: 'REFUND', id, amount: '6.00' });
    await details.getByRole('button', { name: 'Refund $10.00' }).click();
    await confirm(cashier, 'Refund $10.00');
    const refused = page.getByTestId('outcome').and(page.locator('[data-outcome="rejected"]'));
    await refused.waitFor();
    expect(await page.getByTestId('outcome-message').textContent()).toMatch(/refund/i);
    await cashier.check('10-refund-refused');
    await page.getByRole('button', { name: 'Back to the transaction' }).click();
    await page.getByTestId('refund-remaining').filter({ hasText: '$4.00 left' }).waitFor();
  });
});

describe('a refund with no sale', () => {
  it('takes the amount and a swiped card, and is sent only after a confirmation', async () => {
    const cashier = await refundScreen();
    const { page } = cashier;
    await page.getByRole('button', { name: 'Refund without a sale' }).click();
    await page.getByTestId('unmatched-amount').fill('15.00');
    await page
      .getByLabel(/Invoice/)
      .last()
      .fill('RET-88');
    await cashier.check('11-unmatched-amount');
    await page.getByRole('button', { name: 'Take the card for $15.00' }).click();
    await page.getByTestId('waiting-for-swipe').waitFor();
    const before = (await counter.screens.client.listTransactions({ page_size: 1 }))[0]?.id;

    await counter.reader.bridge.invoke('simulator:swipe', { card: 'approved-mastercard' });
    const dialog = page.getByTestId('confirm-dialog');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('$15.00 goes to Mastercard •••• 5454 (ALEX RIVERA)');
    await cashier.check('12-unmatched-confirm');
    // Cancelled: nothing is sent, and the screen waits for a card again.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await page.getByTestId('waiting-for-swipe').waitFor();
    expect((await counter.screens.client.listTransactions({ page_size: 1 }))[0]?.id).toBe(before);

    await counter.reader.bridge.invoke('simulator:swipe', { card: 'approved-mastercard' });
    await confirm(cashier, 'Refund $15.00');
    await approvedOutcome(cashier).waitFor();
    expect(await approvedOutcome(cashier).textContent()).toContain('to Mastercard •••• 5454');
    await page.getByRole('button', { name: 'Print receipt' }).waitFor();
    await cashier.check('13-unmatched-refunded');
    const [refund] = await counter.screens.client.listTransactions({ page_size: 1 });
    expect(refund).toMatchObject({
      type: 'Refund',
      result: 'Approved',
      amount: '15.00',
      card: '************5454',
      original_id: '',
      invoice: 'RET-88',
    });
  });
});

describe('finding a transaction', () => {
  it('by last four, amount, authorization code and dates', async () => {
    const wanted = await sale('73.15', { card: '5454545454545454' });
    await sale('73.15');
    const cashier = await refundScreen();
    const { page } = cashier;
    const search = page.getByRole('form', { name: 'Find a transaction' });
    await search.getByLabel('Last four').fill('5454');
    await search.getByLabel('Amount').fill('73.15');
    // The sale's own day in the screen's time zone, so that a run across midnight still finds it.
    const [listed] = await counter.screens.client.listTransactions({ id: wanted.id });
    const day = await page.evaluate((created) => {
      const at = new Date(created);
      return `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, '0')}-${String(at.getDate()).padStart(2, '0')}`;
    }, listed?.created ?? '');
    await search.getByLabel('From').fill(day);
    await search.getByLabel('To').fill(day);
    await search.getByRole('button', { name: 'Find' }).click();
    await page.getByRole('heading', { name: 'Matching transactions' }).waitFor();
    const rows = page.getByRole('list', { name: 'Transactions' }).getByRole('listitem');
    await rows.first().getByText(`#${wanted.id}`).waitFor();
    expect(await rows.count()).toBe(1);
    await cashier.check('14-search');

    await search.getByLabel('Last four').fill('');
    await search.getByLabel('Amount').fill('');
    await search.getByLabel('Authorization code').fill(wanted.code.toLowerCase());
    await search.getByRole('button', { name: 'Find' }).click();
    await page.getByTestId(`transaction-${wanted.id}`).waitFor();
    expect(await rows.count()).toBe(1);

    await search.getByLabel('Authorization code').fill('');
    await search.getByLabel('Last four').fill('0002');
    await search.getByRole('button', { name: 'Find' }).click();
    await page.getByText('Nothing matches').waitFor();
  });
});

describe('with a cashier signed in', () => {
  it("a void waits for a manager's PIN, which the host checks for that one void", async () => {
    const { engine } = counter.screens.running.gateway;
    if (!engine.staff.list().some((member) => member.name === 'Cole')) {
      await engine.staff.create({ name: 'Cole', role: 'cashier', pin: '1470' }, 'test');
    }
    const { id } = await sale('14.00');
    await counter.reader.bridge.invoke('staff:sign-in', { pin: '1470' });
    try {
      const cashier = await refundScreen();
      const { page } = cashier;
      const details = await openTransaction(cashier, id);
      await details.getByRole('button', { name: `Void sale #${id}` }).click();
      await confirm(cashier, 'Void it');
      const pin = page.getByRole('dialog', { name: 'Manager PIN' });
      await pin.waitFor();
      // The dialog names the action and the amount the manager allows.
      await pin
        .getByText(`A manager must enter their PIN to void this transaction: sale #${id} of $14.00.`)
        .waitFor();
      await pin.getByLabel('PIN', { exact: true }).fill('1111');
      await pin.getByRole('button', { name: 'Confirm' }).click();
      await pin.getByText('Wrong PIN. 4 more tries before a pause.').waitFor();
      await cashier.check('15-manager-pin-wrong');
      // The keypad types the PIN too, for a touch screen.
      for (const digit of OWNER.pin) {
        await pin
          .getByRole('group', { name: 'PIN keys' })
          .getByRole('button', { name: digit, exact: true })
          .click();
      }
      await pin.getByRole('button', { name: 'Confirm' }).click();
      await approvedOutcome(cashier).waitFor();
      const [item] = await counter.screens.client.listTransactions({ id, page_size: 1 });
      expect(item?.voided).toBe('true');
      const entry = (await engine.reads.recentAudit(5)).find((row) => row.action === 'void');
      expect(entry?.actor).toMatch(new RegExp(`^Cole at .*, approved by manager ${OWNER.name}$`));
    } finally {
      await counter.reader.bridge.invoke('staff:sign-in', { pin: OWNER.pin });
    }
  });
});
