/**
 * Every screen at the sizes a counter has (1280x800, 1024x768, 800x600): one column below about
 * 1100 px, the primary action in view without scrolling, touch targets of at least 44x44 px, and no
 * serious accessibility violation. Screenshots are saved as test-results/sizes-*.png.
 */
import type { Locator } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, startCounter, type Counter, type CounterPage } from './counter-page';

let counter: Counter;
let tabId = '';
let saleId = '';

beforeAll(async () => {
  counter = await startCounter();
  // A tab and a sale, so the lists and the batch have rows to lay out.
  const { client } = counter.screens;
  const tab = await client.createTransaction({
    type: 'AUTH',
    amount: '62.00',
    card: '5454545454545454',
    exp_date: '1230',
    server_id: '07',
  });
  const sale = await client.createTransaction({
    type: 'SALE',
    amount: '27.80',
    card: '4111111111111111',
    exp_date: '1230',
  });
  tabId = tab.id ?? '';
  saleId = sale.id ?? '';
});
afterAll(() => counter?.close());

const SIZES = [
  { width: 1280, height: 800 },
  { width: 1024, height: 768 },
  { width: 800, height: 600 },
] as const;

const SCREENS = [
  { name: 'Sale', primary: /^(Enter an amount|Charge)/ },
  { name: 'Tabs', primary: /^Start a tab$/ },
  { name: 'Refund & void', primary: /^Find$/ },
  { name: 'History', primary: /^Export CSV/ },
  { name: 'End of day', primary: /^Close batch/ },
  { name: 'Settings', primary: undefined },
] as const;

/** The controls on screen smaller than a fingertip, as "name (width x height)". */
async function smallTargets(cashier: CounterPage): Promise<string[]> {
  return cashier.page.evaluate(() => {
    const found: string[] = [];
    const controls = document.querySelectorAll<HTMLElement>(
      '.screen-slot:not([hidden]) :is(button, a[href], select, summary, input:not([type="checkbox"]):not([type="radio"]):not([type="hidden"])), header button, header a[href]',
    );
    for (const control of Array.from(controls)) {
      const box = control.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || !control.checkVisibility({ visibilityProperty: true }))
        continue;
      if (control.closest('[hidden], .visually-hidden')) continue;
      if (box.width < 44 || box.height < 44) {
        const name = (control.getAttribute('aria-label') ?? control.textContent ?? control.tagName)
          .trim()
          .slice(0, 40);
        found.push(`${name} (${Math.round(box.width)}x${Math.round(box.height)})`);
      }
    }
    return found;
  });
}

