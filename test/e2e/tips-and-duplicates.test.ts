/**
 * In Debian's Chromium against a real engine: Adjust tip on a captured tab, the confirmation of a
 * tip larger than the merchant expects, the duplicate prompt, and a close that closes only what the
 * manager confirmed.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { afterTime, OWNER, startCounter, type Counter, type CounterPage } from './counter-page';

let counter: Counter;

beforeAll(async () => {
  counter = await startCounter();
});
afterEach(async () => {
  counter?.engineClock.reset();
  await counter?.closePages();
  const settings = counter?.screens.running.gateway.engine.settings;
  await settings?.setFromText('duplicate_window_minutes', '0');
  await settings?.setFromText('tips_enabled', 'false');
});
afterAll(() => counter?.close());

const VISA = { card: '4111111111111111', exp_date: '1230' };

async function keyedSale(cashier: CounterPage, digits: string): Promise<void> {
  await cashier.tapAmount(digits);
  await cashier.chargeAndKeyIn();
  await cashier.fillCard({ number: '4111111111111111', expiry: '1230' });
  await cashier.submitCard();
}

/** Starts a tab for `amount` on the Tabs screen, and swipes the simulator's approved Visa for it. */
async function startTab(cashier: CounterPage, amount: string): Promise<void> {
  const { page } = cashier;
  await cashier.goTo('Tabs');
  await page.getByRole('button', { name: 'Start a tab' }).click();
  await page.getByTestId('tab-amount').fill(amount);
  await page.getByRole('button', { name: `Take the card for $${amount}` }).click();
  await page.getByTestId('waiting-for-swipe').waitFor();
  await counter.reader.bridge.invoke('simulator:swipe', { card: 'approved-visa' });
}

async function openTab(amount: string): Promise<string> {
  const auth = await counter.screens.client.createTransaction({ type: 'AUTH', amount, ...VISA });
  expect(auth.result).toBe('Approved');
  return auth.id ?? '';
}

/** A tab opened for `amount` and captured with `tip`, tips on: the tab's id and its capture's. */
async function capturedTab(amount: string, tip: string): Promise<{ tabId: string; captureId: string }> {
  await counter.screens.running.gateway.engine.settings.setFromText('tips_enabled', 'true');
  const tabId = await openTab(amount);
  const captured = await counter.screens.client.createTransaction({
    type: 'CAPTURE',
    id: tabId,
    amount,
    tip_amount: tip,
  });
  expect(captured.result).toBe('Approved');
  return { tabId, captureId: captured.id ?? '' };
}

