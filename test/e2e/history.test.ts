/**
 * The history in Debian's Chromium against a real engine: pages, filters and sorting through the
 * list API, masked cards, and the CSV export of the current filter. Screenshots are saved as
 * test-results/history-*.png and every state is checked with axe.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TransactionRequestBody } from '../../shared/api/schemas';
import { startCounter, type Counter, type CounterPage } from './counter-page';

let counter: Counter;
const CARDS = ['4111111111111111', '5454545454545454', '371449635398431', '6011000995500000'];

beforeAll(async () => {
  counter = await startCounter();
  const { client } = counter.screens;
  // 30 approved sales across four cards and three servers, and two declines.
  for (let index = 1; index <= 30; index += 1) {
    const card = CARDS[index % CARDS.length] ?? '4111111111111111';
    const request: TransactionRequestBody = {
      type: 'SALE',
      amount: `${index}.${String((index * 7) % 100).padStart(2, '0')}`,
      card,
      exp_date: '1230',
      ...(card.startsWith('37') && { csc: '1234' }),
      invoice: index === 7 ? '=HYPERLINK("http://x")' : `INV-${1000 + index}`,
      server_id: `0${(index % 3) + 1}`,
    };
    expect((await client.createTransaction(request)).result).toBe('Approved');
  }
  for (const amount of ['5.00', '6.00']) {
    await client.createTransaction({ type: 'SALE', amount, card: '4000000000000002', exp_date: '1230' });
  }
});
afterEach(() => counter?.closePages());
afterAll(() => counter?.close());

async function historyScreen(): Promise<CounterPage> {
  const cashier = await counter.open('history');
  await cashier.goTo('History');
  await cashier.page.getByRole('heading', { name: 'History' }).waitFor();
  await cashier.page.locator('[data-testid^="history-"]').first().waitFor();
  return cashier;
}

function rows(cashier: CounterPage) {
  return cashier.page.locator('tbody tr[data-testid^="history-"]');
}

async function ids(cashier: CounterPage): Promise<string[]> {
  const list = await rows(cashier).evaluateAll((elements) =>
    elements.map((row) => row.getAttribute('data-testid')),
  );
  return list.map((id) => (id ?? '').replace('history-', ''));
}

async function settled(cashier: CounterPage) {
  await cashier.page.locator('table[aria-busy="false"]').waitFor();
}

describe('the history', () => {
  it('pages through every transaction, newest first, with masked cards only', async () => {
    const cashier = await historyScreen();
    const { page } = cashier;
    await settled(cashier);
    expect(await ids(cashier)).toEqual(Array.from({ length: 25 }, (_, i) => String(32 - i)));
    expect(await page.getByText('Transactions 1–25').count()).toBe(1);
    const text = (await page.locator('table').textContent()) ?? '';
    expect(text).toContain('Visa •••• 1111');
    expect(text).not.toMatch(/\d{12,}/);
    await cashier.check('01-first-page');

    await page.getByRole('button', { name: 'Older' }).click();
    await page.getByText('Transactions 26–32').waitFor();
    await settled(cashier);
    expect(await ids(cashier)).toEqual(['7', '6', '5', '4', '3', '2', '1']);
    expect(await page.getByRole('button', { name: 'Older' }).isDisabled()).toBe(true);
    await cashier.check('02-last-page');
    await page.getByRole('button', { name: 'Newer' }).click();
    await page.getByText('Transactions 1–25').waitFor();
  });

  it('filters by result, card and server, and sorts by a column either way', async () => {
    const cashier = await historyScreen();
    const { page } = cashier;
    const filters = page.getByRole('form', { name: 'Filters' });

    await filters.getByLabel('Result').selectOption('Declined');
    await filters.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('Transactions 1–2').waitFor();
    await settled(cashier);
    expect(await ids(cashier)).toEqual(['32', '31']);

    await filters.getByLabel('Result').selectOption('');
    await filters.getByLabel('Last four').fill('5454');
    await filters.getByLabel('Server').fill('02');
    await filters.getByRole('button', { name: 'Apply' }).click();
    await settled(cashier);
    const expected = (
      await counter.screens.client.listTransactions({ last_four: '5454', server_id: '02' })
    ).map((item) => item.id);
    expect(expected.length).toBeGreaterThan(0);
    await page.getByText(`Transactions 1–${expected.length}`).waitFor();
    expect(await ids(cashier)).toEqual(expected);
    await cashier.check('03-filtered');

    await filters.getByRole('button', { name: 'Reset' }).click();
    await page.getByText('Transactions 1–25').waitFor();
    const amountHeader = page.getByRole('columnheader', { name: /Amount/ });
    await amountHeader.getByRole('button').click();
    await page.locator('th[aria-sort="descending"]', { hasText: 'Amount' }).waitFor();
    await settled(cashier);
    expect((await ids(cashier)).slice(0, 3)).toEqual(['30', '29', '28']);
    await amountHeader.getByRole('button').click();
    await page.locator('th[aria-sort="ascending"]', { hasText: 'Amount' }).waitFor();
    await settled(cashier);
    expect((await ids(cashier)).slice(0, 3)).toEqual(['1', '2', '3']);
    await cashier.check('04-sorted-by-amount');
  });

  it('refuses a malformed filter on the form, before asking the engine', async () => {
    const cashier = await historyScreen();
    const filters = cashier.page.getByRole('form', { name: 'Filters' });
    await filters.getByLabel('Server').fill('7');
    await filters.getByRole('button', { name: 'Apply' }).click();
    await cashier.page.getByText('Server: enter two digits, like 07.').waitFor();
    expect(await rows(cashier).count()).toBe(25);
  });
});

describe('the CSV export', () => {
  it('holds every transaction of the current filter, masked, with formulas kept as text', async () => {
    const cashier = await historyScreen();
    const { page } = cashier;
    const filters = page.getByRole('form', { name: 'Filters' });
    await filters.getByLabel('Type').selectOption('Sale');
    await filters.getByLabel('Result').selectOption('Approved');
    await filters.getByLabel('Server').fill('02');
    await filters.getByRole('button', { name: 'Apply' }).click();
    await settled(cashier);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^tender-transactions-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await readFile(await download.path(), 'utf8');
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'Transaction,Created,Type,Result,Amount,Tip,Refunded,Net,Card,Brand,Authorization code,First name,Last name,' +
        'Invoice,Order number,Server,Cashier,Batch,Original transaction,Engine type,Engine result,Voided,Result code,Error code,Message',
    );
    const wanted = await counter.screens.client.listTransactions({
      type: 'Sale',
      result: 'Approved',
      server_id: '02',
      page_size: 100,
    });
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual(wanted.map((item) => item.id));
    const first = lines[1]?.split(',') ?? [];
    expect(first.slice(2, 5)).toEqual(['Sale', 'Approved', wanted[0]?.amount]);
    expect(first[8]).toMatch(/^\*+\d{4}$/);
    expect(csv).not.toMatch(/\d{13,}/);
    // Sale 7 carries an invoice that a spreadsheet would run as a formula.
    expect(csv).toContain(`"'=HYPERLINK(""http://x"")"`);
    await page.getByText(`Exported ${wanted.length} rows`).waitFor();
    await cashier.check('05-exported');
  });
});
