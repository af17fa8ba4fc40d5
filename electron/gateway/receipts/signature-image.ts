/**
 * A kept signature drawn as an image: black ink on white, the strokes fitted to the picture with a
 * margin, so that a small signature in a corner of the pad still fills the signature line. As a PNG
 * for the API and the screens, and as the pixels the receipt printer's raster image is made from.
 */
import { PNG } from 'pngjs';
import { SIGNATURE_PAD, type SignatureStroke } from '../../../shared/signature';

/** Pixels, one byte each: 0 is ink, 255 is paper. */
export interface SignatureBitmap {
  width: number;
  height: number;
  gray: Uint8Array;
}

/** The size the API's PNG is drawn at: the pad's shape, half its units. */
export const SIGNATURE_PNG_SIZE = { width: 600, height: 200 } as const;

/**
 * The size printed on the merchant copy, in printer dots: 384 fit the 58 mm paper's 32 columns (and
 * so every paper); a multiple of 8 wide, as raster images are sent in bytes of 8 dots.
 */
export const SIGNATURE_PRINT_SIZE = { width: 384, height: 128 } as const;

/** Never enlarged more than this beyond the pad's own scale: a scribble stays a scribble. */
const MAX_ENLARGEMENT = 2.5;

export function drawSignature(
  strokes: readonly SignatureStroke[],
  size: { width: number; height: number },
  inkWidth = Math.max(2, Math.round(size.height / 60)),
): SignatureBitmap {
  const { width, height } = size;
  const gray = new Uint8Array(width * height).fill(255);
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const stroke of strokes) {
    for (let i = 0; i + 1 < stroke.length; i += 2) {
      const x = stroke[i] ?? 0;
      const y = stroke[i + 1] ?? 0;
      [minX, minY, maxX, maxY] = [Math.min(minX, x), Math.min(minY, y), Math.max(maxX, x), Math.max(maxY, y)];
    }
  }
  if (minX === Infinity) return { width, height, gray };
  const margin = inkWidth * 2;
  const padScale = Math.min(width / SIGNATURE_PAD.width, height / SIGNATURE_PAD.height);
  const scale = Math.min(
    (width - 2 * margin) / Math.max(1, maxX - minX),
    (height - 2 * margin) / Math.max(1, maxY - minY),
    padScale * MAX_ENLARGEMENT,
  );
  const offsetX = (width - (maxX - minX) * scale) / 2 - minX * scale;
  const offsetY = (height - (maxY - minY) * scale) / 2 - minY * scale;
  const radius = inkWidth / 2;
  const dot = (cx: number, cy: number) => {
    const reach = Math.ceil(radius);
    for (let y = Math.floor(cy) - reach; y <= Math.ceil(cy) + reach; y += 1) {
      if (y < 0 || y >= height) continue;
      for (let x = Math.floor(cx) - reach; x <= Math.ceil(cx) + reach; x += 1) {
        if (x < 0 || x >= width) continue;
        if ((x + 0.5 - cx) ** 2 + (y + 0.5 - cy) ** 2 <= radius * radius + 0.25) gray[y * width + x] = 0;
      }
    }
  };
  for (const stroke of strokes) {
    let px = (stroke[0] ?? 0) * scale + offsetX;
    let py = (stroke[1] ?? 0) * scale + offsetY;
    dot(px, py);
    for (let i = 2; i + 1 < stroke.length; i += 2) {
      const x = (stroke[i] ?? 0) * scale + offsetX;
      const y = (stroke[i + 1] ?? 0) * scale + offsetY;
      const steps = Math.max(1, Math.ceil(Math.hypot(x - px, y - py) * 2));
      for (let step = 1; step <= steps; step += 1) {
        dot(px + ((x - px) * step) / steps, py + ((y - py) * step) / steps);
      }
      [px, py] = [x, y];
    }
  }
  return { width, height, gray };
}

/** The bitmap as an 8-bit grayscale PNG. */
export function signaturePng(bitmap: SignatureBitmap): Buffer {
  const png = new PNG({ width: bitmap.width, height: bitmap.height, colorType: 0, inputColorType: 0 });
  png.data = Buffer.from(bitmap.gray);
  return PNG.sync.write(png, { colorType: 0, inputColorType: 0, inputHasAlpha: false });
}

/** The bitmap as RGBA pixels, the form the receipt printer encoder takes an image in. */
export function signatureRgba(bitmap: SignatureBitmap): {
  width: number;
  height: number;
  data: Uint8ClampedArray;
} {
  const data = new Uint8ClampedArray(bitmap.width * bitmap.height * 4);
  bitmap.gray.forEach((value, index) => {
    data.fill(value, index * 4, index * 4 + 3);
    data[index * 4 + 3] = 255;
  });
  return { width: bitmap.width, height: bitmap.height, data };
}
