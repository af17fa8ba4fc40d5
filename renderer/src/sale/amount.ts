/**
 * The keypad's amount: digits push in from the right, as on a cash register, so "1", "2", "5", "0"
 * reads $0.01, $0.12, $1.25, $12.50 and no decimal point is ever typed.
 */
import { MAX_AMOUNT_CENTS } from '../../../shared/money';

export type AmountKey = '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9' | '00';

export function isAmountKey(key: string): key is AmountKey {
  return /^(\d|00)$/.test(key);
}

/** The amount after pressing a digit key; a press that would pass the largest amount is ignored. */
export function pressAmountKey(cents: number, key: AmountKey): number {
  const next = cents * 10 ** key.length + Number(key);
  return next > MAX_AMOUNT_CENTS ? cents : next;
}

export function pressBackspace(cents: number): number {
  return Math.floor(cents / 10);
}
