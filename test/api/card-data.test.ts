import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useTestGateway } from '../support/gateway';
import { queryLedger, storedText } from '../support/ledger-rows';

const t = useTestGateway();

/** Everything stored: the data dir's SQLite file and its WAL, and the store server's rows when the ledger is there. */
const ledgerBytes = (): Promise<string> => storedText(t);

describe('card data is never stored', () => {
  it('no full card number reaches the database or its WAL, approved, declined or rejected', async () => {
    const cards = [
      '4111111111111111',
      '4000000000000002',
      '4000000000000119',
      '4111111111111112',
      '5454545454545454',
    ];
    for (const card of cards) {
      await t.client.createTransaction({ type: 'SALE', amount: '12.34', card, exp_date: '1230', csc: '737' });
      await t.client.createTransaction({ type: 'AUTH', amount: '5.00', card, exp_date: '0101' });
    }
    const bytes = await ledgerBytes();
    expect(bytes.length).toBeGreaterThan(0);
    for (const card of cards) {
      expect(bytes).not.toContain(card);
      expect(bytes).not.toContain(card.slice(0, 12));
    }
    // The code as a stored text value; "737" unquoted is also the end of many a stored hash's hex.
    expect(bytes).not.toMatch(/"csc"|"737"/);
  });

  it('a transaction keeps of its card the last four digits, not the first six', async () => {
    await t.client.createTransaction({
      type: 'SALE',
      amount: '7.00',
      card: '6011000990139424',
      exp_date: '1230',
    });
    const rows = await queryLedger(t, "SELECT * FROM transactions WHERE card_last_four = '9424'");
    expect(rows.length).toBe(1);
    for (const row of rows) {
      expect(Object.keys(row)).not.toContain('card_bin');
      expect(Object.values(row).map(String)).not.toContain('601100');
    }
  });

  it('lists show cards masked to the last four digits', async () => {
    const items = await t.client.listTransactions({ page_size: 100 });
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) expect(item.card).toMatch(/^(\*+\d{4})?$/);
    expect(JSON.stringify(items)).not.toContain('4111111111111111');
  });
});

/** Every text field of POST /transactions that Tender keeps or repeats, by its path in the body. */
const TEXT_FIELDS = [
  'type',
  'invoice',
  'purchase_order',
  'email',
  'customer_id',
  'order_number',
  'client_ip',
  'description',
  'comments',
  'track_format',
  ...['first_name', 'last_name', 'company', 'street', 'street2', 'city', 'state', 'country', 'phone'].map(
    (name) => `billing.${name}`,
  ),
  ...['first_name', 'last_name', 'company', 'street', 'street2', 'city', 'state', 'phone'].map(
    (name) => `shipping.${name}`,
  ),
] as const;

/** How a cashier or a program might type a card number into each field, within its length and form. */
function typedCardNumber(field: string, index: number): { text: string; digits: string } {
  // None of these is a card the tests above charge: a fragment found in the ledger can only be a leak.
  const numbers = [
    '4012888888881881',
    '371449635398431',
    '4222222222222',
    '6011000990139424',
    '3530111333300000',
    '6275948762315984072',
  ];
  const digits = numbers[index % numbers.length] as string;
  if (field === 'order_number' || field === 'type' || field === 'track_format')
    return { text: digits, digits };
  if (field === 'email') return { text: `${digits}@example.com`, digits };
  if (field === 'client_ip') return { text: `::${digits}`, digits };
  const grouped = digits.replace(/(\d{4})(?=\d)/g, index % 2 ? '$1-' : '$1 ');
  return { text: `card ${grouped} exp 12/30`, digits };
}

function bodyWith(field: string, text: string): Record<string, unknown> {
  const sale: Record<string, unknown> = {
    type: 'SALE',
    amount: '3.21',
    card: '5454545454545454',
    exp_date: '1230',
  };
  const [outer, inner] = field.split('.') as [string, string | undefined];
  if (inner === undefined) sale[outer] = text;
  else sale[outer] = { [inner]: text };
  return sale;
}

