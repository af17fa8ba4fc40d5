/**
 * GET /rest/v1/transactions and GET /rest/v1/batches: paging, ordering, filters, date ranges, item
 * shape and the XML list roots, against a real engine whose clock the tests set.
 */
import { XMLParser } from 'fast-xml-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import type {
  ApiError,
  Batch,
  TransactionListItem,
  TransactionRequestBody,
  TransactionResponse,
} from '../../shared/api/schemas';
import {
  AMEX,
  DECLINED_CARD,
  DISCOVER,
  MASTERCARD,
  useTestGateway,
  VISA,
  type RawResponse,
  type TestGateway,
} from '../support/gateway';

/** Every value of a batch is a string, and so is every value of each lane's share of it. */
function expectStringsOnly(batch: object): void {
  for (const [field, value] of Object.entries(batch)) {
    if (field !== 'lanes') {
      expect(typeof value, field).toBe('string');
      continue;
    }
    expect(Array.isArray(value), field).toBe(true);
    for (const share of value as object[])
      for (const [name, shared] of Object.entries(share))
        expect(typeof shared, `lanes.${name}`).toBe('string');
  }
}

const MINUTE = 60_000;

const xmlParser = new XMLParser({
  parseTagValue: false,
  isArray: (_name, jpath) => jpath === 'transactions.transaction' || jpath === 'batches.batch',
});

function query(params: Record<string, string>): string {
  const pairs = Object.entries(params).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
  return pairs.length ? `?${pairs.join('&')}` : '';
}

function get(t: TestGateway, path: string, accept = 'application/json'): Promise<RawResponse> {
  return t.request(path, { headers: { api_key: t.key, accept } });
}

async function listTransactions(t: TestGateway, params: Record<string, string> = {}) {
  const response = await get(t, `transactions${query(params)}`);
  if (response.status === 204) return [];
  expect(response.status, response.body).toBe(200);
  return response.json<TransactionListItem[]>();
}

async function listBatches(t: TestGateway, params: Record<string, string> = {}) {
  const response = await get(t, `batches${query(params)}`);
  if (response.status === 204) return [];
  expect(response.status, response.body).toBe(200);
  return response.json<Batch[]>();
}

const ids = (items: { id: string }[]) => items.map((item) => Number(item.id));

async function expectBadParameter(t: TestGateway, path: string, parameter: string) {
  const response = await get(t, path);
  expect(response.status, `${path}: ${response.body}`).toBe(400);
  expect(String(response.headers['content-type'])).toMatch(/^application\/json/);
  const body = response.json<ApiError>();
  expect(body).toMatchObject({ status: '400', error: 'bad_parameter', parameter });
  expect(body.message).toContain(parameter);
}

/** A gateway of the describe block's own whose engine clock reads `clock.now`. */
function useGatewayWithClock(start: number) {
  const clock = { now: start };
  return { t: useTestGateway({ engine: { now: () => clock.now } }), clock };
}

async function submit(t: TestGateway, request: TransactionRequestBody): Promise<TransactionResponse> {
  return t.client.createTransaction(request);
}

async function approved(t: TestGateway, request: TransactionRequestBody): Promise<number> {
  const response = await submit(t, request);
  expect(response.result, JSON.stringify(response)).toBe('Approved');
  return Number(response.id);
}

/** The local wall-clock fields of an instant, as the terminal's time zone (the process TZ) reads it. */
function local(epoch: number) {
  const d = new Date(epoch);
  return {
    y: d.getFullYear(),
    M: d.getMonth() + 1,
    d: d.getDate(),
    H: d.getHours(),
    m: d.getMinutes(),
  };
}
/** The wall-clock fields of an instant at a fixed UTC offset. */
function atOffset(epoch: number, offsetHours: number) {
  const d = new Date(epoch + offsetHours * 3_600_000);
  return {
    y: d.getUTCFullYear(),
    M: d.getUTCMonth() + 1,
    d: d.getUTCDate(),
    H: d.getUTCHours(),
    m: d.getUTCMinutes(),
  };
}
const p2 = (n: number) => String(n).padStart(2, '0');
type Wall = ReturnType<typeof local>;
const formats = {
  'MM-dd-yyyy hh:mm a': (w: Wall) =>
    `${p2(w.M)}-${p2(w.d)}-${w.y} ${p2(w.H % 12 === 0 ? 12 : w.H % 12)}:${p2(w.m)} ${w.H < 12 ? 'AM' : 'PM'}`,
  'MM-dd-yy HH:mm': (w: Wall) => `${p2(w.M)}-${p2(w.d)}-${p2(w.y % 100)} ${p2(w.H)}:${p2(w.m)}`,
  'yyyy-MM-dd HH:mm': (w: Wall) => `${w.y}-${p2(w.M)}-${p2(w.d)} ${p2(w.H)}:${p2(w.m)}`,
};

const ISO_WITH_MS_AND_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}[+-]\d{2}:\d{2}$/;

