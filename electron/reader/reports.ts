/**
 * MagTek HID input reports (magtek.md sections 2 and 3), classified by their fixed length. These
 * readers use no report ids, so offset 0 is the first byte node-hid hands over.
 */

export const MAGNESAFE_REPORT_LENGTH = 856;
/** Newer V5 firmware appends the encryption counter, MagneSafe version and a hash of track 2. */
export const MAGNESAFE_EXTENDED_REPORT_LENGTH = 887;
export const SURESWIPE_REPORT_LENGTH = 337;

export const CARD_ENCODE_TYPES = {
  ISO_ABA: 0,
  AAMVA: 1,
  BLANK: 3,
  OTHER: 4,
  UNDETERMINED: 5,
  NONE: 6,
} as const;

type Three<T> = readonly [T, T, T];

export interface MagneSafeReport {
  kind: 'magnesafe';
  length: typeof MAGNESAFE_REPORT_LENGTH | typeof MAGNESAFE_EXTENDED_REPORT_LENGTH;
  /** Track 1, 2, 3 decode status bytes; bit 0 set means the reader could not decode the track. */
  trackStatus: Three<number>;
  encodeType: number;
  encryptedTracks: Three<Buffer>;
  cardStatus: number;
  /** The four MagnePrint status bytes as sent (a little-endian 32-bit value). */
  magnePrintStatus: Buffer;
  encryptedMagnePrint: Buffer;
  deviceSerial: string;
  /** Bit 0 keys exhausted, 1 key injected, 2 encryption on, 11 data variant for tracks. */
  encryptionStatus: number;
  ksn: Buffer;
  maskedTracks: Three<string>;
  encryptedSessionId: Buffer;
  /** Usable bytes of each track after decryption. */
  absoluteLengths: Three<number>;
  magnePrintAbsoluteLength: number;
  /** 887-byte reports only. */
  encryptionCounter?: number;
  /** 887-byte reports only. */
  magneSafeVersion?: string;
}

/**
 * A legacy SureSwipe report carries the tracks in clear. Only their statuses and lengths are kept:
 * the card data itself is refused, so it is never copied out of the report.
 */
export interface SureSwipeReport {
  kind: 'sureswipe';
  trackStatus: Three<number>;
  trackLengths: Three<number>;
  encodeType: number;
}

export type ParsedReport = MagneSafeReport | SureSwipeReport;

export type ReportParse =
  | { ok: true; report: ParsedReport }
  | { ok: false; problem: 'unexpected-length' | 'inconsistent-lengths'; length: number };

const TRACK_BYTES = 112;
const MAGNEPRINT_BYTES = 128;
const SURESWIPE_TRACK_BYTES = 110;
/** Byte offsets of the legacy SureSwipe report. */
export const SURESWIPE_OFFSETS = {
  trackStatus: 0,
  trackLengths: 3,
  encodeType: 6,
  tracks: [7, 117, 227],
} as const;

/** Byte offsets of the MagneSafe V5 report (magtek.md section 2). */
export const MAGNESAFE_OFFSETS = {
  trackStatus: 0,
  encryptedLengths: 3,
  encodeType: 6,
  encryptedTracks: [7, 119, 231],
  cardStatus: 343,
  magnePrintStatus: 344,
  magnePrintLength: 348,
  magnePrint: 349,
  serial: 477,
  serialBytes: 16,
  encryptionStatus: 493,
  ksn: 495,
  ksnBytes: 10,
  maskedLengths: 505,
  maskedTracks: [508, 620, 732],
  sessionId: 844,
  sessionIdBytes: 8,
  absoluteLengths: 852,
  magnePrintAbsoluteLength: 855,
  encryptionCounter: 856,
  version: 859,
  versionBytes: 8,
  track2Hash: 867,
} as const;

function three<T>(make: (track: 0 | 1 | 2) => T): Three<T> {
  return [make(0), make(1), make(2)];
}

function ascii(bytes: Buffer): string {
  const end = bytes.indexOf(0);
  return bytes.subarray(0, end < 0 ? bytes.length : end).toString('latin1');
}

function byte(bytes: Buffer, offset: number): number {
  return bytes[offset] ?? 0;
}

export function parseReport(input: Uint8Array): ReportParse {
  const bytes = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  switch (bytes.length) {
    case MAGNESAFE_REPORT_LENGTH:
    case MAGNESAFE_EXTENDED_REPORT_LENGTH:
      return parseMagneSafe(bytes);
    case SURESWIPE_REPORT_LENGTH:
      return parseSureSwipe(bytes);
    default:
      return { ok: false, problem: 'unexpected-length', length: bytes.length };
  }
}