function xmlOf(body: Record<string, unknown>): string {
  const elements = (fields: Record<string, unknown>): string =>
    Object.entries(fields)
      .map(([name, value]) =>
        typeof value === 'object' && value !== null
          ? `<${name}>${elements(value as Record<string, unknown>)}</${name}>`
          : `<${name}>${String(value)}</${name}>`,
      )
      .join('');
  return `<transaction>${elements(body)}</transaction>`;
}

/** A keyed SALE of 1.00 with these text fields besides. */
const saleWith = (fields: Record<string, unknown>) =>
  t.client.createTransaction({
    type: 'SALE',
    amount: '1.00',
    card: '5454545454545454',
    exp_date: '1230',
    ...fields,
  } as Parameters<typeof t.client.createTransaction>[0]);

describe('a card number typed into a text field', () => {
  const logged: string[] = [];
  beforeEach(() => {
    logged.length = 0;
    // The engine runs in this process: whatever it would log goes through these two streams.
    for (const stream of [process.stdout, process.stderr]) {
      const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
      vi.spyOn(stream, 'write').mockImplementation(((chunk: unknown, ...rest: unknown[]) => {
        logged.push(String(chunk));
        return write(chunk, ...rest);
      }) as typeof stream.write);
    }
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it.each(
    TEXT_FIELDS.flatMap((field, index) =>
      (['json', 'xml'] as const).map((format) => ({ field, index, format })),
    ),
  )(
    'is refused in $field ($format) with 8032 and a Field Validation message, and nothing of it is kept',
    async ({ field, index, format }) => {
      const { text, digits } = typedCardNumber(field, index);
      const body = bodyWith(field, text);
      const idempotencyKey = `card-in-${field}-${format}`;
      const send = () =>
        t.request('transactions', {
          method: 'POST',
          headers: {
            api_key: t.key,
            accept: 'application/json',
            'content-type': format === 'json' ? 'application/json' : 'application/xml',
            'idempotency-key': idempotencyKey,
          },
          body: format === 'json' ? JSON.stringify(body) : xmlOf(body),
        });
      const first = await send();
      const again = await send();
      expect(first.status, first.body).toBe(200);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toBe(first.body);
      const answer = first.json();
      expect(answer).toEqual({
        result: 'Rejected',
        error_code: '8032',
        display_message: expect.stringMatching(
          new RegExp(`^Field Validation: ${field.replace('.', '\\.')} `),
        ) as string,
      });
      const message = String(answer.display_message);
      expect(message).toMatch(/card number/);
      expect(message).toMatch(/letter/);
      for (const seen of [first.body, ...logged, await ledgerBytes()]) {
        expect(seen).not.toContain(digits);
        expect(seen).not.toContain(text);
        expect(seen).not.toContain(digits.slice(0, 12));
        expect(seen).not.toContain(digits.slice(-12));
      }
      const [listed] = await t.client.listTransactions({ page_size: 1 });
      expect(listed).toMatchObject({
        result: 'Rejected',
        error_code: '8032',
        invoice: '',
        card: '************5454',
      });
    },
  );

  it.each(['json', 'xml'] as const)(
    'is refused as the Idempotency-Key (%s) with 8032 in the format asked for, and the key is not kept',
    async (format) => {
      const key = 'order-4111-1111-1111-1111';
      const response = await t.request('transactions', {
        method: 'POST',
        headers: {
          api_key: t.key,
          accept: format === 'json' ? 'application/json' : 'application/xml',
          'content-type': 'application/json',
          'idempotency-key': key,
        },
        body: JSON.stringify({ type: 'SALE', amount: '1.00', card: '5454545454545454', exp_date: '1230' }),
      });
      expect(response.status).toBe(200);
      if (format === 'json') {
        expect(response.json()).toMatchObject({ result: 'Rejected', error_code: '8032' });
        expect(String(response.json().display_message)).toMatch(
          /^Field Validation: Idempotency-Key holds a card number/,
        );
      } else {
        expect(response.headers['content-type']).toMatch(/^application\/xml/);
        expect(response.body).toContain('<error_code>8032</error_code>');
      }
      expect(response.body).not.toContain('4111');
      const stored = await ledgerBytes();
      expect(stored).not.toContain('4111-1111-1111-1111');
      expect(stored).not.toContain('4111111111111111');
      const [listed] = await t.client.listTransactions({ page_size: 1 });
      expect(listed).toMatchObject({ result: 'Rejected', error_code: '8032' });
    },
  );

  it('is not found in a UUID, whose digits read across its dashes would pass the card number check', async () => {
    // About three random UUIDs in a thousand hold 13 to 19 such digits when their dashes are read as
    // a card number's: these are four of them, as the cashier screens and integrators make keys.
    const uuids = [
      'a55e666f-8025-4162-9288-5ca6f11b9005',
      '93526662-2261-417c-8840-9163988d9831',
      '58CF77C3-184B-4253-8444-004369C9B463',
      'e287e9b2-8649-4a54-9135-641009063251',
    ];
    for (const [index, key] of uuids.entries()) {
      const body = {
        type: 'SALE',
        amount: `2.0${index}`,
        card: '5454545454545454',
        exp_date: '1230',
        invoice: uuids[(index + 1) % uuids.length],
      };
      const sent = () =>
        t.request('transactions', {
          method: 'POST',
          headers: { api_key: t.key, 'content-type': 'application/json', 'idempotency-key': key },
          body: JSON.stringify(body),
        });
      const first = await sent();
      expect(first.json(), key).toMatchObject({ result: 'Approved' });
      const again = await sent();
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.json().id).toBe(first.json().id);
    }
  });

  it.each([
    ['grouped with dots, in comments', { comments: '4111.1111.1111.1111' }],
    ['grouped with slashes, in the invoice', { invoice: '3714/496353/98431' }],
    ['in fullwidth digits, in the type', { type: '４１１１１１１１１１１１１１１１' }],
    ['in Arabic-Indic digits, in the description', { description: '٤١١١١١١١١١١١١١١١' }],
    ['on lines of its own, in the invoice', { invoice: '4111\r\n1111\r\n1111\r\n1111' }],
    ['with zero-width spaces, in the comments', { comments: '4111\u200b1111\u200b1111\u200b1111' }],
    ['with marks that change, in the comments', { comments: '4111/1111.1111/1111' }],
    ['with its expiry and code typed on, in the description', { description: '41111111111111111230123' }],
  ])('is refused however its digits are written: %s', async (_what, fields) => {
    const answer = await saleWith(fields);
    expect(answer).toMatchObject({ result: 'Rejected', error_code: '8032' });
    const [written] = Object.values(fields);
    const stored = await ledgerBytes();
    expect(stored).not.toContain(written);
    expect(JSON.stringify(answer)).not.toContain(written);
  });

  it('is refused in a field given twice in XML, even when the first one holds it', async () => {
    const response = await t.request('transactions', {
      method: 'POST',
      headers: { api_key: t.key, accept: 'application/json', 'content-type': 'application/xml' },
      body: '<transaction><type>SALE</type><amount>1.00</amount><card>5454545454545454</card><exp_date>1230</exp_date><comments>4111 1111 1111 1111</comments><comments>table 4</comments></transaction>',
    });
    expect(response.json()).toMatchObject({ result: 'Rejected', error_code: '8032' });
    const stored = await ledgerBytes();
    expect(stored).not.toContain('4111111111111111');
    expect(stored).not.toContain('4111 1111 1111 1111');
  });

  it.each([
    ['a 13-digit order number that fails the Luhn check', { order_number: '1234567890123' }],
    ['a 12-digit run that passes it', { invoice: '4111 1111 1111' }],
    ['a 20-digit run that no card number begins', { description: '12345678901234567890' }],
    ['a millisecond timestamp that passes the Luhn check', { order_number: '1764400000014' }],
    ['digits broken by a letter', { order_number: '4111111A11111111' }],
    ['digits whose mark changes along the run, begun as no card is', { comments: '1111/1111.1111/1117' }],
    ['amounts and times with dots and colons', { comments: 'split 12.50, 13.75 at 14:05:09' }],
    ['a phone number', { billing: { phone: '+1 (404) 555-0199' } }],
    ['a date and a time', { comments: 'picked up 2026-11-20 14:05' }],
  ])('lets %s through', async (_what, fields) => {
    const answer = await saleWith(fields);
    expect(answer.result).toBe('Approved');
  });
});
