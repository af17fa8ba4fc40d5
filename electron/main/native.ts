/**
 * Where the desktop app finds better-sqlite3 built for Electron. better-sqlite3 is not N-API, so
 * node_modules holds the Node build the tests and the headless engine load, and an explicit step of
 * `npm start` and of packaging (resources/electron-native.mjs) writes Electron's build here instead.
 * That script spells the same path; test/unit/electron-native-build.test.ts keeps the two in step.
 */
import { join, sep } from 'node:path';

export const ELECTRON_SQLITE_FILE = 'better_sqlite3.node';

export function electronSqliteBinding(
  appRoot: string,
  platform: NodeJS.Platform,
  arch: string,
  packaged: boolean,
): string {
  const file = join(appRoot, 'out', 'native', `${platform}-${arch}`, ELECTRON_SQLITE_FILE);
  // An addon cannot be loaded from inside app.asar; packaging unpacks it into app.asar.unpacked.
  return packaged ? file.replace(`${sep}app.asar${sep}`, `${sep}app.asar.unpacked${sep}`) : file;
}

export class MissingElectronBuildError extends Error {
  constructor(readonly binding: string) {
    super(
      `Tender's database module built for Electron is missing (${binding}). ` +
        'Start Tender with `npm start`, which builds it, or run `npm run build:native`.',
    );
  }
}
