/** Details an integrator probing the interface would check. */
import { describe, expect, it } from 'vitest';
import { useTestGateway, VISA } from '../support/gateway';

const t = useTestGateway();

describe('fields on the types they belong to', () => {
  it('an authorization_code sent with a SALE is refused rather than silently replaced', async () => {
    const answer = await t.client.createTransaction({
      type: 'SALE',
      amount: '5.00',
      ...VISA,
      authorization_code: 'ZZ1',
    });
    expect(answer).toMatchObject({ result: 'Rejected', error_code: '8009' });
    expect(answer.display_message).toBe('Field Validation: authorization_code applies to FORCED SALE only');
  });

  it("a capture keeps its authorization's purchase order unless it names another", async () => {
    const auth = await t.client.createTransaction({
      type: 'AUTH',
      amount: '9.00',
      ...VISA,
      purchase_order: 'PO-778',
    });
    const capture = await t.client.createTransaction({ type: 'CAPTURE', id: auth.id ?? '', amount: '9.00' });
    const [captured] = await t.client.listTransactions({ id: capture.id ?? '' });
    expect(captured?.purchase_order).toBe('PO-778');
    const other = await t.client.createTransaction({ type: 'AUTH', amount: '9.00', ...VISA });
    const named = await t.client.createTransaction({
      type: 'CAPTURE',
      id: other.id ?? '',
      amount: '9.00',
      purchase_order: 'PO-9',
    });
    expect((await t.client.listTransactions({ id: named.id ?? '' }))[0]?.purchase_order).toBe('PO-9');
  });

  it('an assigned purchase order is unique: a new charge may not send one of its form', async () => {
    const assigned = await t.client.createTransaction({ type: 'SALE', amount: '6.00', ...VISA });
    const [listed] = await t.client.listTransactions({ id: assigned.id ?? '' });
    const next = `PO${String(Number(assigned.id) + 1).padStart(10, '0')}`;
    expect(listed?.purchase_order).toBe(`PO${String(assigned.id).padStart(10, '0')}`);
    for (const purchase_order of [next, 'PO0000000001']) {
      const refused = await t.client.createTransaction({
        type: 'SALE',
        amount: '6.01',
        ...VISA,
        purchase_order,
      });
      expect(refused).toMatchObject({ result: 'Rejected', error_code: '8004' });
      expect(refused.display_message).toMatch(
        /^Field Validation: purchase_order PO and ten digits is the form/,
      );
    }
    // The refused attempts are listed, as every Rejected one is, without the purchase order they sent.
    const attempts = await t.client.listTransactions({ result: 'Rejected' });
    expect(attempts.map((each) => each.purchase_order)).not.toContain(next);
    const own = await t.client.createTransaction({
      type: 'SALE',
      amount: '6.02',
      ...VISA,
      purchase_order: 'PO00000001',
    });
    expect(own.result).toBe('Approved');
    const auth = await t.client.createTransaction({ type: 'AUTH', amount: '6.03', ...VISA });
    const [authListed] = await t.client.listTransactions({ id: auth.id ?? '' });
    const capture = await t.client.createTransaction({
      type: 'CAPTURE',
      id: auth.id ?? '',
      amount: '6.03',
      purchase_order: authListed?.purchase_order ?? '',
    });
    expect(capture.result).toBe('Approved');
  });

  it('a billing that is not an object says what it must be', async () => {
    const answer = await t.client.createTransaction({
      type: 'SALE',
      amount: '5.00',
      ...VISA,
      billing: 'x' as unknown as { zip: string },
    });
    expect(answer.display_message).toMatch(/^Field Validation: billing must be an object of billing fields/);
  });
});

describe('settled refunds and filters', () => {
  it('a settled refund cannot be voided, and the answer does not advise refunding it', async () => {
    const sale = await t.client.createTransaction({ type: 'SALE', amount: '20.00', ...VISA });
    await t.client.closeOpenBatch();
    const refund = await t.client.createTransaction({ type: 'REFUND', id: sale.id ?? '', amount: '5.00' });
    await t.client.closeOpenBatch();
    const answer = await t.client.createTransaction({ type: 'VOID', id: refund.id ?? '' });
    expect(answer).toMatchObject({ result: 'Rejected', error_code: '8016' });
    expect(answer.display_message).toMatch(/can no longer be voided/);
    expect(answer.display_message).not.toMatch(/refund it/);
  });

  it('order_number filters like order_id, the name the request uses', async () => {
    await t.client.createTransaction({ type: 'SALE', amount: '3.00', ...VISA, order_number: 'ORD42' });
    const byNumber = await t.client.listTransactions({ order_number: 'ORD42' } as Record<string, string>);
    const byId = await t.client.listTransactions({ order_id: 'ORD42' });
    expect(byNumber.map((item) => item.id)).toEqual(byId.map((item) => item.id));
    expect(byNumber).toHaveLength(1);
  });
});
