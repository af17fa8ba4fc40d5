/** Tips on a tab: from a percentage of the check, rounded to the cent, and back. */
import { tipForPercent } from '../../../shared/tips';

export { isLargeTip, percentOfCheck, tipForPercent } from '../../../shared/tips';

/** Which suggested percentage a tip is, if any (the one whose rounded tip it equals). */
export function matchingPercent(
  checkCents: number,
  tipCents: number,
  percents: readonly number[],
): number | undefined {
  if (tipCents === 0) return undefined;
  return percents.find((percent) => tipForPercent(checkCents, percent) === tipCents);
}
