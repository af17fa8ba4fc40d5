/** Card expiry dates: MMYY, valid through the last day of the month printed on the card. */

export interface Expiry {
  month: number;
  /** Four-digit year. */
  year: number;
}

export type ExpiryCheck = { ok: true; expiry: Expiry } | { ok: false; message: string };

/** Reads MMYY and checks it against the terminal's current month. */
export function checkExpiry(mmyy: string, now: Date): ExpiryCheck {
  if (!/^\d{4}$/.test(mmyy)) return { ok: false, message: 'exp_date must be four digits MMYY, like 0429' };
  const month = Number(mmyy.slice(0, 2));
  const year = 2000 + Number(mmyy.slice(2));
  if (month < 1 || month > 12)
    return { ok: false, message: `exp_date month ${mmyy.slice(0, 2)} is not 01 to 12` };
  const printed = `${mmyy.slice(0, 2)}/${mmyy.slice(2)}`;
  if (year * 12 + month < now.getFullYear() * 12 + now.getMonth() + 1) {
    return { ok: false, message: `card expired ${printed}. Ask for another card.` };
  }
  return { ok: true, expiry: { month, year } };
}
