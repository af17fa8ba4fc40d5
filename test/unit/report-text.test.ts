/** The end-of-day report as the receipt printer's lines: within the paper at every width, the same figures. */
import { describe, expect, it } from 'vitest';
import type { Batch, TransactionListItem } from '../../shared/api/schemas';
import { batchReportLines } from '../../renderer/src/batch/report-text';
import { listItem } from '../support/list-items';

const BATCH: Batch = {
  id: '12',
  status: 'CLOSED',
  opened: '2026-11-24T08:00:00.000-05:00',
  settled: '2026-11-24T22:10:00.000-05:00',
  confirmation_code: '4815162342',
  sales_count: '3',
  sales_total: '1234.56',
  refund_count: '1',
  refund_total: '20.00',
  tip_total: '31.00',
  total_count: '4',
  net_amount: '1214.56',
  lanes: [
    {
      lane: 'front-counter',
      sales_count: '2',
      sales_total: '1000.00',
      refund_count: '1',
      refund_total: '20.00',
      tip_total: '31.00',
      total_count: '3',
      net_amount: '980.00',
    },
    {
      lane: 'bar',
      sales_count: '1',
      sales_total: '234.56',
      refund_count: '0',
      refund_total: '0.00',
      tip_total: '0.00',
      total_count: '1',
      net_amount: '234.56',
    },
  ],
} as Batch;

const item = (fields: Partial<TransactionListItem>): TransactionListItem =>
  listItem({ created: '2026-11-24T09:15:00.000-05:00', cashier: 'Samantha Carrington-Whitfield', ...fields });

const ITEMS = [
  item({ id: '1', amount: '1000.00', card: '************0005', card_brand: 'amex' }),
  item({ id: '2', type: 'Capture', amount: '234.56', tip_amount: '31.00', server_id: '07', cashier: 'Olga' }),
  item({ id: '3', type: 'Refund', amount: '20.00' }),
  item({ id: '4', amount: '55.00', voided: 'true' }),
];

const lines = (width: number) =>
  batchReportLines(
    {
      batch: BATCH,
      items: ITEMS,
      complete: true,
      exceptions: { voids: 1, declines: 2 },
      printedAt: '2026-11-24T22:11:00.000-05:00',
    },
    width,
  );

describe('the end-of-day report on receipt paper', () => {
  it('keeps every line within the paper, at 32, 42 and 48 columns', () => {
    for (const width of [32, 42, 48]) {
      const printed = lines(width);
      for (const line of printed) expect(line.length, `${width}: "${line}"`).toBeLessThanOrEqual(width);
      expect(printed.some((line) => line.length === width)).toBe(true);
    }
  });

  it('says the totals with the voids and declines beside them', () => {
    const text = lines(42).join('\n');
    expect(text).toMatch(/^ +END-OF-DAY REPORT$/m);
    expect(text).toMatch(/^Confirmation +4815162342$/m);
    expect(text).toMatch(/^Sales \(3\) +\$1,234\.56$/m);
    expect(text).toMatch(/^Refunds \(1\) +-\$20\.00$/m);
    expect(text).toMatch(/^NET \(4\) +\$1,214\.56$/m);
    expect(text).toMatch(/^Tips, in the sales +\$31\.00$/m);
    expect(text).toMatch(/^Voided +1$/m);
    expect(text).toMatch(/^Declined +2$/m);
    expect(text).not.toContain('NOT YET SETTLED');
  });

  it('has the lines by type, server, cashier, counter and brand, from the counted transactions', () => {
    const text = lines(48).join('\n');
    expect(text).toMatch(/^Sales +1 +\$1,000\.00$/m);
    expect(text).toMatch(/^Captured tabs +1 +\$234\.56$/m);
    expect(text).toMatch(/^Refunds +1 +-\$20\.00$/m);
    expect(text).toMatch(/^Server 07 +1 +\$31\.00$/m);
    expect(text).toMatch(/^Olga +1 +\$234\.56 +\$31\.00$/m);
    expect(text).toMatch(/^front-counter +3 +\$980\.00$/m);
    expect(text).toMatch(/^American Express +1 +\$1,000\.00$/m);
    // The voided sale counts nowhere but is listed, saying so.
    expect(text).toMatch(/^#4 .+ Sale +\$55\.00$/m);
    expect(text).toMatch(/^ {2}Visa 1111 +Voided$/m);
  });

  it('never shows more of a card than its brand and last four digits', () => {
    expect(lines(32).join('\n')).not.toMatch(/\d{12,}|\*{4}/);
  });

  it('says an open batch is not yet settled', () => {
    const open = batchReportLines(
      {
        batch: {
          ...BATCH,
          status: 'OPEN',
          settled: undefined,
          confirmation_code: undefined,
        } as unknown as Batch,
        items: ITEMS,
        complete: true,
        exceptions: { voids: 0, declines: 0 },
        printedAt: '2026-11-24T12:00:00.000-05:00',
      },
      32,
    ).join('\n');
    expect(open).toMatch(/^ +NOT YET SETTLED$/m);
    expect(open).toMatch(/^Settled +still open$/m);
  });
});