/** The offset text (+hh:mm) the terminal's zone has at an instant. */
function localOffsetText(epoch: number): string {
  const minutes = -new Date(epoch).getTimezoneOffset();
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${p2(Math.floor(abs / 60))}:${p2(abs % 60)}`;
}

function cents(money: string): number {
  const [whole, fraction] = money.split('.');
  const sign = money.startsWith('-') ? -1 : 1;
  return sign * (Math.abs(Number(whole)) * 100 + Number(fraction));
}

// ---------------------------------------------------------------------------------------------

describe('lists of an empty ledger', () => {
  const t = useTestGateway();

  it('answers GET /transactions with 204 and no body when nothing was ever recorded', async () => {
    const response = await get(t, 'transactions');
    expect(response.status).toBe(204);
    expect(response.body).toBe('');
  });

  it('answers GET /batches with 204 and no body when no batch exists', async () => {
    const response = await get(t, 'batches');
    expect(response.status).toBe(204);
    expect(response.body).toBe('');
  });

  it('answers 204 in XML too', async () => {
    expect((await get(t, 'transactions', 'application/xml')).status).toBe(204);
    expect((await get(t, 'batches', 'application/xml')).status).toBe(204);
  });

  it('still validates parameters of an empty list', async () => {
    await expectBadParameter(t, 'transactions?page_size=101', 'page_size');
    await expectBadParameter(t, 'batches?page_size=101', 'page_size');
  });
});

describe('transaction list paging and default order', () => {
  const t = useTestGateway();
  let all: TransactionListItem[];
  beforeAll(async () => {
    for (let i = 1; i <= 30; i++) await approved(t, { type: 'SALE', amount: `${i}.00`, ...VISA });
    all = await listTransactions(t, { page_size: '100' });
  });

  it('returns all 30 transactions when page_size is 100', () => {
    expect(all).toHaveLength(30);
  });

  it('returns 25 items by default, newest id first', async () => {
    const items = await listTransactions(t);
    expect(items).toHaveLength(25);
    const expected = Array.from({ length: 25 }, (_, i) => 30 - i);
    expect(ids(items)).toEqual(expected);
  });

  it('orders by id descending by default (same as order_by=id&descending=true)', async () => {
    const explicit = await listTransactions(t, { order_by: 'id', descending: 'true', page_size: '100' });
    expect(ids(explicit)).toEqual(ids(all));
    const numbers = ids(all);
    expect(numbers).toEqual([...numbers].sort((a, b) => b - a));
  });

  it('accepts page_size 100 and refuses 101 with a 400 naming page_size', async () => {
    expect(await listTransactions(t, { page_size: '100' })).toHaveLength(30);
    await expectBadParameter(t, 'transactions?page_size=101', 'page_size');
  });

  it.each(['0', '-1', 'abc', '2.5', ''])(
    'refuses page_size=%j with a 400 naming page_size',
    async (value) => {
      await expectBadParameter(t, `transactions${query({ page_size: value })}`, 'page_size');
    },
  );

  it.each(['0', 'abc', '-1', '1.5', ''])('refuses page=%j with a 400 naming page', async (value) => {
    await expectBadParameter(t, `transactions${query({ page: value })}`, 'page');
  });

  it('returns items 11-20 of the order for page 2 of size 10', async () => {
    const items = await listTransactions(t, { page: '2', page_size: '10' });
    expect(ids(items)).toEqual(ids(all.slice(10, 20)));
    expect(ids(items)).toEqual([20, 19, 18, 17, 16, 15, 14, 13, 12, 11]);
  });

  it('returns the remainder on the last partial page', async () => {
    const items = await listTransactions(t, { page: '2' });
    expect(ids(items)).toEqual([5, 4, 3, 2, 1]);
  });

  it('pages in ascending order with descending=false', async () => {
    const first = await listTransactions(t, { descending: 'false', page_size: '10' });
    expect(ids(first)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const third = await listTransactions(t, { descending: 'false', page_size: '10', page: '3' });
    expect(ids(third)).toEqual([21, 22, 23, 24, 25, 26, 27, 28, 29, 30]);
  });

  it('refuses a descending value other than true or false', async () => {
    await expectBadParameter(t, 'transactions?descending=maybe', 'descending');
  });

  it('answers a page past the end with 200 and an empty JSON array', async () => {
    const response = await get(t, 'transactions?page=4&page_size=10');
    expect(response.status).toBe(200);
    expect(response.json()).toEqual([]);
  });

  it('answers a page past the end in XML with an empty <transactions> root', async () => {
    const response = await get(t, 'transactions?page=99', 'application/xml');
    expect(response.status).toBe(200);
    expect(String(response.headers['content-type'])).toMatch(/^application\/xml/);
    expect(response.body).toMatch(/<transactions\s*(\/>|><\/transactions>)/);
    const parsed = xmlParser.parse(response.body) as Record<string, unknown>;
    expect(Object.keys(parsed).filter((k) => k !== '?xml')).toEqual(['transactions']);
    expect(parsed.transactions).toBe('');
  });

  it('lists in XML as <transactions> holding one <transaction> per item', async () => {
    const response = await get(t, 'transactions?page_size=7', 'application/xml');
    expect(response.status).toBe(200);
    expect(String(response.headers['content-type'])).toMatch(/^application\/xml/);
    const parsed = xmlParser.parse(response.body) as { transactions: { transaction: { id: string }[] } };
    const items = parsed.transactions.transaction;
    expect(items.map((item) => Number(item.id))).toEqual([30, 29, 28, 27, 26, 25, 24]);
  });

  it('writes the same values in an XML item as in the JSON item', async () => {
    const json = await listTransactions(t, { page_size: '3' });
    const response = await get(t, 'transactions?page_size=3', 'application/xml');
    const parsed = xmlParser.parse(response.body) as { transactions: { transaction: unknown[] } };
    expect(parsed.transactions.transaction).toEqual(json);
  });

  it('refuses an unknown order_by with a 400 naming order_by', async () => {
    await expectBadParameter(t, 'transactions?order_by=colour', 'order_by');
  });

  it('treats order_by names as case sensitive', async () => {
    await expectBadParameter(t, 'transactions?order_by=ID', 'order_by');
  });

  it('refuses an empty text filter with a 400 naming it, rather than matching nothing or everything', async () => {
    for (const parameter of [
      'invoice',
      'order_id',
      'first_name',
      'last_name',
      'authorization_code',
      'cashier',
    ])
      await expectBadParameter(t, `transactions?${parameter}=`, parameter);
    await expectBadParameter(t, 'batches?invoice=', 'invoice');
  });

  it('refuses an unknown parameter with a 400 naming it', async () => {
    await expectBadParameter(t, 'transactions?colour=red', 'colour');
    await expectBadParameter(t, 'transactions?pagesize=10', 'pagesize');
  });

  it('refuses the batch-only parameter status, and order_by values of batches, on transactions', async () => {
    await expectBadParameter(t, 'transactions?status=OPEN', 'status');
    await expectBadParameter(t, 'transactions?order_by=settled', 'order_by');
  });

  it('refuses a repeated parameter with a 400 naming it', async () => {
    await expectBadParameter(t, 'transactions?page=1&page=2', 'page');
    await expectBadParameter(t, 'transactions?amount=1.00&amount=2.00', 'amount');
  });
});

// ---------------------------------------------------------------------------------------------

describe('transaction list filters, ordering and item shape', () => {
  const base = new Date(2026, 10, 20, 9, 0, 0, 0).getTime();
  const { t, clock } = useGatewayWithClock(base);
  let all: TransactionListItem[];
  let batch1: number;
  let batch2: number;
  /** Transaction id → the engine clock when it was created. */
  const createdAt = new Map<number, number>();
  type Name =
    | 'sale'
    | 'auth'
    | 'declined'
    | 'forced'
    | 'capture'
    | 'rejected'
    | 'refund'
    | 'sale2'
    | 'void'
    | 'matchedRefund'
    | 'sale3';
  const id = {} as Record<Name, number>;

  beforeAll(async () => {
    const at = async (
      minutes: number,
      name: Name,
      request: TransactionRequestBody,
      expected = 'Approved',
    ) => {
      clock.now = base + minutes * MINUTE + 123;
      const response = await submit(t, request);
      expect(response.result, JSON.stringify(response)).toBe(expected);
      // Rejected answers carry no id: the attempt is the newest row (on a store server ids only grow,
      // and may skip one, so it is read rather than counted).
      const newId = response.id
        ? Number(response.id)
        : Number((await t.client.listTransactions({ page_size: 1 }))[0]?.id);
      createdAt.set(newId, clock.now);
      id[name] = newId;
    };
    await at(30, 'sale', {
      type: 'SALE',
      amount: '10.00',
      ...VISA,
      invoice: 'INV-A',
      order_number: 'ORD1',
      billing: { first_name: 'Alice', last_name: 'Zimmer' },
    });
    await at(5, 'auth', {
      type: 'AUTH',
      amount: '20.00',
      ...MASTERCARD,
      invoice: 'INV-B',
      server_id: '07',
      billing: { first_name: 'Bob', last_name: 'Young' },
    });
    await at(
      50,
      'declined',
      {
        type: 'SALE',
        amount: '30.00',
        ...DECLINED_CARD,
        invoice: 'INV-C',
        billing: { first_name: 'Carol', last_name: 'Xu' },
      },
      'Declined',
    );
    await at(12, 'forced', {
      type: 'FORCED SALE',
      amount: '15.00',
      ...AMEX,
      authorization_code: 'ab12cd',
      order_number: 'ORD2',
      billing: { first_name: 'ALICE', last_name: 'ZIMMER' },
    });
    await at(40, 'capture', { type: 'CAPTURE', id: String(id.auth), amount: '18.00', server_id: '09' });
    clock.now = base + 60 * MINUTE;
    batch1 = Number((await t.client.closeOpenBatch())?.id);
    await at(2, 'rejected', { type: 'SALE', amount: '12.34', card: VISA.card, exp_date: '0120' }, 'Rejected');
    await at(22, 'refund', {
      type: 'REFUND',
      amount: '5.00',
      ...DISCOVER,
      invoice: 'INV-D',
      billing: { first_name: 'Dave', last_name: 'Walker' },
    });
    await at(35, 'sale2', {
      type: 'SALE',
      amount: '10.00',
      ...DISCOVER,
      invoice: 'INV-E',
      order_number: 'ORD3',
      server_id: '07',
    });
    await at(36, 'void', { type: 'VOID', id: String(id.sale2) });
    await at(45, 'matchedRefund', { type: 'REFUND', id: String(id.sale), amount: '4.00' });
    await at(8, 'sale3', {
      type: 'SALE',
      amount: '99.99',
      ...MASTERCARD,
      invoice: 'INV-F',
      billing: { first_name: 'Erin', last_name: 'Vance' },
    });
    batch2 = Number((await t.client.openBatch())?.id);
    all = await listTransactions(t, { page_size: '100' });
  });

  it('lists every attempt, the rejected one included', () => {
    expect(all).toHaveLength(11);
    expect(new Set(ids(all))).toEqual(new Set(createdAt.keys()));
  });

  describe('item shape', () => {
    const SPEC_FIELDS = [
      'amount',
      'authorization_code',
      'billing_is_shipping',
      'card',
      'created',
      'display_message',
      'id',
      'invoice',
      'result',
      'result_code',
      'type',
    ];
    const DECIDED_FIELDS = [
      'tip_amount',
      'card_brand',
      'order_number',
      'purchase_order',
      'customer_id',
      'first_name',
      'last_name',
      'server_id',
      'batch_id',
      'original_id',
      'voided',
      'captured',
      'refunded_amount',
    ];

    it('carries every listed field on every item', () => {
      for (const item of all) {
        for (const field of [...SPEC_FIELDS, ...DECIDED_FIELDS]) expect(item, field).toHaveProperty(field);
      }
    });

    it('sends every JSON value as a string', () => {
      for (const item of all) {
        for (const [field, value] of Object.entries(item)) expect(typeof value, field).toBe('string');
      }
    });

    it('masks the card to its last four digits, keeping its length', () => {
      const byId = new Map(all.map((item) => [Number(item.id), item]));
      expect(byId.get(id.sale)?.card).toBe('************1111');
      expect(byId.get(id.auth)?.card).toBe('************5454');
      expect(byId.get(id.forced)?.card).toBe('***********8431');
      expect(byId.get(id.refund)?.card).toBe('************1117');
      for (const item of all) {
        if (item.card !== '') expect(item.card).toMatch(/^\*+\d{4}$/);
      }
    });

    it('never shows a full card number anywhere in the list', async () => {
      const response = await get(t, 'transactions?page_size=100');
      for (const card of [VISA.card, MASTERCARD.card, AMEX.card, DISCOVER.card, DECLINED_CARD.card]) {
        expect(response.body).not.toContain(card);
      }
      const xml = await get(t, 'transactions?page_size=100', 'application/xml');
      expect(xml.body).not.toContain(VISA.card);
    });

    it('writes created as ISO 8601 with milliseconds and the local UTC offset, at the engine clock time', () => {
      for (const item of all) {
        expect(item.created).toMatch(ISO_WITH_MS_AND_OFFSET);
        const expected = createdAt.get(Number(item.id)) as number;
        expect(Date.parse(item.created), item.id).toBe(expected);
        expect(item.created.slice(-6)).toBe(localOffsetText(expected));
      }
    });

    it('writes type in mixed case for each of the six types', () => {
      const byId = new Map(all.map((item) => [Number(item.id), item]));
      expect(byId.get(id.sale)?.type).toBe('Sale');
      expect(byId.get(id.auth)?.type).toBe('Auth');
      expect(byId.get(id.forced)?.type).toBe('Forced Sale');
      expect(byId.get(id.capture)?.type).toBe('Capture');
      expect(byId.get(id.refund)?.type).toBe('Refund');
      expect(byId.get(id.void)?.type).toBe('Void');
    });

    it('writes result in mixed case, with error_code only on the rejected item', () => {
      const byId = new Map(all.map((item) => [Number(item.id), item]));
      expect(byId.get(id.sale)?.result).toBe('Approved');
      expect(byId.get(id.declined)?.result).toBe('Declined');
      const rejected = byId.get(id.rejected);
      expect(rejected?.result).toBe('Rejected');
      expect(rejected?.error_code).toBe('8000');
      expect(rejected?.display_message).toMatch(/^Field Validation: /);
      expect(byId.get(id.sale)).not.toHaveProperty('error_code');
      expect(byId.get(id.declined)).not.toHaveProperty('error_code');
    });

    it('writes amounts with two decimals and billing_is_shipping as true or false', () => {
      const byId = new Map(all.map((item) => [Number(item.id), item]));
      expect(byId.get(id.sale)?.amount).toBe('10.00');
      expect(byId.get(id.sale3)?.amount).toBe('99.99');
      for (const item of all) expect(['true', 'false']).toContain(item.billing_is_shipping);
    });

    it('shows the approved forced sale with its supplied authorization code upper-cased', () => {
      const forced = all.find((item) => Number(item.id) === id.forced);
      expect(forced?.authorization_code).toBe('AB12CD');
    });
  });

  describe('equality filters', () => {
    async function expectFilter(
      params: Record<string, string>,
      predicate: (item: TransactionListItem) => boolean,
      minimum = 1,
    ) {
      const items = await listTransactions(t, { ...params, page_size: '100' });
      const expected = all.filter(predicate);
      expect(expected.length, 'the data set must hold matches').toBeGreaterThanOrEqual(minimum);
      expect(expected.length, 'the filter must leave some out').toBeLessThan(all.length);
      expect(ids(items)).toEqual(ids(expected));
    }

    it('filters by id', async () => {
      await expectFilter({ id: String(id.declined) }, (i) => Number(i.id) === id.declined);
    });

    it('answers 204 for an id that does not exist', async () => {
      expect((await get(t, 'transactions?id=9999')).status).toBe(204);
    });

    it('filters by amount', async () => {
      await expectFilter({ amount: '10.00' }, (i) => i.amount === '10.00', 2);
    });

    it.each(['sale', 'SALE', 'Sale', 'sAlE'])('filters by type=%s', async (type) => {
      await expectFilter({ type }, (i) => i.type === 'Sale', 3);
    });

    it.each(['FORCED SALE', 'forced sale', 'Forced Sale', 'FORCED_SALE', 'forced_sale', 'forced-sale'])(
      'filters by type=%s',
      async (type) => {
        await expectFilter({ type }, (i) => i.type === 'Forced Sale');
      },
    );

    it.each([
      ['auth', 'Auth'],
      ['CAPTURE', 'Capture'],
      ['Refund', 'Refund'],
      ['void', 'Void'],
    ])('filters by type=%s', async (type, label) => {
      await expectFilter({ type }, (i) => i.type === label);
    });

    it.each([
      ['approved', 'Approved'],
      ['Declined', 'Declined'],
      ['REJECTED', 'Rejected'],
    ])('filters by result=%s', async (result, label) => {
      await expectFilter({ result }, (i) => i.result === label);
    });

    it('filters by last_four', async () => {
      await expectFilter({ last_four: '1111' }, (i) => i.card.endsWith('1111'), 2);
      await expectFilter({ last_four: '8431' }, (i) => i.card.endsWith('8431'));
    });

    it('filters by authorization_code', async () => {
      await expectFilter({ authorization_code: 'AB12CD' }, (i) => i.authorization_code === 'AB12CD');
    });

    it('filters by invoice', async () => {
      await expectFilter({ invoice: 'INV-B' }, (i) => i.invoice === 'INV-B');
      await expectFilter({ invoice: 'INV-E' }, (i) => i.invoice === 'INV-E');
    });

    it('filters by order_id, matching the order_number sent', async () => {
      await expectFilter({ order_id: 'ORD2' }, (i) => i.order_number === 'ORD2');
    });

    it('filters by first_name without regard to letter case', async () => {
      await expectFilter({ first_name: 'alice' }, (i) => i.first_name.toLowerCase() === 'alice', 2);
      const spellings = new Set(
        (await listTransactions(t, { first_name: 'ALICE' })).map((item) => item.first_name),
      );
      expect(spellings).toEqual(new Set(['Alice', 'ALICE']));
    });

    it('filters by last_name without regard to letter case', async () => {
      await expectFilter({ last_name: 'zImMeR' }, (i) => i.last_name.toLowerCase() === 'zimmer', 2);
    });

    it('filters by server_id', async () => {
      await expectFilter({ server_id: '07' }, (i) => i.server_id === '07', 2);
      await expectFilter({ server_id: '09' }, (i) => i.server_id === '09');
    });

    it('filters by batch_id', async () => {
      await expectFilter({ batch_id: String(batch1) }, (i) => i.batch_id === String(batch1), 3);
      await expectFilter({ batch_id: String(batch2) }, (i) => i.batch_id === String(batch2), 3);
    });

    it('combines filters with AND', async () => {
      await expectFilter(
        { type: 'sale', last_four: '1111' },
        (i) => i.type === 'Sale' && i.card.endsWith('1111'),
      );
    });

    it('answers 204 when a filter matches nothing', async () => {
      expect((await get(t, 'transactions?invoice=NOPE')).status).toBe(204);
    });

    it('answers 204 to a filter holding a NUL character, which no stored text holds', async () => {
      expect((await get(t, 'transactions?invoice=%00')).status).toBe(204);
      expect((await get(t, 'transactions?last_name=Smith%00')).status).toBe(204);
      expect((await get(t, 'batches?last_name=%00')).status).toBe(204);
    });

    it.each([
      ['amount', '10'],
      ['amount', '10.5'],
      ['type', 'PURCHASE'],
      ['result', 'maybe'],
      ['last_four', '11'],
      ['server_id', '7'],
      ['id', 'abc'],
      ['batch_id', '0'],
    ])('refuses a malformed %s=%s with a 400 naming it', async (name, value) => {
      await expectBadParameter(t, `transactions${query({ [name]: value })}`, name);
    });
  });

  describe('order_by', () => {
    const lower = (text: string) => (text === '' ? undefined : text.toLowerCase());
    const orNone = (text: string) => (text === '' ? undefined : text);
    const KEYS: Record<string, (item: TransactionListItem) => string | number | undefined> = {
      id: (i) => Number(i.id),
      created: (i) => Date.parse(i.created),
      amount: (i) => (i.amount === '' ? undefined : cents(i.amount)),
      type: (i) => orNone(i.type),
      result: (i) => orNone(i.result),
      last_four: (i) => (i.card === '' ? undefined : i.card.slice(-4)),
      authorization_code: (i) => orNone(i.authorization_code),
      invoice: (i) => orNone(i.invoice),
      order_id: (i) => orNone(i.order_number),
      first_name: (i) => lower(i.first_name),
      last_name: (i) => lower(i.last_name),
      server_id: (i) => orNone(i.server_id),
    };
    const compare = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);

    const cases = Object.keys(KEYS).flatMap((field) => [
      [field, true],
      [field, false],
    ]) as [string, boolean][];

    it.each(cases)('orders by %s (descending=%s)', async (field, descending) => {
      const key = KEYS[field] as (item: TransactionListItem) => string | number | undefined;
      const items = await listTransactions(t, {
        order_by: field,
        descending: String(descending),
        page_size: '100',
      });
      expect(new Set(ids(items))).toEqual(new Set(ids(all)));
      const keys = items.map(key);
      const present = keys.filter((k): k is string | number => k !== undefined);
      expect(new Set(present).size, 'the data set must hold several values').toBeGreaterThan(1);
      const sorted = [...present].sort((a, b) => (descending ? compare(b, a) : compare(a, b)));
      expect(present).toEqual(sorted);
      // Items without a value sit together at one end.
      const first = keys.findIndex((k) => k !== undefined);
      const last = keys.length - 1 - [...keys].reverse().findIndex((k) => k !== undefined);
      expect(keys.slice(first, last + 1).every((k) => k !== undefined)).toBe(true);
    });

    it('orders by created independently of id when the clock went backwards', async () => {
      const items = await listTransactions(t, { order_by: 'created', descending: 'false', page_size: '100' });
      const expected = [...createdAt.entries()].sort((a, b) => a[1] - b[1]).map(([key]) => key);
      expect(ids(items)).toEqual(expected);
      expect(ids(items)).not.toEqual([...ids(items)].sort((a, b) => a - b));
    });

    it('orders by amount numerically, not as text', async () => {
      const items = await listTransactions(t, { order_by: 'amount', page_size: '100' });
      expect(items[0]?.amount).toBe('99.99');
    });

    it('pages through an ordering', async () => {
      const whole = await listTransactions(t, { order_by: 'amount', descending: 'false', page_size: '100' });
      const page2 = await listTransactions(t, {
        order_by: 'amount',
        descending: 'false',
        page_size: '4',
        page: '2',
      });
      expect(ids(page2)).toEqual(ids(whole.slice(4, 8)));
    });
  });
});

// ---------------------------------------------------------------------------------------------

describe('XML list values', () => {
  const t = useTestGateway();

  it('escapes XML special characters in list values and reads them back', async () => {
    const invoice = `A&B <"C'>`;
    const created = await submit(t, { type: 'AUTH', amount: '1.00', ...VISA, invoice });
    const response = await get(t, `transactions${query({ id: String(created.id) })}`, 'application/xml');
    expect(response.status).toBe(200);
    const parsed = new XMLParser({ parseTagValue: false, processEntities: true, htmlEntities: true }).parse(
      response.body,
    ) as { transactions: { transaction: { invoice: string } } };
    expect(parsed.transactions.transaction.invoice).toBe(invoice);
    const json = await listTransactions(t, { invoice });
    expect(ids(json)).toEqual([Number(created.id)]);
  });
});

