/**
 * Amount fields in Debian's Chromium against a real engine, typed like the register's: a tap on one
 * (with the focus or not) selects its amount so the first key replaces it, and digits always push in
 * from the right, so no tap or caret key can turn $5.00 into $5,000.00. Then a tab's Other percentage,
 * which never shows one tip while Capture would capture another, and Start a tab's check amount at
 * the counter sizes. Screenshots are saved as test-results/amount-fields-*.png.
 */
import type { Locator, Page } from 'playwright';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openTab, startCounter, type Counter, type CounterPage } from './counter-page';

let counter: Counter;

beforeAll(async () => {
  counter = await startCounter();
  await counter.screens.running.gateway.engine.settings.setFromText('tips_enabled', 'true');
});
afterEach(async () => {
  await counter?.closePages();
});
afterAll(() => counter?.close());

async function tabDetail(tabId: string, prefix: string): Promise<{ cashier: CounterPage; detail: Locator }> {
  const cashier = await counter.open(prefix);
  await cashier.goTo('Tabs');
  await cashier.screen.getByTestId(`tab-${tabId}`).getByRole('button').first().click();
  const detail = cashier.page.getByTestId('tab-detail');
  await detail.waitFor();
  return { cashier, detail };
}

/** Taps keys of the on-screen keypad named `pad`, as a finger would. */
async function tapKeys(page: Page, pad: string, keys: readonly string[]): Promise<void> {
  const group = page.getByRole('group', { name: pad });
  for (const key of keys) await group.getByRole('button', { name: key, exact: true }).click();
}

/** A tap on a field that has the focus already, checked to have had it. */
async function tapFocused(field: Locator): Promise<void> {
  await expect.poll(() => field.evaluate((element) => element === document.activeElement)).toBe(true);
  await field.click();
}

describe('an amount field', () => {
  it("on a tab's tip: a tap selects the amount, so the keyboard or the keypad replaces it", async () => {
    const tabId = await openTab(counter, '40.00');
    const { cashier, detail } = await tabDetail(tabId, 'amount-fields');
    const { page } = cashier;
    const tip = detail.getByTestId('tip-amount');

    // The tip has the focus as the tab opens; the cashier taps it anyway, then types.
    await tapFocused(tip);
    await page.keyboard.type('500');
    await expect.poll(() => tip.inputValue()).toBe('$5.00');
    await detail.getByRole('button', { name: 'Capture $45.00' }).waitFor();

    // Tapped again: the amount is selected, and the keypad's first key replaces it.
    await tapFocused(tip);
    await tapKeys(page, 'Tip keys', ['7', '00']);
    await expect.poll(() => tip.inputValue()).toBe('$7.00');

    // A tap on the percentage and back on the tip: the keypad replaces the amount again.
    await detail.getByLabel('Other percentage').click();
    await tip.click();
    await tapKeys(page, 'Tip keys', ['6', '00']);
    await expect.poll(() => tip.inputValue()).toBe('$6.00');

    // No caret key puts a digit in front or in the middle: digits always push in from the right.
    for (const key of ['Home', 'ArrowLeft']) {
      await page.keyboard.press('End');
      await page.keyboard.press(key);
      await page.keyboard.type('1');
      await page.keyboard.press('Backspace');
      await expect.poll(() => tip.inputValue(), { message: `after ${key}` }).toBe('$6.00');
    }
    await page.keyboard.press('Home');
    await tapKeys(page, 'Tip keys', ['1']);
    await expect.poll(() => tip.inputValue()).toBe('$60.01');
    await cashier.check('01-tip-typed-after-a-tap');
  });

  it('in Start a tab and a refund with no sale: a tap on the focused amount selects it', async () => {
    const cashier = await counter.open('amount-fields');
    const { page } = cashier;
    await cashier.goTo('Tabs');
    await page.getByRole('button', { name: 'Start a tab' }).click();
    const check = page.getByTestId('tab-amount');
    await tapFocused(check);
    await page.keyboard.type('4200');
    await expect.poll(() => check.inputValue()).toBe('$42.00');
    await tapFocused(check);
    await tapKeys(page, 'Amount keys', ['3', '8', '00']);
    await expect.poll(() => check.inputValue()).toBe('$38.00');
    await page.getByRole('button', { name: 'Take the card for $38.00' }).waitFor();
    await page.keyboard.press('Escape');

    await cashier.goTo('Refund & void');
    await page.getByRole('button', { name: 'Refund without a sale' }).click();
    const refund = page.getByTestId('unmatched-amount');
    await tapFocused(refund);
    await page.keyboard.type('1500');
    await expect.poll(() => refund.inputValue()).toBe('$15.00');
    await page.getByRole('button', { name: 'Take the card for $15.00' }).waitFor();
    // The same from the Invoice field and back: a tap on the amount selects it.
    await page
      .getByLabel(/Invoice/)
      .last()
      .click();
    await refund.click();
    await tapKeys(page, 'Amount keys', ['2', '5', '00']);
    await expect.poll(() => refund.inputValue()).toBe('$25.00');
  });

  it("in Adjust tip: a tap on the tip selects it, so 500 is $5.00 and not added to the old tip's digits", async () => {
    const tabId = await openTab(counter, '40.00');
    const captured = await counter.screens.client.createTransaction({
      type: 'CAPTURE',
      id: tabId,
      amount: '40.00',
      tip_amount: '8.00',
    });
    expect(captured.result).toBe('Approved');
    const cashier = await counter.open('amount-fields');
    const { page } = cashier;
    await cashier.goTo('Tabs');
    await page.getByTestId(`captured-${tabId}`).getByRole('button').click();
    const panel = page.getByTestId('adjust-tip');
    const tip = panel.getByTestId('tip-amount');
    await expect.poll(() => tip.inputValue()).toBe('$8.00');
    await tapFocused(tip);
    await page.keyboard.type('500');
    await expect.poll(() => tip.inputValue()).toBe('$5.00');
    await panel.getByRole('button', { name: 'Adjust tip to $5.00' }).waitFor();
  });
});

