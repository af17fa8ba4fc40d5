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
import { SWIPE_DISPLAY_MESSAGES, SWIPE_ERROR_CODES, type SwipeErrorCode } from './codes';
import {
  ENCRYPTION_STATUS,
  isEncrypting,
  parseSwipeString,
  type SwipeStringFailure,
  type SwipeStringFields,
} from './format';
import type { SwipeDecoder } from './swipe-decoder';
import {
  parseTrack1,
  parseTrack2,
  readClearTrack,
  splitTracks,
  yymmToMmyy,
  type ClearTrackRead,
  type TrackNumber,
} from './tracks';

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

/** A track the reader sent, decrypted; undefined when it sent none. */
type TrackRead = ClearTrackRead | undefined;

/** TDES-CBC pads the last 8-byte block with zeros, so fewer than 8 of them can follow a track. */
const MAX_PADDING = 7;

/**
 * The decrypted track from its start sentinel to its end sentinel. Only zero padding may follow
 * the end sentinel: anything else there means the ciphertext was changed or misread.
 */
function clearTrack(decrypted: Buffer): string | undefined {
  const end = decrypted.indexOf(0x3f); // '?'
  if (end < 0) return undefined;
  const padding = decrypted.subarray(end + 1);
  if (padding.length > MAX_PADDING || !isAllZero(padding)) return undefined;
  return decrypted.subarray(0, end + 1).toString('latin1');
}

function readTrack(key: Buffer, ciphertext: Buffer, number: TrackNumber): TrackRead {
  if (ciphertext.length === 0) return undefined;
  const decrypted = tdesCbcDecrypt(key, ciphertext);
  try {
    const track = clearTrack(decrypted);
    return track === undefined ? { kind: 'malformed' } : readClearTrack(track, number);
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

/**
 * What can be checked of a swipe string without the reader's key: its form and CRC, that the reader
 * encrypts with keys left and a valid KSN, and that it read track 1 or 2.
 */
export function checkSwipeString(
  encryptedTrackData: string,
): { ok: true; fields: SwipeStringFields } | Failure {
  const parsed = parseSwipeString(encryptedTrackData);
  if (!parsed.ok) return refuse(STRING_FAILURES[parsed.failure]);
  const { fields } = parsed;
  const status = fields.encryptionStatus;
  if (status & ENCRYPTION_STATUS.KEYS_EXHAUSTED) return refuse(SWIPE_ERROR_CODES.SWIPE_KEYS_EXHAUSTED);
  if (!isEncrypting(status) || fields.ksn.length === 0 || isAllZero(fields.ksn))
    return refuse(SWIPE_ERROR_CODES.SWIPE_NOT_ENCRYPTED);
  if (!isValidKsnCounter(ksnCounter(fields.ksn))) return refuse(SWIPE_ERROR_CODES.SWIPE_INVALID_KSN);
  const [track1Cipher, track2Cipher] = fields.encryptedTracks;
  if (track1Cipher.length === 0 && track2Cipher.length === 0) return refuse(SWIPE_ERROR_CODES.SWIPE_BAD_READ);
  return { ok: true, fields };
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
    const checked = checkSwipeString(encryptedTrackData);
    if (!checked.ok) return checked;
    const { fields } = checked;
    const status = fields.encryptionStatus;
    const keyVariant: TrackKeyVariant = status & ENCRYPTION_STATUS.DATA_VARIANT ? 'data' : 'pin';
    const key = tdesTrackKey(this.#bdk, fields.ksn, keyVariant);
    let tracks: TrackRead[];
    try {
      tracks = ([1, 2, 3] as const).map((number) =>
        readTrack(key, fields.encryptedTracks[number - 1] ?? Buffer.alloc(0), number),
      );
    } finally {
      key.fill(0);
    }

    const read = tracks.filter((track) => track !== undefined);
    const malformed = read.filter((track) => track.kind === 'malformed');
    // A key that is not the reader's turns every track into noise; once one track reads cleanly the
    // key is right, and a track that does not was damaged on the stripe, in the reader or on its way.
    if (malformed.length === read.length) return refuse(SWIPE_ERROR_CODES.SWIPE_UNDECRYPTABLE);
    if (malformed.length > 0) return refuse(SWIPE_ERROR_CODES.SWIPE_MISREAD);

    const [track1, track2] = tracks;
    const card1 = track1?.kind === 'card' ? track1.card : undefined;
    const card2 = track2?.kind === 'card' ? track2.card : undefined;
    const card = card1 ?? card2;
    if (!card) return refuse(SWIPE_ERROR_CODES.SWIPE_NOT_PAYMENT_CARD);
    if (track1 && track2 && (card1?.pan !== card2?.pan || card1?.expYymm !== card2?.expYymm))
      return refuse(SWIPE_ERROR_CODES.SWIPE_MISREAD);
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
