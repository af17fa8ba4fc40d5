/**
 * The people at the counter in Debian's Chromium against a real engine: the lock and its keypad,
 * switching cashier with one PIN, the idle lock, and the Staff settings. Screenshots are saved as
 * test-results/staff-*.png at three window sizes, and every state is checked with axe.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { auditWords } from '../support/gateway';
import { OWNER, startCounter, type Counter, type CounterPage } from './counter-page';

let counter: Counter;
const CASHIER = { name: 'Cole', pin: '1470', server: '07' } as const;
const SIZES = [
  { width: 1280, height: 800 },
  { width: 1024, height: 768 },
  { width: 800, height: 600 },
] as const;

beforeAll(async () => {
  counter = await startCounter();
  await counter.screens.running.gateway.engine.staff.create(
    { name: CASHIER.name, role: 'cashier', pin: CASHIER.pin, serverId: CASHIER.server },
    'test',
  );
});
afterEach(async () => {
  await counter.closePages();
  // Every test starts with the owner signed in, as the counter of the other tests is.
  await counter.reader.bridge.invoke('staff:sign-in', { pin: OWNER.pin });
  await counter.screens.running.gateway.engine.settings.setFromText('lock_after_minutes', '0');
});
afterAll(() => counter?.close());

async function checkAtEverySize(cashier: CounterPage, name: string): Promise<void> {
  for (const size of SIZES) {
    await cashier.page.setViewportSize(size);
    await cashier.check(`${name}-${size.width}x${size.height}`);
  }
  await cashier.page.setViewportSize(SIZES[0]);
}

async function typePin(cashier: CounterPage, pin: string): Promise<void> {
  const pad = cashier.page.getByRole('group', { name: 'PIN keys' });
  for (const digit of pin) await pad.getByRole('button', { name: digit, exact: true }).click();
  await cashier.page.getByRole('button', { name: 'Sign in' }).click();
}

describe('the lock', () => {
  it('locks on demand, refuses a wrong PIN, and one PIN switches cashier', async () => {
    const cashier = await counter.open('staff');
    const { page } = cashier;
    const badge = page.getByTestId('signed-in');
    await expect.poll(() => badge.textContent()).toContain(OWNER.name);

    await badge.getByRole('button', { name: /lock the counter$/ }).click();
    const lock = page.getByRole('dialog', { name: 'Enter your PIN' });
    await lock.waitFor();
    await checkAtEverySize(cashier, '01-locked');

    await typePin(cashier, '9999');
    await expect.poll(() => lock.getByRole('alert').textContent()).toMatch(/^Wrong PIN\. 4 more tries/);
    await checkAtEverySize(cashier, '02-wrong-pin');

    await typePin(cashier, CASHIER.pin);
    await lock.waitFor({ state: 'detached' });
    await expect.poll(() => badge.textContent()).toContain(CASHIER.name);
    await expect.poll(() => badge.textContent()).toContain('Cashier');

    const audit = (await counter.screens.running.gateway.engine.reads.recentAudit(5)).map(
      (entry) => entry.action,
    );
    expect(audit).toEqual(expect.arrayContaining(['sign_in', 'pin_failed', 'sign_out']));
    expect(auditWords(await counter.screens.running.gateway.engine.reads.recentAudit(10))).not.toMatch(
      /\b9999\b/,
    );
  });

  it('locks by itself after the idle time the settings give', async () => {
    await counter.screens.running.gateway.engine.settings.setFromText('lock_after_minutes', '1');
    const cashier = await counter.open('staff');
    const { page } = cashier;
    // The page's clock from its start, so the idle timer runs on it.
    await page.clock.install();
    await page.reload();
    await cashier.readerBadge('Card reader ready').waitFor();
    // The idle time counts from the last touch.
    await page.keyboard.press('Shift');
    await page.clock.fastForward('00:50');
    await expect(page.getByRole('dialog', { name: 'Enter your PIN' }).count()).resolves.toBe(0);
    await page.clock.fastForward('00:11');
    await page.getByRole('dialog', { name: 'Enter your PIN' }).waitFor();
    await typePin(cashier, OWNER.pin);
    await page.getByRole('dialog', { name: 'Enter your PIN' }).waitFor({ state: 'detached' });
  });
});

describe('the screens of a locked counter', () => {
  it('ask only what the lock screen needs, even reloaded, and read again once someone signs in', async () => {
    const sale = await keyedSale('7.77');
    expect(sale.result).toBe('Approved');
    const cashier = await counter.open('staff');
    const { page } = cashier;
    await cashier.goTo('History');
    const row = cashier.screen.getByText('$7.77', { exact: true }).first();
    await row.waitFor();
    await page
      .getByTestId('signed-in')
      .getByRole('button', { name: /lock the counter$/ })
      .click();
    const lock = page.getByRole('dialog', { name: 'Enter your PIN' });
    await lock.waitFor();

    // What the page asks from here on: of the host over its socket, and of the engine.
    const asked: string[] = [];
    const engineReads: string[] = [];
    page.on('websocket', (socket) =>
      socket.on('framesent', ({ payload }) => {
        const message = JSON.parse(String(payload)) as { type?: string; channel?: string };
        if (message.type === 'invoke' && message.channel) asked.push(message.channel);
      }),
    );
    page.on('request', (request) => {
      if (request.url().includes('/rest/v1/')) engineReads.push(request.url());
    });
    await page.reload();
    await lock.waitFor();
    await expect.poll(() => asked).toContain('staff:session');
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
    expect(new Set(asked)).toEqual(
      new Set(['terminal:session', 'reader:status', 'settings:get', 'staff:session']),
    );
    expect(engineReads).toEqual([]);
    expect(cashier.problems).toEqual([]);

    await typePin(cashier, OWNER.pin);
    await lock.waitFor({ state: 'detached' });
    await row.waitFor();
    expect(engineReads.some((url) => url.includes('/rest/v1/transactions'))).toBe(true);
    expect(cashier.problems).toEqual([]);
  });
});

/** Locks the counter from the top bar, and signs `person` in at the lock's keypad. */
async function lockAndSignIn(cashier: CounterPage, person: { name: string; pin: string }): Promise<void> {
  const { page } = cashier;
  await page
    .getByTestId('signed-in')
    .getByRole('button', { name: /lock the counter$/ })
    .click();
  const lock = page.getByRole('dialog', { name: 'Enter your PIN' });
  await lock.waitFor();
  await typePin(cashier, person.pin);
  await lock.waitFor({ state: 'detached' });
  await expect.poll(() => page.getByTestId('signed-in').textContent()).toContain(person.name);
}