describe('every screen', () => {
  for (const size of SIZES) {
    it(`at ${size.width}x${size.height}: primary action in view, touch targets of 44 px, accessible`, async () => {
      const cashier = await counter.open('sizes');
      await cashier.page.setViewportSize(size);
      const report: string[] = [];
      for (const screen of SCREENS) {
        await cashier.goTo(screen.name);
        if (screen.primary)
          await cashier.screen.getByRole('button', { name: screen.primary }).first().waitFor();
        else await cashier.page.waitForLoadState('networkidle');
        const slug = screen.name.toLowerCase().replace(/[^a-z]+/g, '-');
        await cashier.page.screenshot({ path: `test-results/sizes-${size.width}-${slug}.png` });
        if (screen.primary) {
          const primary = cashier.screen.getByRole('button', { name: screen.primary }).first();
          const box = await primary.boundingBox();
          if (!box || box.y + box.height > size.height || box.x + box.width > size.width)
            report.push(`${screen.name}: primary action out of view ${JSON.stringify(box)}`);
        }
        const overflow = await cashier.page.evaluate(
          () => document.documentElement.scrollWidth > window.innerWidth,
        );
        if (overflow) report.push(`${screen.name}: wider than the window`);
        for (const small of await smallTargets(cashier)) report.push(`${screen.name}: ${small}`);
        try {
          await expectAccessible(cashier.page, `${screen.name} at ${size.width}`);
        } catch (error) {
          report.push(`${screen.name}: ${String(error).slice(0, 400)}`);
        }
      }
      // The screens' working states: an amount typed, a tab chosen, a transaction opened.
      const inView = async (state: string, name: RegExp) => {
        const box = await cashier.page.getByRole('button', { name }).first().boundingBox();
        if (!box || box.y + box.height > size.height || box.x + box.width > size.width)
          report.push(`${state}: primary action out of view ${JSON.stringify(box)}`);
        for (const small of await smallTargets(cashier)) report.push(`${state}: ${small}`);
        await cashier.page.screenshot({ path: `test-results/sizes-${size.width}-${state}.png` });
        try {
          await expectAccessible(cashier.page, `${state} at ${size.width}`);
        } catch (error) {
          report.push(`${state}: ${String(error).slice(0, 400)}`);
        }
      };
      const dialogInView = async (state: string, confirm: string) => {
        const dialog = cashier.page.getByTestId('confirm-dialog');
        await dialog.waitFor();
        const box = await dialog.getByRole('button', { name: confirm }).boundingBox();
        if (!box || box.y + box.height > size.height || box.x + box.width > size.width)
          report.push(`${state}: confirmation out of view ${JSON.stringify(box)}`);
        await cashier.page.screenshot({ path: `test-results/sizes-${size.width}-${state}.png` });
        try {
          await expectAccessible(cashier.page, `${state} at ${size.width}`);
        } catch (error) {
          report.push(`${state}: ${String(error).slice(0, 400)}`);
        }
        await dialog.getByRole('button', { name: /^(Cancel|Change the amount)$/ }).click();
        await dialog.waitFor({ state: 'detached' });
      };
      await cashier.goTo('Sale');
      await cashier.tapAmount('1250');
      await inView('sale-amount', /^Charge \$12\.50/);
      await cashier.page.keyboard.press('Escape');
      await cashier.goTo('Tabs');
      await cashier.screen.getByTestId(`tab-${tabId}`).getByRole('button').click();
      await inView('tab-chosen', /^Capture \$62\.00/);
      await cashier.goTo('Refund & void');
      await cashier.screen.getByTestId(`transaction-${saleId}`).click();
      await inView('transaction-chosen', /^Void sale/);
      // The confirmations: a void, and a large amount said back.
      await cashier.screen.getByRole('button', { name: /^Void sale/ }).click();
      await dialogInView('void-confirm', 'Void it');
      await cashier.goTo('Sale');
      await cashier.tapAmount('250000');
      await cashier.page.keyboard.press('Enter');
      await dialogInView('large-amount', 'Charge $2,500.00');
      await cashier.page.keyboard.press('Escape');
      // The receipt preview, and the end-of-day report as it prints.
      await cashier.goTo('History');
      await cashier.screen
        .getByTestId(`history-${saleId}`)
        .getByRole('button', { name: `Reprint the receipt of #${saleId}` })
        .click();
      const receipt = cashier.page.getByTestId('receipt-dialog');
      await receipt.getByTestId('receipt-preview').waitFor();
      await inView('receipt-preview', /^Print customer copy/);
      await receipt.getByRole('button', { name: 'Close' }).click();
      await receipt.waitFor({ state: 'detached' });
      await cashier.goTo('End of day');
      await cashier.screen.getByRole('button', { name: /^Close batch/ }).waitFor();
      await cashier.page.emulateMedia({ media: 'print' });
      try {
        await expectAccessible(cashier.page, `end-of-day print at ${size.width}`);
      } catch (error) {
        report.push(`end-of-day print: ${String(error).slice(0, 400)}`);
      }
      await cashier.page.emulateMedia({ media: 'screen' });
      // The simulated reader's menu, open: its test cards are tapped like any other button.
      await cashier.page.locator('summary', { hasText: 'Test swipes' }).click();
      await cashier.page.getByRole('group', { name: 'Simulated card reader' }).waitFor();
      for (const small of await smallTargets(cashier)) report.push(`test swipes menu: ${small}`);
      await cashier.page.keyboard.press('Escape');
      expect(report).toEqual([]);
    });
  }
});

