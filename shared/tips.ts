/**
 * The tips a customer is offered at a counter sale, and when a tip asks to be confirmed. Used alike
 * by the host (which checks what the customer's screen sends), the customer's screen and the
 * cashier's, so that all three agree to the cent.
 */

/** A tip of `percent` on `checkCents`, rounded to the nearest cent (half up). */
export function tipForPercent(checkCents: number, percent: number): number {
  return Math.round((checkCents * percent) / 100);
}

/**
 * A tip worth a second look: above the share of the check the merchant set (tip_warn_percent), or
 * above the check itself.
 */
export function isLargeTip(checkCents: number, tipCents: number, warnPercent: number): boolean {
  return tipCents > checkCents || tipCents * 100 > checkCents * warnPercent;
}

/**
 * Whether a tip chosen at the counter asks to be confirmed: one typed in (or not among the
 * suggestions) above tip_warn_percent. A suggestion is the merchant's own figure, shown in dollars
 * before it was tapped: a fixed $2.00 on a $6.50 coffee is what smart tipping offers, not a slip.
 */
export function needsTipConfirm(
  checkCents: number,
  tipCents: number,
  warnPercent: number,
  suggestions: readonly { cents: number }[],
): boolean {
  if (suggestions.some((suggestion) => suggestion.cents === tipCents)) return false;
  return isLargeTip(checkCents, tipCents, warnPercent);
}

/** How many suggestions the customer is shown, beside Custom and No tip. */
export const TIP_SUGGESTIONS_SHOWN = 3;

export type TipSuggestion =
  | { kind: 'percent'; percent: number; cents: number }
  /** Smart tipping: below a threshold, a percentage of a small check is a few cents; dollars read better. */
  | { kind: 'fixed'; cents: number };

export interface TipOffer {
  /** The suggested percentages, in the order the merchant set them. */
  percentages: readonly number[];
  /** Below this check amount the suggestions are fixed amounts instead; 0 never. */
  fixedBelowCents: number;
  fixedAmountsCents: readonly number[];
}

/** The suggestions for a check: three percentages with what each comes to, or below the threshold fixed amounts. */
export function tipSuggestions(checkCents: number, offer: TipOffer): TipSuggestion[] {
  if (checkCents < offer.fixedBelowCents && offer.fixedAmountsCents.length > 0) {
    return offer.fixedAmountsCents
      .slice(0, TIP_SUGGESTIONS_SHOWN)
      .map((cents) => ({ kind: 'fixed', cents }) as const);
  }
  return offer.percentages
    .slice(0, TIP_SUGGESTIONS_SHOWN)
    .map((percent) => ({ kind: 'percent', percent, cents: tipForPercent(checkCents, percent) }) as const);
}

/** The tip as a share of the check, to one decimal: 18 for $4.50 on $25.00. */
export function percentOfCheck(checkCents: number, tipCents: number): number {
  if (checkCents <= 0) return 0;
  return Math.round((tipCents / checkCents) * 1000) / 10;
}

/**
 * The `description` (the interface's "purpose of the transaction") of both requests of a counter
 * sale tipped before the card, its AUTH of the total and the CAPTURE that follows at once. Receipts
 * read it to print the capture as the SALE the customer made, not as a tab they never opened.
 */
export const COUNTER_SALE_WITH_TIP = 'Counter sale with tip';

/**
 * Whether `t` is the AUTH or the CAPTURE of a counter sale tipped before the card: a sale the
 * customer made, who opened no tab. Lists mark both (`counter_sale`); receipts print the capture as
 * a SALE and neither as a tab.
 */
export function isCounterSaleWithTip(t: { type: string | null; description: string | null }): boolean {
  return t.description === COUNTER_SALE_WITH_TIP && (t.type === 'Auth' || t.type === 'Capture');
}
