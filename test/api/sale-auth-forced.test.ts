/**
 * SALE, AUTH and FORCED SALE against a real engine: approvals, the simulator's test cards, AVS and CSC
 * answers, and every field rule, in JSON and in XML. Each describe block gets its own gateway so the
 * ledger and the open batch hold only what that block put there.
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { XMLParser } from 'fast-xml-parser';
import type { TransactionListItem } from '../../shared/api/schemas';
import {
  AMEX,
  DECLINED_CARD,
  DISCOVER,
  INSUFFICIENT_FUNDS_CARD,
  MASTERCARD,
  PROCESSOR_ERROR_CARD,
  useTestGateway,
  VISA,
  type TestGateway,
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
// Helpers: one request in either format, answers read as plain string maps.

const listParser = new XMLParser({
  parseTagValue: false,
  ignoreDeclaration: true,
  isArray: (tagName) => tagName === 'transaction' || tagName === 'batch',
});

function expectApproved(answer: Answer): string {
  expect(answer).toMatchObject({ result: 'Approved', result_code: '0000' });
  expect(answer.id).toMatch(/^[1-9]\d*$/);
  expect(answer.authorization_code).toBeTruthy();
  expect(answer.display_message).toBeTruthy();
  return answer.id ?? '';
}

function expectRejected(answer: Answer, errorCode: string, fieldValidation = true): void {
  expect(answer).toMatchObject({ result: 'Rejected', error_code: errorCode });
  expect(answer).not.toHaveProperty('id');
  if (fieldValidation) expect(answer.display_message).toMatch(/^Field Validation/);
}

async function listByInvoice(t: TestGateway, invoice: string): Promise<TransactionListItem[]> {
  return t.client.listTransactions({ invoice, page_size: 100 });
}

/** MMYY for a month counted from the current one in the terminal's time zone (0 = this month). */
function expiryMonthsFromNow(offset: number): string {
  const now = new Date();
  const date = new Date(now.getFullYear(), now.getMonth() + offset, 1);
  return `${String(date.getMonth() + 1).padStart(2, '0')}${String(date.getFullYear() % 100).padStart(2, '0')}`;
}

const LUHN_FAILING_CARD = '4111111111111112';

// ---------------------------------------------------------------------------------------------

