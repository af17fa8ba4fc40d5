/**
 * The desktop app's store-server setting: the store server's URL and this counter's lane, kept in
 * the data dir (`store-server.json`, readable by the counter's user only, since the URL may hold a
 * password) and used from the next start. TENDER_DATABASE and TENDER_LANE, when set, win over it.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomically } from './atomic-file';
import type { StoreServerOptions } from './open-store';
import { StoreServerSettingError, storeServerOptions } from './store-server-options';

export const STORE_SERVER_FILE = 'store-server.json';

/** How the settings screen names the two values in its errors. */
export const STORE_SERVER_FIELD_NAMES = { database: 'The store server', lane: 'The counter name' } as const;

const fileSchema = z.object({ version: z.literal(1), database: z.string(), lane: z.string() });

/** What the data dir says the next start uses: the store server and lane, or undefined for its own ledger. */
export function readStoreServerFile(dataDir: string): StoreServerOptions | undefined {
  const file = join(dataDir, STORE_SERVER_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  let saved: z.infer<typeof fileSchema>;
  try {
    saved = fileSchema.parse(JSON.parse(text));
  } catch {
    throw new StoreServerSettingError(
      `${file} is damaged. Set the store server again in Settings, or delete the file to keep the ledger on this counter.`,
    );
  }
  return storeServerOptions(saved, STORE_SERVER_FIELD_NAMES);
}

/** Saves the store server for the next start, or with undefined goes back to the counter's own ledger. */
export function writeStoreServerFile(dataDir: string, store: StoreServerOptions | undefined): void {
  const file = join(dataDir, STORE_SERVER_FILE);
  if (!store) {
    rmSync(file, { force: true });
    return;
  }
  writeFileAtomically(
    file,
    `${JSON.stringify({ version: 1, database: store.url, lane: store.lane }, null, 2)}\n`,
    0o600,
  );
}

/** Query parameters of a PostgreSQL URL that hold a secret. */
const SECRET_PARAMETERS = /^(password|sslpassword)$/i;

/** The URL as it may be shown, in the screens, the audit log or an error: without any password. */
export function shownStoreServer(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '';
    for (const name of [...parsed.searchParams.keys()]) {
      if (SECRET_PARAMETERS.test(name)) parsed.searchParams.set(name, 'hidden');
    }
    return parsed.toString();
  } catch {
    return url.replace(/:[^:@/]*@/, '@').replace(/((?:ssl)?password=)[^&]*/gi, '$1hidden');
  }
}

/** Whether the URL carries a password, in its user part or as a parameter. */
export function storeServerUrlHasPassword(url: string): boolean {
  try {
    const parsed = new URL(url);
    return (
      parsed.password !== '' || [...parsed.searchParams.keys()].some((name) => SECRET_PARAMETERS.test(name))
    );
  } catch {
    return /:[^:@/]*@|(?:ssl)?password=/i.test(url);
  }
}