// ---------------------------------------------------------------------------------------------

describe('name filters with letters beyond ASCII', () => {
  const t = useTestGateway();
  let saleId: number;
  beforeAll(async () => {
    saleId = await approved(t, {
      type: 'SALE',
      amount: '1.00',
      ...VISA,
      billing: { first_name: 'Élodie', last_name: 'Müller' },
    });
    await approved(t, {
      type: 'SALE',
      amount: '2.00',
      ...VISA,
      billing: { first_name: 'Other', last_name: 'Name' },
    });
  });

  it.each(['Élodie', 'élodie', 'ÉLODIE'])(
    'matches first_name=%s without regard to letter case',
    async (name) => {
      expect(ids(await listTransactions(t, { first_name: name }))).toEqual([saleId]);
    },
  );

  it.each(['Müller', 'müller', 'MÜLLER'])(
    'matches last_name=%s without regard to letter case',
    async (name) => {
      expect(ids(await listTransactions(t, { last_name: name }))).toEqual([saleId]);
    },
  );

  it('selects the batch holding the name without regard to letter case', async () => {
    expect(await listBatches(t, { first_name: 'élodie' })).toHaveLength(1);
  });
});

// ---------------------------------------------------------------------------------------------

describe('transaction list date ranges', () => {
  // Wall times in the terminal's own zone (the process TZ).
  const wall = (day: number, hour: number, minute: number, second = 0, ms = 0) =>
    new Date(2026, 10, day, hour, minute, second, ms).getTime();
  const times = {
    A: wall(20, 11, 59, 59, 999),
    B: wall(20, 12, 0),
    C: wall(20, 12, 20),
    D: wall(20, 14, 9, 59, 999),
    E: wall(20, 14, 10),
    F: wall(20, 14, 10, 30),
    G: wall(20, 14, 29, 59, 999),
    H: wall(20, 14, 30),
    I: wall(20, 14, 45),
    J: wall(21, 0, 5),
    K: wall(21, 0, 15),
  };
  type Name = keyof typeof times;
  const { t, clock } = useGatewayWithClock(times.A);
  const idOf = {} as Record<Name, number>;
  const start = times.E;
  const end = times.H;

  beforeAll(async () => {
    for (const [name, at] of Object.entries(times) as [Name, number][]) {
      clock.now = at;
      idOf[name] = await approved(t, { type: 'SALE', amount: '1.00', ...VISA });
    }
  });

  const names = (items: TransactionListItem[]) => {
    const byId = new Map(Object.entries(idOf).map(([name, value]) => [value, name]));
    return ids(items)
      .map((value) => byId.get(value))
      .sort();
  };

  it.each(Object.entries(formats))(
    'takes start_date and end_date as %s in the local zone, start inclusive and end exclusive',
    async (_format, write) => {
      const items = await listTransactions(t, {
        start_date: write(local(start)),
        end_date: write(local(end)),
      });
      expect(names(items)).toEqual(['E', 'F', 'G']);
    },
  );

  it('takes MM-dd-yy HH:mm z with a zone abbreviation (EST)', async () => {
    const write = (epoch: number) => `${formats['MM-dd-yy HH:mm'](atOffset(epoch, -5))} EST`;
    const items = await listTransactions(t, { start_date: write(start), end_date: write(end) });
    expect(names(items)).toEqual(['E', 'F', 'G']);
  });

  it('takes MM-dd-yy HH:mm z with UTC', async () => {
    const write = (epoch: number) => `${formats['MM-dd-yy HH:mm'](atOffset(epoch, 0))} UTC`;
    const items = await listTransactions(t, { start_date: write(start), end_date: write(end) });
    expect(names(items)).toEqual(['E', 'F', 'G']);
  });

  it('takes yyyy-MM-dd HH:mm z with UTC', async () => {
    const write = (epoch: number) => `${formats['yyyy-MM-dd HH:mm'](atOffset(epoch, 0))} UTC`;
    const items = await listTransactions(t, { start_date: write(start), end_date: write(end) });
    expect(names(items)).toEqual(['E', 'F', 'G']);
  });

  it('takes yyyy-MM-dd HH:mm z with a zone abbreviation (PST)', async () => {
    const write = (epoch: number) => `${formats['yyyy-MM-dd HH:mm'](atOffset(epoch, -8))} PST`;
    const items = await listTransactions(t, { start_date: write(start), end_date: write(end) });
    expect(names(items)).toEqual(['E', 'F', 'G']);
  });

  it('takes ISO 8601 with an offset, such as a created value fed back', async () => {
    const all = await listTransactions(t, { page_size: '100' });
    const createdOf = (name: Name) => all.find((item) => Number(item.id) === idOf[name])?.created as string;
    const items = await listTransactions(t, { start_date: createdOf('E'), end_date: createdOf('H') });
    expect(names(items)).toEqual(['E', 'F', 'G']);
  });

  it('takes ISO 8601 in UTC with Z', async () => {
    const items = await listTransactions(t, {
      start_date: new Date(start).toISOString(),
      end_date: new Date(end).toISOString(),
    });
    expect(names(items)).toEqual(['E', 'F', 'G']);
  });

  it('includes an item created exactly at start_date to the millisecond (ISO)', async () => {
    const items = await listTransactions(t, {
      start_date: new Date(times.F).toISOString(),
      end_date: new Date(times.F + 1).toISOString(),
    });
    expect(names(items)).toEqual(['F']);
  });

  it('reads 12:00 PM as noon in the 12-hour form', async () => {
    const write = formats['MM-dd-yyyy hh:mm a'];
    const items = await listTransactions(t, {
      start_date: write(local(wall(20, 12, 0))),
      end_date: write(local(wall(20, 12, 30))),
    });
    expect(names(items)).toEqual(['B', 'C']);
    expect(write(local(wall(20, 12, 0)))).toBe('11-20-2026 12:00 PM');
  });

  it('reads 12:00 AM as midnight in the 12-hour form', async () => {
    const items = await listTransactions(t, {
      start_date: '11-21-2026 12:00 AM',
      end_date: '11-21-2026 12:10 AM',
    });
    expect(names(items)).toEqual(['J']);
  });

  it('takes start_date alone as an open-ended range', async () => {
    const items = await listTransactions(t, { start_date: formats['yyyy-MM-dd HH:mm'](local(times.H)) });
    expect(names(items)).toEqual(['H', 'I', 'J', 'K']);
  });

  it('takes end_date alone as an open-ended range', async () => {
    const items = await listTransactions(t, { end_date: formats['yyyy-MM-dd HH:mm'](local(times.B)) });
    expect(names(items)).toEqual(['A']);
  });

  it('answers 204 for a range that holds nothing', async () => {
    const response = await get(t, `transactions${query({ start_date: '2027-01-01 00:00' })}`);
    expect(response.status).toBe(204);
  });

  it.each([
    'yesterday',
    '2026-11-20',
    '11/20/2026 14:10',
    '2026-11-20 25:00',
    '2026-02-30 10:00',
    '11-20-2026 14:10 PM',
    '13-20-26 10:00',
    '2026-11-20 14:10 NOWHERE',
    '2026-11-20T14:10:00',
    ' 2026-11-20 14:10',
  ])('refuses start_date=%j with a 400 naming start_date', async (value) => {
    await expectBadParameter(t, `transactions${query({ start_date: value })}`, 'start_date');
  });

  it.each([
    ['GMT-05:00', -5],
    ['-0500', -5],
    ['+01:00', 1],
  ])('takes yyyy-MM-dd HH:mm z with a numeric zone (%s)', async (zone, hours) => {
    const write = (epoch: number) => `${formats['yyyy-MM-dd HH:mm'](atOffset(epoch, hours))} ${zone}`;
    const items = await listTransactions(t, { start_date: write(start), end_date: write(end) });
    expect(names(items)).toEqual(['E', 'F', 'G']);
  });

  it('reads am and pm in any letter case in the 12-hour form', async () => {
    const write = (epoch: number) => formats['MM-dd-yyyy hh:mm a'](local(epoch)).toLowerCase();
    const items = await listTransactions(t, { start_date: write(start), end_date: write(end) });
    expect(names(items)).toEqual(['E', 'F', 'G']);
  });

  it('takes ISO 8601 without milliseconds', async () => {
    const write = (epoch: number) => new Date(epoch).toISOString().replace('.000Z', '+00:00');
    const items = await listTransactions(t, { start_date: write(start), end_date: write(end) });
    expect(names(items)).toEqual(['E', 'F', 'G']);
  });

  it('refuses a bad end_date with a 400 naming end_date', async () => {
    await expectBadParameter(t, `transactions${query({ end_date: 'tomorrow' })}`, 'end_date');
  });

  it('refuses start_date equal to end_date', async () => {
    const at = formats['yyyy-MM-dd HH:mm'](local(start));
    const response = await get(t, `transactions${query({ start_date: at, end_date: at })}`);
    expect(response.status).toBe(400);
    const body = response.json<ApiError>();
    expect(body).toMatchObject({ status: '400', error: 'bad_parameter' });
    expect(['start_date', 'end_date']).toContain(body.parameter);
  });

  it('refuses start_date later than end_date', async () => {
    const response = await get(
      t,
      `transactions${query({
        start_date: formats['yyyy-MM-dd HH:mm'](local(end)),
        end_date: formats['yyyy-MM-dd HH:mm'](local(start)),
      })}`,
    );
    expect(response.status).toBe(400);
    const body = response.json<ApiError>();
    expect(body).toMatchObject({ status: '400', error: 'bad_parameter' });
    expect(['start_date', 'end_date']).toContain(body.parameter);
  });
});