describe('approvals of SALE, AUTH and FORCED SALE', () => {
  const t = useTestGateway();

  it('an AUTH alone opens no batch: the open batch is 204 until a sale', async () => {
    const answer = await t.client.createTransaction({ type: 'AUTH', amount: '12.00', ...VISA });
    const id = expectApproved(answer);
    expect(answer.authorization_code).toMatch(/^[A-Z0-9]{6}$/);
    expect(await t.client.openBatch()).toBeUndefined();
    const item = await listItem(t, id);
    expect(item).toMatchObject({
      type: 'Auth',
      result: 'Approved',
      amount: '12.00',
      batch_id: '',
      captured: 'false',
    });
  });

  it('a keyed Visa SALE is approved with a six-character authorization code and the AVS/CSC answers', async () => {
    const answer = await t.client.createTransaction({ type: 'SALE', amount: '25.00', ...VISA });
    const id = expectApproved(answer);
    expect(answer.authorization_code).toMatch(/^[A-Z0-9]{6}$/);
    expect(answer).toMatchObject({ avs_result_code: 'U', csc_result_code: 'P' });
    const batch = await t.client.openBatch();
    expect(batch).toMatchObject({ status: 'OPEN', sales_count: '1', sales_total: '25.00' });
    const item = await listItem(t, id);
    expect(item).toMatchObject({
      type: 'Sale',
      result: 'Approved',
      result_code: '0000',
      amount: '25.00',
      authorization_code: answer.authorization_code,
      card: '************1111',
      batch_id: batch?.id,
      voided: 'false',
    });
  });

  it('a Mastercard SALE with a three-digit CSC is approved with csc_result_code M', async () => {
    const answer = await t.client.createTransaction({
      type: 'SALE',
      amount: '10.00',
      csc: '123',
      ...MASTERCARD,
    });
    expectApproved(answer);
    expect(answer.csc_result_code).toBe('M');
  });

  it('an Amex SALE with a four-digit CSC is approved and listed masked to its own 15-digit length', async () => {
    const answer = await t.client.createTransaction({ type: 'SALE', amount: '10.00', csc: '1234', ...AMEX });
    const id = expectApproved(answer);
    expect(answer.csc_result_code).toBe('M');
    expect((await listItem(t, id)).card).toBe('***********8431');
  });

  it('a Discover AUTH over XML is approved and its answer is an XML <transaction>', async () => {
    const answer = await postXml(t, { type: 'AUTH', amount: '40.00', csc: '321', ...DISCOVER });
    expectApproved(answer);
    expect(answer.csc_result_code).toBe('M');
  });

  it('a 13-digit and a 19-digit Luhn-valid card are approved and listed masked to their own length', async () => {
    const short = expectApproved(
      await postJson(t, { type: 'SALE', amount: '2.00', card: '4222222222222', exp_date: '1230' }),
    );
    const long = expectApproved(
      await postXml(t, { type: 'AUTH', amount: '2.00', card: '6011000000000000001', exp_date: '1230' }),
    );
    expect((await listItem(t, short)).card).toBe('*********2222');
    expect((await listItem(t, long)).card).toBe('***************0001');
  });

  it('an Amex starting 34 takes a four-digit CSC too, and rejects three digits with 8007', async () => {
    const amex34 = { card: '343434343434343', exp_date: '1230' };
    expectApproved(await postJson(t, { type: 'SALE', amount: '2.00', csc: '4321', ...amex34 }));
    expectRejected(await postXml(t, { type: 'SALE', amount: '2.00', csc: '432', ...amex34 }), '8007');
  });

  it('the smallest amount, 0.01, is approved', async () => {
    expectApproved(await postXml(t, { type: 'SALE', amount: '0.01', ...VISA }));
  });

  it('billing_is_shipping true is listed as "true", and absent as "false"', async () => {
    const withFlag = expectApproved(
      await postXml(t, {
        type: 'SALE',
        amount: '2.00',
        billing_is_shipping: 'true',
        billing: { first_name: 'Ada', last_name: 'Lovelace', zip: '30301' },
        ...VISA,
      }),
    );
    const without = expectApproved(await postJson(t, { type: 'SALE', amount: '2.00', ...VISA }));
    expect(await listItem(t, withFlag)).toMatchObject({
      billing_is_shipping: 'true',
      first_name: 'Ada',
      last_name: 'Lovelace',
    });
    expect((await listItem(t, without)).billing_is_shipping).toBe('false');
  });

  it('a shipping zip of five or nine digits and a well-formed e-mail are accepted', async () => {
    expectApproved(await postJson(t, { type: 'SALE', amount: '2.00', shipping: { zip: '30301' }, ...VISA }));
    expectApproved(
      await postXml(t, { type: 'SALE', amount: '2.00', shipping: { zip: '303011234' }, ...VISA }),
    );
    expectApproved(await postJson(t, { type: 'AUTH', amount: '2.00', email: 'ada@example.com', ...VISA }));
  });

  it('the largest amount, 999999.99, is approved', async () => {
    expectApproved(await t.client.createTransaction({ type: 'SALE', amount: '999999.99', ...VISA }));
  });

  it('a FORCED SALE is approved with the supplied authorization code upper-cased and counts in the batch', async () => {
    const before = await t.client.openBatch();
    const answer = await t.client.createTransaction({
      type: 'FORCED SALE',
      amount: '15.50',
      authorization_code: 'ab12cd',
      ...VISA,
    });
    const id = expectApproved(answer);
    expect(answer.authorization_code).toBe('AB12CD');
    const after = await t.client.openBatch();
    expect(Number(after?.sales_count)).toBe(Number(before?.sales_count) + 1);
    expect(cents(after?.sales_total ?? '')).toBe(cents(before?.sales_total ?? '') + 1550);
    expect(await listItem(t, id)).toMatchObject({
      type: 'Forced Sale',
      amount: '15.50',
      authorization_code: 'AB12CD',
    });
  });

  it('a FORCED SALE does not ask the issuer: the decline and processor-error test cards are approved', async () => {
    for (const card of [DECLINED_CARD, INSUFFICIENT_FUNDS_CARD, PROCESSOR_ERROR_CARD]) {
      const answer = await postXml(t, {
        type: 'FORCED SALE',
        amount: '9.00',
        authorization_code: 'V0ICE1',
        ...card,
      });
      expectApproved(answer);
      expect(answer.authorization_code).toBe('V0ICE1');
    }
  });

  it('a FORCED SALE with CSC 999 is approved: no issuer check', async () => {
    expectApproved(
      await postJson(t, {
        type: 'FORCED SALE',
        amount: '9.00',
        authorization_code: 'V0ICE2',
        csc: '999',
        ...VISA,
      }),
    );
  });

  it('FORCED SALE without authorization_code is rejected with 8001', async () => {
    expectRejected(await postJson(t, { type: 'FORCED SALE', amount: '9.00', ...VISA }), '8001');
    expectRejected(await postXml(t, { type: 'FORCED SALE', amount: '9.00', ...VISA }), '8001');
  });

  it('a FORCED SALE authorization_code of exactly 8 letters and digits is approved', async () => {
    const answer = await postJson(t, {
      type: 'FORCED SALE',
      amount: '9.00',
      authorization_code: 'ABCD1234',
      ...VISA,
    });
    expectApproved(answer);
    expect(answer.authorization_code).toBe('ABCD1234');
  });

  it('a FORCED SALE authorization_code longer than 8 characters or with symbols is rejected with 8004', async () => {
    const base = { type: 'FORCED SALE', amount: '9.00', ...VISA };
    expectRejected(await postJson(t, { ...base, authorization_code: 'ABCDEFGH9' }), '8004');
    expectRejected(await postXml(t, { ...base, authorization_code: 'AB-123' }), '8004');
  });

  it('the open batch counts equal the approved unvoided rows', async () => {
    expect((await expectBatchesMatchRows(t)).length).toBeGreaterThan(0);
  });
});

