/**
 * "Save as PDF" of the end-of-day report in the desktop app. Electron's print dialog is the system's,
 * which does not always offer a PDF printer, so the window's printed form (its print stylesheet) is
 * written to a file the manager picks.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ScreensDocuments } from '../bridge/counter-admin';

/** The Electron calls this needs, so tests can stand in for them. */
export interface PdfHost {
  printToPdf(): Promise<Uint8Array>;
  /** The chosen path, or undefined when the dialog was cancelled. */
  askWhereToSave(defaultPath: string): Promise<string | undefined>;
  documentsFolder(): string;
  write?: (file: string, data: Uint8Array) => Promise<void>;
}

export function pdfDocuments(host: () => PdfHost | undefined): ScreensDocuments {
  return {
    async savePdf(fileName) {
      const current = host();
      if (!current) return false;
      const file = await current.askWhereToSave(join(current.documentsFolder(), fileName));
      if (!file) return false;
      const pdf = await current.printToPdf();
      await (current.write ?? writeFile)(file, pdf);
      return true;
    },
  };
}
