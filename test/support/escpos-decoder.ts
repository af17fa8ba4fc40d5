/**
 * Reads ESC/POS bytes back into what a printer would print: the text lines of each piece of paper
 * between cuts, and the raster pictures (GS v 0) among them, dot for dot. Every command byte sequence
 * the receipts use is known here by its length; an unknown one fails the test rather than being
 * printed as text.
 */

/** ESC (0x1b) commands: the byte after ESC, and how many parameter bytes follow it. */
const ESC_PARAMETERS: Record<number, number> = {
  0x40: 0, // ESC @ initialize
  0x21: 1, // ESC ! print mode
  0x2d: 1, // ESC - underline
  0x32: 0, // ESC 2 default line spacing
  0x33: 1, // ESC 3 line spacing
  0x45: 1, // ESC E bold
  0x47: 1, // ESC G double strike
  0x4a: 1, // ESC J feed
  0x4d: 1, // ESC M font
  0x52: 1, // ESC R character set
  0x61: 1, // ESC a alignment
  0x64: 1, // ESC d feed lines
  0x74: 1, // ESC t code page
  0x7b: 1, // ESC { upside down
};

/** GS (0x1d) commands. */
const GS_PARAMETERS: Record<number, number> = {
  0x21: 1, // GS ! character size
  0x42: 1, // GS B reverse
};

/** A raster picture as printed: `dots[y * width + x]` is 1 where the printer burns a dot. */
export interface PrintedPicture {
  width: number;
  height: number;
  dots: Uint8Array;
}

export interface PrintedPaper {
  /**
   * The pieces of paper, each cut off after its last line; text after the last cut stays in `uncut`.
   * A picture stands among the lines as `[picture <width>x<height>]`, its dots in `pictures`.
   */
  copies: string[][];
  /** Each picture printed, in order; raster bands printed one after another make one picture. */
  pictures: PrintedPicture[];
  uncut: string[];
  cuts: number;
  /** Real-time status requests (DLE EOT n) the printer was sent. */
  statusRequests: number;
}

const CP437_HIGH = 'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»';

function character(byte: number): string {
  if (byte >= 0x20 && byte < 0x7f) return String.fromCharCode(byte);
  if (byte >= 0x80 && byte < 0x80 + CP437_HIGH.length) return CP437_HIGH[byte - 0x80] ?? '?';
  return '?';
}

export function decodeEscPos(bytes: Uint8Array): PrintedPaper {
  const copies: string[][] = [];
  let page: string[] = [];
  let line = '';
  let cuts = 0;
  let statusRequests = 0;
  const pictures: PrintedPicture[] = [];
  /** The picture the last raster band went into, while nothing else has been printed after it. */
  let growing: { picture: PrintedPicture; line: number } | undefined;
  let i = 0;
  const endPage = () => {
    // The feeds around a cut are paper, not text: the encoder feeds before the cutter and once after it.
    while (page.length > 0 && page[page.length - 1] === '') page.pop();
    while (page.length > 0 && page[0] === '') page.shift();
    copies.push(page);
    page = [];
    growing = undefined;
  };
  while (i < bytes.length) {
    const byte = bytes[i] ?? 0;
    if (byte === 0x1b) {
      const command = bytes[i + 1] ?? -1;
      const length = ESC_PARAMETERS[command];
      if (length === undefined) throw new Error(`Unknown ESC command 0x${command.toString(16)} at byte ${i}`);
      i += 2 + length;
    } else if (byte === 0x1c) {
      const command = bytes[i + 1];
      if (command !== 0x2e) throw new Error(`Unknown FS command at byte ${i}`);
      i += 2; // FS . cancels Kanji mode
    } else if (byte === 0x1d) {
      const command = bytes[i + 1] ?? -1;
      if (command === 0x56) {
        const mode = bytes[i + 2] ?? 0;
        i += mode === 65 || mode === 66 ? 4 : 3;
        if (line !== '') page.push(line);
        line = '';
        cuts += 1;
        endPage();
        continue;
      }
      if (command === 0x76 && bytes[i + 2] === 0x30) {
        // GS v 0 m xL xH yL yH: a band of raster rows, (xL + 256 xH) bytes of 8 dots each.
        const rowBytes = (bytes[i + 4] ?? 0) + 256 * (bytes[i + 5] ?? 0);
        const rows = (bytes[i + 6] ?? 0) + 256 * (bytes[i + 7] ?? 0);
        const data = bytes.subarray(i + 8, i + 8 + rowBytes * rows);
        if (data.length !== rowBytes * rows) throw new Error(`A raster band at byte ${i} is cut short`);
        const band = new Uint8Array(rowBytes * 8 * rows);
        data.forEach((byte, index) => {
          for (let bit = 0; bit < 8; bit += 1) band[index * 8 + bit] = (byte >> (7 - bit)) & 1;
        });
        if (line !== '') {
          page.push(line);
          line = '';
        }
        if (growing && growing.picture.width === rowBytes * 8 && growing.line === page.length - 1) {
          const { picture } = growing;
          const dots = new Uint8Array(picture.dots.length + band.length);
          dots.set(picture.dots);
          dots.set(band, picture.dots.length);
          picture.dots = dots;
          picture.height += rows;
          page[page.length - 1] = `[picture ${picture.width}x${picture.height}]`;
        } else {
          const picture = { width: rowBytes * 8, height: rows, dots: band };
          pictures.push(picture);
          page.push(`[picture ${picture.width}x${picture.height}]`);
          growing = { picture, line: page.length - 1 };
        }
        i += 8 + data.length;
        // The encoder ends a picture's block with a line feed, which is not a line of text.
        if (bytes[i] === 0x0a) i += 1;
        continue;
      }
      const length = GS_PARAMETERS[command];
      if (length === undefined) throw new Error(`Unknown GS command 0x${command.toString(16)} at byte ${i}`);
      i += 2 + length;
    } else if (byte === 0x10 && bytes[i + 1] === 0x04) {
      statusRequests += 1;
      i += 3;
    } else if (byte === 0x0a) {
      page.push(line);
      line = '';
      i += 1;
    } else if (byte === 0x0d) {
      i += 1;
    } else {
      line += character(byte);
      i += 1;
    }
  }
  if (line !== '') page.push(line);
  const uncut = page.filter((text, index) => text !== '' || index < page.length - 1);
  return { copies, pictures, uncut, cuts, statusRequests };
}
