/**
 * End of day in Debian's Chromium against a real engine: the open batch's totals by type and tips
 * by server, the warning for open tabs, the close behind a confirmation, the report with the engine's
 * totals, printing, earlier batches reopened, and a close whose answer was lost. Screenshots are
 * saved as test-results/end-of-day-*.png and every state is checked with axe.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Batch } from '../../shared/api/schemas';
import { startCounter, type Counter, type CounterPage } from './counter-page';

let counter: Counter;
const VISA = { card: '4111111111111111', exp_date: '1230' } as const;

beforeAll(async () => {
  counter = await startCounter();
  await counter.reader.bridge.invoke('settings:update', { tipsEnabled: true });
});
afterEach(() => counter?.closePages());
afterAll(() => counter?.close());

/** A day at the counter: sales, a forced sale, two tabs captured with tips, an unmatched refund, a tab left open. */
async function aDayOfSales() {
  const { client } = counter.screens;
  const approved = async (request: Parameters<typeof client.createTransaction>[0]) => {
    const response = await client.createTransaction(request);
    expect(response.result, JSON.stringify(response)).toBe('Approved');
    return response.id ?? '';
  };
  await approved({ type: 'SALE', amount: '20.00', ...VISA });
  await approved({ type: 'SALE', amount: '12.50', ...VISA, server_id: '04' });
  await approved({ type: 'FORCED SALE', amount: '8.00', ...VISA, authorization_code: 'PHONE1' });
  const tabA = await approved({ type: 'AUTH', amount: '40.00', ...VISA, server_id: '04' });
  await approved({ type: 'CAPTURE', id: tabA, amount: '40.00', tip_amount: '8.00' });
  const tabB = await approved({ type: 'AUTH', amount: '25.00', ...VISA, server_id: '09' });
  await approved({ type: 'CAPTURE', id: tabB, amount: '25.00', tip_amount: '5.00' });
  const voided = await approved({ type: 'SALE', amount: '99.00', ...VISA });
  await approved({ type: 'VOID', id: voided });
  await approved({ type: 'REFUND', amount: '6.50', ...VISA });
  const openTab = await approved({ type: 'AUTH', amount: '31.00', ...VISA, server_id: '09' });
  return { openTab };
}

async function endOfDay(): Promise<CounterPage> {
  const cashier = await counter.open('end-of-day');
  await cashier.goTo('End of day');
  return cashier;
}