/** Every place the screen scrolls sideways, or cuts its content off sideways, as "what (how much)". */
async function sidewaysOverflow(cashier: CounterPage): Promise<string[]> {
  return cashier.page.evaluate(() => {
    const found: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > window.innerWidth)
      found.push(`the page (${root.scrollWidth - window.innerWidth} px)`);
    for (const element of Array.from(document.querySelectorAll<HTMLElement>('body *'))) {
      // What is there for screen readers only is a pixel wide by design.
      if (!element.checkVisibility() || element.clientWidth <= 1) continue;
      const style = getComputedStyle(element);
      if (style.overflowX === 'visible') continue;
      const over = element.scrollWidth - element.clientWidth;
      // Text cut short with an ellipsis on purpose (a long invoice) is not a layout fault.
      if (over > 0 && style.textOverflow !== 'ellipsis')
        found.push(`${element.tagName.toLowerCase()}.${element.className} (${over} px)`);
    }
    return found;
  });
}

/** Whether `inner` is wholly inside what `outer` shows of it, and inside the window. */
async function wholeInView(cashier: CounterPage, inner: Locator, outer: string): Promise<boolean> {
  return inner.evaluate((element, outerSelector) => {
    const box = element.getBoundingClientRect();
    const frame =
      element.closest(outerSelector)?.getBoundingClientRect() ?? new DOMRect(0, 0, innerWidth, innerHeight);
    const inside = (rect: DOMRect) =>
      box.left >= rect.left - 0.5 &&
      box.right <= rect.right + 0.5 &&
      box.top >= rect.top - 0.5 &&
      box.bottom <= rect.bottom + 0.5;
    return box.width > 0 && inside(frame) && inside(new DOMRect(0, 0, innerWidth, innerHeight));
  }, outer);
}

