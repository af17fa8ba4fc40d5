/**
 * CAPTURE, REFUND and VOID against a real engine, in JSON and in XML. After every test each batch's
 * counts and totals are compared with what its approved, unvoided rows add up to. Each describe block
 * gets its own gateway so the batches hold only what that block put there.
 */
import { describe, it, expect, afterEach } from 'vitest';
import type { Batch } from '../../shared/api/schemas';
import {
  AMEX,
  DECLINED_CARD,
  MASTERCARD,
  PROCESSOR_ERROR_CARD,
  useTestGateway,
  VISA,
  type TestGateway,
  type TestGatewayOptions,
} from '../support/gateway';
import { cents } from '../support/ledger-audit';
import {
  expectBatchesMatchRows,
  listItem,
  post,
  postJson,
  postXml,
  type Answer,
  type Fields,
  type Format,
} from '../support/transactions';

// ---------------------------------------------------------------------------------------------
// Helpers

function expectApproved(answer: Answer): string {
  expect(answer).toMatchObject({ result: 'Approved', result_code: '0000' });
  expect(answer.id).toMatch(/^[1-9]\d*$/);
  expect(answer.display_message).toBeTruthy();
  return answer.id ?? '';
}

function expectRejected(answer: Answer, errorCode: string, fieldValidation = false): void {
  expect(answer).toMatchObject({ result: 'Rejected', error_code: errorCode });
  expect(answer).not.toHaveProperty('id');
  expect(answer.display_message).toBeTruthy();
  if (fieldValidation) expect(answer.display_message).toMatch(/^Field Validation/);
}

async function approvedSale(t: TestGateway, amount: string, format: Format = 'json', card: Fields = VISA) {
  return expectApproved(await post(t, format, { type: 'SALE', amount, ...card }));
}

async function approvedAuth(t: TestGateway, amount: string, extra: Fields = {}, format: Format = 'json') {
  return expectApproved(await post(t, format, { type: 'AUTH', amount, ...VISA, ...extra }));
}

async function approvedForcedSale(t: TestGateway, amount: string, format: Format = 'json') {
  return expectApproved(
    await post(t, format, { type: 'FORCED SALE', amount, authorization_code: 'VOICE1', ...MASTERCARD }),
  );
}

const capture = (t: TestGateway, id: string, amount: string, extra: Fields = {}, format: Format = 'json') =>
  post(t, format, { type: 'CAPTURE', id, amount, ...extra });
const refund = (t: TestGateway, id: string, amount: string, format: Format = 'json') =>
  post(t, format, { type: 'REFUND', id, amount });
const voidOf = (t: TestGateway, id: string, format: Format = 'json') => post(t, format, { type: 'VOID', id });

async function openBatch(t: TestGateway): Promise<Batch> {
  const batch = await t.client.openBatch();
  expect(batch, 'an open batch').toBeDefined();
  return batch as Batch;
}

async function closeBatch(t: TestGateway): Promise<Batch> {
  const closed = await t.client.closeOpenBatch();
  expect(closed?.status).toBe('CLOSED');
  return closed as Batch;
}

/** A fresh gateway for the enclosing describe block, whose batches are checked after each test. */
function freshGateway(options: TestGatewayOptions = {}): TestGateway {
  const t = useTestGateway(options);
  afterEach(async () => {
    await expectBatchesMatchRows(t);
  });
  return t;
}

// ---------------------------------------------------------------------------------------------