describe("the sale's tip at the counter", () => {
  it('is typed as the amount is: the keyboard wherever the focus is, the keypad beside it, Enter adds it', async () => {
    await counter.reader.bridge.invoke('settings:update', { tipsEnabled: true, counterTips: true });
    try {
      const cashier = await counter.open('amount-fields');
      const { page } = cashier;
      await cashier.tapAmount('4000');
      await page.getByRole('button', { name: 'Charge $40.00' }).click();
      const tip = page.getByTestId('counter-tip');
      const other = tip.getByTestId('other-tip');
      await other.waitFor();

      // The keyboard types the tip as soon as it is asked for.
      await page.keyboard.type('500');
      await expect.poll(() => other.inputValue()).toBe('$5.00');
      await page.keyboard.press('Backspace');
      await expect.poll(() => other.inputValue()).toBe('$0.50');

      // The keypad beside it, after a tap on it that selects the amount, replaces it.
      await other.click();
      expect(await page.getByTestId('pad-target').textContent()).toBe('Keys type into Other tip');
      await tapKeys(page, 'Tip keys', ['6', '00']);
      await expect.poll(() => other.inputValue()).toBe('$6.00');
      await tip.getByRole('button', { name: 'Add $6.00' }).waitFor();
      for (const size of [
        { width: 1280, height: 800 },
        { width: 1024, height: 768 },
        { width: 800, height: 600 },
      ]) {
        await page.setViewportSize(size);
        await cashier.check(`04-counter-tip-${size.width}`);
      }

      // Typed with the focus elsewhere, the keys still go to the tip, as they go to the amount.
      await page.getByRole('heading', { name: 'New sale' }).click();
      await expect.poll(() => other.evaluate((field) => field === document.activeElement)).toBe(false);
      await page.keyboard.type('7');
      await expect.poll(() => other.inputValue()).toBe('$0.07');
      await page.keyboard.type('00');
      await expect.poll(() => other.inputValue()).toBe('$7.00');

      await page.keyboard.press('Enter');
      await page.getByTestId('waiting-for-swipe').waitFor();
      expect(await page.getByTestId('sale-tip').textContent()).toContain('$7.00');
      expect(await page.getByTestId('sale-total').textContent()).toBe('$47.00');
    } finally {
      await counter.reader.bridge.invoke('settings:update', { counterTips: false });
    }
  });
});