describe('type spellings', () => {
  const t = useTestGateway();

  it.each([
    ['sale', 'Sale'],
    ['Sale', 'Sale'],
    ['aUtH', 'Auth'],
    ['FORCED SALE', 'Forced Sale'],
    ['FORCED_SALE', 'Forced Sale'],
    ['Forced_Sale', 'Forced Sale'],
    ['forced sale', 'Forced Sale'],
    ['forced-sale', 'Forced Sale'],
  ])('type "%s" is accepted and listed as %s', async (type, label) => {
    const answer = await t.client.createTransaction({
      type,
      amount: '5.00',
      ...(label === 'Forced Sale' && { authorization_code: 'OK1' }),
      ...VISA,
    });
    const id = expectApproved(answer);
    expect((await listItem(t, id)).type).toBe(label);
  });

  it.each(['SALES', 'FORCEDSALE', 'PURCHASE', 'CREDIT'])('type "%s" is rejected with 8005', async (type) => {
    expectRejected(await postJson(t, { type, amount: '5.00', ...VISA }), '8005');
  });

  it('type "Forced_Sale" over XML is approved as a Forced Sale', async () => {
    const answer = await postXml(t, {
      type: 'Forced_Sale',
      amount: '6.00',
      authorization_code: 'X1',
      ...VISA,
    });
    const id = expectApproved(answer);
    expect((await listItem(t, id)).type).toBe('Forced Sale');
  });
});

describe('test cards, AVS and CSC', () => {
  const t = useTestGateway();

  it.each<[Format, 'SALE' | 'AUTH']>([
    ['json', 'SALE'],
    ['xml', 'AUTH'],
  ])('card 4000000000000002 is Declined with result_code 0005 and an id (%s %s)', async (format, type) => {
    const answer = await post(t, format, { type, amount: '20.00', ...DECLINED_CARD });
    expect(answer).toMatchObject({ result: 'Declined', result_code: '0005' });
    expect(answer.id).toMatch(/^[1-9]\d*$/);
    expect(answer.display_message).toBeTruthy();
    const item = await listItem(t, answer.id ?? '');
    expect(item).toMatchObject({
      result: 'Declined',
      result_code: '0005',
      card: '************0002',
      batch_id: '',
    });
  });

  it.each<Format>(['json', 'xml'])(
    'card 4000000000009995 is Declined for insufficient funds with result_code 0051 (%s)',
    async (format) => {
      const answer = await post(t, format, {
        type: 'SALE',
        amount: '20.00',
        ...INSUFFICIENT_FUNDS_CARD,
      });
      expect(answer).toMatchObject({ result: 'Declined', result_code: '0051' });
      expect(answer.id).toMatch(/^[1-9]\d*$/);
    },
  );

  it.each<Format>(['json', 'xml'])(
    'card 4000000000000119 is an Error with error_code 9000 and result_code 0096 (%s)',
    async (format) => {
      const answer = await post(t, format, {
        type: 'SALE',
        amount: '20.00',
        ...PROCESSOR_ERROR_CARD,
      });
      expect(answer).toMatchObject({ result: 'Error', error_code: '9000', result_code: '0096' });
      expect(answer.id).toMatch(/^[1-9]\d*$/);
      const item = await listItem(t, answer.id ?? '');
      expect(item).toMatchObject({ result: 'Error', error_code: '9000', batch_id: '' });
    },
  );

  it('CSC 999 is Declined with csc_result_code N', async () => {
    const answer = await t.client.createTransaction({ type: 'SALE', amount: '20.00', csc: '999', ...VISA });
    expect(answer).toMatchObject({ result: 'Declined', csc_result_code: 'N' });
    expect(answer.id).toMatch(/^[1-9]\d*$/);
  });

  it('CSC 999 on an AUTH over XML is Declined with csc_result_code N', async () => {
    const answer = await postXml(t, { type: 'AUTH', amount: '20.00', csc: '999', ...MASTERCARD });
    expect(answer).toMatchObject({ result: 'Declined', csc_result_code: 'N' });
  });

  it('a CSC that is sent answers M, and none sent answers P', async () => {
    expect(
      (await t.client.createTransaction({ type: 'SALE', amount: '1.00', csc: '456', ...VISA }))
        .csc_result_code,
    ).toBe('M');
    expect(
      (await t.client.createTransaction({ type: 'AUTH', amount: '1.00', ...VISA })).csc_result_code,
    ).toBe('P');
  });

  it.each<[string, string, Fields | undefined, Format]>([
    ['billing zip 99999', 'N', { zip: '99999', street: '1 Main St' }, 'json'],
    ['billing zip and street', 'Y', { zip: '30301', street: '1 Main St' }, 'json'],
    ['billing zip only', 'Z', { zip: '30301' }, 'xml'],
    ['billing street only', 'A', { street: '1 Main St' }, 'xml'],
    ['no billing address', 'U', undefined, 'json'],
    ['a billing object with names only', 'U', { first_name: 'Ada', last_name: 'Lovelace' }, 'xml'],
  ])('%s answers avs_result_code %s', async (_label, avs, billing, format) => {
    const answer = await post(t, format, {
      type: 'SALE',
      amount: '3.00',
      ...VISA,
      ...(billing && { billing }),
    });
    expect(answer.avs_result_code).toBe(avs);
    expect(answer.id).toMatch(/^[1-9]\d*$/);
  });

  it('declined and errored attempts do not count in the open batch', async () => {
    expect((await expectBatchesMatchRows(t)).length).toBeGreaterThan(0);
    const batch = await t.client.openBatch();
    const approvedSales = (await t.client.listTransactions({ page_size: 100 })).filter(
      (r) => r.type === 'Sale' && r.result === 'Approved',
    );
    expect(batch?.sales_count).toBe(String(approvedSales.length));
  });
});