describe('CAPTURE', () => {
  const t = freshGateway();

  it('a capture of exactly the authorized amount is approved as a new Capture in the open batch', async () => {
    const authId = await approvedAuth(t, '50.00');
    const answer = await capture(t, authId, '50.00');
    const captureId = expectApproved(answer);
    expect(captureId).not.toBe(authId);
    const batch = await openBatch(t);
    expect(batch).toMatchObject({ sales_count: '1', sales_total: '50.00', tip_total: '0.00' });
    expect(await listItem(t, captureId)).toMatchObject({
      type: 'Capture',
      result: 'Approved',
      amount: '50.00',
      original_id: authId,
      batch_id: batch.id,
      card: '************1111',
    });
    expect(await listItem(t, authId)).toMatchObject({ type: 'Auth', captured: 'true', batch_id: '' });
  });

  it('a capture above the authorized amount is rejected with 8012 and the AUTH stays capturable', async () => {
    const authId = await approvedAuth(t, '50.00');
    expectRejected(await capture(t, authId, '50.01'), '8012');
    expectRejected(await capture(t, authId, '500.00', {}, 'xml'), '8012');
    expect((await listItem(t, authId)).captured).toBe('false');
    const captureId = expectApproved(await capture(t, authId, '30.00', {}, 'xml'));
    expect((await listItem(t, captureId)).amount).toBe('30.00');
  });

  it('a second capture of the same AUTH is rejected with 8011', async () => {
    const authId = await approvedAuth(t, '20.00');
    expectApproved(await capture(t, authId, '10.00'));
    expectRejected(await capture(t, authId, '10.00'), '8011');
    expectRejected(await capture(t, authId, '1.00', {}, 'xml'), '8011');
  });

  it('a capture of a declined AUTH is rejected with 8011', async () => {
    const declined = await post(t, 'json', { type: 'AUTH', amount: '20.00', ...DECLINED_CARD });
    expect(declined.result).toBe('Declined');
    expectRejected(await capture(t, declined.id ?? '', '20.00'), '8011');
  });

  it('a capture of an AUTH that ended in a processor Error is rejected with 8011', async () => {
    const errored = await post(t, 'xml', { type: 'AUTH', amount: '20.00', ...PROCESSOR_ERROR_CARD });
    expect(errored.result).toBe('Error');
    expectRejected(await capture(t, errored.id ?? '', '20.00', {}, 'xml'), '8011');
  });

  it('a capture of a voided AUTH is rejected with 8011', async () => {
    const authId = await approvedAuth(t, '20.00');
    expectApproved(await voidOf(t, authId));
    expectRejected(await capture(t, authId, '20.00'), '8011');
  });

  it('a capture of a SALE, a FORCED SALE, a CAPTURE or a REFUND is rejected with 8011', async () => {
    const saleId = await approvedSale(t, '20.00');
    const forcedId = await approvedForcedSale(t, '20.00');
    const captureId = expectApproved(await capture(t, await approvedAuth(t, '20.00'), '20.00'));
    const refundId = expectApproved(await post(t, 'json', { type: 'REFUND', amount: '5.00', ...AMEX }));
    expectRejected(await capture(t, saleId, '20.00'), '8011');
    expectRejected(await capture(t, forcedId, '20.00', {}, 'xml'), '8011');
    expectRejected(await capture(t, captureId, '20.00'), '8011');
    expectRejected(await capture(t, refundId, '5.00', {}, 'xml'), '8011');
  });

  it('a capture of an id that does not exist is rejected with 8010', async () => {
    expectRejected(await capture(t, '987654', '1.00'), '8010');
    expectRejected(await capture(t, '987655', '1.00', {}, 'xml'), '8010');
  });

  it('a capture without id or without amount is rejected with 8001', async () => {
    const authId = await approvedAuth(t, '20.00');
    expectRejected(await postJson(t, { type: 'CAPTURE', amount: '20.00' }), '8001', true);
    expectRejected(await postXml(t, { type: 'CAPTURE', id: authId }), '8001', true);
    expect((await listItem(t, authId)).captured).toBe('false');
  });

  it('card data on a CAPTURE is rejected with 8009', async () => {
    const authId = await approvedAuth(t, '20.00');
    expectRejected(await capture(t, authId, '20.00', { card: VISA.card }), '8009', true);
    expectRejected(await capture(t, authId, '20.00', { exp_date: '1230' }, 'xml'), '8009', true);
    expectRejected(await capture(t, authId, '20.00', { csc: '123' }), '8009', true);
    expectRejected(
      await capture(t, authId, '20.00', { encrypted_track_data: 'ABC', track_format: 'MAGTEK' }, 'xml'),
      '8009',
      true,
    );
    expectApproved(await capture(t, authId, '20.00'));
  });

  it('a CAPTURE amount keeps its exact XML text: 025.00 and 25 are rejected with 8003', async () => {
    const authId = await approvedAuth(t, '30.00');
    expectRejected(await capture(t, authId, '025.00', {}, 'xml'), '8003', true);
    expectRejected(await capture(t, authId, '25', {}, 'xml'), '8003', true);
    expectRejected(await capture(t, authId, '25.0', {}, 'xml'), '8003', true);
    expectRejected(await capture(t, authId, '0.00'), '8003', true);
    expect((await listItem(t, authId)).captured).toBe('false');
  });

  it('an id that is not a positive integer is rejected with 8004', async () => {
    for (const id of ['abc', '0', '-1', '1.5']) {
      expectRejected(await capture(t, id, '1.00'), '8004', true);
    }
    expectRejected(await capture(t, 'x12', '1.00', {}, 'xml'), '8004', true);
  });

  it('a JSON integer id is accepted on CAPTURE', async () => {
    const authId = await approvedAuth(t, '15.00');
    expectApproved(await postJson(t, { type: 'CAPTURE', id: Number(authId), amount: '15.00' }));
  });

  it('tip_amount on a CAPTURE is rejected with 8006 while tip support is off, and the AUTH stays capturable', async () => {
    const authId = await approvedAuth(t, '40.00');
    expectRejected(await capture(t, authId, '40.00', { tip_amount: '5.00' }), '8006', true);
    expectRejected(await capture(t, authId, '40.00', { tip_amount: '0.00' }, 'xml'), '8006', true);
    expect((await listItem(t, authId)).captured).toBe('false');
  });

  it('server_id sent with CAPTURE overrides the AUTH one and is visible in the list', async () => {
    const authId = await approvedAuth(t, '10.00', { server_id: '03' });
    expect((await listItem(t, authId)).server_id).toBe('03');
    const captureId = expectApproved(await capture(t, authId, '10.00', { server_id: '09' }, 'xml'));
    expect((await listItem(t, captureId)).server_id).toBe('09');
    const byServer = await t.client.listTransactions({ server_id: '09', type: 'Capture' });
    expect(byServer.map((r) => r.id)).toEqual([captureId]);
  });

  it('a capture without server_id keeps the one sent with the AUTH', async () => {
    const authId = await approvedAuth(t, '10.00', { server_id: '04' });
    const captureId = expectApproved(await capture(t, authId, '10.00'));
    expect((await listItem(t, captureId)).server_id).toBe('04');
  });

  it('a server_id on CAPTURE that is not two digits is rejected with 8004', async () => {
    const authId = await approvedAuth(t, '10.00');
    expectRejected(await capture(t, authId, '10.00', { server_id: '9' }), '8004', true);
    expectRejected(await capture(t, authId, '10.00', { server_id: '100' }, 'xml'), '8004', true);
  });

  it('an AUTH left uncaptured when the batch closes is captured into the next batch', async () => {
    const authId = await approvedAuth(t, '12.00');
    const closed = await closeBatch(t);
    expect(await t.client.openBatch()).toBeUndefined();
    const captureId = expectApproved(await capture(t, authId, '12.00', {}, 'xml'));
    const open = await openBatch(t);
    expect(open.id).not.toBe(closed.id);
    expect(open).toMatchObject({ sales_count: '1', sales_total: '12.00' });
    expect((await listItem(t, captureId)).batch_id).toBe(open.id);
  });
});

