/**
 * What each list item says can be done with it now (voidable, refundable_amount, capturable), for
 * every state a transaction passes through, in JSON and in XML, and that the engine then accepts
 * exactly that: the fields come from the rules the write path checks.
 */
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { DECLINED_CARD, MASTERCARD, useGatewayPerTest, VISA, type TestGateway } from '../support/gateway';
import { postJson, type Answer } from '../support/transactions';

const DAY = 86_400_000;
const startGatewayForTest = useGatewayPerTest();

const xmlParser = new XMLParser({
  parseTagValue: false,
  isArray: (_name, jpath) => jpath === 'transactions.transaction',
});

interface FollowUps {
  voidable: string | undefined;
  refundable_amount: string | undefined;
  capturable: string | undefined;
}

const pick = (item: Record<string, string | undefined>): FollowUps => ({
  voidable: item.voidable,
  refundable_amount: item.refundable_amount,
  capturable: item.capturable,
});

/** The three fields of one transaction's list item, read in JSON and in XML, which must agree. */
async function followUpsOf(t: TestGateway, id: string): Promise<FollowUps> {
  const headers = (accept: string) => ({ headers: { api_key: t.key, accept } });
  const json = await t.request(`transactions?id=${id}`, headers('application/json'));
  expect(json.status, json.body).toBe(200);
  const [jsonItem] = json.json<Record<string, string>[]>();
  const xml = await t.request(`transactions?id=${id}`, headers('application/xml'));
  expect(xml.status, xml.body).toBe(200);
  const parsed = xmlParser.parse(xml.body) as { transactions: { transaction: Record<string, string>[] } };
  const [xmlItem] = parsed.transactions.transaction;
  expect(jsonItem, `transaction ${id} in JSON`).toBeDefined();
  expect(pick(xmlItem ?? {}), `transaction ${id} in XML`).toEqual(pick(jsonItem ?? {}));
  return pick(jsonItem ?? {});
}

function approvedId(answer: Answer): string {
  expect(answer, answer.display_message).toMatchObject({ result: 'Approved' });
  return answer.id ?? '';
}

const sale = (t: TestGateway, amount: string) => postJson(t, { type: 'SALE', amount, ...VISA });
const auth = (t: TestGateway, amount: string) => postJson(t, { type: 'AUTH', amount, ...VISA });
const refund = (t: TestGateway, id: string, amount: string) => postJson(t, { type: 'REFUND', id, amount });
const voidOf = (t: TestGateway, id: string) => postJson(t, { type: 'VOID', id });
const capture = (t: TestGateway, id: string, amount: string) => postJson(t, { type: 'CAPTURE', id, amount });

async function closeBatch(t: TestGateway): Promise<void> {
  expect((await t.client.closeOpenBatch())?.status).toBe('CLOSED');
}

const NOTHING = { voidable: 'false', refundable_amount: '0.00', capturable: 'false' };