describe('field validation of SALE, AUTH and FORCED SALE', () => {
  const t = useTestGateway();

  const sale = { type: 'SALE', amount: '25.00', ...VISA } as const;
  const { card: _card, ...saleWithoutCard } = sale;
  const { exp_date: _exp, ...saleWithoutExpiry } = sale;
  const { amount: _amount, ...saleWithoutAmount } = sale;
  const { type: _type, ...withoutType } = sale;

  const cases: [string, string, Fields][] = [
    ['a body without type', '8001', withoutType],
    ['a SALE without amount', '8001', saleWithoutAmount],
    ['a SALE without card', '8001', saleWithoutCard],
    ['an AUTH without card', '8001', { ...saleWithoutCard, type: 'AUTH' }],
    ['a SALE with card but no exp_date', '8001', saleWithoutExpiry],
    ['amount 25 (no decimal place)', '8003', { ...sale, amount: '25' }],
    ['amount 25.5 (one decimal)', '8003', { ...sale, amount: '25.5' }],
    ['amount 25.000 (three decimals)', '8003', { ...sale, amount: '25.000' }],
    ['amount 025.00 (leading zero)', '8003', { ...sale, amount: '025.00' }],
    ['amount 0.00', '8003', { ...sale, amount: '0.00' }],
    ['amount -5.00', '8003', { ...sale, amount: '-5.00' }],
    ['amount 1,000.00', '8003', { ...sale, amount: '1,000.00' }],
    ['amount 1000000.00 (above the maximum)', '8003', { ...sale, amount: '1000000.00' }],
    ['amount $25.00', '8003', { ...sale, amount: '$25.00' }],
    ['amount 2.5e1', '8003', { ...sale, amount: '2.5e1' }],
    ['a 12-digit card', '8002', { ...sale, card: '411111111111' }],
    ['a 20-digit card', '8002', { ...sale, card: '41111111111111111111' }],
    ['a card with spaces', '8002', { ...sale, card: '4111 1111 1111 1111' }],
    ['a card failing the Luhn check', '8002', { ...sale, card: LUHN_FAILING_CARD }],
    ['exp_date of 3 digits', '8000', { ...sale, exp_date: '130' }],
    ['exp_date of 5 digits', '8000', { ...sale, exp_date: '12300' }],
    ['exp_date month 00', '8000', { ...sale, exp_date: '0030' }],
    ['exp_date month 13', '8000', { ...sale, exp_date: '1330' }],
    ['exp_date 12/30', '8000', { ...sale, exp_date: '12/30' }],
    ['exp_date last month', '8000', { ...sale, exp_date: expiryMonthsFromNow(-1) }],
    ['exp_date a year ago', '8000', { ...sale, exp_date: expiryMonthsFromNow(-12) }],
    ['a Visa CSC of 2 digits', '8007', { ...sale, csc: '12' }],
    ['a Visa CSC of 4 digits', '8007', { ...sale, csc: '1234' }],
    ['a CSC of 5 digits', '8007', { ...sale, csc: '12345' }],
    ['an Amex CSC of 3 digits', '8007', { ...sale, ...AMEX, csc: '123' }],
    ['a Mastercard CSC of 4 digits', '8007', { ...sale, ...MASTERCARD, csc: '1234' }],
    ['order_number of 19 characters', '8004', { ...sale, order_number: 'ABCDEFGHIJ123456789' }],
    ['order_number in lowercase', '8004', { ...sale, order_number: 'abc123' }],
    ['order_number with a hyphen', '8004', { ...sale, order_number: 'ABC-123' }],
    ['order_number with #', '8004', { ...sale, order_number: 'ORDER#1' }],
    ['order_number with a space', '8004', { ...sale, order_number: 'ORDER 1' }],
    ['server_id of one digit on AUTH', '8004', { ...sale, type: 'AUTH', server_id: '7' }],
    ['server_id of three digits on AUTH', '8004', { ...sale, type: 'AUTH', server_id: '007' }],
    ['server_id of letters on AUTH', '8004', { ...sale, type: 'AUTH', server_id: 'AB' }],
    ['client_ip that is not an address', '8004', { ...sale, client_ip: 'not-an-ip' }],
    ['client_ip 256.1.1.1', '8004', { ...sale, client_ip: '256.1.1.1' }],
    ['an e-mail without @', '8004', { ...sale, email: 'nobody.example.com' }],
    ['a shipping zip of four digits', '8004', { ...sale, shipping: { zip: '1234' } }],
    ['a billing zip of symbols', '8004', { ...sale, billing: { zip: '!!!!!' } }],
    ['an id on a SALE', '8009', { ...sale, id: '1' }],
    ['an id on an AUTH', '8009', { ...sale, type: 'AUTH', id: '1' }],
    ['an id on a FORCED SALE', '8009', { ...sale, type: 'FORCED SALE', authorization_code: 'A1', id: '1' }],
    [
      'card together with encrypted_track_data',
      '8009',
      { ...sale, encrypted_track_data: 'ABCDEF', track_format: 'MAGTEK' },
    ],
    [
      'encrypted_track_data without track_format',
      '8018',
      { ...saleWithoutCard, encrypted_track_data: 'ABCDEF' },
    ],
    [
      'encrypted_track_data with track_format IDTECH',
      '8018',
      { ...saleWithoutCard, encrypted_track_data: 'ABCDEF', track_format: 'IDTECH' },
    ],
    ['tip_amount on a SALE', '8006', { ...sale, tip_amount: '1.00' }],
    ['tip_amount on an AUTH', '8006', { ...sale, type: 'AUTH', tip_amount: '1.00' }],
    [
      'tip_amount on a FORCED SALE while tips are off',
      '8006',
      { ...sale, type: 'FORCED SALE', authorization_code: 'A1', tip_amount: '1.00' },
    ],
  ];

  it.each(cases)(
    'JSON: %s is rejected with %s, a Field Validation message and no id',
    async (_label, code, body) => {
      expectRejected(await postJson(t, body), code);
    },
  );

  it.each(cases)(
    'XML: %s is rejected with %s, a Field Validation message and no id',
    async (_label, code, body) => {
      expectRejected(await postXml(t, body), code);
    },
  );

  it('a JSON number for amount is rejected (8003 or 8004) with no id, not read as 25.00', async () => {
    const answer = await postJson(t, { ...sale, amount: 25.0 });
    expect(answer.result).toBe('Rejected');
    expect(['8003', '8004']).toContain(answer.error_code);
    expect(answer.display_message).toMatch(/^Field Validation/);
    expect(answer).not.toHaveProperty('id');
  });

  it('a JSON number with two decimals written out (25.50) for amount is rejected too', async () => {
    const answer = await t.request('transactions', {
      method: 'POST',
      headers: { 'content-type': 'application/json', api_key: t.key },
      body: `{"type":"SALE","amount":25.50,"card":"${VISA.card}","exp_date":"${VISA.exp_date}"}`,
    });
    const parsed = answer.json<Answer>();
    expect(parsed.result).toBe('Rejected');
    expect(['8003', '8004']).toContain(parsed.error_code);
    expect(parsed).not.toHaveProperty('id');
  });

  it('a JSON number for order_number is rejected with 8004', async () => {
    expectRejected(await postJson(t, { ...sale, order_number: 12345 }), '8004');
  });

  it('a JSON number for a FORCED SALE tip_amount is rejected, never approved', async () => {
    const answer = await postJson(t, {
      ...sale,
      type: 'FORCED SALE',
      authorization_code: 'A1',
      tip_amount: 1,
    });
    expect(answer.result).toBe('Rejected');
    expect(answer).not.toHaveProperty('id');
  });

  it('encrypted_track_data that is not a MagTek swipe string is rejected with 8020 and no id', async () => {
    const { card: _pan, exp_date: _expiry, ...swipe } = sale;
    expectRejected(
      await postJson(t, { ...swipe, encrypted_track_data: 'NOT-A-MAGTEK-STRING', track_format: 'MAGTEK' }),
      '8020',
      false,
    );
    expectRejected(
      await postXml(t, { ...swipe, type: 'AUTH', encrypted_track_data: '%B%%%', track_format: 'magtek' }),
      '8020',
      false,
    );
  });

  it('a client_ip in 198.51.100.0/24 is rejected as a blocked location with 8008 and no id', async () => {
    expectRejected(await postJson(t, { ...sale, client_ip: '198.51.100.7' }), '8008', false);
    expectRejected(await postXml(t, { ...sale, type: 'AUTH', client_ip: '198.51.100.250' }), '8008', false);
    expectRejected(
      await postJson(t, {
        ...sale,
        type: 'FORCED SALE',
        authorization_code: 'A1',
        client_ip: '198.51.100.1',
      }),
      '8008',
      false,
    );
  });

  it('client_ip addresses outside 198.51.100.0/24 are approved', async () => {
    expectApproved(await postJson(t, { ...sale, client_ip: '198.51.101.7' }));
    expectApproved(await postXml(t, { ...sale, client_ip: '203.0.113.5' }));
    expectApproved(await postJson(t, { ...sale, client_ip: '::1' }));
  });

  it('exp_date of the current month is still valid', async () => {
    expectApproved(await postJson(t, { ...sale, exp_date: expiryMonthsFromNow(0) }));
    expectApproved(await postXml(t, { ...sale, type: 'AUTH', exp_date: expiryMonthsFromNow(0) }));
  });

  it('exp_date next month is valid, and 1299 (year 2099) is valid', async () => {
    expectApproved(await postJson(t, { ...sale, exp_date: expiryMonthsFromNow(1) }));
    expectApproved(await postJson(t, { ...sale, exp_date: '1299' }));
  });

  it('exp_date keeps its leading zero in XML: 0130 is read as January 2030, not as 130', async () => {
    expectApproved(await postXml(t, { ...sale, exp_date: '0130' }));
  });

  it('an order_number of 18 uppercase letters and digits is approved and listed', async () => {
    const answer = await postXml(t, { ...sale, order_number: 'ABCDEFGHI123456789' });
    const id = expectApproved(answer);
    expect((await listItem(t, id)).order_number).toBe('ABCDEFGHI123456789');
    const byOrder = await t.client.listTransactions({ order_id: 'ABCDEFGHI123456789' });
    expect(byOrder.map((r) => r.id)).toEqual([id]);
  });

  it('server_id of two digits on an AUTH is approved and listed', async () => {
    const id = expectApproved(await postJson(t, { ...sale, type: 'AUTH', server_id: '07' }));
    expect((await listItem(t, id)).server_id).toBe('07');
  });

  it('unknown fields are ignored in JSON and XML', async () => {
    expectApproved(await postJson(t, { ...sale, loyalty_number: '42', extra: { nested: true }, flag: 1 }));
    expectApproved(await postXml(t, { ...sale, loyalty_number: '42', extra: { nested: 'yes' } }));
  });

  it('empty strings count as absent: an empty invoice is fine, an empty card is missing (8001)', async () => {
    expectApproved(await postJson(t, { ...sale, invoice: '' }));
    expectRejected(await postJson(t, { ...sale, card: '' }), '8001');
  });

  it('after all these rejections the batch counts still equal the approved unvoided rows', async () => {
    expect((await expectBatchesMatchRows(t)).length).toBeGreaterThan(0);
  });
});