describe('CAPTURE with tip support on', () => {
  const t = freshGateway({ tips: true });

  it('a tip is added to the capture amount and to the batch sales_total and tip_total', async () => {
    const authId = await approvedAuth(t, '40.00');
    const captureId = expectApproved(await capture(t, authId, '40.00', { tip_amount: '8.00' }));
    expect(await listItem(t, captureId)).toMatchObject({
      type: 'Capture',
      amount: '48.00',
      tip_amount: '8.00',
    });
    expect(await openBatch(t)).toMatchObject({
      sales_count: '1',
      sales_total: '48.00',
      tip_total: '8.00',
      net_amount: '48.00',
    });
  });

  it('a tip on a partial capture over XML is added on top of the captured amount', async () => {
    const before = await openBatch(t);
    const authId = await approvedAuth(t, '30.00');
    const captureId = expectApproved(await capture(t, authId, '25.00', { tip_amount: '4.50' }, 'xml'));
    expect(await listItem(t, captureId)).toMatchObject({ amount: '29.50', tip_amount: '4.50' });
    const after = await openBatch(t);
    expect(cents(after.sales_total) - cents(before.sales_total)).toBe(2950);
    expect(cents(after.tip_total) - cents(before.tip_total)).toBe(450);
  });

  it('a tip of 0.00 is allowed and adds nothing', async () => {
    const authId = await approvedAuth(t, '10.00');
    const captureId = expectApproved(await capture(t, authId, '10.00', { tip_amount: '0.00' }));
    expect(await listItem(t, captureId)).toMatchObject({ amount: '10.00', tip_amount: '0.00' });
  });

  it('the tip does not raise the capture limit: amount above the AUTH is still 8012', async () => {
    const authId = await approvedAuth(t, '10.00');
    expectRejected(await capture(t, authId, '10.01', { tip_amount: '2.00' }), '8012');
  });

  it('a badly formed tip is rejected with 8003: 8, -1.00, and 08.00 in XML', async () => {
    const authId = await approvedAuth(t, '10.00');
    expectRejected(await capture(t, authId, '10.00', { tip_amount: '8' }), '8003', true);
    expectRejected(await capture(t, authId, '10.00', { tip_amount: '-1.00' }), '8003', true);
    expectRejected(await capture(t, authId, '10.00', { tip_amount: '08.00' }, 'xml'), '8003', true);
    expect((await listItem(t, authId)).captured).toBe('false');
  });

  it('a tip on REFUND or VOID is rejected with 8006 even with tip support on', async () => {
    const saleId = await approvedSale(t, '10.00');
    expectRejected(await postJson(t, { type: 'VOID', id: saleId, tip_amount: '1.00' }), '8006', true);
    expectRejected(
      await postXml(t, { type: 'REFUND', amount: '1.00', tip_amount: '1.00', ...VISA }),
      '8006',
      true,
    );
  });

  it('a matched refund of a tipped capture may reach the amount plus the tip, not more', async () => {
    const authId = await approvedAuth(t, '20.00');
    const captureId = expectApproved(await capture(t, authId, '20.00', { tip_amount: '5.00' }));
    await closeBatch(t);
    expectRejected(await refund(t, captureId, '25.01'), '8014');
    expectApproved(await refund(t, captureId, '20.00'));
    expectRejected(await refund(t, captureId, '5.01', 'xml'), '8014');
    expectApproved(await refund(t, captureId, '5.00', 'xml'));
    expectRejected(await refund(t, captureId, '0.01'), '8014');
    expect((await listItem(t, captureId)).refunded_amount).toBe('25.00');
    expect(await openBatch(t)).toMatchObject({
      refund_count: '2',
      refund_total: '25.00',
      sales_count: '0',
    });
  });
});

