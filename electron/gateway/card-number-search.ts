/**
 * Finding a card number in text: a name, a comment, an invoice, a setting, a path or a header. Text
 * that holds one is refused (error code 8032) or, when the engine quotes it, withheld, so that a card
 * number typed in the wrong place is never kept, printed or repeated.
 *
 * The search is for mistakes, not for someone hiding a number on purpose: letters between the digits
 * ("break the digits with a letter") always make them something else.
 */
import { cardBrand, passesLuhn } from '../../shared/cards';

/** What counts as a card number in text, in the words of every refusal of one. */
export const CARD_NUMBER_IN_TEXT = 'a card number (13 to 19 digits that pass the card number check)';

const CARD_DIGITS = { min: 13, max: 19 } as const;

/** Text with as many digits (0-9) as the shortest card number, wherever they stand. */
const AT_LEAST_CARD_DIGITS = /^(?:\D*\d){13}/;

/** Spaces, dashes and line breaks that people type (or a screen folds) between groups of digits. */
const DIGIT_RUN = /\d(?:[\s\-\u2010-\u2015\u2212]*\d)*/g;

/**
 * Groups of three to eight digits joined by one same mark, as a card number is written with dots,
 * slashes, underscores, commas, plus signs, colons, semicolons or bars ("4111.1111.1111.1111",
 * "3714/496353/98431", "41111111/11111111"). Groups of one or two digits (a date, a time, an amount's
 * cents) never make one.
 */
const MARKED_GROUPS = /(?<!\d)\d{3,8}([^\p{L}\p{N}\s-])\d{3,8}(?:\1\d{3,8}){0,4}(?!\d)/gu;

/**
 * Groups of three or more digits joined by single marks that change along the way ("4111-1111.1111/1111",
 * "(4111)111111111111"). Read as a card number only when the digits also begin as a card brand's do,
 * since dates, versions and addresses are written so too.
 */
const MIXED_GROUPS = /(?<!\d)\d{3,}(?:[^\p{L}\p{N}]\d{3,})+(?!\d)/gu;

/**
 * What may be typed right after a card number with nothing between: its expiry, its security code,
 * or both (3 to 8 digits).
 */
const TYPED_ON = { min: 3, max: 8 } as const;

/** Digits in a row, enough for a card number and what may be typed onto it. */
const LONG_DIGITS = new RegExp(`\\d{${CARD_DIGITS.min + TYPED_ON.min},}`, 'g');

/**
 * A UUID as it is written (8-4-4-4-12 hexadecimal digits), not inside a longer word of hexadecimal
 * digits. It is an identifier, not a card number typed in groups: no group of it holds 13 digits, and
 * read across its dashes about three random UUIDs in a thousand would pass the card number check. A
 * word joined to it by a dash ("retry-…", "sale-…") leaves it a UUID; digits typed beside it still
 * run into its first or last group, and that run is searched as any other.
 */
const UUID =
  /(?<![\dA-Fa-f])[\dA-Fa-f]{8}-[\dA-Fa-f]{4}-[\dA-Fa-f]{4}-[\dA-Fa-f]{4}-[\dA-Fa-f]{12}(?![\dA-Fa-f])/g;

/** Characters that show nothing (zero-width spaces and joiners, soft hyphens, direction marks). */
const INVISIBLE = /\p{Cf}/gu;

/**
 * How a payment card's number begins: with the major industry identifier of banking and finance,
 * 2 to 6 (ISO/IEC 7812). Numbers that begin otherwise (airline, fuel, health or national cards, and a
 * millisecond timestamp such as an Idempotency-Key made from the clock) are no card a payment takes.
 */
const PAYMENT_CARD_START = /^[2-6]/;

function isCardNumber(digits: string): boolean {
  return (
    digits.length >= CARD_DIGITS.min &&
    digits.length <= CARD_DIGITS.max &&
    PAYMENT_CARD_START.test(digits) &&
    passesLuhn(digits)
  );
}

function isBrandCardNumber(digits: string): boolean {
  return isCardNumber(digits) && cardBrand(digits) !== 'unknown';
}

