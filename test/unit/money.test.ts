import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { displayMoney, formatMoney, MAX_AMOUNT_CENTS, parseMoney, parseNetCents } from '../../shared/money';
import { NET_AMOUNT_PATTERN } from '../../shared/api/schemas';

describe('money on the wire', () => {
  it('reads dollars with two decimals into cents', () => {
    expect(parseMoney('25.00')).toEqual({ ok: true, cents: 2500 });
    expect(parseMoney('0.01')).toEqual({ ok: true, cents: 1 });
    expect(parseMoney('999999.99')).toEqual({ ok: true, cents: MAX_AMOUNT_CENTS });
  });

  it.each([
    '25',
    '25.0',
    '25.000',
    '-5.00',
    '+5.00',
    '1e2',
    '1,000.00',
    ' 5.00',
    '05.00',
    '.50',
    '5.',
    'abc',
    '',
  ])('refuses %j as a format problem', (text) => {
    expect(parseMoney(text)).toEqual({ ok: false, problem: 'format' });
  });

  it('refuses zero unless zero is allowed, as for a tip', () => {
    expect(parseMoney('0.00')).toEqual({ ok: false, problem: 'zero' });
    expect(parseMoney('0.00', { allowZero: true })).toEqual({ ok: true, cents: 0 });
  });

  it('refuses amounts above the maximum', () => {
    expect(parseMoney('1000000.00')).toEqual({ ok: false, problem: 'too_large' });
  });

  it('formats every cent amount so that it reads back the same', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: MAX_AMOUNT_CENTS }), (cents) => {
        expect(parseMoney(formatMoney(cents))).toEqual({ ok: true, cents });
      }),
    );
  });

  it('shows money to people with a dollar sign and thousands separators', () => {
    expect(displayMoney(123456789)).toBe('$1,234,567.89');
    expect(displayMoney(-505)).toBe('-$5.05');
    expect(formatMoney(-505)).toBe('-5.05');
  });
});

describe('a batch net as the closer saw it', () => {
  it('reads signed dollars with two decimals, however large', () => {
    expect(parseNetCents('240.50')).toBe(24050);
    expect(parseNetCents('-12.00')).toBe(-1200);
    expect(parseNetCents('0.50')).toBe(50);
    expect(parseNetCents('123456789.00')).toBe(12345678900);
  });

  it('reads nothing the documented pattern refuses: no leading zero, sign or short decimals', () => {
    for (const text of ['05.00', '005.00', '-05.00', '00.50', '+5.00', '5.0', '5', '.50', ' 5.00']) {
      expect(NET_AMOUNT_PATTERN.test(text), text).toBe(false);
      expect(parseNetCents(text), text).toBeUndefined();
    }
  });
});
