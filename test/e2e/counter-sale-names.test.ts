/**
 * In Debian's Chromium against a real engine: a sale tipped at the counter, recorded as an AUTH of
 * the total captured at once with the tip, is one Sale with one number on every screen: its answer,
 * History and its Type filter, and the batch report. The API keeps the interface's types.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TransactionListItem } from '../../shared/api/schemas';
import { startCounter, type Counter, type CounterPage } from './counter-page';

let counter: Counter;

beforeAll(async () => {
  counter = await startCounter();
  const { settings } = counter.screens.running.gateway.engine;
  await settings.setFromText('tips_enabled', 'true');
  await settings.setFromText('counter_tips', 'true');
});
afterEach(() => counter?.closePages());
afterAll(() => counter?.close());

const MASTERCARD = { card: '5454545454545454', exp_date: '1230' };

/** A plain sale, and a tab opened and captured with a tip, through the API. */
async function saleAndCapturedTab(): Promise<{ saleId: string; tabId: string; tabCaptureId: string }> {
  const { client } = counter.screens;
  const sale = await client.createTransaction({ type: 'SALE', amount: '12.00', ...MASTERCARD });
  const tab = await client.createTransaction({ type: 'AUTH', amount: '30.00', ...MASTERCARD });
  const captured = await client.createTransaction({
    type: 'CAPTURE',
    id: tab.id ?? '',
    amount: '30.00',
    tip_amount: '5.00',
  });
  expect([sale.result, tab.result, captured.result]).toEqual(['Approved', 'Approved', 'Approved']);
  return { saleId: sale.id ?? '', tabId: tab.id ?? '', tabCaptureId: captured.id ?? '' };
}

async function historyIds(cashier: CounterPage): Promise<string[]> {
  await cashier.page.locator('table.history-table[aria-busy="false"]').waitFor();
  const ids = await cashier.page
    .locator('tbody tr[data-testid^="history-"]')
    .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-testid') ?? ''));
  return ids.map((id) => id.replace('history-', ''));
}

async function filterByType(cashier: CounterPage, type: string, firstRow: string): Promise<string[]> {
  const filters = cashier.page.getByRole('form', { name: 'Filters' });
  await filters.getByLabel('Type').selectOption(type);
  await filters.getByRole('button', { name: 'Apply' }).click();
  await cashier.page.getByTestId(`history-${firstRow}`).waitFor();
  return historyIds(cashier);
}

/** The row of transaction `id` in the transactions of a batch report. */
function reportRow(cashier: CounterPage, id: string) {
  return cashier.page
    .getByTestId('report-transactions')
    .locator('tbody tr')
    .filter({ has: cashier.page.locator('td:first-child', { hasText: new RegExp(`^${id}$`) }) });
}

describe('a sale tipped at the counter', () => {
  let sale: TransactionListItem | undefined;

  it('is Sale #N on its answer, in History under Type Sale and never under Capture', async () => {
    const others = await saleAndCapturedTab();
    const cashier = await counter.open('counter-sale-names');
    await cashier.ringTippedSale('4000');
    await cashier.expectApproved();
    [sale] = await counter.screens.client.listTransactions({ type: 'capture', page_size: 1 });
    // The API keeps the interface's types: the sale is the Capture of its Auth.
    expect(sale).toMatchObject({
      type: 'Capture',
      counter_sale: 'true',
      amount: '48.00',
      tip_amount: '8.00',
    });
    const holdId = sale?.original_id ?? '';
    expect(await cashier.result.textContent()).toContain(`#${sale?.id}`);

    await cashier.goTo('History');
    const row = cashier.page.getByTestId(`history-${sale?.id}`);
    await row.waitFor();
    expect(await row.locator('td').nth(2).textContent()).toBe('Sale');

    expect(await filterByType(cashier, 'Sale', sale?.id ?? '')).toEqual([sale?.id, others.saleId]);
    await cashier.check('01-history-sales');
    await cashier.page.setViewportSize({ width: 800, height: 600 });
    await cashier.check('02-history-sales-800');
    await cashier.page.setViewportSize({ width: 1280, height: 800 });

    expect(await filterByType(cashier, 'Capture', others.tabCaptureId)).toEqual([others.tabCaptureId]);
    expect(await filterByType(cashier, 'Auth', holdId)).toEqual([holdId, others.tabId]);
  });

  it('is a Sale with the same number on the report of its batch, open and closed', async () => {
    const cashier = await counter.open('counter-sale-names');
    const { page } = cashier;
    await cashier.goTo('End of day');
    await page.getByRole('button', { name: 'Print report' }).click();
    const row = reportRow(cashier, sale?.id ?? '');
    await row.waitFor();
    expect(await row.locator('td').nth(2).textContent()).toBe('Sale');
    await cashier.check('03-open-batch-report');

    const closed = await counter.screens.client.closeOpenBatch();
    await page.reload();
    await cashier.readerBadge('Card reader ready').waitFor();
    await cashier.goTo('End of day');
    await page.getByTestId(`batch-${closed?.id}`).click();
    await page.getByRole('heading', { name: `Batch #${closed?.id}` }).waitFor();
    const closedRow = reportRow(cashier, sale?.id ?? '');
    await closedRow.waitFor();
    expect(await closedRow.locator('td').nth(2).textContent()).toBe('Sale');
    const types = await page
      .getByTestId('report-transactions')
      .locator('tbody tr td:nth-child(3)')
      .allTextContents();
    expect(types).not.toContain('Auth');
    expect(types.filter((type) => type === 'Capture')).toHaveLength(1);
    await closedRow.scrollIntoViewIfNeeded();
    await cashier.check('04-closed-batch-report');
    await page.setViewportSize({ width: 800, height: 600 });
    await closedRow.scrollIntoViewIfNeeded();
    await cashier.check('05-closed-batch-report-800');
    // Every column fits the report at 800 px, Status included: nothing runs past its edge.
    const overflow = await page.getByTestId('report-transactions').evaluate((table) => {
      const report = table.closest('.report');
      if (!report) return 'no report';
      const right = Math.round(table.getBoundingClientRect().right - report.getBoundingClientRect().right);
      return right > 0 ? `the table runs ${right} px past the report` : 'fits';
    });
    expect(overflow).toBe('fits');
  });
});
