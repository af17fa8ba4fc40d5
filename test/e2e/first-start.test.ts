/**
 * The first start of a counter in Debian's Chromium against a real engine with no staff yet: the
 * owner creates the first manager and says whether the counter takes tips, which the tabs and their
 * checks then follow. Screenshots are saved as test-results/first-start-*.png at three sizes.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, requireChromium, startTestScreens, type TestScreens } from '../support/screens';
import { buildApp, CounterPage } from './counter-page';

let buildDir: string;
const browsers: Browser[] = [];
const started: TestScreens[] = [];

beforeAll(async () => {
  requireChromium();
  buildDir = buildApp();
});
afterAll(async () => {
  for (const browser of browsers) await browser.close();
  for (const screens of started) await screens.close();
  rmSync(buildDir, { recursive: true, force: true });
});

async function firstStart(): Promise<{ screens: TestScreens; cashier: CounterPage }> {
  const screens = await startTestScreens({ rendererDir: join(buildDir, 'renderer') });
  started.push(screens);
  // Each engine has a certificate of its own, which its browser trusts alone.
  const browser = await launchChromium([screens.running.gateway.certificatePem]);
  browsers.push(browser);
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
  const cashier = new CounterPage(await context.newPage(), 'first-start');
  await cashier.page.goto(screens.running.pairingAddress());
  await cashier.page.getByRole('heading', { name: 'Welcome. Who manages this counter?' }).waitFor();
  return { screens, cashier };
}

async function fillManager(cashier: CounterPage): Promise<void> {
  const { page } = cashier;
  await page.getByLabel('Your name').fill('Olga');
  await page.getByLabel('Your PIN (4 to 8 digits)').fill('2580');
  await page.getByLabel('The same PIN again').fill('2580');
}

/** A $20.00 tab opened by another program, chosen on Tabs. */
async function chooseNewTab(screens: TestScreens, cashier: CounterPage): Promise<void> {
  const tab = await screens.client.createTransaction({
    type: 'AUTH',
    amount: '20.00',
    card: '4111111111111111',
    exp_date: '1230',
  });
  await cashier.goTo('Tabs');
  await cashier.screen.getByTestId(`tab-${tab.id}`).getByRole('button').first().click();
}

describe('the first start', () => {
  it('asks whether the counter takes tips with the first manager, and takes tips when told yes', async () => {
    const { screens, cashier } = await firstStart();
    const { page } = cashier;
    await fillManager(cashier);
    const question = page.getByRole('group', { name: 'Does this counter take tips?' });
    for (const size of [
      { width: 1280, height: 800 },
      { width: 1024, height: 768 },
      { width: 800, height: 600 },
    ]) {
      await page.setViewportSize(size);
      await cashier.check(`01-first-manager-${size.width}x${size.height}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });

    // Not answered: nothing is created until it is.
    await page.getByRole('button', { name: 'Create and sign in' }).click();
    await page.getByText('Say whether this counter takes tips.').waitFor();
    expect(screens.running.gateway.engine.staff.hasStaff()).toBe(false);

    const yes = question.getByRole('radio', { name: /^Yes/ });
    const box = await yes.locator('xpath=..').boundingBox();
    expect(box?.height).toBeGreaterThanOrEqual(44);
    await yes.check();
    await page.getByRole('button', { name: 'Create and sign in' }).click();
    await page.getByTestId('signed-in').getByText('Olga').waitFor();
    const { engine } = screens.running.gateway;
    expect(engine.settings.get('tips_enabled')).toBe(true);
    // Yes means at the counter too: a counter sale asks for the tip before the card.
    expect(engine.settings.get('counter_tips')).toBe(true);
    expect((await engine.reads.recentAudit(10)).map((entry) => [entry.action, entry.subject])).toEqual(
      expect.arrayContaining([
        ['setting_change', 'tips_enabled'],
        ['setting_change', 'counter_tips'],
      ]),
    );

    // The screens follow at once: a counter sale asks for the tip before the card...
    await cashier.tapAmount('1200');
    await page.getByRole('button', { name: /^Charge \$/ }).click();
    await page.getByTestId('counter-tip').waitFor();
    await page.getByRole('button', { name: 'Cancel the sale' }).click();
    // ...and a tab is captured with its tip.
    await chooseNewTab(screens, cashier);
    await cashier.screen.getByTestId('tip-amount').waitFor();
    await page.context().close();
  });

  it('takes tips on tabs only when told so: a counter sale then asks for none', async () => {
    const { screens, cashier } = await firstStart();
    const { page } = cashier;
    await fillManager(cashier);
    await page
      .getByRole('group', { name: 'Does this counter take tips?' })
      .getByRole('radio', { name: /^On tabs only/ })
      .check();
    await page.getByRole('button', { name: 'Create and sign in' }).click();
    await page.getByTestId('signed-in').getByText('Olga').waitFor();
    const { engine } = screens.running.gateway;
    expect([engine.settings.get('tips_enabled'), engine.settings.get('counter_tips')]).toEqual([true, false]);
    await chooseNewTab(screens, cashier);
    await cashier.screen.getByTestId('tip-amount').waitFor();
    await page.context().close();
  });

  it('keeps tips off when told no, and a tab is then captured without a tip field', async () => {
    const { screens, cashier } = await firstStart();
    const { page } = cashier;
    await fillManager(cashier);
    await page
      .getByRole('group', { name: 'Does this counter take tips?' })
      .getByRole('radio', { name: 'No tips' })
      .check();
    await page.getByRole('button', { name: 'Create and sign in' }).click();
    await page.getByTestId('signed-in').getByText('Olga').waitFor();
    expect(screens.running.gateway.engine.settings.get('tips_enabled')).toBe(false);
    await chooseNewTab(screens, cashier);
    await cashier.screen.getByRole('button', { name: 'Capture $20.00' }).waitFor();
    expect(await cashier.screen.getByTestId('tip-amount').count()).toBe(0);
    await page.context().close();
  });
});
