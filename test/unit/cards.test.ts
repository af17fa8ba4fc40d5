import { describe, expect, it } from 'vitest';
import { cardBrand, cscLength, maskLastFour, maskPan, passesLuhn } from '../../shared/cards';

describe('card numbers', () => {
  it.each([
    '4111111111111111',
    '5454545454545454',
    '371449635398431',
    '6011000995500000',
    '4000000000000002',
  ])('%s passes the Luhn check', (pan) => expect(passesLuhn(pan)).toBe(true));

  it.each(['4111111111111112', '1234567812345678', '411111111111111a', ''])(
    '%j fails the Luhn check',
    (pan) => expect(passesLuhn(pan)).toBe(false),
  );

  it('knows the brand from the leading digits', () => {
    expect(cardBrand('4111111111111111')).toBe('visa');
    expect(cardBrand('5454545454545454')).toBe('mastercard');
    expect(cardBrand('2223000048400011')).toBe('mastercard');
    expect(cardBrand('371449635398431')).toBe('amex');
    expect(cardBrand('6011000995500000')).toBe('discover');
    expect(cardBrand('3530111333300000')).toBe('jcb');
    expect(cardBrand('9999999999999995')).toBe('unknown');
  });

  it('asks four security digits of American Express and three of the rest', () => {
    expect(cscLength('amex')).toBe(4);
    expect(cscLength('visa')).toBe(3);
  });

  it('masks all but the last four digits, keeping the length', () => {
    expect(maskPan('4111111111111111')).toBe('************1111');
    expect(maskPan('371449635398431')).toBe('***********8431');
    expect(maskLastFour('1111')).toBe('************1111');
  });
});