describe('an amount left at the counter', () => {
  it('is gone when the next cashier signs in, and a swiped card with it', async () => {
    const cashier = await counter.open('staff');
    const { page } = cashier;
    await cashier.tapAmount('555');
    await counter.reader.bridge.invoke('simulator:swipe', { card: 'approved-visa' });
    await page.getByTestId('held-card').waitFor();
    await lockAndSignIn(cashier, CASHIER);
    // The sale starts clean right after the sign-in shows, in the render that follows it.
    await expect.poll(() => cashier.amount.textContent()).toBe('$0.00');
    await page.getByTestId('held-card').waitFor({ state: 'detached' });
    await cashier.tapAmount('200');
    expect(await cashier.amount.textContent()).toBe('$2.00');
    await cashier.check('05-clean-sale-after-sign-in');
  });

  it('stays for the same cashier signing back in', async () => {
    const cashier = await counter.open('staff');
    const { page } = cashier;
    await cashier.tapAmount('555');
    await lockAndSignIn(cashier, OWNER);
    await page.getByRole('button', { name: /^Charge \$5\.55/ }).waitFor();
    expect(await cashier.amount.textContent()).toBe('$5.55');
  });

  it('that the cashier comes back to from the card is replaced by the first digit, and edited by Backspace', async () => {
    const cashier = await counter.open('staff');
    const { page } = cashier;
    await cashier.tapAmount('555');
    await page.keyboard.press('Enter');
    await page.getByTestId('waiting-for-swipe').waitFor();
    await cashier.stepSettled();
    await page.keyboard.press('Escape');
    await cashier.amount.waitFor();
    expect(await cashier.amount.textContent()).toBe('$5.55');
    await cashier.check('06-amount-untouched');
    await cashier.tapAmount('2');
    expect(await cashier.amount.textContent()).toBe('$0.02');
    await cashier.tapAmount('50');
    expect(await cashier.amount.textContent()).toBe('$2.50');

    await page.keyboard.press('Enter');
    await page.getByTestId('waiting-for-swipe').waitFor();
    await cashier.stepSettled();
    await page.keyboard.press('Escape');
    await cashier.amount.waitFor();
    await page.keyboard.press('Backspace');
    expect(await cashier.amount.textContent()).toBe('$0.25');
    await page.keyboard.press('9');
    expect(await cashier.amount.textContent()).toBe('$2.59');
  });
});