describe('refunds of tipped FORCED SALEs', () => {
  const t = freshGateway({ tips: true });

  it('a matched refund of a tipped FORCED SALE may reach the amount plus the tip, not more', async () => {
    const forcedId = expectApproved(
      await postXml(t, {
        type: 'FORCED SALE',
        amount: '20.00',
        tip_amount: '3.00',
        authorization_code: 'TIP1',
        ...VISA,
      }),
    );
    await closeBatch(t);
    expectRejected(await refund(t, forcedId, '23.01', 'xml'), '8014');
    expectApproved(await refund(t, forcedId, '23.00'));
    expectRejected(await refund(t, forcedId, '0.01'), '8014');
  });
});

describe('matched REFUND', () => {
  const t = freshGateway();
  const ids: Record<string, string> = {};

  it('a refund of a sale whose batch is still open is rejected with 8013, saying to void it', async () => {
    ids.sale = await approvedSale(t, '30.00');
    const answer = await refund(t, ids.sale, '10.00');
    expectRejected(answer, '8013');
    expect(answer.display_message).toMatch(/void/i);
    expectRejected(await refund(t, ids.sale, '10.00', 'xml'), '8013');
    expect((await listItem(t, ids.sale)).refunded_amount).toBe('0.00');
  });

  it('after the batch closes, partial refunds are approved until their sum reaches the original amount', async () => {
    ids.forced = await approvedForcedSale(t, '12.00');
    ids.auth = await approvedAuth(t, '40.00');
    ids.capture = expectApproved(await capture(t, ids.auth, '40.00'));
    ids.voidedSale = await approvedSale(t, '7.00');
    expectApproved(await voidOf(t, ids.voidedSale));
    const declined = await post(t, 'json', { type: 'SALE', amount: '9.00', ...DECLINED_CARD });
    expect(declined.result).toBe('Declined');
    ids.declined = declined.id ?? '';
    const closed = await closeBatch(t);
    expect(closed).toMatchObject({ sales_count: '3', sales_total: '82.00' });

    const first = expectApproved(await refund(t, ids.sale ?? '', '10.00'));
    expectApproved(await refund(t, ids.sale ?? '', '15.00', 'xml'));
    expect((await listItem(t, ids.sale ?? '')).refunded_amount).toBe('25.00');
    expect(await listItem(t, first)).toMatchObject({
      type: 'Refund',
      amount: '10.00',
      original_id: ids.sale,
      card: '************1111',
    });
    const open = await openBatch(t);
    expect(open.id).not.toBe(closed.id);
    expect(open).toMatchObject({
      refund_count: '2',
      refund_total: '25.00',
      sales_count: '0',
      net_amount: '-25.00',
    });
  });

  it('a refund above what remains is rejected with 8014; the exact remainder is approved; then nothing is left', async () => {
    const sale = ids.sale ?? '';
    expectRejected(await refund(t, sale, '5.01'), '8014');
    expectRejected(await refund(t, sale, '30.00', 'xml'), '8014');
    expectApproved(await refund(t, sale, '5.00', 'xml'));
    expectRejected(await refund(t, sale, '0.01'), '8014');
    expect((await listItem(t, sale)).refunded_amount).toBe('30.00');
    expect(await openBatch(t)).toMatchObject({ refund_count: '3', refund_total: '30.00' });
  });

  it('a refund of a settled FORCED SALE or CAPTURE is approved up to its amount', async () => {
    expectRejected(await refund(t, ids.forced ?? '', '12.01'), '8014');
    expectApproved(await refund(t, ids.forced ?? '', '12.00', 'xml'));
    expectRejected(await refund(t, ids.capture ?? '', '40.01', 'xml'), '8014');
    expectApproved(await refund(t, ids.capture ?? '', '40.00'));
  });

  it('a refund of an AUTH is rejected with 8015, captured or not', async () => {
    expectRejected(await refund(t, ids.auth ?? '', '1.00'), '8015');
    const uncaptured = await approvedAuth(t, '5.00');
    expectRejected(await refund(t, uncaptured, '1.00', 'xml'), '8015');
  });

  it('a refund of a VOID, of a REFUND, of a declined sale or of a voided sale is rejected with 8015', async () => {
    const voidRow = (await t.client.listTransactions({ type: 'Void' }))[0];
    expect(voidRow?.original_id).toBe(ids.voidedSale);
    expectRejected(await refund(t, voidRow?.id ?? '', '1.00'), '8015');
    const refundRow = (await t.client.listTransactions({ type: 'Refund', page_size: 1 }))[0];
    expect(refundRow?.type).toBe('Refund');
    expectRejected(await refund(t, refundRow?.id ?? '', '1.00', 'xml'), '8015');
    expectRejected(await refund(t, ids.declined ?? '', '1.00'), '8015');
    expectRejected(await refund(t, ids.voidedSale ?? '', '1.00', 'xml'), '8015');
  });

  it('a refund of a capture that was voided before the close is rejected with 8015', async () => {
    const authId = await approvedAuth(t, '18.00');
    const captureId = expectApproved(await capture(t, authId, '18.00'));
    expectApproved(await voidOf(t, captureId));
    await closeBatch(t);
    expectRejected(await refund(t, captureId, '1.00'), '8015');
  });

  it('a refund of 0.00 is rejected with 8003', async () => {
    expectRejected(await refund(t, ids.sale ?? '', '0.00'), '8003', true);
  });

  it('a refund of an id that does not exist is rejected with 8010', async () => {
    expectRejected(await refund(t, '999999', '1.00'), '8010');
  });

  it('card data on a matched refund is rejected with 8009', async () => {
    const saleId = await approvedSale(t, '10.00');
    await closeBatch(t);
    expectRejected(await postJson(t, { type: 'REFUND', id: saleId, amount: '1.00', ...VISA }), '8009', true);
    expectRejected(
      await postXml(t, { type: 'REFUND', id: saleId, amount: '1.00', csc: '123' }),
      '8009',
      true,
    );
    expectRejected(
      await postJson(t, { type: 'REFUND', id: saleId, amount: '1.00', exp_date: '1230' }),
      '8009',
      true,
    );
    expectApproved(await refund(t, saleId, '10.00'));
  });

  it('a refund without amount is rejected with 8001; an amount keeps its exact XML text (010.00 is 8003)', async () => {
    const saleId = await approvedSale(t, '10.00');
    await closeBatch(t);
    expectRejected(await postJson(t, { type: 'REFUND', id: saleId }), '8001', true);
    expectRejected(await refund(t, saleId, '010.00', 'xml'), '8003', true);
    expectRejected(await refund(t, saleId, '10', 'xml'), '8003', true);
    expect((await listItem(t, saleId)).refunded_amount).toBe('0.00');
  });
});