describe('purchase_order', () => {
  const t = useTestGateway();

  it('is assigned as PO and the ten-digit transaction id when absent, and shown in the list item', async () => {
    const first = expectApproved(await t.client.createTransaction({ type: 'SALE', amount: '5.00', ...VISA }));
    const second = expectApproved(await postXml(t, { type: 'AUTH', amount: '5.00', ...VISA }));
    const third = expectApproved(
      await postJson(t, { type: 'FORCED SALE', amount: '5.00', authorization_code: 'Z9', ...VISA }),
    );
    for (const id of [first, second, third]) {
      expect((await listItem(t, id)).purchase_order).toBe(`PO${id.padStart(10, '0')}`);
    }
  });

  it('keeps the value the caller sent', async () => {
    const id = expectApproved(
      await t.client.createTransaction({ type: 'SALE', amount: '5.00', purchase_order: 'PO-778-A', ...VISA }),
    );
    expect((await listItem(t, id)).purchase_order).toBe('PO-778-A');
  });

  it('gives two transactions without one two different values', async () => {
    const a = expectApproved(await t.client.createTransaction({ type: 'SALE', amount: '5.00', ...VISA }));
    const b = expectApproved(await t.client.createTransaction({ type: 'SALE', amount: '5.00', ...VISA }));
    const [itemA, itemB] = [await listItem(t, a), await listItem(t, b)];
    expect(itemA.purchase_order).toMatch(/^PO\d{10}$/);
    expect(itemA.purchase_order).not.toBe(itemB.purchase_order);
  });
});

