/**
 * Reads ESC/POS bytes back into what a printer would print: the text lines of each piece of paper
 * between cuts. Every command byte sequence the receipts use is known here by its length; an unknown
 * one fails the test rather than being printed as text.
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

export interface PrintedPaper {
  /** The pieces of paper, each cut off after its last line; text after the last cut stays in `uncut`. */
  copies: string[][];
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
  let i = 0;
  const endPage = () => {
    // The feeds around a cut are paper, not text: the encoder feeds before the cutter and once after it.
    while (page.length > 0 && page[page.length - 1] === '') page.pop();
    while (page.length > 0 && page[0] === '') page.shift();
    copies.push(page);
    page = [];
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
  return { copies, uncut, cuts, statusRequests };
}