describe('unmatched REFUND', () => {
  const t = freshGateway();

  it('a refund with card and exp_date but no id is approved with no amount limit and opens a batch', async () => {
    expect(await t.client.openBatch()).toBeUndefined();
    const refundId = expectApproved(
      await postJson(t, { type: 'REFUND', amount: '5000.00', invoice: 'RET-1', ...MASTERCARD }),
    );
    expect(await listItem(t, refundId)).toMatchObject({
      type: 'Refund',
      amount: '5000.00',
      card: '************5454',
      original_id: '',
    });
    expect(await openBatch(t)).toMatchObject({
      refund_count: '1',
      refund_total: '5000.00',
      sales_count: '0',
      total_count: '1',
      net_amount: '-5000.00',
    });
  });

  it('an unmatched refund over XML counts in the batch refunds', async () => {
    expectApproved(await postXml(t, { type: 'REFUND', amount: '12.34', ...AMEX }));
    expect(await openBatch(t)).toMatchObject({ refund_count: '2', refund_total: '5012.34' });
  });

  it('a refund with neither id nor card is rejected with 8001', async () => {
    expectRejected(await postJson(t, { type: 'REFUND', amount: '5.00' }), '8001', true);
    expectRejected(await postXml(t, { type: 'REFUND', amount: '5.00' }), '8001', true);
  });

  it('an unmatched refund with card but no exp_date is rejected with 8001', async () => {
    expectRejected(await postJson(t, { type: 'REFUND', amount: '5.00', card: VISA.card }), '8001', true);
  });

  it('an unmatched refund is checked like a sale: Luhn 8002, expired 8000, CSC length 8007', async () => {
    expectRejected(
      await postXml(t, { type: 'REFUND', amount: '5.00', card: '4111111111111112', exp_date: '1230' }),
      '8002',
      true,
    );
    expectRejected(
      await postJson(t, { type: 'REFUND', amount: '5.00', ...VISA, exp_date: '0120' }),
      '8000',
      true,
    );
    expectRejected(await postJson(t, { type: 'REFUND', amount: '5.00', ...AMEX, csc: '123' }), '8007', true);
  });

  it('voiding an unmatched refund takes it out of the batch refunds', async () => {
    const refundId = expectApproved(await postJson(t, { type: 'REFUND', amount: '3.00', ...VISA }));
    expect(await openBatch(t)).toMatchObject({ refund_count: '3', refund_total: '5015.34' });
    expectApproved(await voidOf(t, refundId, 'xml'));
    expect(await openBatch(t)).toMatchObject({ refund_count: '2', refund_total: '5012.34' });
    expect((await listItem(t, refundId)).voided).toBe('true');
  });
});