describe('nothing is cut off', () => {
  let settledId = '';
  let partlyRefundedId = '';
  let tipsTabId = '';

  beforeAll(async () => {
    const { client } = counter.screens;
    const { engine } = counter.screens.running.gateway;
    await engine.staff.create({ name: 'Sam Carter', role: 'manager', pin: '1357' }, 'test');
    const settled = await client.createTransaction({
      type: 'SALE',
      amount: '27.80',
      card: '4111111111111111',
      exp_date: '1230',
      invoice: 'INV-1001',
      server_id: '07',
    });
    const partly = await client.createTransaction({
      type: 'SALE',
      amount: '64.00',
      card: '5454545454545454',
      exp_date: '1230',
    });
    await client.closeOpenBatch();
    const refund = await engine.transactions.submit(
      { type: 'REFUND', id: partly.id ?? '', amount: '10.00' },
      { apiKeyId: null },
    );
    expect(refund.result).toBe('Approved');
    const tab = await client.createTransaction({
      type: 'AUTH',
      amount: '48.00',
      card: '4111111111111111',
      exp_date: '1230',
    });
    settledId = settled.id ?? '';
    partlyRefundedId = partly.id ?? '';
    tipsTabId = tab.id ?? '';
  });

  for (const size of SIZES) {
    it(`at ${size.width}x${size.height}: the top bar, History, a refund, a tab being tipped and End of day`, async () => {
      const { engine } = counter.screens.running.gateway;
      await engine.settings.setFromText('tips_enabled', 'true');
      await counter.reader.bridge.invoke('staff:sign-in', { pin: '1357' });
      const cashier = await counter.open('sizes');
      const { page } = cashier;
      const report: string[] = [];
      try {
        await page.setViewportSize(size);
        const badge = page.getByTestId('signed-in');
        await badge.getByText('Sam Carter').waitFor();

        // The top bar: the whole name of who is signed in, and the lock beside it.
        const name = await badge.locator('.signed-in-name').evaluate((element) => ({
          cut: element.scrollWidth > element.clientWidth,
        }));
        if (name.cut) report.push('top bar: the name is cut off');
        if (!(await wholeInView(cashier, badge.getByRole('button'), 'header')))
          report.push('top bar: the lock is cut off');

        for (const screen of [
          'Sale',
          'Tabs',
          'Refund & void',
          'History',
          'End of day',
          'Settings',
        ] as const) {
          await cashier.goTo(screen);
          await page.waitForLoadState('networkidle');
          for (const over of await sidewaysOverflow(cashier)) report.push(`${screen}: sideways ${over}`);
        }

        // History: the amount of every row, and whole dates in the date filters.
        await cashier.goTo('History');
        await page.locator('table[aria-busy="false"] tbody tr').first().waitFor();
        const amount = page.getByRole('columnheader', { name: /Amount/ });
        if (!(await wholeInView(cashier, amount, '.table-wrap')))
          report.push('History: the Amount column is out of view');
        const dates = await page.locator('.history-screen input[type="date"]').evaluateAll((inputs) =>
          inputs.map((input) => {
            const style = getComputedStyle(input);
            const context = document.createElement('canvas').getContext('2d');
            if (context) context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
            // The placeholder, the calendar button beside it, and the field's own padding.
            const needed =
              (context?.measureText('mm/dd/yyyy').width ?? 0) +
              24 +
              parseFloat(style.paddingLeft) +
              parseFloat(style.paddingRight);
            return (input as HTMLElement).clientWidth >= needed;
          }),
        );
        if (dates.includes(false)) report.push('History: a date filter is too narrow for mm/dd/yyyy');
        await page.screenshot({ path: `test-results/sizes-${size.width}-history-whole.png` });

        // Refund & void: Refund stays in view in its panel, for a sale and for one refunded in part.
        await cashier.goTo('Refund & void');
        for (const id of [settledId, partlyRefundedId]) {
          await cashier.screen.getByTestId(`transaction-${id}`).click();
          const refund = page.getByRole('button', { name: /^Refund \$/ });
          await refund.waitFor();
          if (!(await wholeInView(cashier, refund, '.side-panel')))
            report.push(`Refund & void: the Refund button of #${id} is out of view`);
          for (const over of await sidewaysOverflow(cashier)) report.push(`Refund #${id}: sideways ${over}`);
          await page.screenshot({ path: `test-results/sizes-${size.width}-refund-${id}.png` });
        }

        // Tabs: while the tip is typed, the tab it is for and Capture stay in view.
        await cashier.goTo('Tabs');
        await cashier.screen.getByTestId(`tab-${tipsTabId}`).getByRole('button').first().click();
        const tip = cashier.screen.getByTestId('tip-amount');
        await tip.fill('9.00');
        await tip.evaluate((field) => field.scrollIntoView({ block: 'end' }));
        for (const over of await sidewaysOverflow(cashier)) report.push(`Tabs, tipping: sideways ${over}`);
        const title = page.getByRole('heading', { name: `Tab #${tipsTabId} · $48.00` });
        if (!(await wholeInView(cashier, title, '.side-panel')))
          report.push('Tabs: the tab being tipped scrolled away');
        if (
          !(await wholeInView(cashier, page.getByRole('button', { name: 'Capture $57.00' }), '.side-panel'))
        )
          report.push('Tabs: Capture is out of view while tipping');
        await page.screenshot({ path: `test-results/sizes-${size.width}-tab-tipping.png` });
      } finally {
        await engine.settings.setFromText('tips_enabled', 'false');
        await counter.reader.bridge.invoke('staff:sign-in', { pin: '2580' });
        await cashier.page.context().close();
      }
      expect(report).toEqual([]);
    });
  }
});

/**
 * Whether `element` is wholly in the window and in what `outer` shows of it, and nothing covers it
 * (a sticky head or button): what the page shows at its corners and middle is the element itself.
 */
