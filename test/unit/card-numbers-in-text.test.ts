/** Finding a card number typed into a text field of a transaction request. */
import { describe, expect, it } from 'vitest';
import { billingSchema, shippingSchema, transactionRequestSchema } from '../../shared/api/schemas';
import {
  ADDRESS_TEXT_FIELDS,
  TEXT_FIELDS,
  UNSEARCHED_FIELDS,
  validateTransactionRequest,
  Rejection,
} from '../../electron/gateway/validation';
import { holdsCardNumber, mightHoldCardNumber } from '../../electron/gateway/card-number-search';

describe('a card number in text', () => {
  it.each([
    ['a bare card number', '4111111111111111'],
    ['one in a sentence', 'pay with 4111111111111111 please'],
    ['groups of four with spaces', '4111 1111 1111 1111'],
    ['groups with dashes', '4111-1111-1111-1111'],
    ['groups with an en dash and a no-break space', '4111–1111\u00a01111 1111'],
    ['American Express grouping', '3714 496353 98431'],
    ['13 digits', '4222222222222'],
    ['19 digits', '6275948762315984072'],
    ['one beside other digits', 'table 12, 5454545454545454, 2 guests'],
    ['one after a letter', 'A4111111111111111'],
    ['one followed by its expiry', '4111 1111 1111 1111 1230'],
    ['one after a table number, dashes between', '12-4111-1111-1111-1111'],
    ['one beside a UUID', 'a55e666f-8025-4162-9288-5ca6f11b9005 4111 1111 1111 1111'],
    ['one in a UUID-like text that is not a UUID', '41111111-1111-1111-aaaa'],
    ['one typed into the last group of a UUID', 'a55e666f-8025-4162-9288-4111 1111 1111 1111'],
    ['one run on from the last group of a UUID', 'a55e666f-8025-4162-9288-5ca6f4111111-1111-11111'],
    ['groups with slashes', '4111/1111/1111/1111'],
    ['groups with dots', '4111.1111.1111.1111'],
    ['groups with underscores', 'card 4111_1111_1111_1111'],
    ['groups with commas', '4111,1111,1111,1111'],
    ['groups with plus signs', '4111+1111+1111+1111'],
    ['groups with colons', '4111:1111:1111:1111'],
    ['American Express grouping with dots', '3714.496353.98431'],
    ['fullwidth digits', '４１１１１１１１１１１１１１１１'],
    ['fullwidth digits in groups', '４１１１ １１１１ １１１１ １１１１'],
    ['Arabic-Indic digits', '٤١١١١١١١١١١١١١١١'],
    ['Devanagari digits with dashes', '४१११-१११११-१११११११'],
    ['groups on lines of their own', '4111\r\n1111\r\n1111\r\n1111'],
    ['digits on two lines', '41111111\n11111111'],
    ['zero-width spaces between the groups', '4111\u200b1111\u200b1111\u200b1111'],
    ['a soft hyphen inside', '41111111\u00ad11111111'],
    ['groups with semicolons', '4111;1111;1111;1111'],
    ['groups with bars', '4111|1111|1111|1111'],
    ['two halves with a dot', '41111111.11111111'],
    ['two halves with a slash', '41111111/11111111'],
    ['groups whose mark changes along the run', '4111.1111/1111.1111'],
    ['dashes, dots and slashes', '4111-1111.1111/1111'],
    ['its first group in brackets', '(4111)111111111111'],
    ['its expiry typed onto it', '41111111111111111230'],
    ['its expiry and security code typed onto it', '41111111111111111230123'],
    ['its security code typed onto it', '4111111111111111123'],
  ])('is found: %s', (_what, text) => {
    expect(holdsCardNumber(text)).toBe(true);
  });

  it.each([
    ['12 digits that pass the Luhn check', '411111111113'],
    ['16 digits that fail it', '4111111111111112'],
    ['20 digits that no card number begins or ends', '12345678901234567890'],
    ['a millisecond timestamp that passes the Luhn check', 'ik-1764400000014'],
    ['17 digits that a card number ends', '14111111111111111'],
    ['a number no payment card begins with that passes it', '7111111111111114'],
    ['digits broken by a letter', '4111111A11111111'],
    ['groups broken by letters', '4111 x 1111 x 1111 x 1111'],
    ['marks that change, on digits no card brand begins with', '1111.1111/1111.1117'],
    ['a date, a time and an order number', '2026-11-29 12:30 order 1234567'],
    ['a date with dots and a reference after a slash', '2026.11.29/1234.5678'],
    ['a date and a time with dots and colons', '2026.11.20 14:05:09'],
    ['an IP address', '192.168.100.200'],
    ['amounts in a list', '12.50, 13.75, 104.00, 7.25'],
    ['a version', 'v1.2.3.4567'],
    ['fullwidth digits that fail the Luhn check', '４１１１１１１１１１１１１１１２'],
    ['a phone number', '+1 (404) 555-0199'],
    ['an international phone number', '+44 20 7946 0958'],
    ['an ISO date and time', '2026-11-20 14:05:09'],
    [
      'a UUID whose digits, read across its dashes, pass the Luhn check',
      'a55e666f-8025-4162-9288-5ca6f11b9005',
    ],
    ['a UUID in capitals, in a sentence', 'order 93526662-2261-417C-8840-9163988D9831 paid'],
    ['that UUID after a word and a dash', 'retry-a55e666f-8025-4162-9288-5ca6f11b9005'],
    ['that UUID after a hexadecimal word and a dash', 'sale-a55e666f-8025-4162-9288-5ca6f11b9005'],
    ['that UUID with a dash and a word after it', 'a55e666f-8025-4162-9288-5ca6f11b9005-2'],
    ['no digits at all', 'Table by the window'],
  ])('is not found: %s', (_what, text) => {
    expect(holdsCardNumber(text)).toBe(false);
  });

  it('is withheld when quoted if it may be one: any 13 digits in a row, whichever way they read', () => {
    expect(mightHoldCardNumber('order 1234567890123')).toBe(true);
    expect(mightHoldCardNumber('1234 5678 9012 3')).toBe(true);
    expect(mightHoldCardNumber('41111111111111111')).toBe(true);
    expect(mightHoldCardNumber('charset=utf-84111111111111111')).toBe(true);
    expect(mightHoldCardNumber('4111.1111/1111.1111')).toBe(true);
    expect(mightHoldCardNumber('order 123456789012')).toBe(false);
    expect(mightHoldCardNumber('a55e666f-8025-4162-9288-5ca6f11b9005')).toBe(false);
  });

  it('takes time in proportion to the text, however it is built', () => {
    // CPU time, not the clock: another process busy beside the tests slows the clock's answer, not the
    // work done. Quadratic work on these 60,000 characters would take seconds; linear takes a few ms.
    const before = process.cpuUsage();
    for (const text of [
      '1 '.repeat(30_000),
      '1-'.repeat(30_000),
      `${'9'.repeat(60_000)}x`,
      '123.'.repeat(15_000),
      '123.456/'.repeat(7_500),
      `${'1'.repeat(12)}${'x'.repeat(60_000)}`,
    ]) {
      holdsCardNumber(text);
      mightHoldCardNumber(text);
    }
    const spent = process.cpuUsage(before);
    expect((spent.user + spent.system) / 1000).toBeLessThan(500);
  });
});

