/**
 * Receipts as ESC/POS, the command language of counter receipt printers: the text lines of each copy,
 * the customer's signature as a raster picture where a copy has one, then a feed and a cut, so that
 * each copy comes off the printer on its own.
 */
import { oneLine } from '../../../shared/paper-text';
import type { ReceiptPiece, ReceiptWidth } from './receipt';

/** Lines fed after the last line of a copy, so that it clears the cutter before the cut. */
const FEED_BEFORE_CUT = 4;

/** A picture in the form the encoder takes: RGBA pixels, width a multiple of 8. */
export interface PrintedPicture {
  width: number;
  height: number;
  data: Uint8ClampedArray;
}

/**
 * The encoder (with its code page tables and image dithering) loads the first time a receipt is
 * printed: most engines never print, and it would otherwise be half a megabyte of the engine's
 * live heap from its start.
 */
export async function escposBytes(
  copies: readonly (readonly ReceiptPiece[])[],
  width: ReceiptWidth,
  signature?: PrintedPicture,
): Promise<Uint8Array> {
  const { default: ReceiptPrinterEncoder } = await import('@point-of-sale/receipt-printer-encoder');
  const encoder = new ReceiptPrinterEncoder({
    language: 'esc-pos',
    columns: width,
    feedBeforeCut: FEED_BEFORE_CUT,
    // GS v 0, which every ESC/POS printer of the last twenty years prints.
    imageMode: 'raster',
  });
  let commands = encoder.initialize();
  for (const pieces of copies) {
    for (const piece of pieces) {
      // A line is one line of paper: a line break or an escape in it (a merchant name on a test
      // print, say) would feed the paper or be read by the printer as a command.
      if (typeof piece === 'string') commands = commands.line(oneLine(piece));
      else if (signature) {
        commands = commands
          .align('center')
          .image(signature, signature.width, signature.height, 'threshold')
          .align('left');
      }
    }
    commands = commands.cut();
  }
  return commands.encode();
}