describe('VOID', () => {
  const t = freshGateway();

  it('a void of a sale in the open batch is approved and the batch totals drop', async () => {
    const keep = await approvedSale(t, '5.00');
    const saleId = await approvedSale(t, '20.00', 'xml');
    expect(await openBatch(t)).toMatchObject({ sales_count: '2', sales_total: '25.00' });
    const voidId = expectApproved(await voidOf(t, saleId));
    expect(voidId).not.toBe(saleId);
    expect(await openBatch(t)).toMatchObject({
      sales_count: '1',
      sales_total: '5.00',
      total_count: '1',
      net_amount: '5.00',
    });
    expect(await listItem(t, saleId)).toMatchObject({ voided: 'true' });
    expect(await listItem(t, keep)).toMatchObject({ voided: 'false' });
    expect(await listItem(t, voidId)).toMatchObject({
      type: 'Void',
      result: 'Approved',
      original_id: saleId,
    });
  });

  it('a second void of the same transaction is rejected with 8017', async () => {
    const saleId = await approvedSale(t, '8.00');
    expectApproved(await voidOf(t, saleId, 'xml'));
    expectRejected(await voidOf(t, saleId), '8017');
    expectRejected(await voidOf(t, saleId, 'xml'), '8017');
  });

  it('a void of a FORCED SALE in the open batch is approved', async () => {
    const before = await openBatch(t);
    const forcedId = await approvedForcedSale(t, '6.00', 'xml');
    expectApproved(await voidOf(t, forcedId));
    expect((await openBatch(t)).sales_total).toBe(before.sales_total);
  });

  it('a void of a declined sale is rejected with 8017', async () => {
    const declined = await post(t, 'xml', { type: 'SALE', amount: '9.00', ...DECLINED_CARD });
    expect(declined.result).toBe('Declined');
    expectRejected(await voidOf(t, declined.id ?? '', 'xml'), '8017');
  });

  it('a void of a VOID is rejected with 8017', async () => {
    const saleId = await approvedSale(t, '4.00');
    const voidId = expectApproved(await voidOf(t, saleId));
    expectRejected(await voidOf(t, voidId), '8017');
  });

  it('a void of a rejected attempt, found in the list, is rejected with 8017', async () => {
    expectRejected(
      await postJson(t, { type: 'SALE', amount: '1', invoice: 'REJECTED-1', ...VISA }),
      '8003',
      true,
    );
    const [rejected] = await t.client.listTransactions({ invoice: 'REJECTED-1' });
    expect(rejected?.result).toBe('Rejected');
    expectRejected(await voidOf(t, rejected?.id ?? ''), '8017');
  });

  it('a void of an id that does not exist is rejected with 8010', async () => {
    expectRejected(await voidOf(t, '999999'), '8010');
    expectRejected(await voidOf(t, '999998', 'xml'), '8010');
  });

  it('an amount on a VOID is rejected with 8009 and the sale stays in the batch', async () => {
    const saleId = await approvedSale(t, '11.00');
    expectRejected(await postJson(t, { type: 'VOID', id: saleId, amount: '11.00' }), '8009', true);
    expectRejected(await postXml(t, { type: 'VOID', id: saleId, amount: '11.00' }), '8009', true);
    expect((await listItem(t, saleId)).voided).toBe('false');
  });

  it('card data on a VOID is rejected with 8009', async () => {
    const saleId = await approvedSale(t, '11.00');
    expectRejected(await postJson(t, { type: 'VOID', id: saleId, card: VISA.card }), '8009', true);
    expectRejected(await postXml(t, { type: 'VOID', id: saleId, exp_date: '1230' }), '8009', true);
  });

  it('a VOID without id is rejected with 8001, and an id that is not a number with 8004', async () => {
    expectRejected(await postJson(t, { type: 'VOID' }), '8001', true);
    expectRejected(await postXml(t, { type: 'VOID', id: 'twelve' }), '8004', true);
  });

  it('a void of an uncaptured AUTH is approved, and the AUTH can then not be captured (8011)', async () => {
    const authId = await approvedAuth(t, '25.00');
    const before = await openBatch(t);
    expectApproved(await voidOf(t, authId, 'xml'));
    expect(await listItem(t, authId)).toMatchObject({ voided: 'true', captured: 'false' });
    expectRejected(await capture(t, authId, '25.00'), '8011');
    expect(await openBatch(t)).toMatchObject({
      sales_count: before.sales_count,
      sales_total: before.sales_total,
    });
  });

  it('a void of a captured AUTH is rejected with 8017', async () => {
    const authId = await approvedAuth(t, '25.00');
    expectApproved(await capture(t, authId, '25.00'));
    expectRejected(await voidOf(t, authId), '8017');
    expectRejected(await voidOf(t, authId, 'xml'), '8017');
  });

  it('a void of a capture drops it from the batch and puts the AUTH back among the open tabs', async () => {
    const authId = await approvedAuth(t, '30.00');
    const before = await openBatch(t);
    const captureId = expectApproved(await capture(t, authId, '30.00', {}, 'xml'));
    const during = await openBatch(t);
    expect(cents(during.sales_total) - cents(before.sales_total)).toBe(3000);
    expect(Number(during.sales_count)).toBe(Number(before.sales_count) + 1);
    expectApproved(await voidOf(t, captureId));
    expect(await openBatch(t)).toMatchObject({
      sales_count: before.sales_count,
      sales_total: before.sales_total,
    });
    expect((await listItem(t, captureId)).voided).toBe('true');
    expect(await listItem(t, authId)).toMatchObject({
      voided: 'false',
      captured: 'false',
      capturable: 'true',
      voidable: 'true',
    });
    // Captured again, with another amount: the AUTH has one live capture, the voided one stays in history.
    const again = expectApproved(await capture(t, authId, '24.00', {}, 'xml'));
    expect(await listItem(t, authId)).toMatchObject({ captured: 'true', capturable: 'false' });
    expectRejected(await capture(t, authId, '1.00'), '8011');
    expect((await listItem(t, again)).amount).toBe('24.00');
    expect(cents((await openBatch(t)).sales_total) - cents(before.sales_total)).toBe(2400);
  });

  it('a void of the AUTH after its capture was voided releases the hold for good', async () => {
    const authId = await approvedAuth(t, '18.00');
    const captureId = expectApproved(await capture(t, authId, '18.00'));
    expectApproved(await voidOf(t, captureId));
    expectApproved(await voidOf(t, authId, 'xml'));
    expect(await listItem(t, authId)).toMatchObject({
      voided: 'true',
      captured: 'false',
      capturable: 'false',
    });
    expectRejected(await capture(t, authId, '18.00'), '8011');
  });

  it('after the batch closes, a void of its sale is rejected with 8016, saying to refund it', async () => {
    const saleId = await approvedSale(t, '14.00');
    const authId = await approvedAuth(t, '9.00');
    const captureId = expectApproved(await capture(t, authId, '9.00'));
    const uncapturedAuth = await approvedAuth(t, '3.00');
    const closed = await closeBatch(t);
    const answer = await voidOf(t, saleId);
    expectRejected(answer, '8016');
    expect(answer.display_message).toMatch(/refund/i);
    expectRejected(await voidOf(t, captureId, 'xml'), '8016');
    expect((await listItem(t, saleId)).voided).toBe('false');
    // An AUTH that was never captured may still be voided after the close: it is in no batch.
    expectApproved(await voidOf(t, uncapturedAuth));
    const closedAgain = (await t.client.listBatches({ page_size: 100 })).find((b) => b.id === closed.id);
    expect(closedAgain).toMatchObject({
      status: 'CLOSED',
      sales_count: closed.sales_count,
      sales_total: closed.sales_total,
    });
  });

  it('a void of a refund restores the amount that can still be refunded', async () => {
    const saleId = await approvedSale(t, '30.00');
    await closeBatch(t);
    const refundId = expectApproved(await refund(t, saleId, '30.00'));
    expectRejected(await refund(t, saleId, '0.01'), '8014');
    expect(await openBatch(t)).toMatchObject({ refund_count: '1', refund_total: '30.00' });
    expectApproved(await voidOf(t, refundId, 'xml'));
    expect((await listItem(t, saleId)).refunded_amount).toBe('0.00');
    expect(await openBatch(t)).toMatchObject({ refund_count: '0', refund_total: '0.00' });
    expectRejected(await refund(t, saleId, '30.01'), '8014');
    expectApproved(await refund(t, saleId, '30.00', 'xml'));
    expect((await listItem(t, saleId)).refunded_amount).toBe('30.00');
  });

  it('a void of a refund whose batch has closed is rejected with 8016', async () => {
    const saleId = await approvedSale(t, '10.00');
    await closeBatch(t);
    const refundId = expectApproved(await refund(t, saleId, '4.00'));
    await closeBatch(t);
    expectRejected(await voidOf(t, refundId), '8016');
    expectApproved(await refund(t, saleId, '6.00'));
    expectRejected(await refund(t, saleId, '0.01'), '8014');
  });
});