describe('the duplicate prompt', () => {
  it('names the earlier charge, charges nothing when declined, and charges again once confirmed', async () => {
    await counter.screens.running.gateway.engine.settings.setFromText('duplicate_window_minutes', '2');
    const cashier = await counter.open('duplicates');
    await keyedSale(cashier, '3333');
    await cashier.expectApproved();
    const [first] = await counter.screens.client.listTransactions({ page_size: 1 });
    await cashier.page.getByRole('button', { name: 'New sale' }).click();

    await keyedSale(cashier, '3333');
    const dialog = cashier.page.getByTestId('confirm-dialog');
    await dialog.waitFor();
    await expect
      .poll(() => cashier.page.getByTestId('duplicate-question').textContent())
      .toMatch(/^Possible duplicate: \$33\.33 on Visa 1111 at \d{1,2}:\d{2}\s?[AP]M\. Charge again\?$/);
    await expect.poll(() => dialog.textContent()).toContain(`(sale #${first?.id})`);
    await cashier.check('01-possible-duplicate');
    // Enter, pressed by a cashier who has not read the question, answers it the safe way.
    const dontCharge = dialog.getByRole('button', { name: "Don't charge" });
    expect(await dontCharge.evaluate((button) => button === document.activeElement)).toBe(true);
    // A moment later, past the pause that swallows a key meant for the step before.
    await cashier.stepSettled();
    await cashier.page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    expect(await cashier.outcome()).toBe('rejected');
    let rows = await counter.screens.client.listTransactions({ page_size: 2 });
    expect(rows.map((row) => [row.result, row.error_code])).toEqual([
      ['Rejected', '8033'],
      ['Approved', undefined],
    ]);
    // The earlier sale's time and amount in the counter's words, never the engine's text for programs.
    await expect
      .poll(() => cashier.page.getByTestId('result-message').textContent())
      .toMatch(
        new RegExp(`^Visa 1111 already paid \\$33\\.33 at \\d{1,2}:\\d{2}\\s?[AP]M \\(sale #${first?.id}\\)`),
      );
    const answer = (await cashier.result.textContent()) ?? '';
    expect(answer).not.toMatch(/duplicate_override|\d{4}-\d{2}-\d{2}T|SALE of/);
    // The customer has paid: the next sale is what Enter starts, and no other card is asked for.
    await cashier.stepSettled();
    const newSale = cashier.page.getByRole('button', { name: /^New sale/ });
    expect(await newSale.evaluate((button) => button === document.activeElement)).toBe(true);
    expect(await cashier.page.getByRole('button', { name: /^Try/ }).count()).toBe(0);
    await cashier.page.keyboard.press('t');
    // A frame later the key has been handled and drawn: still the answer, not a new try.
    await cashier.page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
    expect(await cashier.outcome()).toBe('rejected');
    await cashier.check('01b-not-charged-again');

    await cashier.page.getByRole('button', { name: 'New sale' }).click();
    await keyedSale(cashier, '3333');
    const again = cashier.page.getByTestId('confirm-dialog');
    await again.waitFor();
    // Charging again is a deliberate tap, once the question has been on screen a moment.
    await cashier.stepSettled();
    await again.getByRole('button', { name: 'Charge again' }).click();
    await again.waitFor({ state: 'detached' });
    await cashier.expectApproved();
    rows = await counter.screens.client.listTransactions({ page_size: 1 });
    expect(rows[0]).toMatchObject({ result: 'Approved', amount: '33.33', card: '************1111' });
    const [audit] = await counter.screens.running.gateway.engine.reads.recentAudit(1);
    expect(audit).toMatchObject({ action: 'duplicate_override', subject: `transaction ${rows[0]?.id}` });
    await cashier.check('02-charged-again');
  });
});

