/**
 * Money on the wire is a string of dollars with exactly two decimals ("25.00"); inside Tender it is
 * an integer number of cents, so sums never drift.
 */

/** The largest amount one transaction may carry: $999,999.99. */
export const MAX_AMOUNT_CENTS = 99_999_999;

const MONEY_PATTERN = /^(0|[1-9]\d{0,5})\.(\d{2})$/;

export type MoneyProblem = 'format' | 'zero' | 'too_large';

/**
 * Parses "25.00" into 2500 cents. Zero is a problem unless `allowZero` (a tip may be 0.00); negative
 * values, missing or extra decimals, exponents and thousands separators are format problems.
 */
export function parseMoney(
  text: string,
  options: { allowZero?: boolean } = {},
): { ok: true; cents: number } | { ok: false; problem: MoneyProblem } {
  const match = MONEY_PATTERN.exec(text);
  if (!match) {
    return /^\d{7,}\.\d{2}$/.test(text)
      ? { ok: false, problem: 'too_large' }
      : { ok: false, problem: 'format' };
  }
  const cents = Number(match[1]) * 100 + Number(match[2]);
  if (cents === 0 && !options.allowZero) return { ok: false, problem: 'zero' };
  if (cents > MAX_AMOUNT_CENTS) return { ok: false, problem: 'too_large' };
  return { ok: true, cents };
}

/**
 * A signed total as the one who closes the batch saw it ("-12.50", "1234567.89") in cents, with no
 * maximum: a batch's net is a sum, and can be above what one transaction may be. Undefined unless
 * it is dollars with exactly two decimals and, as every amount, no leading zero but the one before
 * the point ("0.50", never "05.00"), the form NET_AMOUNT_PATTERN documents.
 */
export function parseNetCents(text: string): number | undefined {
  const match = /^(-?)(0|[1-9]\d{0,12})\.(\d{2})$/.exec(text);
  if (!match) return undefined;
  const cents = Number(match[2]) * 100 + Number(match[3]);
  return match[1] === '-' ? -cents : cents;
}

/** 2500 → "25.00" */
export function formatMoney(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** 2500 → "$25.00", for people rather than programs. */
export function displayMoney(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const dollars = Math.trunc(abs / 100).toLocaleString('en-US');
  return `${sign}$${dollars}.${String(abs % 100).padStart(2, '0')}`;
}