// ---------------------------------------------------------------------------------------------

describe('batch list filters and ordering', () => {
  const base = new Date(2026, 10, 20, 8, 0, 0, 0).getTime();
  const { t, clock } = useGatewayWithClock(base);
  let b1: number;
  let b2: number;
  let b3: number;
  let all: Batch[];

  beforeAll(async () => {
    const at = (minutes: number) => {
      clock.now = base + minutes * MINUTE;
    };
    // Batch 1: one sale of 50.00, opened at +100, settled at +200.
    at(100);
    await approved(t, { type: 'SALE', amount: '50.00', ...VISA, invoice: 'B1' });
    at(200);
    b1 = Number((await t.client.closeOpenBatch())?.id);
    // Batch 2 (the terminal clock was set back): sales 21.00, a refund of 30.00; settled at +120.
    at(10);
    await approved(t, { type: 'SALE', amount: '20.00', ...MASTERCARD });
    at(11);
    await approved(t, { type: 'REFUND', amount: '30.00', ...AMEX, billing: { first_name: 'Rita' } });
    at(12);
    await approved(t, { type: 'SALE', amount: '1.00', ...MASTERCARD });
    at(120);
    b2 = Number((await t.client.closeOpenBatch())?.id);
    // Batch 3: open, one sale of 5.00 opened at +50.
    at(50);
    await approved(t, { type: 'SALE', amount: '5.00', ...DISCOVER });
    b3 = Number((await t.client.openBatch())?.id);
    all = await listBatches(t, { page_size: '100' });
  });

  it('lists all batches, newest id first, with one open', () => {
    expect(ids(all)).toEqual([b3, b2, b1]);
    expect(all.filter((b) => b.status === 'OPEN').map((b) => Number(b.id))).toEqual([b3]);
  });

  it('sends every batch value as a string, with settled and confirmation_code on closed batches only', () => {
    for (const batch of all) {
      expectStringsOnly(batch);
      if (batch.status === 'CLOSED') {
        expect(batch.settled).toMatch(ISO_WITH_MS_AND_OFFSET);
        expect(batch.confirmation_code).toMatch(/^\d{10}$/);
      } else {
        expect(batch).not.toHaveProperty('settled');
        expect(batch).not.toHaveProperty('confirmation_code');
      }
    }
    const second = all.find((b) => Number(b.id) === b2);
    expect(second).toMatchObject({
      sales_count: '2',
      sales_total: '21.00',
      refund_count: '1',
      refund_total: '30.00',
      total_count: '3',
      net_amount: '-9.00',
    });
    expect(Date.parse(second?.settled as string)).toBe(base + 120 * MINUTE);
  });

  it.each([
    ['CLOSED', 'closed'],
    ['closed', 'closed'],
    ['OPEN', 'open'],
    ['open', 'open'],
  ])('filters by status=%s', async (status, which) => {
    const items = await listBatches(t, { status });
    expect(ids(items)).toEqual(which === 'open' ? [b3] : [b2, b1]);
  });

  it('refuses an unknown status with a 400 naming status', async () => {
    await expectBadParameter(t, 'batches?status=PENDING', 'status');
  });

  it('filters by id', async () => {
    expect(ids(await listBatches(t, { id: String(b2) }))).toEqual([b2]);
    expect((await get(t, 'batches?id=999')).status).toBe(204);
  });

  it('selects the batches that hold a transaction matching a transaction filter', async () => {
    expect(ids(await listBatches(t, { last_four: '1111' }))).toEqual([b1]);
    expect(ids(await listBatches(t, { last_four: '5454' }))).toEqual([b2]);
    expect(ids(await listBatches(t, { type: 'refund' }))).toEqual([b2]);
    expect(ids(await listBatches(t, { amount: '5.00' }))).toEqual([b3]);
    expect(ids(await listBatches(t, { invoice: 'B1' }))).toEqual([b1]);
    expect(ids(await listBatches(t, { first_name: 'RITA' }))).toEqual([b2]);
    expect(ids(await listBatches(t, { type: 'sale' }))).toEqual([b3, b2, b1]);
  });

  it('answers 204 when no batch holds a matching transaction', async () => {
    expect((await get(t, 'batches?last_four=9999')).status).toBe(204);
  });

  it('filters by settled date: start_date inclusive', async () => {
    const write = formats['yyyy-MM-dd HH:mm'];
    expect(ids(await listBatches(t, { start_date: write(local(base + 200 * MINUTE)) }))).toEqual([b1]);
    expect(ids(await listBatches(t, { start_date: write(local(base + 120 * MINUTE)) }))).toEqual([b2, b1]);
  });

  it('filters by settled date: end_date exclusive', async () => {
    const write = formats['MM-dd-yyyy hh:mm a'];
    expect(ids(await listBatches(t, { end_date: write(local(base + 200 * MINUTE)) }))).toEqual([b2]);
    expect((await get(t, `batches${query({ end_date: write(local(base + 120 * MINUTE)) })}`)).status).toBe(
      204,
    );
  });

  it('filters by a settled range, leaving out the open batch that has no settled time', async () => {
    const write = formats['MM-dd-yy HH:mm'];
    const items = await listBatches(t, {
      start_date: write(local(base)),
      end_date: write(local(base + 300 * MINUTE)),
    });
    expect(ids(items)).toEqual([b2, b1]);
    const zoned = await listBatches(t, {
      start_date: `${formats['MM-dd-yy HH:mm'](atOffset(base + 110 * MINUTE, -5))} EST`,
      end_date: `${formats['MM-dd-yy HH:mm'](atOffset(base + 130 * MINUTE, -5))} EST`,
    });
    expect(ids(zoned)).toEqual([b2]);
  });

  it('refuses a bad batch date and a reversed range', async () => {
    await expectBadParameter(t, 'batches?start_date=soon', 'start_date');
    await expectBadParameter(t, `batches${query({ end_date: '2026-11-20' })}`, 'end_date');
    const response = await get(
      t,
      `batches${query({ start_date: '2026-11-21 00:00', end_date: '2026-11-20 00:00' })}`,
    );
    expect(response.status).toBe(400);
    expect(response.json<ApiError>().error).toBe('bad_parameter');
  });

  // Each expected order is a list of groups: the order between groups is certain, inside a group
  // (a tie) it is not.
  it.each([
    ['id', true, () => [[b3], [b2], [b1]]],
    ['id', false, () => [[b1], [b2], [b3]]],
    ['opened', false, () => [[b2], [b3], [b1]]],
    ['opened', true, () => [[b1], [b3], [b2]]],
    ['amount', true, () => [[b1], [b3], [b2]]],
    ['net_amount', true, () => [[b1], [b3], [b2]]],
    ['net_amount', false, () => [[b2], [b3], [b1]]],
    ['sales_total', true, () => [[b1], [b2], [b3]]],
    ['sales_total', false, () => [[b3], [b2], [b1]]],
    ['refund_total', true, () => [[b2], [b1, b3]]],
    ['refund_total', false, () => [[b1, b3], [b2]]],
    ['total_count', true, () => [[b2], [b1, b3]]],
    ['total_count', false, () => [[b1, b3], [b2]]],
    ['status', true, () => [[b3], [b1, b2]]],
    ['status', false, () => [[b1, b2], [b3]]],
  ] as [string, boolean, () => number[][]][])(
    'orders batches by %s (descending=%s)',
    async (orderBy, descending, expected) => {
      const items = ids(await listBatches(t, { order_by: orderBy, descending: String(descending) }));
      const groups: number[][] = [];
      let offset = 0;
      for (const group of expected()) {
        groups.push(items.slice(offset, offset + group.length).sort((a, b) => a - b));
        offset += group.length;
      }
      expect(items).toHaveLength(3);
      expect(groups).toEqual(expected().map((group) => [...group].sort((a, b) => a - b)));
    },
  );

  it('orders closed batches by settled time, independently of id', async () => {
    expect(ids(await listBatches(t, { order_by: 'settled', status: 'CLOSED' }))).toEqual([b1, b2]);
    expect(ids(await listBatches(t, { order_by: 'settled', status: 'CLOSED', descending: 'false' }))).toEqual(
      [b2, b1],
    );
  });

  it('refuses an unknown batch order_by with a 400 naming order_by', async () => {
    await expectBadParameter(t, 'batches?order_by=colour', 'order_by');
  });

  it('refuses the transaction-only parameter batch_id, and order_by=created, on batches', async () => {
    await expectBadParameter(t, 'batches?batch_id=1', 'batch_id');
    await expectBadParameter(t, 'batches?order_by=created', 'order_by');
  });

  it('refuses an unknown or repeated batch parameter', async () => {
    await expectBadParameter(t, 'batches?colour=red', 'colour');
    await expectBadParameter(t, 'batches?status=OPEN&status=CLOSED', 'status');
  });

  it('refuses any parameter on the open batch, which takes none', async () => {
    await expectBadParameter(t, 'batches/open?colour=red', 'colour');
    await expectBadParameter(t, 'batches/open?page=1', 'page');
  });

  it('refuses any parameter on a transaction request, which takes none, and records nothing', async () => {
    const before = await t.client.listTransactions({ page_size: 1 });
    const response = await t.request('transactions?colour=red', {
      method: 'POST',
      headers: { api_key: t.key, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ type: 'SALE', amount: '3.21', ...VISA }),
    });
    expect(response.status, response.body).toBe(400);
    expect(response.json<ApiError>()).toMatchObject({ error: 'bad_parameter', parameter: 'colour' });
    expect(await t.client.listTransactions({ page_size: 1 })).toEqual(before);
  });

  it('lists in XML as <batches> holding one <batch> per batch', async () => {
    const response = await get(t, 'batches', 'application/xml');
    expect(response.status).toBe(200);
    expect(String(response.headers['content-type'])).toMatch(/^application\/xml/);
    const parsed = xmlParser.parse(response.body) as { batches: { batch: Batch[] } };
    expect(parsed.batches.batch.map((b) => Number(b.id))).toEqual([b3, b2, b1]);
    expect(parsed.batches.batch[1]).toMatchObject({ status: 'CLOSED', net_amount: '-9.00' });
  });
});