describe('tips on FORCED SALE', () => {
  describe('with tip support off', () => {
    const t = useTestGateway();

    it('a FORCED SALE with tip_amount is rejected with 8006 and no id', async () => {
      const body = {
        type: 'FORCED SALE',
        amount: '20.00',
        tip_amount: '3.00',
        authorization_code: 'T1',
        ...VISA,
      };
      expectRejected(await postJson(t, body), '8006');
      expectRejected(await postXml(t, body), '8006');
      expect(await t.client.openBatch()).toBeUndefined();
    });
  });

  describe('with tip support on', () => {
    const t = useTestGateway({ tips: true });

    it('a FORCED SALE tip is added to the amount and to the batch sales_total and tip_total', async () => {
      const answer = await t.client.createTransaction({
        type: 'FORCED SALE',
        amount: '20.00',
        tip_amount: '3.00',
        authorization_code: 'T1',
        ...VISA,
      });
      const id = expectApproved(answer);
      expect(await listItem(t, id)).toMatchObject({
        type: 'Forced Sale',
        amount: '23.00',
        tip_amount: '3.00',
      });
      expect(await t.client.openBatch()).toMatchObject({
        sales_count: '1',
        sales_total: '23.00',
        tip_total: '3.00',
        net_amount: '23.00',
      });
    });

    it('a FORCED SALE tip of 0.00 over XML is approved and adds nothing', async () => {
      const id = expectApproved(
        await postXml(t, {
          type: 'FORCED_SALE',
          amount: '10.00',
          tip_amount: '0.00',
          authorization_code: 'T2',
          ...VISA,
        }),
      );
      expect(await listItem(t, id)).toMatchObject({ amount: '10.00', tip_amount: '0.00' });
      expect(await t.client.openBatch()).toMatchObject({
        sales_count: '2',
        sales_total: '33.00',
        tip_total: '3.00',
      });
    });

    it('a FORCED SALE tip keeps its exact XML text: 03.00 is rejected with 8003', async () => {
      expectRejected(
        await postXml(t, {
          type: 'FORCED SALE',
          amount: '10.00',
          tip_amount: '03.00',
          authorization_code: 'T3',
          ...VISA,
        }),
        '8003',
      );
    });

    it('a negative FORCED SALE tip is rejected with 8003', async () => {
      expectRejected(
        await postJson(t, {
          type: 'FORCED SALE',
          amount: '10.00',
          tip_amount: '-1.00',
          authorization_code: 'T3',
          ...VISA,
        }),
        '8003',
      );
    });

    it('tips stay refused on SALE and AUTH even with tip support on (8006)', async () => {
      expectRejected(
        await postJson(t, { type: 'SALE', amount: '10.00', tip_amount: '1.00', ...VISA }),
        '8006',
      );
      expectRejected(
        await postXml(t, { type: 'AUTH', amount: '10.00', tip_amount: '1.00', ...VISA }),
        '8006',
      );
    });

    it('the batch counts equal the approved unvoided rows', async () => {
      expect((await expectBatchesMatchRows(t)).length).toBeGreaterThan(0);
    });
  });
});