describe('Staff settings', () => {
  it('a manager adds a cashier, who can then sign in', async () => {
    const cashier = await counter.open('staff');
    const { page } = cashier;
    await cashier.goTo('Settings');
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('button', { name: 'Staff' }).click();
    await page.getByRole('heading', { name: 'Staff', level: 2 }).waitFor();
    await page.getByRole('cell', { name: CASHIER.name }).waitFor();
    await checkAtEverySize(cashier, '03-staff-settings');

    await page.getByRole('button', { name: 'Add a person' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a person' });
    await dialog.getByLabel('Name').fill('Dee');
    await dialog.getByLabel('Their PIN').fill('3691');
    await dialog.getByLabel('The same PIN again').fill('3691');
    await dialog.getByLabel('Server number (optional; new tabs take it)').fill('12');
    await checkAtEverySize(cashier, '04-add-person');
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByText('Dee can sign in now.').waitFor();
    await page.getByRole('cell', { name: 'Dee' }).waitFor();

    await page
      .getByTestId('signed-in')
      .getByRole('button', { name: /lock the counter$/ })
      .click();
    await typePin(cashier, '3691');
    await expect.poll(() => page.getByTestId('signed-in').textContent()).toContain('Dee');
  });
});

/** A keyed SALE made with the screens' own key, before the test opens them. */
function keyedSale(amount: string) {
  return counter.screens.client.createTransaction({
    type: 'SALE',
    amount,
    card: '4111111111111111',
    exp_date: '1230',
  });
}

/** A sale at the counter for whoever is signed in there, sent as the screens send it. */
async function saleAtCounter(amount: string, pin: string): Promise<string> {
  await counter.reader.bridge.invoke('staff:sign-in', { pin });
  const { apiKey } = await counter.reader.bridge.invoke('terminal:session');
  const response = await counter.screens.send('/rest/v1/transactions', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', api_key: apiKey },
    body: JSON.stringify({ type: 'SALE', amount, card: '4111111111111111', exp_date: '1230' }),
  });
  const answer = JSON.parse(response.body) as { id?: string; result: string };
  expect(answer.result).toBe('Approved');
  return answer.id ?? '';
}

describe('who made each transaction', () => {
  it(
    'History filters by cashier, and End of day shows totals and tips per cashier',
    { timeout: 120_000 },
    async () => {
      const byCole = await saleAtCounter('4.20', CASHIER.pin);
      const byOwner = await saleAtCounter('5.30', OWNER.pin);
      const cashier = await counter.open('staff');
      const { page } = cashier;
      await cashier.goTo('History');
      const filters = page.getByRole('form', { name: 'Filters' });
      await filters.getByLabel('Cashier').fill(CASHIER.name);
      await filters.getByRole('button', { name: 'Apply' }).click();
      // The list before the filter is on screen until the filtered one arrives: wait for that one.
      await page.getByTestId(`history-${byOwner}`).waitFor({ state: 'detached' });
      await page.locator('table[aria-busy="false"]').waitFor();
      expect(await page.getByTestId(`history-${byCole}`).textContent()).toContain(CASHIER.name);
      const rows = await page.locator('tbody tr[data-testid^="history-"]').allTextContents();
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.filter((row) => !row.includes(CASHIER.name))).toEqual([]);
      await checkAtEverySize(cashier, '05-history-by-cashier');

      await cashier.goTo('End of day');
      const table = page.getByTestId('by-cashier');
      await table.getByTestId(`cashier-${CASHIER.name}`).waitFor();
      await expect.poll(() => table.getByTestId(`cashier-${CASHIER.name}`).textContent()).toContain('$4.20');
      await expect.poll(() => table.getByTestId(`cashier-${OWNER.name}`).textContent()).toContain('$5.30');
      await checkAtEverySize(cashier, '06-end-of-day-by-cashier');
    },
  );
});

describe('tabs', () => {
  it("a new tab takes the signed-in server's number", async () => {
    await counter.reader.bridge.invoke('staff:sign-in', { pin: CASHIER.pin });
    const cashier = await counter.open('staff');
    const { page } = cashier;
    await cashier.goTo('Tabs');
    await page.getByRole('button', { name: 'Start a tab' }).click();
    await expect.poll(() => page.getByLabel(/Server/).inputValue()).toBe(CASHIER.server);
  });
});

describe("a manager's approval at the counter", () => {
  it('a cashier voids a sale once a manager enters their PIN in the dialog naming it', async () => {
    const sale = await keyedSale('18.40');
    await counter.reader.bridge.invoke('staff:sign-in', { pin: CASHIER.pin });
    const cashier = await counter.open('staff');
    const { page } = cashier;
    await cashier.goTo('Refund & void');
    await page.getByTestId(`transaction-${sale.id ?? ''}`).click();
    const details = page.getByTestId('transaction-details');
    await details.getByRole('button', { name: `Void sale #${sale.id ?? ''}` }).click();
    await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Void it' }).click();
    const pin = page.getByRole('dialog', { name: 'Manager PIN' });
    await pin.getByText(`to void this transaction: sale #${sale.id ?? ''} of $18.40.`).waitFor();
    await checkAtEverySize(cashier, '07-approval');
    await pin.getByLabel('PIN', { exact: true }).fill(OWNER.pin);
    await pin.getByRole('button', { name: 'Confirm' }).click();
    await page.getByTestId('outcome').and(page.locator('[data-outcome="approved"]')).waitFor();
    const [voided] = await counter.screens.client.listTransactions({ id: sale.id ?? '' });
    expect(voided?.voided).toBe('true');
  });
});