describe('what each list item says can be done with it', () => {
  it('an approved SALE: void while its batch is open, refund once it has closed, down to what is left', async () => {
    const t = await startGatewayForTest();
    const saleId = approvedId(await sale(t, '30.00'));
    expect(await followUpsOf(t, saleId)).toEqual({
      voidable: 'true',
      refundable_amount: '0.00',
      capturable: 'false',
    });
    expect(await refund(t, saleId, '1.00')).toMatchObject({ result: 'Rejected', error_code: '8013' });

    await closeBatch(t);
    expect(await followUpsOf(t, saleId)).toEqual({
      voidable: 'false',
      refundable_amount: '30.00',
      capturable: 'false',
    });
    expect(await voidOf(t, saleId)).toMatchObject({ result: 'Rejected', error_code: '8016' });

    const refundId = approvedId(await refund(t, saleId, '12.50'));
    expect(await followUpsOf(t, saleId)).toEqual({
      voidable: 'false',
      refundable_amount: '17.50',
      capturable: 'false',
    });
    // The refund itself is in the open batch: it can be voided, never refunded or captured.
    expect(await followUpsOf(t, refundId)).toEqual({ ...NOTHING, voidable: 'true' });

    expect(await refund(t, saleId, '17.51')).toMatchObject({ result: 'Rejected', error_code: '8014' });
    approvedId(await refund(t, saleId, '17.50'));
    expect(await followUpsOf(t, saleId)).toEqual(NOTHING);

    await closeBatch(t);
    expect(await followUpsOf(t, refundId)).toEqual(NOTHING);
  });

  it('a FORCED SALE follows the SALE rules', async () => {
    const t = await startGatewayForTest();
    const id = approvedId(
      await postJson(t, { type: 'FORCED SALE', amount: '8.00', authorization_code: 'VOICE1', ...MASTERCARD }),
    );
    expect(await followUpsOf(t, id)).toEqual({ ...NOTHING, voidable: 'true' });
    await closeBatch(t);
    expect(await followUpsOf(t, id)).toEqual({ ...NOTHING, refundable_amount: '8.00' });
  });

  it('a declined or rejected transaction: nothing', async () => {
    const t = await startGatewayForTest();
    const declined = await postJson(t, { type: 'SALE', amount: '5.00', ...DECLINED_CARD });
    expect(declined.result).toBe('Declined');
    expect(await followUpsOf(t, declined.id ?? '')).toEqual(NOTHING);
    const declinedAuth = await postJson(t, { type: 'AUTH', amount: '5.00', ...DECLINED_CARD });
    expect(await followUpsOf(t, declinedAuth.id ?? '')).toEqual(NOTHING);
    approvedId(await sale(t, '1.00'));
    await closeBatch(t);
    expect(await followUpsOf(t, declined.id ?? '')).toEqual(NOTHING);

    expect(await postJson(t, { type: 'SALE', amount: '5.00', card: '4111' })).toMatchObject({
      result: 'Rejected',
    });
    const [rejected] = await t.client.listTransactions({ result: 'Rejected' });
    expect(rejected).toMatchObject(NOTHING);
  });

  it('an approved AUTH: capturable and voidable until captured', async () => {
    const t = await startGatewayForTest();
    const authId = approvedId(await auth(t, '40.00'));
    expect(await followUpsOf(t, authId)).toEqual({
      voidable: 'true',
      refundable_amount: '0.00',
      capturable: 'true',
    });

    const captureId = approvedId(await capture(t, authId, '35.00'));
    expect(await followUpsOf(t, authId)).toEqual(NOTHING);
    expect(await capture(t, authId, '35.00')).toMatchObject({ result: 'Rejected', error_code: '8011' });
    expect(await voidOf(t, authId)).toMatchObject({ result: 'Rejected', error_code: '8017' });

    // The capture is a sale of the open batch.
    expect(await followUpsOf(t, captureId)).toEqual({ ...NOTHING, voidable: 'true' });
    await closeBatch(t);
    expect(await followUpsOf(t, captureId)).toEqual({ ...NOTHING, refundable_amount: '35.00' });
    // Closing the batch changes nothing for the authorization itself.
    expect(await followUpsOf(t, authId)).toEqual(NOTHING);
  });

  it('an AUTH open across a batch close stays capturable', async () => {
    const t = await startGatewayForTest();
    const authId = approvedId(await auth(t, '20.00'));
    approvedId(await sale(t, '1.00'));
    await closeBatch(t);
    expect(await followUpsOf(t, authId)).toEqual({ ...NOTHING, voidable: 'true', capturable: 'true' });
  });

  it('an expired AUTH: no longer capturable, still voidable', async () => {
    const clock = { now: Date.now() };
    const t = await startGatewayForTest({ engine: { now: () => clock.now } });
    const authId = approvedId(await auth(t, '40.00'));
    clock.now += 7 * DAY - 60_000;
    expect(await followUpsOf(t, authId)).toEqual({ ...NOTHING, voidable: 'true', capturable: 'true' });
    clock.now += 2 * 60_000;
    expect(await followUpsOf(t, authId)).toEqual({ ...NOTHING, voidable: 'true' });
    expect(await capture(t, authId, '40.00')).toMatchObject({ result: 'Rejected', error_code: '8030' });

    // The expiry is the merchant's setting, read at each list.
    await t.gateway.engine.settings.setFromText('auth_expiry_days', '30');
    expect(await followUpsOf(t, authId)).toEqual({ ...NOTHING, voidable: 'true', capturable: 'true' });
    await t.gateway.engine.settings.setFromText('auth_expiry_days', '7');

    const voidId = approvedId(await voidOf(t, authId));
    expect(await followUpsOf(t, authId)).toEqual(NOTHING);
    expect(await followUpsOf(t, voidId)).toEqual(NOTHING);
  });

  it('a voided SALE and its VOID: nothing, before and after the batch closes', async () => {
    const t = await startGatewayForTest();
    const saleId = approvedId(await sale(t, '15.00'));
    const voidId = approvedId(await voidOf(t, saleId));
    expect(await followUpsOf(t, saleId)).toEqual(NOTHING);
    expect(await followUpsOf(t, voidId)).toEqual(NOTHING);
    expect(await voidOf(t, voidId)).toMatchObject({ result: 'Rejected', error_code: '8017' });
    approvedId(await sale(t, '1.00'));
    await closeBatch(t);
    expect(await followUpsOf(t, saleId)).toEqual(NOTHING);
    expect(await refund(t, saleId, '1.00')).toMatchObject({ result: 'Rejected', error_code: '8015' });
  });

  it('types and results are the spellings of the interface', async () => {
    const t = await startGatewayForTest();
    const authId = approvedId(await auth(t, '9.00'));
    approvedId(await capture(t, authId, '9.00'));
    const items = await t.client.listTransactions();
    expect(items.map((item) => [item.type, item.result])).toEqual([
      ['Capture', 'Approved'],
      ['Auth', 'Approved'],
    ]);
  });
});
