/**
 * The engine's side of a MagTek swipe: checks the swipe string, derives the reader's DUKPT key from
 * the BDK, decrypts the tracks and reads card number, expiry and name. Results and messages carry no
 * track data; decrypted buffers are wiped as soon as they are read.
 */
import {
  isValidKsnCounter,
  ksnCounter,
  tdesCbcDecrypt,
  tdesTrackKey,
  type TrackKeyVariant,
} from '../crypto/dukpt';
import type { SwipeDecoder } from '../transactions';
import { SWIPE_DISPLAY_MESSAGES, SWIPE_ERROR_CODES, type SwipeErrorCode } from './codes';
import { ENCRYPTION_STATUS, isEncrypting, parseSwipeString, type SwipeStringFailure } from './format';
import { parseTrack1, parseTrack2, splitTracks, yymmToMmyy, type TrackCard } from './tracks';

export type SwipeDecodeResult =
  | {
      ok: true;
      pan: string;
      /** MMYY, as exp_date takes it. */
      expMmyy: string;
      firstName?: string;
      lastName?: string;
      /**
       * The KSN, 20 upper-case hex digits. It differs on every swipe of a reader, so an engine that
       * has seen it before is looking at a replayed swipe (SWIPE_REPLAYED).
       */
      ksn: string;
      keyVariant: TrackKeyVariant;
      /** The track the card number and expiry came from. */
      track: 1 | 2;
    }
  | { ok: false; errorCode: SwipeErrorCode; message: string };

type Failure = Extract<SwipeDecodeResult, { ok: false }>;

function refuse(errorCode: SwipeErrorCode): Failure {
  return { ok: false, errorCode, message: SWIPE_DISPLAY_MESSAGES[errorCode] };
}

const STRING_FAILURES: Record<SwipeStringFailure, SwipeErrorCode> = {
  malformed: SWIPE_ERROR_CODES.SWIPE_MALFORMED,
  truncated: SWIPE_ERROR_CODES.SWIPE_TRUNCATED,
  tampered: SWIPE_ERROR_CODES.SWIPE_TAMPERED,
  'clear-tracks': SWIPE_ERROR_CODES.SWIPE_NOT_ENCRYPTED,
};

/** Outcome of decrypting one track. */
type TrackRead = { card: TrackCard } | { notPaymentCard: true } | undefined;

/** The decrypted track from its start sentinel to its end sentinel, if it is printable text. */
function clearTrack(decrypted: Buffer): string | undefined {
  const end = decrypted.indexOf(0x3f); // '?'
  if (end < 0) return undefined;
  const track = decrypted.subarray(0, end + 1);
  if (!track.every((byte) => byte >= 0x20 && byte <= 0x7e)) return undefined;
  return track.toString('latin1');
}

function readTrack(
  key: Buffer,
  ciphertext: Buffer,
  parse: (track: string) => TrackCard | undefined,
  sentinels: string,
): TrackRead {
  if (ciphertext.length === 0) return undefined;
  const decrypted = tdesCbcDecrypt(key, ciphertext);
  try {
    const track = clearTrack(decrypted);
    if (track === undefined || !sentinels.includes(track[0] ?? '')) return undefined;
    const card = parse(track);
    return card ? { card } : { notPaymentCard: true };
  } finally {
    decrypted.fill(0);
  }
}

function isAllZero(bytes: Buffer): boolean {
  return bytes.every((byte) => byte === 0);
}

/**
 * The masked tracks are what the cashier was shown; the CRC is no signature, so a forged string could
 * pair one card's masked data with another's ciphertext. The last four digits must agree.
 */
function matchesMaskedTracks(maskedTracks: string, pan: string): boolean {
  const masked = splitTracks(maskedTracks);
  const shown = [
    masked.track1 === undefined ? undefined : parseTrack1(masked.track1, { masked: true }),
    masked.track2 === undefined ? undefined : parseTrack2(masked.track2, { masked: true }),
  ];
  return shown.every((card) => card === undefined || card.pan.slice(-4) === pan.slice(-4));
}

export class MagtekSwipeDecoder implements SwipeDecoder {
  // A private field, so that the key never shows in util.inspect, JSON or a debugger's summary.
  readonly #bdk: Buffer;

  /** @param bdkHex the double-length TDES base derivation key, 32 hex digits. */
  constructor(bdkHex: string) {
    if (!/^[0-9A-Fa-f]{32}$/.test(bdkHex))
      throw new RangeError('The BDK must be 32 hex digits (a double-length TDES key).');
    this.#bdk = Buffer.from(bdkHex, 'hex');
  }

  decode(encryptedTrackData: string): SwipeDecodeResult {
    const parsed = parseSwipeString(encryptedTrackData);
    if (!parsed.ok) return refuse(STRING_FAILURES[parsed.failure]);
    const { fields } = parsed;
    const status = fields.encryptionStatus;
    if (status & ENCRYPTION_STATUS.KEYS_EXHAUSTED) return refuse(SWIPE_ERROR_CODES.SWIPE_KEYS_EXHAUSTED);
    if (!isEncrypting(status) || fields.ksn.length === 0 || isAllZero(fields.ksn))
      return refuse(SWIPE_ERROR_CODES.SWIPE_NOT_ENCRYPTED);
    if (!isValidKsnCounter(ksnCounter(fields.ksn))) return refuse(SWIPE_ERROR_CODES.SWIPE_INVALID_KSN);

    const [track1Cipher, track2Cipher] = fields.encryptedTracks;
    if (track1Cipher.length === 0 && track2Cipher.length === 0)
      return refuse(SWIPE_ERROR_CODES.SWIPE_BAD_READ);

    const keyVariant: TrackKeyVariant = status & ENCRYPTION_STATUS.DATA_VARIANT ? 'data' : 'pin';
    const key = tdesTrackKey(this.#bdk, fields.ksn, keyVariant);
    let track1: TrackRead;
    let track2: TrackRead;
    try {
      track1 = readTrack(key, track1Cipher, (track) => parseTrack1(track), '%');
      track2 = readTrack(key, track2Cipher, (track) => parseTrack2(track), ';');
    } finally {
      key.fill(0);
    }

    const card1 = track1 && 'card' in track1 ? track1.card : undefined;
    const card2 = track2 && 'card' in track2 ? track2.card : undefined;
    const card = card1 ?? card2;
    if (!card) {
      const readable = (track1 && 'notPaymentCard' in track1) || (track2 && 'notPaymentCard' in track2);
      return refuse(
        readable ? SWIPE_ERROR_CODES.SWIPE_NOT_PAYMENT_CARD : SWIPE_ERROR_CODES.SWIPE_UNDECRYPTABLE,
      );
    }
    if (card1 && card2 && (card1.pan !== card2.pan || card1.expYymm !== card2.expYymm))
      return refuse(SWIPE_ERROR_CODES.SWIPE_UNDECRYPTABLE);
    if (!matchesMaskedTracks(fields.maskedTracks, card.pan)) return refuse(SWIPE_ERROR_CODES.SWIPE_TAMPERED);

    return {
      ok: true,
      pan: card.pan,
      expMmyy: yymmToMmyy(card.expYymm),
      ...(card1?.name?.firstName && { firstName: card1.name.firstName }),
      ...(card1?.name?.lastName && { lastName: card1.name.lastName }),
      ksn: fields.ksn.toString('hex').toUpperCase(),
      keyVariant,
      track: card1 ? 1 : 2,
    };
  }
}