describe('the duplicate prompt beyond a plain sale', () => {
  it('a tab for the card and amount of a charge moments ago asks first; Enter holds nothing, Charge again holds it', async () => {
    const settings = counter.screens.running.gateway.engine.settings;
    await settings.setFromText('duplicate_window_minutes', '2');
    await settings.setFromText('tips_enabled', 'true');
    const first = await openTab('20.00');
    const cashier = await counter.open('duplicate-tab');
    const { page } = cashier;
    await startTab(cashier, '20.00');
    const dialog = page.getByTestId('confirm-dialog');
    await dialog.waitFor();
    await expect
      .poll(() => page.getByTestId('duplicate-question').textContent())
      .toMatch(/^Possible duplicate: \$20\.00 on Visa 1111 at \d{1,2}:\d{2}\s?[AP]M\. Charge again\?$/);
    expect(await dialog.textContent()).toContain(`#${first}`);
    await cashier.check('03-duplicate-tab');
    await cashier.stepSettled();
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    // The customer's card holds the first tab: what Enter does next is give this one up.
    const cancel = page.getByRole('button', { name: 'Cancel the tab' });
    await expect.poll(() => cancel.evaluate((button) => button === document.activeElement)).toBe(true);
    // Another card would hold the customer twice: giving up is the one way on, as on the sale screen.
    expect(await page.getByRole('button', { name: 'Try another card' }).count()).toBe(0);
    // Said as the sale screen says it: the card, and the earlier charge by the name it was given.
    expect(await page.getByTestId('result-message').textContent()).toMatch(
      new RegExp(
        `^Visa 1111 already paid \\$20\\.00 at .* \\(tab #${first}\\), so this charge was not sent again\\.$`,
      ),
    );
    let rows = await counter.screens.client.listTransactions({ page_size: 2 });
    expect(rows.map((row) => [row.type, row.result, row.error_code])).toEqual([
      ['Auth', 'Rejected', '8033'],
      ['Auth', 'Approved', undefined],
    ]);
    await cashier.check('04-duplicate-tab-not-held');
    await cancel.click();

    await startTab(cashier, '20.00');
    await dialog.waitFor();
    await cashier.stepSettled();
    await dialog.getByRole('button', { name: 'Charge again' }).click();
    await page.getByRole('heading', { name: 'Tab opened' }).waitFor();
    rows = await counter.screens.client.listTransactions({ page_size: 1 });
    expect(rows[0]).toMatchObject({ type: 'Auth', result: 'Approved', amount: '20.00' });
    const [audit] = await counter.screens.running.gateway.engine.reads.recentAudit(1);
    expect(audit).toMatchObject({ action: 'duplicate_override', subject: `transaction ${rows[0]?.id}` });
  });

  it('a sale tipped at the counter names the total it would charge again, and the earlier sale by the number its approval gave', async () => {
    const settings = counter.screens.running.gateway.engine.settings;
    await settings.setFromText('duplicate_window_minutes', '2');
    await settings.setFromText('tips_enabled', 'true');
    await settings.setFromText('counter_tips', 'true');
    const cashier = await counter.open('duplicate-tipped');
    const { page } = cashier;
    try {
      await cashier.ringTippedSale('4000');
      await cashier.expectApproved();
      const [sale] = await counter.screens.client.listTransactions({ type: 'capture', page_size: 1 });
      expect(sale).toMatchObject({ counter_sale: 'true', amount: '48.00' });
      expect(await cashier.result.textContent()).toContain(`#${sale?.id}`);
      await cashier.stepSettled();
      await page.getByRole('button', { name: 'New sale' }).click();

      await cashier.ringTippedSale('4000');
      const dialog = page.getByTestId('confirm-dialog');
      await dialog.waitFor();
      await expect
        .poll(() => page.getByTestId('duplicate-question').textContent())
        .toMatch(/^Possible duplicate: \$48\.00 on Visa 1111 at \d/);
      // The engine finds the sale's hold; the cashier was given the sale's own number, and sees it again.
      await expect.poll(() => dialog.textContent()).toContain(`(sale #${sale?.id})`);
      expect(await dialog.textContent()).not.toContain(`#${sale?.original_id}`);
      await cashier.check('05-duplicate-tipped');
      await cashier.stepSettled();
      await page.keyboard.press('Enter');
      await dialog.waitFor({ state: 'detached' });
      await expect
        .poll(() => page.getByTestId('result-message').textContent())
        .toMatch(new RegExp(`^Visa 1111 already paid \\$48\\.00 at .* \\(sale #${sale?.id}\\)`));

      // A tab for the same card and total finds the same sale, and names it by the same number.
      await page.getByRole('button', { name: 'New sale' }).click();
      await startTab(cashier, '48.00');
      await dialog.waitFor();
      await expect.poll(() => dialog.textContent()).toContain(`(sale #${sale?.id})`);
      await cashier.stepSettled();
      await page.keyboard.press('Enter');
      await dialog.waitFor({ state: 'detached' });
      await expect
        .poll(() => page.getByTestId('result-message').textContent())
        .toMatch(new RegExp(`^Visa 1111 already paid \\$48\\.00 at .* \\(sale #${sale?.id}\\)`));
    } finally {
      await settings.setFromText('counter_tips', 'false');
    }
  });
});

