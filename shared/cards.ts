/** Card-number facts that both the engine and the cashier screens need. Pure functions, no I/O. */

export type CardBrand =
  'visa' | 'mastercard' | 'amex' | 'discover' | 'diners' | 'jcb' | 'unionpay' | 'unknown';

/** The Luhn (mod 10) check digit test every payment card number passes. */
export function passesLuhn(pan: string): boolean {
  if (!/^\d+$/.test(pan)) return false;
  let sum = 0;
  let double = false;
  for (let i = pan.length - 1; i >= 0; i--) {
    let digit = pan.charCodeAt(i) - 48;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return sum % 10 === 0;
}

/** The brand, from the card's leading digits (IIN ranges). */
export function cardBrand(pan: string): CardBrand {
  const two = Number(pan.slice(0, 2));
  const four = Number(pan.slice(0, 4));
  const six = Number(pan.slice(0, 6));
  if (pan.startsWith('4')) return 'visa';
  if ((two >= 51 && two <= 55) || (six >= 222100 && six <= 272099)) return 'mastercard';
  if (two === 34 || two === 37) return 'amex';
  if (
    pan.startsWith('6011') ||
    pan.startsWith('65') ||
    (six >= 622126 && six <= 622925) ||
    (two === 64 && Number(pan[2]) >= 4)
  )
    return 'discover';
  if (two === 36 || two === 38 || two === 39 || (four >= 3000 && four <= 3059)) return 'diners';
  if (four >= 3528 && four <= 3589) return 'jcb';
  if (two === 62) return 'unionpay';
  return 'unknown';
}

/** The security code length a brand prints: four digits on American Express, three elsewhere. */
export function cscLength(brand: CardBrand): 3 | 4 {
  return brand === 'amex' ? 4 : 3;
}

/** "4111111111111111" → "************1111": only the last four digits stay visible. */
export function maskPan(pan: string): string {
  return maskLastFour(pan.slice(-4), pan.length);
}

/** A mask of the given length that shows only the last four digits. */
export function maskLastFour(lastFour: string, length = 16): string {
  return '*'.repeat(Math.max(length - lastFour.length, 0)) + lastFour;
}

const BRAND_LABELS: Record<CardBrand, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  diners: 'Diners Club',
  jcb: 'JCB',
  unionpay: 'UnionPay',
  unknown: 'Card',
};

export function brandLabel(brand: CardBrand): string {
  return BRAND_LABELS[brand];
}
