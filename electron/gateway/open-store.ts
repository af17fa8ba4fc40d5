/**
 * Which store a data dir's engine uses, chosen once, here: the store server given (`--database`,
 * `--lane`, TENDER_DATABASE and TENDER_LANE, or the desktop app's setting), or else the data dir's
 * own SQLite file. Everything after the choice takes the store it was given (store/store.ts).
 */
import { mkdirSync } from 'node:fs';
import { loadCardHashKey } from './crypto/card-hash-key';
import { Engine, type EngineOptions } from './engine';
import { dataDirLayout } from './paths';
import { openPostgresStore } from './store/postgres/open';
import { openSqliteStore, readDataDirAdmin } from './store/sqlite/open';
import type { ReadPoolOptions } from './store/sqlite/read-pool';
import type { Store } from './store/store';

export interface StoreServerOptions {
  /** `postgresql://user:password@host:port/database?sslmode=verify-full&sslrootcert=...` */
  url: string;
  /** This counter's name in the store: 1 to 16 letters, digits or hyphens. */
  lane: string;
}

export interface StoreOptions {
  /** Path of a better-sqlite3 addon built for the running runtime (Electron's ABI differs from Node's). */
  nativeBinding?: string;
  /** The reader threads that serve lists from the data dir's file: how many, and each read's time limit. */
  reads?: Omit<ReadPoolOptions, 'nativeBinding'>;
  /**
   * The store server that keeps the ledger of a store with several counters, and this counter's lane
   * in it. Without it, the ledger is the data dir's SQLite file.
   */
  store?: StoreServerOptions;
  /**
   * Set by the engine that serves requests: on a store server it claims its lane first, and is
   * refused (LaneInUseError) when another engine serves that lane. Commands that only read or
   * administer the store leave it unset.
   */
  servesLane?: boolean;
}

/**
 * Opens the store of a data dir (made, owner only, when new): the store server's, brought up to the
 * newest schema, with the data dir's keys, settings and staff entered in it; or the data dir's own
 * file. Fails within seconds when a store server cannot be reached.
 */
export function openStore(dataDir: string, options: StoreOptions = {}): Promise<Store> {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const layout = dataDirLayout(dataDir);
  const native = options.nativeBinding ? { nativeBinding: options.nativeBinding } : {};
  if (options.store) {
    return openPostgresStore({
      ...options.store,
      dataDir: readDataDirAdmin(layout.database, native),
      ...(options.servesLane && { servesLane: true }),
    });
  }
  return Promise.resolve(
    openSqliteStore({
      file: layout.database,
      cardHashKey: loadCardHashKey(layout.cardHashKey),
      ...native,
      ...(options.reads && { reads: options.reads }),
    }),
  );
}

/** What starts a data dir's engine: the store to open, and the engine's own options. */
export type OpenEngineOptions = EngineOptions & StoreOptions;

/** The engine of a data dir over the store `options` choose (see openStore). */
export async function openEngine(dataDir: string, options: OpenEngineOptions = {}): Promise<Engine> {
  const engine = Engine.start(await openStore(dataDir, options), options);
  try {
    // A BDK kept from before the merchant's gateway was chosen is not held while it is.
    await engine.settings.eraseBdkNotHeld();
  } catch (error) {
    await engine.close();
    throw error;
  }
  return engine;
}