function parseMagneSafe(bytes: Buffer): ReportParse {
  const encryptedLengths = three((t) => byte(bytes, MAGNESAFE_OFFSETS.encryptedLengths + t));
  const maskedLengths = three((t) => byte(bytes, MAGNESAFE_OFFSETS.maskedLengths + t));
  const magnePrintLength = byte(bytes, MAGNESAFE_OFFSETS.magnePrintLength);
  if (
    [...encryptedLengths, ...maskedLengths].some((length) => length > TRACK_BYTES) ||
    magnePrintLength > MAGNEPRINT_BYTES
  )
    return { ok: false, problem: 'inconsistent-lengths', length: bytes.length };
  // Copies, so that nothing parsed keeps the device's buffer alive or sees it change.
  const slice = (offset: number, length: number): Buffer =>
    Buffer.from(bytes.subarray(offset, offset + length));
  const extended = bytes.length === MAGNESAFE_EXTENDED_REPORT_LENGTH;
  const report: MagneSafeReport = {
    kind: 'magnesafe',
    length: extended ? MAGNESAFE_EXTENDED_REPORT_LENGTH : MAGNESAFE_REPORT_LENGTH,
    trackStatus: three((t) => byte(bytes, MAGNESAFE_OFFSETS.trackStatus + t)),
    encodeType: byte(bytes, MAGNESAFE_OFFSETS.encodeType),
    encryptedTracks: three((t) => slice(MAGNESAFE_OFFSETS.encryptedTracks[t], encryptedLengths[t])),
    cardStatus: byte(bytes, MAGNESAFE_OFFSETS.cardStatus),
    magnePrintStatus: slice(MAGNESAFE_OFFSETS.magnePrintStatus, 4),
    encryptedMagnePrint: slice(MAGNESAFE_OFFSETS.magnePrint, magnePrintLength),
    deviceSerial: ascii(
      bytes.subarray(MAGNESAFE_OFFSETS.serial, MAGNESAFE_OFFSETS.serial + MAGNESAFE_OFFSETS.serialBytes),
    ),
    // High byte first in the report: the manual's encrypting sample reads 00 06 (key injected, encryption on).
    encryptionStatus: bytes.readUInt16BE(MAGNESAFE_OFFSETS.encryptionStatus),
    ksn: slice(MAGNESAFE_OFFSETS.ksn, MAGNESAFE_OFFSETS.ksnBytes),
    maskedTracks: three((t) =>
      bytes
        .subarray(MAGNESAFE_OFFSETS.maskedTracks[t], MAGNESAFE_OFFSETS.maskedTracks[t] + maskedLengths[t])
        .toString('latin1'),
    ),
    encryptedSessionId: slice(MAGNESAFE_OFFSETS.sessionId, MAGNESAFE_OFFSETS.sessionIdBytes),
    absoluteLengths: three((t) => byte(bytes, MAGNESAFE_OFFSETS.absoluteLengths + t)),
    magnePrintAbsoluteLength: byte(bytes, MAGNESAFE_OFFSETS.magnePrintAbsoluteLength),
  };
  // The extended report also ends with a SHA-1 of track 2. Tender never uses it, and an unkeyed hash
  // of track 2 can be brute-forced back to the card number, so it is not carried further.
  if (extended) {
    report.encryptionCounter = bytes.readUIntBE(MAGNESAFE_OFFSETS.encryptionCounter, 3);
    report.magneSafeVersion = ascii(
      bytes.subarray(MAGNESAFE_OFFSETS.version, MAGNESAFE_OFFSETS.version + MAGNESAFE_OFFSETS.versionBytes),
    );
  }
  return { ok: true, report };
}

function parseSureSwipe(bytes: Buffer): ReportParse {
  const trackLengths = three((t) => byte(bytes, SURESWIPE_OFFSETS.trackLengths + t));
  if (trackLengths.some((length) => length > SURESWIPE_TRACK_BYTES))
    return { ok: false, problem: 'inconsistent-lengths', length: bytes.length };
  return {
    ok: true,
    report: {
      kind: 'sureswipe',
      trackStatus: three((t) => byte(bytes, SURESWIPE_OFFSETS.trackStatus + t)),
      trackLengths,
      encodeType: byte(bytes, SURESWIPE_OFFSETS.encodeType),
    },
  };
}

/** Bit 0 of a track's decode status: the reader saw the track but could not decode it. */
export function trackDecodeFailed(status: number): boolean {
  return (status & 1) !== 0;
}