describe('the fields searched', () => {
  it('are every field of the request, sorted into searched and not searched', () => {
    const classified = [...TEXT_FIELDS, ...UNSEARCHED_FIELDS].sort();
    expect(classified).toEqual(Object.keys(transactionRequestSchema.shape).sort());
    expect([...ADDRESS_TEXT_FIELDS.billing].sort()).toEqual(Object.keys(billingSchema.shape).sort());
    expect([...ADDRESS_TEXT_FIELDS.shipping].sort()).toEqual(Object.keys(shippingSchema.shape).sort());
  });

  it('are searched before anything else is checked, so the answer never repeats the number', () => {
    const refusal = (body: Record<string, unknown>) => {
      try {
        validateTransactionRequest(body, { tipsEnabled: false });
      } catch (error) {
        if (error instanceof Rejection) return error;
      }
      throw new Error('the request was not refused');
    };
    const asType = refusal({ type: '4111111111111111', amount: '1.00' });
    expect(asType.errorCode).toBe('8032');
    expect(asType.message).not.toContain('4111');
    const tooLong = refusal({ type: 'SALE', order_number: '6275948762315984072', card: '4111111111111111' });
    expect(tooLong.errorCode).toBe('8032');
    expect(tooLong.message).toMatch(/^Field Validation: order_number holds a card number/);
    const inSecondAddress = refusal({
      type: 'SALE',
      shipping: [{ city: 'x' }, { street: '4111 1111 1111 1111' }],
    });
    expect(inSecondAddress.message).toMatch(/^Field Validation: shipping\.street /);
  });

  it('leave the card field itself to the card rules', () => {
    expect(() =>
      validateTransactionRequest(
        { type: 'SALE', amount: '1.00', card: '4111111111111111', exp_date: '1230' },
        { tipsEnabled: false },
      ),
    ).not.toThrow();
  });
});
