/**
 * The customer's signature as the strokes of a finger or a mouse on the signing pad, in pad units
 * (a pad of 1200 by 400, whatever the size of the screen it was drawn on). Strokes are all a
 * signature is: numbers, never text, so nothing of a card can be in one.
 *
 * Kept with the transaction in a compact binary form (a few hundred bytes for a usual signature):
 * a format byte, the number of strokes, then for each its number of points, its first point, and
 * each further point as the step from the one before (zigzag varints, since steps are small).
 */
import { z } from 'zod';

/** The pad's size in its own units: three to one, the shape of a signature line. */
export const SIGNATURE_PAD = { width: 1200, height: 400 } as const;

/** Enough for any real signature, bounded so that one message on the bridge stays small. */
export const MAX_SIGNATURE_STROKES = 100;
export const MAX_SIGNATURE_POINTS = 3000;

/**
 * The least ink that counts as a signature, in pad units of path length: a tap or a dot is not one.
 * A short initial is about ten times this.
 */
export const MIN_SIGNATURE_INK = 60;

const FORMAT = 1;

/** One stroke: x0, y0, x1, y1, ... in pad units, from the finger touching the pad to it lifting. */
export type SignatureStroke = readonly number[];

function pointsWithinPad(stroke: readonly number[]): boolean {
  for (let i = 0; i < stroke.length; i += 2) {
    if ((stroke[i] ?? -1) >= SIGNATURE_PAD.width || (stroke[i + 1] ?? -1) >= SIGNATURE_PAD.height)
      return false;
  }
  return true;
}

export const signatureStrokesSchema = z
  .array(
    z
      .array(
        z
          .number()
          .int()
          .min(0)
          .max(SIGNATURE_PAD.width - 1),
      )
      .min(2)
      .max(MAX_SIGNATURE_POINTS * 2)
      .refine((stroke) => stroke.length % 2 === 0, 'a stroke is pairs of x and y')
      .refine(
        pointsWithinPad,
        `every point must lie on the ${SIGNATURE_PAD.width} by ${SIGNATURE_PAD.height} pad`,
      ),
  )
  .min(1)
  .max(MAX_SIGNATURE_STROKES)
  .refine(
    (strokes) => strokes.reduce((sum, stroke) => sum + stroke.length / 2, 0) <= MAX_SIGNATURE_POINTS,
    `a signature has at most ${MAX_SIGNATURE_POINTS} points`,
  );

/** The length of every stroke's path, added up: how much was drawn. */
export function inkLength(strokes: readonly SignatureStroke[]): number {
  let length = 0;
  for (const stroke of strokes) {
    for (let i = 2; i + 1 < stroke.length; i += 2) {
      length += Math.hypot(
        (stroke[i] ?? 0) - (stroke[i - 2] ?? 0),
        (stroke[i + 1] ?? 0) - (stroke[i - 1] ?? 0),
      );
    }
  }
  return length;
}

export class MalformedSignatureError extends Error {
  constructor() {
    super('The kept signature could not be read.');
    this.name = 'MalformedSignatureError';
  }
}

function pushVarint(bytes: number[], value: number): void {
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest & 0x7f) | 0x80);
    rest >>>= 7;
  }
  bytes.push(rest);
}

const zigzag = (value: number) => (value < 0 ? -value * 2 - 1 : value * 2);
const unzigzag = (value: number) => (value % 2 === 1 ? -(value + 1) / 2 : value / 2);

/** The strokes in their kept form. */
export function encodeSignature(strokes: readonly SignatureStroke[]): Uint8Array {
  const bytes: number[] = [FORMAT];
  pushVarint(bytes, strokes.length);
  for (const stroke of strokes) {
    pushVarint(bytes, stroke.length / 2);
    pushVarint(bytes, stroke[0] ?? 0);
    pushVarint(bytes, stroke[1] ?? 0);
    for (let i = 2; i + 1 < stroke.length; i += 2) {
      pushVarint(bytes, zigzag((stroke[i] ?? 0) - (stroke[i - 2] ?? 0)));
      pushVarint(bytes, zigzag((stroke[i + 1] ?? 0) - (stroke[i - 1] ?? 0)));
    }
  }
  return Uint8Array.from(bytes);
}

/** The strokes of a kept signature; throws MalformedSignatureError on anything else. */
export function decodeSignature(bytes: Uint8Array): number[][] {
  let at = 0;
  const varint = (): number => {
    let value = 0;
    for (let shift = 0; shift < 28; shift += 7) {
      const byte = bytes[at];
      if (byte === undefined) throw new MalformedSignatureError();
      at += 1;
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
    }
    throw new MalformedSignatureError();
  };
  if (bytes[at] !== FORMAT) throw new MalformedSignatureError();
  at += 1;
  const count = varint();
  if (count < 1 || count > MAX_SIGNATURE_STROKES) throw new MalformedSignatureError();
  const strokes: number[][] = [];
  let points = 0;
  for (let s = 0; s < count; s += 1) {
    const length = varint();
    points += length;
    if (length < 1 || points > MAX_SIGNATURE_POINTS) throw new MalformedSignatureError();
    const stroke = [varint(), varint()];
    for (let p = 1; p < length; p += 1) {
      stroke.push((stroke[stroke.length - 2] ?? 0) + unzigzag(varint()));
      stroke.push((stroke[stroke.length - 2] ?? 0) + unzigzag(varint()));
    }
    strokes.push(stroke);
  }
  if (at !== bytes.length) throw new MalformedSignatureError();
  const checked = signatureStrokesSchema.safeParse(strokes);
  if (!checked.success) throw new MalformedSignatureError();
  return strokes;
}
