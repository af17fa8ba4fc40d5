/** Tips on a tab: from a percentage of the check, rounded to the cent, and back. */

export function tipForPercent(checkCents: number, percent: number): number {
  return Math.round((checkCents * percent) / 100);
}

/** The tip as a share of the check, to one decimal: 18 for $4.50 on $25.00. */
export function percentOfCheck(checkCents: number, tipCents: number): number {
  if (checkCents <= 0) return 0;
  return Math.round((tipCents / checkCents) * 1000) / 10;
}

/** Which suggested percentage a tip is, if any (the one whose rounded tip it equals). */
export function matchingPercent(
  checkCents: number,
  tipCents: number,
  percents: readonly number[],
): number | undefined {
  if (tipCents === 0) return undefined;
  return percents.find((percent) => tipForPercent(checkCents, percent) === tipCents);
}

/**
 * A tip worth a second look before it is captured: above the share of the check the merchant set
 * (tip_warn_percent), or above the check itself.
 */
export function isLargeTip(checkCents: number, tipCents: number, warnPercent: number): boolean {
  return tipCents > checkCents || tipCents * 100 > checkCents * warnPercent;
}
