/**
 * A swipe read without the reader's key, for a gateway that decrypts it itself: everything that can
 * be checked of the string is checked (form, CRC, encryption, KSN, a track read), and the card is
 * taken from the masked tracks the reader sends in the clear: the leading and last four digits, the
 * length, the expiry and the name. The encrypted tracks are left untouched.
 */
import { SWIPE_DISPLAY_MESSAGES, SWIPE_ERROR_CODES, type SwipeErrorCode } from './codes';
import { checkSwipeString } from './decoder';
import type { SwipeDecoder } from './swipe-decoder';
import { parseTrack1, parseTrack2, splitTracks, yymmToMmyy, type TrackCard } from './tracks';

type SwipeRead = ReturnType<SwipeDecoder['decode']>;

function refuse(errorCode: SwipeErrorCode): SwipeRead {
  return { ok: false, errorCode, message: SWIPE_DISPLAY_MESSAGES[errorCode] };
}

export function readMaskedSwipe(encryptedTrackData: string): SwipeRead {
  const checked = checkSwipeString(encryptedTrackData);
  if (!checked.ok) return checked;
  const { fields } = checked;
  const masked = splitTracks(fields.maskedTracks);
  const card1 = masked.track1 === undefined ? undefined : parseTrack1(masked.track1, { masked: true });
  const card2 = masked.track2 === undefined ? undefined : parseTrack2(masked.track2, { masked: true });
  const card: TrackCard | undefined = card1 ?? card2;
  if (!card) return refuse(SWIPE_ERROR_CODES.SWIPE_NOT_PAYMENT_CARD);
  const lastFour = card.pan.slice(-4);
  if (!/^\d{4}$/.test(lastFour) || !/^\d{4}/.test(card.pan))
    return refuse(SWIPE_ERROR_CODES.SWIPE_NOT_PAYMENT_CARD);
  if (card1 && card2 && (card1.pan !== card2.pan || card1.expYymm !== card2.expYymm))
    return refuse(SWIPE_ERROR_CODES.SWIPE_MISREAD);
  return {
    ok: true,
    masked: {
      // Masking writes 0 or another digit in place of the hidden ones, so only the first four, which
      // every masking leaves clear, are known to be the card's.
      leadingDigits: card.pan.slice(0, 4),
      lastFour,
      length: card.pan.length,
    },
    expMmyy: yymmToMmyy(card.expYymm),
    ...(card1?.name?.firstName && { firstName: card1.name.firstName }),
    ...(card1?.name?.lastName && { lastName: card1.name.lastName }),
    ksn: fields.ksn.toString('hex').toUpperCase(),
  };
}

/** A SwipeDecoder that never decrypts. */
export const MASKED_SWIPE_READER: SwipeDecoder = { decode: readMaskedSwipe };
