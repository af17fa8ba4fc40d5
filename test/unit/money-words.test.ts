import { describe, expect, it } from 'vitest';
import { amountInWords } from '../../shared/money-words';

describe('an amount in words', () => {
  it('says dollars and cents as on a check', () => {
    expect(amountInWords(12_500_000)).toBe('One hundred twenty-five thousand dollars');
    expect(amountInWords(100_000)).toBe('One thousand dollars');
    expect(amountInWords(125_050)).toBe('One thousand two hundred fifty dollars and fifty cents');
    expect(amountInWords(1_205)).toBe('Twelve dollars and five cents');
    expect(amountInWords(101)).toBe('One dollar and one cent');
    expect(amountInWords(99)).toBe('Zero dollars and ninety-nine cents');
    expect(amountInWords(99_999_999)).toBe(
      'Nine hundred ninety-nine thousand nine hundred ninety-nine dollars and ninety-nine cents',
    );
    expect(amountInWords(100_001_100)).toBe('One million eleven dollars');
  });
});
