/**
 * A field a type does not take is refused (8009) over the API, in JSON and XML, and changes nothing;
 * the types that take it still do, and keep it.
 */
import { describe, expect, it } from 'vitest';
import { useTestGateway, VISA } from '../support/gateway';
import { listItem, post, type Answer, type Format } from '../support/transactions';

const t = useTestGateway();

function approvedId(answer: Answer): string {
  expect(answer, JSON.stringify(answer)).toMatchObject({ result: 'Approved' });
  return answer.id ?? '';
}

function expectNotApplicable(answer: Answer, field: string): void {
  expect(answer).toMatchObject({ result: 'Rejected', error_code: '8009' });
  expect(answer).not.toHaveProperty('id');
  expect(answer.display_message).toMatch(new RegExp(`^Field Validation: ${field} `));
}

describe.each(['json', 'xml'] as const)('server_id (%s)', (format: Format) => {
  it('on a VOID is refused with 8009, and the sale stays unvoided', async () => {
    const saleId = approvedId(
      await post(t, format, { type: 'SALE', amount: '4.00', ...VISA, server_id: '05' }),
    );
    expectNotApplicable(await post(t, format, { type: 'VOID', id: saleId, server_id: '09' }), 'server_id');
    expect((await listItem(t, saleId)).voided).toBe('false');
    approvedId(await post(t, format, { type: 'VOID', id: saleId }));
  });

  it('on a REFUND is refused with 8009, matched or not', async () => {
    const saleId = approvedId(await post(t, format, { type: 'SALE', amount: '6.00', ...VISA }));
    await t.client.closeOpenBatch();
    expectNotApplicable(
      await post(t, format, { type: 'REFUND', id: saleId, amount: '1.00', server_id: '09' }),
      'server_id',
    );
    expectNotApplicable(
      await post(t, format, { type: 'REFUND', amount: '1.00', ...VISA, server_id: '09' }),
      'server_id',
    );
    expect((await listItem(t, saleId)).refunded_amount).toBe('0.00');
  });

  it('is still taken and listed on SALE, AUTH and CAPTURE', async () => {
    const saleId = approvedId(
      await post(t, format, { type: 'SALE', amount: '7.00', ...VISA, server_id: '11' }),
    );
    expect((await listItem(t, saleId)).server_id).toBe('11');
    const authId = approvedId(
      await post(t, format, { type: 'AUTH', amount: '8.00', ...VISA, server_id: '12' }),
    );
    const captureId = approvedId(
      await post(t, format, { type: 'CAPTURE', id: authId, amount: '8.00', server_id: '13' }),
    );
    expect((await listItem(t, captureId)).server_id).toBe('13');
  });
});

describe('billing and shipping on a follow-up', () => {
  it('are refused with 8009 on a CAPTURE, and the AUTH stays capturable', async () => {
    const authId = approvedId(await post(t, 'json', { type: 'AUTH', amount: '9.00', ...VISA }));
    expectNotApplicable(
      await post(t, 'json', { type: 'CAPTURE', id: authId, amount: '9.00', billing_is_shipping: 'true' }),
      'billing_is_shipping',
    );
    expectNotApplicable(
      await post(t, 'json', {
        type: 'CAPTURE',
        id: authId,
        amount: '9.00',
        billing: { first_name: 'Someone', last_name: 'Else' },
      }),
      'billing',
    );
    expectNotApplicable(
      await post(t, 'json', {
        type: 'CAPTURE',
        id: authId,
        amount: '9.00',
        shipping: { first_name: 'Someone', zip: '30301' },
      }),
      'shipping',
    );
    expect((await listItem(t, authId)).capturable).toBe('true');
  });

  it('billing is still taken on an unmatched REFUND, whose cardholder it names', async () => {
    const refundId = approvedId(
      await post(t, 'json', {
        type: 'REFUND',
        amount: '2.00',
        ...VISA,
        billing: { first_name: 'Rita', zip: '30301' },
      }),
    );
    expect((await listItem(t, refundId)).first_name).toBe('Rita');
  });
});
