/** The rules hold when many requests share one group commit. */
import { describe, expect, it } from 'vitest';
import { useTestGateway, VISA } from '../support/gateway';

const t = useTestGateway();

describe('under concurrency, with writes committed in groups', () => {
  it('concurrent partial refunds never add up to more than the sale', async () => {
    const sale = await t.client.createTransaction({ type: 'SALE', amount: '100.00', ...VISA });
    await t.client.closeOpenBatch();
    const answers = await Promise.all(
      Array.from({ length: 24 }, () =>
        t.client.createTransaction({ type: 'REFUND', id: sale.id ?? '', amount: '7.00' }),
      ),
    );
    const approved = answers.filter((answer) => answer.result === 'Approved');
    expect(approved).toHaveLength(14);
    expect(answers.filter((answer) => answer.error_code === '8014')).toHaveLength(10);
    const [original] = await t.client.listTransactions({ id: sale.id ?? '' });
    expect(original?.refunded_amount).toBe('98.00');
  });

  it('an authorization captured by many requests at once is captured once', async () => {
    const auth = await t.client.createTransaction({ type: 'AUTH', amount: '30.00', ...VISA });
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        t.client.createTransaction({ type: 'CAPTURE', id: auth.id ?? '', amount: '30.00' }),
      ),
    );
    expect(answers.filter((answer) => answer.result === 'Approved')).toHaveLength(1);
    expect(answers.filter((answer) => answer.error_code === '8011')).toHaveLength(11);
  });

  it('batch totals equal the approved, unvoided rows after a burst of sales and voids', async () => {
    const sales = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        t.client.createTransaction({ type: 'SALE', amount: `${i + 1}.00`, ...VISA }),
      ),
    );
    await Promise.all(
      sales
        .filter((_, i) => i % 4 === 0)
        .map((sale) => t.client.createTransaction({ type: 'VOID', id: sale.id ?? '' })),
    );
    const batch = await t.client.openBatch();
    const rows = await t.client.listTransactions({ batch_id: batch?.id ?? '', page_size: 100 });
    const counted = rows.filter(
      (row) => row.result === 'Approved' && row.voided === 'false' && row.type !== 'Void',
    );
    const sum = (type: string) =>
      counted
        .filter((row) => row.type === type)
        .reduce((total, row) => total + Math.round(Number(row.amount) * 100), 0);
    expect(batch?.sales_count).toBe(String(counted.filter((row) => row.type !== 'Refund').length));
    expect(Math.round(Number(batch?.sales_total) * 100)).toBe(sum('Sale') + sum('Capture'));
    expect(Math.round(Number(batch?.refund_total) * 100)).toBe(sum('Refund'));
  });
});