async function inViewUncovered(inner: Locator, outer: string): Promise<string | undefined> {
  return inner.evaluate((element, outerSelector) => {
    const box = element.getBoundingClientRect();
    const frame =
      element.closest(outerSelector)?.getBoundingClientRect() ?? new DOMRect(0, 0, innerWidth, innerHeight);
    const view = new DOMRect(0, 0, innerWidth, innerHeight);
    const inside = (rect: DOMRect) =>
      box.left >= rect.left - 0.5 &&
      box.right <= rect.right + 0.5 &&
      box.top >= rect.top - 0.5 &&
      box.bottom <= rect.bottom + 0.5;
    const what = `${element.tagName.toLowerCase()} "${(element.textContent ?? '').trim().slice(0, 30)}"`;
    if (box.width === 0 || !inside(frame) || !inside(view)) {
      return `${what} out of view (${Math.round(box.top)}-${Math.round(box.bottom)})`;
    }
    const inset = 3;
    const points = [
      [box.left + inset, box.top + inset],
      [box.right - inset, box.top + inset],
      [box.left + inset, box.bottom - inset],
      [box.right - inset, box.bottom - inset],
      [box.left + box.width / 2, box.top + box.height / 2],
    ] as const;
    for (const [x, y] of points) {
      const hit = document.elementFromPoint(x, y);
      if (!hit || !(element === hit || element.contains(hit) || hit.contains(element))) {
        return `${what} covered at (${Math.round(x)}, ${Math.round(y)}) by ${hit?.tagName.toLowerCase()}.${hit?.className}`;
      }
    }
    return undefined;
  }, outer);
}

