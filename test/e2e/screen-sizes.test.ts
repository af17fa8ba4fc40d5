/**
 * Every screen at the sizes a counter has (1280x800, 1024x768, 800x600): one column below about
 * 1100 px, the primary action in view without scrolling, touch targets of at least 44x44 px, and no
 * serious accessibility violation. Screenshots are saved as test-results/sizes-*.png.
 */
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
}, 180_000);
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
    // Six screens, their working states and confirmations, each checked with axe: a while on a busy machine.
    it(
      `at ${size.width}x${size.height}: primary action in view, touch targets of 44 px, accessible`,
      { timeout: 120_000 },
      async () => {
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
      },
    );
  }
});
