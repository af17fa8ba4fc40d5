/**
 * Small things at the counter in Debian's Chromium against a real engine, each a trap a cashier or a
 * manager fell into: Enter after a receipt preview, a refusal behind a dialog, a form that Enter does
 * not submit, radio buttons too small to tap, a tab's expiry a day short, words that read wrong, and
 * where Settings opens. Screenshots are saved as test-results/details-*.png.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { OWNER, startCounter, type Counter, type CounterPage } from './counter-page';

let counter: Counter;

beforeAll(async () => {
  counter = await startCounter();
});
afterEach(() => counter?.closePages());
afterAll(() => counter?.close());

async function staffSettings(): Promise<CounterPage> {
  const cashier = await counter.open('details');
  await cashier.goTo('Settings');
  await cashier.page
    .getByRole('navigation', { name: 'Settings' })
    .getByRole('button', { name: 'Staff' })
    .click();
  await cashier.page.getByRole('heading', { name: 'Staff', level: 2 }).waitFor();
  return cashier;
}

describe('an approved sale', () => {
  it('starts the next sale on Enter after its receipt preview is closed', async () => {
    const cashier = await counter.open('details');
    const { page } = cashier;
    await cashier.tapAmount('725');
    await cashier.chargeAndKeyIn();
    await cashier.fillCard({ number: '4111111111111111', expiry: '1230' });
    await cashier.submitCard();
    await cashier.expectApproved();
    await page.getByRole('button', { name: 'Preview' }).click();
    const dialog = page.getByTestId('receipt-dialog');
    await dialog.getByTestId('receipt-preview').waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    const newSale = page.getByRole('button', { name: /^New sale/ });
    expect(await newSale.evaluate((button) => button === document.activeElement)).toBe(true);
    await cashier.stepSettled();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Enter an amount' }).waitFor();
    expect(await cashier.amount.textContent()).toBe('$0.00');
    expect(await page.getByTestId('receipt-dialog').count()).toBe(0);
  });

  it('names the receipt email field with a space before what it defaults to', async () => {
    const cashier = await counter.open('details');
    const { page } = cashier;
    await cashier.tapAmount('726');
    await cashier.chargeAndKeyIn();
    await cashier.fillCard({ number: '4111111111111111', expiry: '1230' });
    await cashier.submitCard();
    await cashier.expectApproved();
    await page.getByRole('button', { name: 'Email receipt' }).click();
    await page.getByLabel('Email address (empty: the one sent with the sale)').waitFor();
  });
});

describe('Settings', () => {
  it('opens on Staff, with API keys among the last sections', async () => {
    const cashier = await counter.open('details');
    await cashier.goTo('Settings');
    await cashier.page.getByRole('heading', { name: 'Staff', level: 2 }).waitFor();
    const sections = await cashier.page
      .getByRole('navigation', { name: 'Settings' })
      .getByRole('button')
      .allTextContents();
    expect(sections[0]).toBe('Staff');
    expect(sections.indexOf('API keys')).toBeGreaterThan(sections.indexOf('Receipts & printer'));
    expect(sections.at(-1)).toBe('Audit log');
    await cashier.check('01-settings-opens-on-staff');
  });

  it('says why the only manager cannot be retired, in the dialog the manager is looking at', async () => {
    const cashier = await staffSettings();
    const { page } = cashier;
    await page
      .getByRole('row', { name: new RegExp(`^${OWNER.name}`) })
      .getByRole('button', { name: 'Retire' })
      .click();
    const dialog = page.getByTestId('confirm-dialog');
    await dialog.getByRole('button', { name: 'Retire' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'is the only manager' }).waitFor();
    expect(await dialog.getByRole('alert').textContent()).toContain(
      `${OWNER.name} is the only manager. Make someone else a manager first.`,
    );
    await cashier.check('02-only-manager');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(
      counter.screens.running.gateway.engine.staff.list().find((member) => member.name === OWNER.name)
        ?.retired,
    ).toBe(null);
  });

  it('adds a person with Enter, from radio buttons and fields large enough to tap', async () => {
    const cashier = await staffSettings();
    const { page } = cashier;
    await page.getByRole('button', { name: 'Add a person' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a person' });
    await dialog.getByLabel('Name').fill('Rae');
    const manager = dialog.getByRole('radio', { name: 'Manager' });
    const dot = await manager.boundingBox();
    expect(dot?.width).toBeGreaterThanOrEqual(20);
    const choice = await manager.locator('xpath=..').boundingBox();
    expect(choice?.height).toBeGreaterThanOrEqual(44);
    expect(choice?.width).toBeGreaterThanOrEqual(44);
    await manager.check();
    await dialog.getByLabel('Their PIN').fill('4826');
    await dialog.getByLabel('The same PIN again').fill('4826');
    await cashier.check('03-add-person');
    await dialog.getByLabel('The same PIN again').press('Enter');
    await page.getByText('Rae can sign in now.').waitFor();
    expect(
      counter.screens.running.gateway.engine.staff.list().find((member) => member.name === 'Rae')?.role,
    ).toBe('manager');
  });

  it('says "1 minute" when the counter locks after one minute', async () => {
    const cashier = await staffSettings();
    const { page } = cashier;
    const minutes = page.getByLabel('Lock after this many minutes untouched (0: never)');
    await minutes.fill('1');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('The counter locks after 1 minute untouched.').waitFor();
    await counter.screens.running.gateway.engine.settings.setFromText('lock_after_minutes', '0');
  });
});

describe('a new tab', () => {
  it('expires in as many days as the setting says', async () => {
    expect(counter.screens.running.gateway.engine.settings.get('auth_expiry_days')).toBe(7);
    const tab = await counter.screens.client.createTransaction({
      type: 'AUTH',
      amount: '30.00',
      card: '4111111111111111',
      exp_date: '1230',
    });
    const cashier = await counter.open('details');
    await cashier.goTo('Tabs');
    const row = cashier.screen.getByTestId(`tab-${tab.id}`);
    await row.waitFor();
    expect(await row.textContent()).toContain('expires in 7 days');
    await row.getByRole('button').first().click();
    await cashier.screen.getByTestId('tab-detail').filter({ hasText: 'capture in 7 days' }).waitFor();
  });
});