describe('the way on and what it says, in view and uncovered', () => {
  let settledId = '';
  let capturedTabId = '';

  beforeAll(async () => {
    const { client } = counter.screens;
    const settled = await client.createTransaction({
      type: 'SALE',
      amount: '21.00',
      card: '5454545454545454',
      exp_date: '1230',
      server_id: '12',
    });
    await client.closeOpenBatch();
    settledId = settled.id ?? '';
    // A tab captured in the open batch, whose tip can still be adjusted.
    const tab = await client.createTransaction({
      type: 'AUTH',
      amount: '40.00',
      card: '4111111111111111',
      exp_date: '1230',
    });
    capturedTabId = tab.id ?? '';
    const { settings } = counter.screens.running.gateway.engine;
    await settings.setFromText('tips_enabled', 'true');
    const capture = await client.createTransaction({
      type: 'CAPTURE',
      id: capturedTabId,
      amount: '40.00',
      tip_amount: '8.00',
    });
    await settings.setFromText('tips_enabled', 'false');
    expect(capture.result).toBe('Approved');
  });

  for (const size of SIZES) {
    it(`at ${size.width}x${size.height}: a refund, starting a tab, adjusting a tip, a refund without a sale, a sale's answer`, async () => {
      await counter.reader.bridge.invoke('settings:update', { tipsEnabled: true, counterTips: true });
      const cashier = await counter.open('sizes');
      const { page } = cashier;
      const report: string[] = [];
      const check = async (state: string, locator: Locator, outer = '.side-panel') => {
        const problem = await inViewUncovered(locator, outer);
        if (problem) report.push(`${state}: ${problem}`);
      };
      try {
        await page.setViewportSize(size);

        // A settled sale: the refund amount, every key and Refund; then more than is left, said
        // beside a Refund that offers no amount.
        await cashier.goTo('Refund & void');
        await cashier.screen.getByTestId(`transaction-${settledId}`).click();
        const refund = page.getByRole('button', { name: 'Refund $21.00' });
        await refund.waitFor();
        await check('refund', page.getByTestId('refund-amount'));
        await check('refund', refund);
        for (const key of await page
          .getByRole('group', { name: 'Refund amount keys' })
          .getByRole('button')
          .all())
          await check('refund keys', key);
        await page.screenshot({ path: `test-results/sizes-${size.width}-refund-keys.png` });
        await page.getByTestId('refund-amount').fill('25.00');
        // Enter, as a cashier would press it: nothing is sent either way.
        await page.getByTestId('refund-amount').press('Enter');
        const problem = page.locator('#refund-problem');
        await problem.waitFor();
        await check('refund over', problem);
        if (await page.getByRole('button', { name: 'Refund $25.00' }).count())
          report.push('refund over: the button offers $25.00');
        const refuse = page.getByRole('button', { name: 'Only $21.00 left to refund' });
        if ((await refuse.count()) === 0) report.push('refund over: the button does not say what is left');
        else {
          await check('refund over', refuse);
          if (!(await refuse.isDisabled())) report.push('refund over: the button still takes the amount');
        }
        await page.screenshot({ path: `test-results/sizes-${size.width}-refund-over.png` });
        await page.getByRole('button', { name: 'Close' }).click();

        // Refund without a sale, and starting a tab: the amount, its keys and the button.
        await page.getByRole('button', { name: 'Refund without a sale' }).click();
        await page.getByTestId('unmatched-amount').fill('15.00');
        await check('refund without a sale', page.getByRole('button', { name: 'Take the card for $15.00' }));
        await page.keyboard.press('Escape');
        await cashier.goTo('Tabs');
        await page.getByRole('button', { name: 'Start a tab' }).click();
        const tabAmount = page.getByTestId('tab-amount');
        await tabAmount.fill('40.00');
        await check('start a tab', page.getByRole('button', { name: 'Take the card for $40.00' }));
        await check('start a tab', page.getByRole('group', { name: 'Amount keys' }));
        await tabAmount.fill('');
        await page.getByRole('button', { name: /^Enter the check amount/ }).click();
        await page.getByText('Enter the check amount.').waitFor();
        await check('start a tab, no amount', tabAmount);
        await check('start a tab, no amount', page.getByText('Enter the check amount.'));
        await page.screenshot({ path: `test-results/sizes-${size.width}-start-tab-empty.png` });
        await page.keyboard.press('Escape');

        // Adjust tip: what it does, said above its button, and the button.
        await page.getByTestId(`captured-${capturedTabId}`).getByRole('button').click();
        const adjust = page.getByTestId('adjust-tip');
        await adjust.getByTestId('tip-amount').waitFor();
        await check('adjust tip', adjust.getByText(/^The capture is voided and the tab captured again/));
        await check('adjust tip', adjust.getByRole('button', { name: 'Adjust tip to $8.00' }));
        await page.screenshot({ path: `test-results/sizes-${size.width}-adjust-tip.png` });
        await adjust.getByRole('button', { name: 'Close' }).click();

        // A large amount on one line, inside its box.
        await cashier.goTo('Sale');
        await cashier.tapAmount('12345678');
        const amount = page.locator('.amount-value');
        await amount.getByText('$123,456.78').waitFor();
        const lines = await amount.evaluate((element) => {
          const range = document.createRange();
          range.selectNodeContents(element);
          const tops = new Set(Array.from(range.getClientRects(), (rect) => Math.round(rect.top)));
          return { lines: tops.size, over: element.scrollWidth > element.clientWidth };
        });
        if (lines.lines !== 1 || lines.over) report.push(`sale: the amount ${JSON.stringify(lines)}`);
        await check('sale amount', amount, '.amount');
        await page.getByRole('button', { name: 'Clear' }).click();

        // A tipped sale's answer: the receipt buttons and New sale.
        await cashier.ringTippedSale('1250');
        await cashier.expectApproved();
        await cashier.stepSettled();
        const answer = page.getByTestId('sale-result');
        await check('answer', answer.getByRole('button', { name: /^New sale/ }), 'main');
        await check('answer', answer.getByRole('button', { name: 'Print receipt' }), 'main');
        await page.screenshot({ path: `test-results/sizes-${size.width}-approved.png` });
      } finally {
        await counter.reader.bridge.invoke('settings:update', { tipsEnabled: false, counterTips: false });
        await page.context().close();
      }
      expect(report).toEqual([]);
    });
  }
});