describe('batch list paging', () => {
  const t = useTestGateway();
  let all: Batch[];
  beforeAll(async () => {
    for (let i = 1; i <= 26; i++) {
      await approved(t, { type: 'SALE', amount: `${i}.00`, ...VISA });
      await t.client.closeOpenBatch();
    }
    all = await listBatches(t, { page_size: '100' });
  });

  it('returns 25 batches by default, newest id first', async () => {
    expect(all).toHaveLength(26);
    const items = await listBatches(t);
    expect(items).toHaveLength(25);
    expect(ids(items)).toEqual(ids(all).slice(0, 25));
    expect(ids(all)).toEqual([...ids(all)].sort((a, b) => b - a));
  });

  it('refuses page_size 101, page 0 and page abc with a 400 naming the parameter', async () => {
    await expectBadParameter(t, 'batches?page_size=101', 'page_size');
    await expectBadParameter(t, 'batches?page=0', 'page');
    await expectBadParameter(t, 'batches?page=abc', 'page');
  });

  it('returns items 11-20 for page 2 of size 10', async () => {
    const items = await listBatches(t, { page: '2', page_size: '10' });
    expect(ids(items)).toEqual(ids(all.slice(10, 20)));
  });

  it('lists oldest first with descending=false', async () => {
    const items = await listBatches(t, { descending: 'false', page_size: '5' });
    expect(ids(items)).toEqual(ids(all).reverse().slice(0, 5));
  });

  it('answers a page past the end with 200 and [] in JSON, and an empty <batches> in XML', async () => {
    const json = await get(t, 'batches?page=3&page_size=25');
    expect(json.status).toBe(200);
    expect(json.json()).toEqual([]);
    const xml = await get(t, 'batches?page=3&page_size=25', 'application/xml');
    expect(xml.status).toBe(200);
    expect(xml.body).toMatch(/<batches\s*(\/>|><\/batches>)/);
  });
});
