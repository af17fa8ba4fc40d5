/**
 * Receipts as ESC/POS, the command language of counter receipt printers: the text lines of each copy,
 * then a feed and a cut, so that each copy comes off the printer on its own.
 */
import type { ReceiptWidth } from './receipt';

/** Lines fed after the last line of a copy, so that it clears the cutter before the cut. */
const FEED_BEFORE_CUT = 4;

/**
 * The encoder (with its code page tables and image dithering) loads the first time a receipt is
 * printed: most engines never print, and it would otherwise be half a megabyte of the engine's
 * live heap from its start.
 */
export async function escposBytes(
  copies: readonly (readonly string[])[],
  width: ReceiptWidth,
): Promise<Uint8Array> {
  const { default: ReceiptPrinterEncoder } = await import('@point-of-sale/receipt-printer-encoder');
  const encoder = new ReceiptPrinterEncoder({
    language: 'esc-pos',
    columns: width,
    feedBeforeCut: FEED_BEFORE_CUT,
  });
  let commands = encoder.initialize();
  for (const lines of copies) {
    for (const line of lines) commands = commands.line(line);
    commands = commands.cut();
  }
  return commands.encode();
}
