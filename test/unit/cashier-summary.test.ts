/** The end-of-day lines by cashier: what counts as the batch totals do, grouped by who made it. */
import { describe, expect, it } from 'vitest';
import type { TransactionListItem } from '../../shared/api/schemas';
import { listItem } from '../support/list-items';
import { byCashier } from '../../renderer/src/batch/cashier-summary';

const item = (fields: Partial<TransactionListItem>): TransactionListItem =>
  listItem({ cashier: 'Dana', ...fields });

describe('totals by cashier', () => {
  it('count approved, unvoided sales, captures and refunds, with tips, by name, those naming no one last', () => {
    const lines = byCashier([
      item({ id: '1', cashier: 'Eli', amount: '20.00' }),
      item({ id: '2', cashier: 'Dana', type: 'Capture', amount: '48.00', tip_amount: '8.00' }),
      item({ id: '3', cashier: 'Dana', type: 'Refund', amount: '5.00' }),
      item({ id: '4', cashier: 'Dana', voided: 'true', amount: '99.00' }),
      item({ id: '5', cashier: 'Dana', result: 'Declined', amount: '77.00' }),
      item({ id: '6', cashier: '', amount: '1.00' }),
      item({ id: '7', cashier: 'Dana', type: 'Void', amount: '' }),
    ]);
    expect(lines).toEqual([
      { cashier: 'Dana', salesCount: 1, salesCents: 4800, refundCount: 1, refundCents: 500, tipCents: 800 },
      { cashier: 'Eli', salesCount: 1, salesCents: 2000, refundCount: 0, refundCents: 0, tipCents: 0 },
      { cashier: '', salesCount: 1, salesCents: 100, refundCount: 0, refundCents: 0, tipCents: 0 },
    ]);
  });
});