describe('rejected attempts in the transaction list', () => {
  const t = useTestGateway();

  it('a rejected SALE gave no id but is listed with result Rejected, its error_code and a masked card', async () => {
    const answer = await postJson(t, {
      type: 'SALE',
      amount: '25.00',
      csc: '12',
      invoice: 'REJ-CSC',
      ...VISA,
    });
    expectRejected(answer, '8007');
    const items = await listByInvoice(t, 'REJ-CSC');
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ result: 'Rejected', error_code: '8007', card: '************1111' });
    expect(items[0]?.id).toMatch(/^[1-9]\d*$/);
  });

  it('a Luhn failure over XML is listed with error_code 8002 and only the last four digits', async () => {
    expectRejected(
      await postXml(t, {
        type: 'SALE',
        amount: '25.00',
        invoice: 'REJ-LUHN',
        card: LUHN_FAILING_CARD,
        exp_date: '1230',
      }),
      '8002',
    );
    const items = await listByInvoice(t, 'REJ-LUHN');
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ result: 'Rejected', error_code: '8002', card: '************1112' });
  });

  it('an expired card is listed with error_code 8000 and a masked card', async () => {
    expectRejected(
      await postJson(t, {
        type: 'AUTH',
        amount: '25.00',
        invoice: 'REJ-EXP',
        card: AMEX.card,
        exp_date: '0120',
      }),
      '8000',
    );
    const [item] = await listByInvoice(t, 'REJ-EXP');
    expect(item).toMatchObject({ result: 'Rejected', error_code: '8000', card: '***********8431' });
  });

  it('a blocked client_ip is listed with error_code 8008', async () => {
    expectRejected(
      await postJson(t, {
        type: 'SALE',
        amount: '25.00',
        invoice: 'REJ-IP',
        client_ip: '198.51.100.9',
        ...VISA,
      }),
      '8008',
      false,
    );
    const [item] = await listByInvoice(t, 'REJ-IP');
    expect(item).toMatchObject({ result: 'Rejected', error_code: '8008', card: '************1111' });
  });

  it('approved items carry no error_code, rejected ones are in no batch', async () => {
    expectApproved(await postJson(t, { type: 'SALE', amount: '1.00', invoice: 'OK-1', ...VISA }));
    const [approved] = await listByInvoice(t, 'OK-1');
    expect(approved).not.toHaveProperty('error_code');
    const rejected = (await t.client.listTransactions({ page_size: 100 })).filter(
      (r) => r.result === 'Rejected',
    );
    expect(rejected.length).toBeGreaterThanOrEqual(4);
    for (const item of rejected) expect(item.batch_id).toBe('');
    expect(await t.client.openBatch()).toMatchObject({ sales_count: '1', sales_total: '1.00' });
  });
});

