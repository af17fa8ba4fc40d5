/** The end-of-day lines by cashier: what counts as the batch totals do, grouped by who made it. */
import { describe, expect, it } from 'vitest';
import type { TransactionListItem } from '../../shared/api/schemas';
import { byCashier } from '../../renderer/src/batch/cashier-summary';

function item(fields: Partial<TransactionListItem>): TransactionListItem {
  return {
    id: '1',
    type: 'Sale',
    result: 'Approved',
    result_code: '0000',
    display_message: 'Approved',
    amount: '10.00',
    tip_amount: '0.00',
    authorization_code: 'ABC123',
    card: '************1111',
    card_brand: 'visa',
    billing_is_shipping: 'false',
    created: '2026-11-20T14:05:09.042-05:00',
    invoice: '',
    order_number: '',
    purchase_order: 'PO0000000001',
    customer_id: '',
    first_name: '',
    last_name: '',
    server_id: '',
    cashier: 'Dana',
    batch_id: '3',
    original_id: '',
    voided: 'false',
    captured: 'false',
    refunded_amount: '0.00',
    expires: '',
    voidable: 'false',
    refundable_amount: '0.00',
    capturable: 'false',
    upstream_id: '',
    offline: 'false',
    forward_state: '',
    ...fields,
  };
}

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