describe('follow-ups sent at the same moment', () => {
  const t = freshGateway();

  it('two captures of one AUTH sent at once: exactly one is approved, the other is rejected with 8011', async () => {
    const authId = await approvedAuth(t, '20.00');
    const answers = await Promise.all([capture(t, authId, '20.00'), capture(t, authId, '20.00', {}, 'xml')]);
    expect(answers.map((a) => a.result).sort()).toEqual(['Approved', 'Rejected']);
    expect(answers.find((a) => a.result === 'Rejected')?.error_code).toBe('8011');
    const captures = await t.client.listTransactions({ type: 'Capture', result: 'Approved' });
    expect(captures.filter((r) => r.original_id === authId)).toHaveLength(1);
  });

  it('two refunds sent at once that together exceed the original: one is approved, the other 8014', async () => {
    const saleId = await approvedSale(t, '10.00');
    await closeBatch(t);
    const answers = await Promise.all([refund(t, saleId, '6.00'), refund(t, saleId, '6.00', 'xml')]);
    expect(answers.map((a) => a.result).sort()).toEqual(['Approved', 'Rejected']);
    expect(answers.find((a) => a.result === 'Rejected')?.error_code).toBe('8014');
    expect((await listItem(t, saleId)).refunded_amount).toBe('6.00');
  });

  it('two voids of one sale sent at once: one is approved, the other is rejected with 8017', async () => {
    const saleId = await approvedSale(t, '10.00');
    const answers = await Promise.all([voidOf(t, saleId), voidOf(t, saleId, 'xml')]);
    expect(answers.map((a) => a.result).sort()).toEqual(['Approved', 'Rejected']);
    expect(answers.find((a) => a.result === 'Rejected')?.error_code).toBe('8017');
  });
});
