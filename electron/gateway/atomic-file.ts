/** Files the engine and the app rewrite whole: a crash leaves either the old file or the new one. */
import { chmodSync, closeSync, fsyncSync, openSync, renameSync, writeSync } from 'node:fs';

/**
 * Writes through a temporary file beside `file`, then renames it over, with `mode` kept. The data
 * reaches the disk before the rename, so a power cut cannot leave the new name on an empty file.
 */
export function writeFileAtomically(file: string, data: string, mode: number): void {
  const temporary = `${file}.${process.pid}.tmp`;
  const fd = openSync(temporary, 'w', mode);
  try {
    writeSync(fd, data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, file);
  chmodSync(file, mode);
}