describe('the open batch', () => {
  let openTab = '';
  let closed: Batch | undefined;

  it('shows the engine’s totals, the lines by type, tips by server, and warns about open tabs', async () => {
    ({ openTab } = await aDayOfSales());
    const batch = await counter.screens.client.openBatch();
    expect(batch).toMatchObject({
      sales_count: '5',
      sales_total: '118.50',
      refund_count: '1',
      refund_total: '6.50',
      net_amount: '112.00',
      tip_total: '13.00',
    });
    const cashier = await endOfDay();
    const { page } = cashier;
    await page.getByRole('heading', { name: `Open batch #${batch?.id}` }).waitFor();
    expect(await page.getByTestId('batch-net').textContent()).toBe('$112.00');
    expect(await page.getByTestId('batch-sales').textContent()).toBe('$118.50');
    expect(await page.getByTestId('batch-refunds').textContent()).toBe('$6.50');
    expect(await page.getByTestId('batch-tips').textContent()).toBe('$13.00');

    const byType = page.getByTestId('by-type');
    expect(await byType.getByRole('row', { name: /^Sales/ }).textContent()).toBe('Sales2$0.00$32.50');
    expect(await byType.getByRole('row', { name: /^Forced Sales/ }).textContent()).toBe(
      'Forced Sales1$0.00$8.00',
    );
    expect(await byType.getByRole('row', { name: /^Captured tabs/ }).textContent()).toBe(
      'Captured tabs2$13.00$78.00',
    );
    expect(await byType.getByRole('row', { name: /^Refunds/ }).textContent()).toBe('Refunds1—−$6.50');
    expect(await page.getByTestId('server-04').textContent()).toBe('Server 042$60.50$8.00');
    expect(await page.getByTestId('server-09').textContent()).toBe('Server 091$30.00$5.00');
    expect(await page.getByTestId('server-none').textContent()).toBe('No server2$28.00$0.00');

    const warning = page.getByTestId('open-tabs-warning');
    expect(await warning.textContent()).toContain('1 tab is still open ($31.00 held)');
    await cashier.check('01-open-batch');
  });

  it('closes only after a confirmation, then shows the settled batch with its confirmation code', async () => {
    const cashier = await endOfDay();
    const { page } = cashier;
    await page.getByRole('button', { name: 'Close batch' }).click();
    const dialog = page.getByTestId('confirm-dialog');
    await dialog.waitFor();
    const text = await dialog.textContent();
    expect(text).toContain('$112.00 net in 6 transactions is sent for settlement');
    expect(text).toContain('1 open tab stays open and is not settled in this batch.');
    await cashier.check('02-close-confirm');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await counter.screens.client.openBatch())?.status).toBe('OPEN');

    await page.getByRole('button', { name: 'Close batch' }).click();
    await dialog.getByRole('button', { name: 'Close the batch' }).click();
    await page.getByTestId('batch-closed').waitFor();
    [closed] = await counter.screens.client.listBatches({ status: 'CLOSED', page_size: 1 });
    expect(closed?.confirmation_code).toMatch(/^\d{10}$/);
    expect(await page.getByTestId('confirmation-code').textContent()).toBe(closed?.confirmation_code);
    expect(await page.getByTestId('settled').textContent()).not.toBe('Still open');
    await cashier.check('03-closed-batch-report');

    // The report's totals are the engine's, and it lists every transaction of the batch.
    const report = page.getByTestId('batch-report');
    expect(await report.getByTestId('batch-net').textContent()).toBe('$112.00');
    expect(await report.getByTestId('batch-tips').textContent()).toBe('$13.00');
    const listed = await counter.screens.client.listTransactions({
      batch_id: closed?.id ?? '',
      page_size: 100,
    });
    expect(await report.getByTestId('report-transactions').locator('tbody tr').count()).toBe(listed.length);

    // The open tab is in no batch: it is still open after the close.
    const [tab] = await counter.screens.client.listTransactions({ id: openTab, page_size: 1 });
    expect(tab).toMatchObject({ captured: 'false', voided: 'false', batch_id: '' });
    expect(tab?.expires).not.toBe('');
  });

  it('prints the report alone, through the print dialog', async () => {
    const cashier = await endOfDay();
    const { page } = cashier;
    await page.getByTestId(`batch-${closed?.id}`).click();
    await page.getByRole('heading', { name: `Batch #${closed?.id}` }).waitFor();
    await page.getByTestId('settled').waitFor();
    expect(await page.getByTestId('batch-closed').count()).toBe(0);
    await cashier.check('04-earlier-batch-report');

    await page.evaluate(() => {
      const counted = window as unknown as { printed: number };
      counted.printed = 0;
      window.print = () => void (counted.printed += 1);
    });
    await page.getByRole('button', { name: 'Print report' }).click();
    expect(await page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
    expect(await page.getByText('To save a PDF, print and choose “Save as PDF”.').count()).toBe(1);

    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('.topbar').isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Print report' }).isVisible()).toBe(false);
    expect(await page.getByTestId('batch-report').isVisible()).toBe(true);
    await page.screenshot({ path: 'test-results/end-of-day-05-printed-report.png', fullPage: true });
    await page.emulateMedia({ media: 'screen' });
  });

  it('shows nothing to close until the next sale opens a batch', async () => {
    const cashier = await endOfDay();
    await cashier.page.getByText('Nothing to close').waitFor();
    expect(await cashier.page.getByTestId('open-tabs-warning').count()).toBe(1);
    await cashier.check('06-nothing-to-close');
  });
});

describe('a close whose answer is lost', () => {
  it('reads the batch instead of closing again, and shows it closed', async () => {
    await counter.screens.client.createTransaction({ type: 'SALE', amount: '3.00', ...VISA });
    const open = await counter.screens.client.openBatch();
    const cashier = await endOfDay();
    const { page } = cashier;
    let closes = 0;
    // The close reaches the host, which closes the batch; the bridge drops before its answer returns.
    await page.routeWebSocket(/\/bridge/, (socket) => {
      const host = socket.connectToServer();
      socket.onMessage((message) => {
        const sent = JSON.parse(String(message)) as { channel?: string; input?: unknown };
        if (sent.channel === 'counter:approved-close') {
          closes += 1;
          expect(sent.input).toEqual({
            expectedTotalCount: Number(open?.total_count),
            expectedNetAmount: open?.net_amount,
          });
          host.send(message);
          void expect
            .poll(async () => (await counter.screens.client.openBatch())?.id ?? 'none')
            .not.toBe(open?.id)
            .then(() => socket.close());
          return;
        }
        host.send(message);
      });
      host.onMessage((message) => socket.send(message));
    });
    await page.reload();
    await page.getByRole('heading', { name: `Open batch #${open?.id}` }).waitFor();
    await page.getByRole('button', { name: 'Close batch' }).click();
    await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Close the batch' }).click();
    await page.getByTestId('batch-closed').waitFor();
    expect(await page.getByRole('heading', { name: `Batch #${open?.id}` }).count()).toBe(1);
    expect(closes).toBe(1);
    cashier.problems.splice(0);
  });
});
