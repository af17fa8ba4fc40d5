/** Files the engine and the app rewrite whole: a crash leaves either the old file or the new one. */
import { chmodSync, renameSync, writeFileSync } from 'node:fs';

/** Writes through a temporary file beside `file`, then renames it over, with `mode` kept. */
export function writeFileAtomically(file: string, data: string, mode: number): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, data, { mode });
  renameSync(temporary, file);
  chmodSync(file, mode);
}