/**
 * The text as it reads: every decimal digit written as 0-9 (fullwidth and other compatibility forms
 * by NFKC, the digits of other scripts by their place in their run of ten), without the characters
 * that show nothing, which would otherwise break a run that looks whole, and each UUID kept apart.
 */
function asRead(text: string): string {
  const normalized = text.normalize('NFKC').replace(INVISIBLE, '');
  const isDigit = (code: number) => /^\p{Nd}$/u.test(String.fromCodePoint(code));
  const ascii = !/\P{ASCII}/u.test(normalized)
    ? normalized
    : normalized.replace(/\p{Nd}/gu, (digit) => {
        const code = digit.codePointAt(0) ?? 0;
        // Each script's digits are ten code points in a row from its zero.
        let zero = code;
        while (zero > code - 9 && isDigit(zero - 1)) zero--;
        return String(code - zero);
      });
  // A UUID's groups are never read together: its dashes become a letter.
  return ascii.replace(UUID, (uuid) => uuid.replaceAll('-', 'x'));
}

/** Whether some groups in a row, read together, are a card number by `test`. */
function someGroupsAre(groups: readonly string[], test: (digits: string) => boolean): boolean {
  for (let first = 0; first < groups.length; first++) {
    let joined = '';
    for (let last = first; last < groups.length && joined.length < CARD_DIGITS.max; last++) {
      joined += groups[last];
      if (test(joined)) return true;
    }
  }
  return false;
}

/** Whether these digits are a card number of a known brand with digits typed onto it (TYPED_ON). */
function holdsTypedOnCardNumber(digits: string): boolean {
  for (let after = TYPED_ON.min; after <= TYPED_ON.max; after++) {
    if (isBrandCardNumber(digits.slice(0, -after))) return true;
  }
  return false;
}

/**
 * True when the text holds a card number, in any script's digits and whatever shows nothing between
 * them:
 * - 13 to 19 digits in a row, spaces, dashes and line breaks aside, that begin as a payment card's
 *   do (PAYMENT_CARD_START) and pass the Luhn check; a run typed in groups is also searched group by
 *   group, so a card number with its expiry or a table number beside it ("4111 1111 1111 1111 1230")
 *   is still one;
 * - groups joined by one same other mark (MARKED_GROUPS) that pass the check;
 * - groups joined by marks that change (MIXED_GROUPS), and digits in a row that are a card number
 *   with its expiry or security code typed right after it (TYPED_ON), when the card number passes
 *   the check and begins as a card brand's numbers do.
 * A UUID is read as the identifier it is, so digits never run across its dashes.
 */
export function holdsCardNumber(text: string): boolean {
  const read = asRead(text);
  // Most text has far fewer digits than any card number; it is not searched further.
  return AT_LEAST_CARD_DIGITS.test(read) && readHoldsCardNumber(read);
}

/** holdsCardNumber of text already as it reads (asRead). */
function readHoldsCardNumber(read: string): boolean {
  for (const [run] of read.matchAll(DIGIT_RUN)) {
    if (someGroupsAre(run.split(/\D+/), isCardNumber)) return true;
  }
  for (const [run] of read.matchAll(MARKED_GROUPS)) {
    if (someGroupsAre(run.split(/\D+/), isCardNumber)) return true;
  }
  for (const [run] of read.matchAll(MIXED_GROUPS)) {
    if (someGroupsAre(run.split(/\D+/), isBrandCardNumber)) return true;
  }
  for (const [run] of read.matchAll(LONG_DIGITS)) {
    if (holdsTypedOnCardNumber(run)) return true;
  }
  return false;
}

/**
 * Whether text the engine would quote back might hold a card number: one by holdsCardNumber, or 13 or
 * more digits in a row (spaces, dashes and line breaks aside) whichever way they read. A quote
 * withheld for nothing costs a clearer message; one repeated wrongly would hand the number on.
 */
export function mightHoldCardNumber(text: string): boolean {
  const read = asRead(text);
  if (!AT_LEAST_CARD_DIGITS.test(read)) return false;
  for (const [run] of read.matchAll(DIGIT_RUN)) {
    if (run.replace(/\D/g, '').length >= CARD_DIGITS.min) return true;
  }
  return readHoldsCardNumber(read);
}
