/**
 * Where receipts print, as the settings take it: `tcp://<host>:<port>` for a network printer, the
 * name of a print queue of this computer, or empty for none. The engine's setting and the Settings
 * screen check the same form.
 */
export const PRINTER_PATTERN =
  /^(tcp:\/\/[A-Za-z0-9.-]{1,253}:\d{1,5}|tcp:\/\/\[[0-9A-Fa-f:.]{2,45}\]:\d{1,5}|[A-Za-z0-9][A-Za-z0-9_.-]{0,126})$/;

export function isPrinterAddress(text: string): boolean {
  return text === '' || PRINTER_PATTERN.test(text);
}