describe('tips', () => {
  it('Adjust tip voids the capture and captures the tab again with the new tip; both stay in history', async () => {
    const { tabId } = await capturedTab('62.00', '31.00');
    const cashier = await counter.open('adjust-tip');
    await cashier.goTo('Tabs');
    await cashier.page.getByTestId(`captured-${tabId}`).getByRole('button').click();
    const panel = cashier.page.getByTestId('adjust-tip');
    await panel.waitFor();
    await cashier.check('01-adjust-tip');
    await panel.getByRole('button', { name: /^15%/ }).click();
    expect(await panel.getByTestId('capture-total').textContent()).toBe('$71.30');
    await panel.getByRole('button', { name: 'Adjust tip to $9.30' }).click();
    await cashier.page.getByRole('heading', { name: 'Tip adjusted' }).waitFor();
    await cashier.page.getByRole('button', { name: 'Print receipt' }).waitFor();
    // The list beside the answer shows the new tip at once, not only after Done.
    const row = cashier.page.getByTestId(`captured-${tabId}`);
    await row.filter({ hasText: 'tip $9.30' }).waitFor();
    expect(await row.count()).toBe(1);
    expect(await row.textContent()).toContain('$71.30');
    expect(await cashier.page.getByRole('heading', { name: 'Tip adjusted' }).count()).toBe(1);
    await cashier.check('02-tip-adjusted');

    const captures = (
      await counter.screens.client.listTransactions({ type: 'capture', page_size: 10 })
    ).filter((row) => row.original_id === tabId);
    expect(captures.map((row) => [row.amount, row.tip_amount, row.voided])).toEqual([
      ['71.30', '9.30', 'false'],
      ['93.00', '31.00', 'true'],
    ]);
    const [tab] = await counter.screens.client.listTransactions({ id: tabId });
    expect(tab).toMatchObject({ captured: 'true', voided: 'false' });
  });

  it('Adjust tip leaves a captured tab whose hold has expired as it is: a new capture would be refused', async () => {
    const { tabId, captureId } = await capturedTab('60.00', '9.00');
    const cashier = await counter.open('adjust-tip');
    const { page } = cashier;
    // Eight days on: past the seven days of the tab's hold.
    await afterTime(counter, cashier, 8 * 86_400_000);
    await cashier.goTo('Tabs');
    await page.getByTestId(`captured-${tabId}`).getByRole('button').click();
    const panel = page.getByTestId('adjust-tip');
    await panel.getByTestId('hold-expired').waitFor();
    expect(await panel.getByTestId('hold-expired').textContent()).toContain('the capture of $69.00 stands');
    expect(await panel.getByRole('button', { name: /^Adjust tip to/ }).isDisabled()).toBe(true);
    await cashier.check('03-adjust-tip-hold-expired');
    const [capture] = await counter.screens.client.listTransactions({ id: captureId });
    expect(capture).toMatchObject({ voided: 'false', amount: '69.00' });
  });

  it("Adjust tip whose hold expires while the manager's PIN is asked for leaves the capture as it is", async () => {
    const { engine } = counter.screens.running.gateway;
    if (!engine.staff.list().some((member) => member.name === 'Cole')) {
      await engine.staff.create({ name: 'Cole', role: 'cashier', pin: '1470' }, 'test');
    }
    const { tabId, captureId } = await capturedTab('60.00', '9.00');
    await counter.reader.bridge.invoke('staff:sign-in', { pin: '1470' });
    try {
      const cashier = await counter.open('adjust-tip-expiring');
      const { page } = cashier;
      // A minute before the seven days of the tab's hold end.
      const start = Date.now();
      const untilAMinuteBefore = 7 * 86_400_000 - 60_000;
      await afterTime(counter, cashier, untilAMinuteBefore);
      await cashier.goTo('Tabs');
      await page.getByTestId(`captured-${tabId}`).getByRole('button').click();
      const panel = page.getByTestId('adjust-tip');
      await panel.getByRole('button', { name: /^20%/ }).click();
      await panel.getByRole('button', { name: 'Adjust tip to $12.00' }).click();
      const pin = page.getByRole('dialog', { name: 'Manager PIN' });
      await pin.waitFor();
      // The manager comes over two minutes later: the hold has ended meanwhile.
      counter.engineClock.skip(120_000);
      await page.clock.setFixedTime(start + untilAMinuteBefore + 120_000);
      await pin.getByLabel('PIN', { exact: true }).fill(OWNER.pin);
      await pin.getByRole('button', { name: 'Confirm' }).click();
      await panel.getByTestId('hold-expired').waitFor();
      const [capture] = await counter.screens.client.listTransactions({ id: captureId });
      expect(capture).toMatchObject({ voided: 'false', amount: '69.00' });
    } finally {
      await counter.reader.bridge.invoke('staff:sign-in', { pin: OWNER.pin });
    }
  });

  it('a tip above the set share of the check asks first, naming both amounts', async () => {
    await counter.screens.running.gateway.engine.settings.setFromText('tips_enabled', 'true');
    const tabId = await openTab('62.00');
    const cashier = await counter.open('large-tip');
    await cashier.goTo('Tabs');
    await cashier.page.getByTestId(`tab-${tabId}`).getByRole('button').first().click();
    const detail = cashier.page.getByTestId('tab-detail');
    await detail.getByTestId('tip-amount').fill('136.45');
    await detail.getByRole('button', { name: 'Capture $198.45' }).click();
    const dialog = cashier.page.getByTestId('confirm-dialog');
    await dialog.waitFor();
    expect(await dialog.getByTestId('large-tips').textContent()).toContain(
      'Tab #' + tabId + ': a $136.45 tip on a $62.00 check',
    );
    await cashier.check('01-large-tip');
    // Enter answers what changes nothing: the tip goes back to be changed.
    await cashier.page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    const [unchanged] = await counter.screens.client.listTransactions({ id: tabId });
    expect(unchanged?.captured).toBe('false');

    await detail.getByTestId('tip-amount').fill('12.40');
    await detail.getByRole('button', { name: 'Capture $74.40' }).click();
    await cashier.page.getByRole('heading', { name: 'Tab captured' }).waitFor();
    await cashier.page.getByRole('button', { name: 'Email receipt' }).waitFor();
    const [captured] = await counter.screens.client.listTransactions({ id: tabId });
    expect(captured?.captured).toBe('true');
  });
});

