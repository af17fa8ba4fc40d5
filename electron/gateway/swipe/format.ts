/**
 * The MagTek encrypted swipe string (magtek.md section 5): the value of encrypted_track_data with
 * track_format MAGTEK. The reader module writes it from a HID report and the engine reads it, both
 * through this one definition of the format.
 */
import { crc16CcittFalse, hexLowByteFirst, readHexLowByteFirst } from './crc';

/** Bits of the reader encryption status. Tracks are encrypted only when key injected and encryption on are both set. */
export const ENCRYPTION_STATUS = {
  KEYS_EXHAUSTED: 1 << 0,
  KEY_INJECTED: 1 << 1,
  ENCRYPTION_ENABLED: 1 << 2,
  /** Tracks encrypted with the data variant of the DUKPT key instead of the PIN variant. */
  DATA_VARIANT: 1 << 11,
} as const;

/** True when the status says the tracks are encrypted. */
export function isEncrypting(encryptionStatus: number): boolean {
  const both = ENCRYPTION_STATUS.KEY_INJECTED | ENCRYPTION_STATUS.ENCRYPTION_ENABLED;
  return (encryptionStatus & both) === both;
}

export interface SwipeStringFields {
  /** Masked tracks 1, 2 and 3, each with its sentinels, concatenated. */
  maskedTracks: string;
  /** Reader encryption status (ENCRYPTION_STATUS bits); written low byte first like every 16-bit value of the string. */
  encryptionStatus: number;
  encryptedTracks: readonly [Buffer, Buffer, Buffer];
  /** The four MagnePrint status bytes in the order the reader sends them. */
  magnePrintStatus: Buffer;
  encryptedMagnePrint: Buffer;
  deviceSerial: string;
  encryptedSessionId: Buffer;
  ksn: Buffer;
  /** Usually empty. */
  encryptedCrc: Buffer;
  formatCode: string;
}

/** Why a string is not a usable swipe string; the decoder turns each into its error code. */
export type SwipeStringFailure = 'malformed' | 'truncated' | 'tampered' | 'clear-tracks';

export type SwipeStringParse =
  { ok: true; fields: SwipeStringFields } | { ok: false; failure: SwipeStringFailure };

export const SWIPE_STRING_FIELD_COUNT = 13;
const CRC_FIELD = 10;
const ENCRYPTED_CRC_FIELD = 11;
const FORMAT_CODE_FIELD = 12;
/** Far above any real swipe (about 1,300 characters), low enough to bound the work on garbage. */
const MAX_SWIPE_STRING_LENGTH = 4096;
const TRACK_FIELD_BYTES = 112;

interface FieldShape {
  /** The whole field. */
  full: RegExp;
  /** What the field can look like when the string was cut inside it. */
  cut: RegExp;
}

const text = (max: number): FieldShape => {
  const shape = new RegExp(`^[\\x20-\\x7b\\x7d\\x7e]{0,${max}}$`);
  return { full: shape, cut: shape };
};
const hex = (full: RegExp, maxDigits: number): FieldShape => ({
  full,
  cut: new RegExp(`^[0-9A-Fa-f]{0,${maxDigits}}$`),
});
const encryptedTrack = hex(/^(?:[0-9A-Fa-f]{16}){0,14}$/, TRACK_FIELD_BYTES * 2);

/** Field shapes in string order. Track characters never include `|`, so the split is unambiguous. */
const FIELD_SHAPES: readonly FieldShape[] = [
  text(3 * TRACK_FIELD_BYTES),
  hex(/^[0-9A-Fa-f]{4}$/, 4),
  encryptedTrack,
  encryptedTrack,
  encryptedTrack,
  hex(/^[0-9A-Fa-f]{8}$/, 8),
  hex(/^(?:[0-9A-Fa-f]{2}){0,128}$/, 256),
  text(16),
  hex(/^(?:[0-9A-Fa-f]{16})?$/, 16),
  hex(/^(?:[0-9A-Fa-f]{20})?$/, 20),
  hex(/^[0-9A-Fa-f]{4}$/, 4),
  hex(/^(?:[0-9A-Fa-f]{2}){0,64}$/, 128),
  { full: /^[\x21-\x7b\x7d\x7e]{4}$/, cut: /^[\x21-\x7b\x7d\x7e]{0,4}$/ },
];