describe('the full card number never appears in a list', () => {
  const t = useTestGateway();
  const pans = [
    VISA.card,
    MASTERCARD.card,
    AMEX.card,
    DISCOVER.card,
    DECLINED_CARD.card,
    INSUFFICIENT_FUNDS_CARD.card,
    PROCESSOR_ERROR_CARD.card,
    LUHN_FAILING_CARD,
  ];
  beforeAll(async () => {
    await postJson(t, { type: 'SALE', amount: '1.00', ...VISA });
    await postXml(t, { type: 'AUTH', amount: '1.00', ...MASTERCARD });
    await postJson(t, { type: 'FORCED SALE', amount: '1.00', authorization_code: 'F1', ...AMEX });
    await postJson(t, { type: 'REFUND', amount: '1.00', ...DISCOVER });
    await postJson(t, { type: 'SALE', amount: '1.00', ...DECLINED_CARD });
    await postXml(t, { type: 'SALE', amount: '1.00', ...INSUFFICIENT_FUNDS_CARD });
    await postJson(t, { type: 'SALE', amount: '1.00', ...PROCESSOR_ERROR_CARD });
    await postJson(t, { type: 'SALE', amount: '1.00', card: LUHN_FAILING_CARD, exp_date: '1230' });
    await postJson(t, { type: 'SALE', amount: '1.00', csc: '1', ...VISA });
    await postJson(t, { type: 'SALE', amount: '1', ...MASTERCARD });
    await postJson(t, { type: 'SALE', amount: '1.00', order_number: 'bad', ...AMEX });
  });

  it.each<Format>(['json', 'xml'])('GET /transactions as %s holds only masked cards', async (format) => {
    const accept = format === 'json' ? 'application/json' : 'application/xml';
    const response = await t.request('transactions?page_size=100', { headers: { accept, api_key: t.key } });
    expect(response.status).toBe(200);
    for (const pan of pans) expect(response.body).not.toContain(pan);
    // Every attempt above is listed, each card masked to its last four digits.
    const items =
      format === 'json'
        ? response.json<TransactionListItem[]>()
        : ((listParser.parse(response.body) as { transactions: { transaction: Answer[] } }).transactions
            .transaction as unknown as TransactionListItem[]);
    expect(items).toHaveLength(11);
    for (const item of items) expect(item.card).toMatch(/^\*{9,15}\d{4}$/);
  });

  it.each<Format>(['json', 'xml'])(
    'GET /batches and /batches/open as %s hold no card number',
    async (format) => {
      const accept = format === 'json' ? 'application/json' : 'application/xml';
      for (const path of ['batches', 'batches/open']) {
        const response = await t.request(path, { headers: { accept, api_key: t.key } });
        expect(response.status).toBe(200);
        for (const pan of pans) expect(response.body).not.toContain(pan);
      }
    },
  );

  it('no card number appears in a list filtered by last_four either', async () => {
    const response = await t.request('transactions?last_four=1111', {
      headers: { accept: 'application/json', api_key: t.key },
    });
    expect(response.status).toBe(200);
    expect(response.body).not.toContain(VISA.card);
    expect(response.json<TransactionListItem[]>().every((r) => r.card.endsWith('1111'))).toBe(true);
  });
});