describe('the end-of-day close', () => {
  it('closes nothing when a sale came in after the manager looked, and says so', async () => {
    const sale = await counter.screens.client.createTransaction({ type: 'SALE', amount: '10.00', ...VISA });
    expect(sale.result).toBe('Approved');
    const cashier = await counter.open('close');
    await cashier.goTo('End of day');
    await cashier.screen.getByRole('button', { name: /^Close batch/ }).click();
    const dialog = cashier.page.getByTestId('confirm-dialog');
    await dialog.waitFor();
    const late = await counter.screens.client.createTransaction({ type: 'SALE', amount: '4.00', ...VISA });
    expect(late.result).toBe('Approved');
    await dialog.getByRole('button', { name: 'Close the batch' }).click();
    await cashier.screen.getByText(/changed after you looked at it/).waitFor();
    // The app closes the batch for the manager, so the engine's refusal never reaches the browser.
    expect(cashier.problems).toEqual([]);
    await cashier.check('01-batch-changed');
    expect((await counter.screens.client.openBatch())?.status).toBe('OPEN');

    await cashier.screen.getByRole('button', { name: /^Close batch/ }).click();
    await cashier.page.getByTestId('confirm-dialog').getByRole('button', { name: 'Close the batch' }).click();
    await expect.poll(async () => (await counter.screens.client.openBatch())?.status ?? 'none').toBe('none');
  });
});
