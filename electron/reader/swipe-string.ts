/**
 * From a MagneSafe report to what leaves the reader module: the encrypted swipe string for the
 * engine (encrypted_track_data, track_format MAGTEK) and what the screen may show, taken from the
 * masked tracks only.
 */
import { cardBrand, maskLastFour, type CardBrand } from '../../shared/cards';
import { formatSwipeString } from '../gateway/swipe/format';
import { displayName, parseTrack1, parseTrack2, yymmToMmyy, type TrackCard } from '../gateway/swipe/tracks';
import type { MagneSafeReport } from './reports';

export const DEFAULT_FORMAT_CODE = '0000';

export interface SwipeDisplay {
  /** Only the last four digits visible, like every card number Tender shows. */
  maskedPan: string;
  lastFour: string;
  brand: CardBrand;
  /** "PAUL HOGAN", from track 1. */
  cardholderName?: string;
  firstName?: string;
  lastName?: string;
  /** MMYY. */
  expMmyy?: string;
}

export function buildSwipeString(report: MagneSafeReport): string {
  return formatSwipeString({
    maskedTracks: report.maskedTracks.join(''),
    encryptionStatus: report.encryptionStatus,
    encryptedTracks: report.encryptedTracks,
    magnePrintStatus: report.magnePrintStatus,
    encryptedMagnePrint: report.encryptedMagnePrint,
    deviceSerial: report.deviceSerial,
    encryptedSessionId: report.encryptedSessionId,
    ksn: report.ksn,
    encryptedCrc: Buffer.alloc(0),
    formatCode: DEFAULT_FORMAT_CODE,
  });
}

/** What a screen may show of the swipe; undefined when neither masked track 1 nor 2 holds a card. */
export function swipeDisplay(report: MagneSafeReport): SwipeDisplay | undefined {
  const [masked1, masked2] = report.maskedTracks;
  const track1 = parseTrack1(masked1, { masked: true });
  const card: TrackCard | undefined = track1 ?? parseTrack2(masked2, { masked: true });
  if (!card) return undefined;
  const lastFour = card.pan.slice(-4);
  if (!/^\d{4}$/.test(lastFour)) return undefined;
  const name = track1?.name;
  const cardholderName = displayName(name);
  return {
    maskedPan: maskLastFour(lastFour, card.pan.length),
    lastFour,
    // The first four digits stay clear in MagTek's masking, enough for the brand.
    brand: cardBrand(card.pan),
    ...(cardholderName && { cardholderName }),
    ...(name?.firstName && { firstName: name.firstName }),
    ...(name?.lastName && { lastName: name.lastName }),
    expMmyy: yymmToMmyy(card.expYymm),
  };
}