function shape(index: number): FieldShape {
  const found = FIELD_SHAPES[index];
  if (!found) throw new RangeError(`no swipe string field ${index}`);
  return found;
}

function crcOver(prefix: string): string {
  return hexLowByteFirst(crc16CcittFalse(Buffer.from(prefix, 'latin1')));
}

function toHex(bytes: Buffer): string {
  return bytes.toString('hex').toUpperCase();
}

/** Writes the string, CRC included, without the CR a keyboard reader would end it with. */
export function formatSwipeString(fields: SwipeStringFields): string {
  const covered = [
    fields.maskedTracks,
    hexLowByteFirst(fields.encryptionStatus),
    ...fields.encryptedTracks.map(toHex),
    toHex(fields.magnePrintStatus),
    toHex(fields.encryptedMagnePrint),
    fields.deviceSerial,
    toHex(fields.encryptedSessionId),
    toHex(fields.ksn),
  ];
  covered.forEach((value, index) => {
    if (!shape(index).full.test(value))
      throw new RangeError(`swipe string field ${index + 1} does not have the MagTek form`);
  });
  const prefix = `${covered.join('|')}|`;
  const tail = [toHex(fields.encryptedCrc), fields.formatCode];
  if (
    !shape(ENCRYPTED_CRC_FIELD).full.test(tail[0] ?? '') ||
    !shape(FORMAT_CODE_FIELD).full.test(tail[1] ?? '')
  )
    throw new RangeError('the encrypted CRC or the format code does not have the MagTek form');
  return `${prefix}${crcOver(prefix)}|${tail.join('|')}`;
}

/**
 * Reads a swipe string. The CRC is checked before the fields' shapes, so that any change to the
 * covered text, even one that keeps every field well formed, shows as tampering.
 */
export function parseSwipeString(input: string): SwipeStringParse {
  const body = input.replace(/(?:\r\n|\r|\n)$/, '');
  if (body.length > MAX_SWIPE_STRING_LENGTH || !/^[\x20-\x7e]*$/.test(body))
    return { ok: false, failure: 'malformed' };
  const parts = body.split('|');
  if (parts.length === 1) {
    // Sentinel-framed tracks without any `|` are what a non-encrypting keyboard reader types.
    return { ok: false, failure: /^[%;+][^?]*\?/.test(body) ? 'clear-tracks' : 'malformed' };
  }
  if (parts.length > SWIPE_STRING_FIELD_COUNT) return { ok: false, failure: 'malformed' };
  const last = parts.length - 1;
  if (parts.length < SWIPE_STRING_FIELD_COUNT || !shape(last).full.test(parts[last] ?? '')) {
    // A real swipe always starts with masked tracks (or their error marks), so a bare run of `|` is garbage.
    const cut =
      parts[0] !== '' &&
      parts.every((part, index) =>
        index === last ? shape(index).cut.test(part) : shape(index).full.test(part),
      );
    return { ok: false, failure: cut ? 'truncated' : 'malformed' };
  }
  const crc = parts[CRC_FIELD] ?? '';
  if (!shape(CRC_FIELD).full.test(crc)) return { ok: false, failure: 'malformed' };
  const prefix = `${parts.slice(0, CRC_FIELD).join('|')}|`;
  if (crcOver(prefix) !== crc.toUpperCase()) return { ok: false, failure: 'tampered' };
  if (!parts.every((part, index) => shape(index).full.test(part))) return { ok: false, failure: 'malformed' };
  const field = (index: number): string => parts[index] ?? '';
  const bytes = (index: number): Buffer => Buffer.from(field(index), 'hex');
  return {
    ok: true,
    fields: {
      maskedTracks: field(0),
      encryptionStatus: readHexLowByteFirst(field(1)),
      encryptedTracks: [bytes(2), bytes(3), bytes(4)],
      magnePrintStatus: bytes(5),
      encryptedMagnePrint: bytes(6),
      deviceSerial: field(7),
      encryptedSessionId: bytes(8),
      ksn: bytes(9),
      encryptedCrc: bytes(ENCRYPTED_CRC_FIELD),
      formatCode: field(FORMAT_CODE_FIELD),
    },
  };
}
