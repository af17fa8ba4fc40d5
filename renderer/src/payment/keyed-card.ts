/**
 * Checks of a keyed card before it is sent, so a typing slip is fixed on the form where it was made.
 * The engine checks everything again; dates in the past are left to it, since only it knows the
 * terminal's month, and its answer names the expiry it refused.
 */
import { cardBrand, cscLength, passesLuhn, type CardBrand } from '../../../shared/cards';

export interface KeyedCardInput {
  cardNumber: string;
  expiry: string;
  csc: string;
  zip: string;
}

export type KeyedCardField = keyof KeyedCardInput;
export type KeyedCardProblems = Partial<Record<KeyedCardField, string>>;

export interface KeyedCard {
  card: string;
  expMmyy: string;
  csc?: string;
  zip?: string;
  brand: CardBrand;
  lastFour: string;
}

export const digitsOf = (text: string): string => text.replace(/\D/g, '');

/** "4111111111111111" → "4111 1111 1111 1111"; American Express as 4-6-5. */
export function groupCardNumber(digits: string): string {
  const groups = cardBrand(digits) === 'amex' ? [4, 6, 5] : [4, 4, 4, 4, 3];
  const parts: string[] = [];
  let at = 0;
  for (const size of groups) {
    if (at >= digits.length) break;
    parts.push(digits.slice(at, at + size));
    at += size;
  }
  return parts.join(' ');
}

export function checkKeyedCard(
  input: KeyedCardInput,
): { ok: true; card: KeyedCard } | { ok: false; problems: KeyedCardProblems } {
  const problems: KeyedCardProblems = {};
  const card = digitsOf(input.cardNumber);
  const brand = cardBrand(card);
  if (card.length < 13 || card.length > 19) {
    problems.cardNumber = 'Enter the whole card number: 13 to 19 digits.';
  } else if (!passesLuhn(card)) {
    problems.cardNumber = 'This is not a valid card number. Check each digit.';
  }
  const expiry = digitsOf(input.expiry);
  const month = Number(expiry.slice(0, 2));
  if (expiry.length !== 4 || month < 1 || month > 12) {
    problems.expiry = 'Enter the expiry as four digits, month then year: 0429 for April 2029.';
  }
  const csc = digitsOf(input.csc);
  const wanted = cscLength(brand);
  if (csc !== '' && csc.length !== wanted) {
    problems.csc =
      wanted === 4
        ? 'American Express has a 4-digit code on the front.'
        : 'The security code is the 3 digits on the back.';
  }
  const zip = input.zip.trim();
  if (zip !== '' && !/^[A-Za-z0-9][A-Za-z0-9 -]{1,9}$/.test(zip)) {
    problems.zip = 'Enter the billing zip or postal code, or leave it empty.';
  }
  if (Object.keys(problems).length > 0) return { ok: false, problems };
  return {
    ok: true,
    card: {
      card,
      expMmyy: expiry,
      ...(csc && { csc }),
      ...(zip && { zip }),
      brand,
      lastFour: card.slice(-4),
    },
  };
}
