/**
 * The customer's signature: strokes in their kept form and back, what the pad accepts, and the
 * signature drawn as a PNG and as the pixels a receipt printer gets.
 */
import fc from 'fast-check';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import {
  decodeSignature,
  encodeSignature,
  inkLength,
  MalformedSignatureError,
  MAX_SIGNATURE_POINTS,
  SIGNATURE_PAD,
  signatureStrokesSchema,
} from '../../shared/signature';
import { escposBytes } from '../../electron/gateway/receipts/escpos';
import { SIGNATURE_PICTURE } from '../../electron/gateway/receipts/receipt';
import {
  drawSignature,
  SIGNATURE_PNG_SIZE,
  SIGNATURE_PRINT_SIZE,
  signaturePng,
  signatureRgba,
} from '../../electron/gateway/receipts/signature-image';
import { decodeEscPos } from '../support/escpos-decoder';
import { sampleSignature } from '../support/signatures';

const strokes = fc.array(
  fc
    .array(
      fc.tuple(
        fc.integer({ min: 0, max: SIGNATURE_PAD.width - 1 }),
        fc.integer({ min: 0, max: SIGNATURE_PAD.height - 1 }),
      ),
      { minLength: 1, maxLength: 40 },
    )
    .map((points) => points.flat()),
  { minLength: 1, maxLength: 20 },
);

describe('kept strokes', () => {
  it('any signature the pad accepts comes back point for point', () => {
    fc.assert(
      fc.property(strokes, (drawn) => {
        expect(signatureStrokesSchema.safeParse(drawn).success).toBe(true);
        expect(decodeSignature(encodeSignature(drawn))).toEqual(drawn);
      }),
    );
  });

  it('a usual signature is kept in well under a kilobyte', () => {
    const signature = sampleSignature();
    const kept = encodeSignature(signature);
    expect(kept.length).toBeLessThan(400);
    expect(JSON.stringify(signature).length).toBeGreaterThan(kept.length * 2);
  });

  it('bytes that are not a kept signature are refused', () => {
    const kept = encodeSignature(sampleSignature());
    expect(() => decodeSignature(kept.subarray(0, kept.length - 1))).toThrow(MalformedSignatureError);
    expect(() => decodeSignature(Uint8Array.from([...kept, 0]))).toThrow(MalformedSignatureError);
    expect(() => decodeSignature(Uint8Array.from([2, ...kept.subarray(1)]))).toThrow(MalformedSignatureError);
    expect(() => decodeSignature(new Uint8Array())).toThrow(MalformedSignatureError);
    // A step that leaves the pad.
    expect(() => decodeSignature(encodeSignature([[1199, 399, 1200, 399]]))).toThrow(MalformedSignatureError);
  });

  it('the pad refuses points off it, odd coordinates, and more points than a signature has', () => {
    expect(signatureStrokesSchema.safeParse([[0, 0, 5]]).success).toBe(false);
    expect(signatureStrokesSchema.safeParse([[10, SIGNATURE_PAD.height]]).success).toBe(false);
    expect(signatureStrokesSchema.safeParse([[-1, 4]]).success).toBe(false);
    expect(signatureStrokesSchema.safeParse([[1.5, 4]]).success).toBe(false);
    expect(signatureStrokesSchema.safeParse([]).success).toBe(false);
    const long = Array.from({ length: MAX_SIGNATURE_POINTS + 1 }, (_, i) => [i % 1000, 10]).flat();
    expect(signatureStrokesSchema.safeParse([long]).success).toBe(false);
  });

  it('ink is the length drawn: a tap has none', () => {
    expect(inkLength([[10, 10]])).toBe(0);
    expect(inkLength([[0, 0, 30, 40, 30, 0]])).toBe(90);
  });
});

describe('the signature as a picture', () => {
  it('the PNG is the signature in black on white, fitted to the picture', () => {
    const png = PNG.sync.read(signaturePng(drawSignature(sampleSignature(), SIGNATURE_PNG_SIZE)));
    expect([png.width, png.height]).toEqual([SIGNATURE_PNG_SIZE.width, SIGNATURE_PNG_SIZE.height]);
    let ink = 0;
    let grey = 0;
    let [minX, maxX] = [Infinity, -Infinity];
    for (let y = 0; y < png.height; y += 1) {
      for (let x = 0; x < png.width; x += 1) {
        const value = png.data[(y * png.width + x) * 4] ?? 255;
        if (value !== 0 && value !== 255) grey += 1;
        if (value === 0) {
          ink += 1;
          [minX, maxX] = [Math.min(minX, x), Math.max(maxX, x)];
        }
      }
    }
    expect(grey).toBe(0);
    // Drawn, not a blank picture, and spread across it rather than squeezed into the pad's corner.
    expect(ink).toBeGreaterThan(1500);
    expect(ink).toBeLessThan(png.width * png.height * 0.2);
    expect(minX).toBeLessThan(40);
    expect(maxX).toBeGreaterThan(png.width - 40);
  });

  it('a tiny signature is enlarged a little, not blown up to fill the picture', () => {
    const bitmap = drawSignature([[600, 200, 620, 200]], SIGNATURE_PNG_SIZE);
    const inked = [...bitmap.gray.keys()].filter((i) => bitmap.gray[i] === 0).map((i) => i % bitmap.width);
    expect(Math.max(...inked) - Math.min(...inked)).toBeLessThan(40);
  });
});

describe('the signature on paper', () => {
  it('prints as a raster picture among the lines, dot for dot the drawn signature', async () => {
    const bitmap = drawSignature(sampleSignature(), SIGNATURE_PRINT_SIZE);
    const bytes = await escposBytes(
      [['MERCHANT COPY', SIGNATURE_PICTURE, 'Signed on screen'], ['CUSTOMER COPY']],
      42,
      signatureRgba(bitmap),
    );
    const paper = decodeEscPos(bytes);
    expect(paper.copies).toEqual([
      ['MERCHANT COPY', '[picture 384x128]', 'Signed on screen'],
      ['CUSTOMER COPY'],
    ]);
    expect(paper.pictures).toHaveLength(1);
    const [picture] = paper.pictures;
    expect(Array.from(picture?.dots ?? [])).toEqual(
      Array.from(bitmap.gray, (value) => (value === 0 ? 1 : 0)),
    );
  });

  it('a copy without a signature prints no picture, even with one at hand', async () => {
    const bitmap = drawSignature(sampleSignature(), SIGNATURE_PRINT_SIZE);
    const paper = decodeEscPos(await escposBytes([['CUSTOMER COPY']], 32, signatureRgba(bitmap)));
    expect(paper.pictures).toEqual([]);
  });
});
