import { homedir } from 'node:os';
import { join } from 'node:path';

/** The product name; Electron derives its per-user data folder from it, and so do we. */
export const APP_NAME = 'Tender';

/**
 * The OS's per-user application data folder for Tender: the same folder Electron's
 * `app.getPath('userData')` returns, so the headless engine and the desktop app share one ledger.
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), APP_NAME);
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', APP_NAME);
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), APP_NAME);
}

/** Where each file of a data dir lives. */
export function dataDirLayout(dataDir: string) {
  return {
    dataDir,
    database: join(dataDir, 'tender.db'),
    tlsDir: join(dataDir, 'tls'),
    certificate: join(dataDir, 'tls', 'cert.pem'),
    privateKey: join(dataDir, 'tls', 'key.pem'),
    /** The secret of the keyed hashes of requests that carry card data (crypto/card-hash-key.ts). */
    cardHashKey: join(dataDir, 'card-hash.key'),
    /** Locked by the engine that serves the data dir; records how the last one stopped. */
    servingLock: join(dataDir, 'engine.lock'),
    /**
     * The pid file that Tender kept before the lock, present while an engine served and removed at
     * its stop: found now, it means that engine did not stop cleanly.
     */
    oldServingMarker: join(dataDir, 'engine.pid'),
  };
}
