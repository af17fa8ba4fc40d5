/**
 * A transaction list item as the engine lists it, for tests of what the screens make of lists: an
 * approved $10.00 Visa SALE in batch 3 with nothing done to it since, changed by `fields`.
 */
import type { TransactionListItem } from '../../shared/api/schemas';

export function listItem(fields: Partial<TransactionListItem> = {}): TransactionListItem {
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
    cashier: '',
    lane: 'local',
    batch_id: '3',
    original_id: '',
    voided: 'false',
    captured: 'false',
    refunded_amount: '0.00',
    expires: '',
    voidable: 'false',
    refundable_amount: '0.00',
    capturable: 'false',
    counter_sale: 'false',
    upstream_id: '',
    offline: 'false',
    forward_state: '',
    ...fields,
  };
}