describe("a tab's Other percentage", () => {
  it('above 100 is the tip it says, confirmed before Capture; cleared, it leaves no tip', async () => {
    const tabId = await openTab(counter, '40.00');
    const { cashier, detail } = await tabDetail(tabId, 'amount-fields');
    const { page } = cashier;
    const percent = detail.getByLabel('Other percentage');
    const tip = detail.getByTestId('tip-amount');

    await percent.fill('20');
    await expect.poll(() => tip.inputValue()).toBe('$8.00');
    await percent.fill('150');
    await expect.poll(() => tip.inputValue()).toBe('$60.00');
    await detail.getByTestId('percent-note').filter({ hasText: 'more than the check' }).waitFor();
    await cashier.check('02-percentage-above-100');

    // Capture asks first, naming the tip the percentage gives.
    await detail.getByRole('button', { name: 'Capture $100.00' }).click();
    const dialog = page.getByTestId('confirm-dialog');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('a $60.00 tip on a $40.00 check (150%)');
    await dialog.getByRole('button', { name: 'Change the tip' }).click();
    await dialog.waitFor({ state: 'detached' });

    // Cleared, the percentage's tip goes with it: nothing is left for Capture to add.
    await percent.fill('');
    await expect.poll(() => tip.inputValue()).toBe('$0.00');
    await detail.getByRole('button', { name: 'Capture $40.00' }).waitFor();
    expect(await detail.getByTestId('percent-note').count()).toBe(0);

    // Typed on the keypad, the percentage is the tip at every key; a second point is refused, and
    // the percentage taken back to nothing leaves no tip.
    await percent.click();
    await tapKeys(page, 'Tip keys', ['1', '2']);
    await expect.poll(() => tip.inputValue()).toBe('$4.80');
    await page.keyboard.type('.5.');
    await expect.poll(() => percent.inputValue()).toBe('12.5');
    await expect.poll(() => tip.inputValue()).toBe('$5.00');
    for (let key = 0; key < 4; key += 1) await tapKeys(page, 'Tip keys', ['Delete the last digit']);
    await expect.poll(() => percent.inputValue()).toBe('');
    await expect.poll(() => tip.inputValue()).toBe('$0.00');

    // Confirmed, the tab is captured with the tip the percentage shows.
    await percent.fill('150');
    await detail.getByRole('button', { name: 'Capture $100.00' }).click();
    await dialog.getByRole('button', { name: 'Capture $100.00' }).click();
    await page.getByRole('heading', { name: 'Tab captured' }).waitFor();
    const [capture] = await counter.screens.client.listTransactions({ type: 'capture', page_size: 1 });
    expect(capture).toMatchObject({ original_id: tabId, amount: '100.00', tip_amount: '60.00' });
  });

  it('past the largest amount a tab can take is refused where it is typed, and the tip stays as shown', async () => {
    const tabId = await openTab(counter, '600000.00');
    const { cashier, detail } = await tabDetail(tabId, 'amount-fields');
    const percent = detail.getByLabel('Other percentage');
    const tip = detail.getByTestId('tip-amount');
    await percent.fill('50');
    await expect.poll(() => tip.inputValue()).toBe('$300,000.00');
    await percent.fill('70');
    await detail.getByTestId('percent-note').filter({ hasText: 'at most' }).waitFor();
    expect(await percent.inputValue()).toBe('50');
    expect(await tip.inputValue()).toBe('$300,000.00');
    await detail.getByRole('button', { name: 'Capture $900,000.00' }).waitFor();
    await cashier.check('03-percentage-too-large');
  });
});

describe('Start a tab', () => {
  for (const size of [
    { width: 1280, height: 800 },
    { width: 1024, height: 768 },
    { width: 800, height: 600 },
  ]) {
    it(`at ${size.width}x${size.height} shows the largest check amount whole, and its button on one line`, async () => {
      const cashier = await counter.open('amount-fields');
      const { page } = cashier;
      await page.setViewportSize(size);
      await cashier.goTo('Tabs');
      await page.getByRole('button', { name: 'Start a tab' }).click();
      const check = page.getByTestId('tab-amount');
      for (const amount of ['12345.67', '999999.99']) {
        await check.fill(amount);
        await expect.poll(() => check.inputValue()).toBe(`$${Number(amount).toLocaleString('en-US')}`);
        const fits = await check.evaluate((field) => field.scrollWidth <= field.clientWidth);
        expect(fits, `${amount} whole in the field`).toBe(true);
        const button = page.getByRole('button', { name: /^Take the card for/ });
        // Each line the button's words take is one more box of their text.
        const lines = await button.evaluate((element) => {
          const words = Array.from(element.childNodes).find((node) => node.nodeType === Node.TEXT_NODE);
          if (!words) return 0;
          const range = document.createRange();
          range.selectNodeContents(words);
          return new Set(Array.from(range.getClientRects()).map((rect) => Math.round(rect.top))).size;
        });
        expect(lines, `${amount}: the button's words on one line`).toBe(1);
        await page.screenshot({
          path: `test-results/amount-fields-start-a-tab-${size.width}-${amount}.png`,
        });
      }
    });
  }
});
