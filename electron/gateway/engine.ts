/**
 * The engine's composition: one ledger per data dir, or the store's one ledger on a store server,
 * and the services over it. Used alike by the Electron main process, the headless CLI and the tests.
 */
import { mkdirSync } from 'node:fs';
import { BatchService } from './batches';
import { loadCardHashKey } from './crypto/card-hash-key';
import { ApiKeys } from './keys';
import { dataDirLayout } from './paths';
import type { Processor } from './processor/processor';
import { SimulatedProcessor } from './processor/simulated';
import { Settings } from './settings';
import { MagtekSwipeDecoder } from './swipe/decoder';
import type { SwipeDecoder } from './swipe/swipe-decoder';
import { AuditLog } from './store/audit';
import { startCheckpointer, type Checkpointer } from './store/checkpoints';
import {
  backupDatabase,
  integrityProblems,
  openDatabase,
  type Connection,
  type IntegrityDepth,
} from './store/database';
import { KeyStore } from './store/keys';
import { SqliteLedger } from './store/ledger';
import type { LedgerStore } from './store/ledger-store';
import { LedgerReads, LOCAL_LANE, type LedgerReadPort } from './store/ledger-reads';
import { PostgresLedger } from './store/postgres/ledger';
import { PostgresLedgerReads } from './store/postgres/ledger-reads';
import { ReadPool, type ReadPoolOptions } from './store/read-pool';
import { SettingsStore } from './store/settings';
import { StaffService } from './staff/staff';
import { StaffStore } from './store/staff';
import { TransactionService } from './transactions';

export interface EngineOptions {
  now?: () => number;
  /** Path of a better-sqlite3 addon built for the running runtime (Electron's ABI differs from Node's). */
  nativeBinding?: string;
  processor?: Processor;
  swipes?: SwipeDecoder;
  /** The reader threads that serve lists: how many, and each read's time limit. */
  reads?: Omit<ReadPoolOptions, 'nativeBinding'>;
  /**
   * The store server that keeps the ledger of a store with several counters, and this counter's lane
   * in it. Without it, the ledger is the data dir's SQLite file.
   */
  store?: StoreServerOptions;
}

export interface StoreServerOptions {
  /** `postgresql://user:password@host:port/database?sslmode=verify-full&sslrootcert=...` */
  url: string;
  /** This counter's name in the store: 1 to 16 letters, digits or hyphens. */
  lane: string;
}

/** The ledger, its reads and the card-hash secret, from the data dir or from the store server. */
interface LedgerParts {
  ledger: LedgerStore;
  reads: LedgerReadPort;
  cardHashKey: Buffer;
  lane: string;
  /** The ledger's id of each API key of the data dir. */
  ledgerKeyId(keys: KeyStore): (apiKeyId: number) => Promise<number>;
  /** Closes what the parts hold open beyond the data dir's file. */
  close(): Promise<void>;
}

export class Engine {
  readonly ledger: LedgerStore;
  readonly keys: ApiKeys;
  readonly settings: Settings;
  readonly transactions: TransactionService;
  readonly batches: BatchService;
  readonly audit: AuditLog;
  /** Cashiers and managers, their PINs, and who is signed in at each counter. */
  readonly staff: StaffService;
  /** Lists and the open batch, read on the reader threads or the store server's read pool. */
  readonly reads: LedgerReadPort;
  /** The lane this counter writes in: its name on a store server, LOCAL_LANE on its own. */
  readonly lane: string;
  /** True when the ledger is on a store server. */
  readonly onStoreServer: boolean;
  /** The clock every rule reads (epoch ms). */
  readonly now: () => number;

  private constructor(
    private readonly db: Connection,
    private readonly checkpointer: Checkpointer,
    private readonly readPool: ReadPool | undefined,
    private readonly parts: LedgerParts | undefined,
    cardHashKey: Buffer,
    options: EngineOptions,
  ) {
    const now = options.now ?? Date.now;
    this.now = now;
    this.audit = new AuditLog(db);
    if (parts) {
      this.ledger = parts.ledger;
      this.reads = parts.reads;
      this.lane = parts.lane;
    } else {
      this.ledger = new SqliteLedger(db, this.audit);
      this.reads = new LedgerReads(readPool as ReadPool);
      this.lane = LOCAL_LANE;
    }
    this.onStoreServer = parts !== undefined;
    const keyStore = new KeyStore(db);
    this.keys = new ApiKeys(keyStore, this.audit, now);
    this.settings = new Settings(new SettingsStore(db), this.audit, now);
    this.staff = new StaffService(new StaffStore(db), this.audit, now);
    // A decoder per swipe, so a BDK changed in the settings applies from the next request on.
    const swipes = options.swipes ?? {
      decode: (swipe: string) => new MagtekSwipeDecoder(this.settings.get('swipe_bdk')).decode(swipe),
    };
    this.transactions = new TransactionService(
      this.ledger,
      this.settings,
      options.processor ?? new SimulatedProcessor(),
      swipes,
      cardHashKey,
      now,
      parts?.ledgerKeyId(keyStore),
    );
    this.batches = new BatchService(this.ledger, this.reads, now);
  }

  /** Opens (creating when new) the ledger of a data dir. */
  static open(dataDir: string, options: EngineOptions = {}): Engine {
    if (options.store)
      throw new Error('A ledger on a store server opens with Engine.start, which connects to it.');
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const { database, cardHashKey } = dataDirLayout(dataDir);
    const key = loadCardHashKey(cardHashKey);
    const native = options.nativeBinding ? { nativeBinding: options.nativeBinding } : {};
    const db = openDatabase(database, native);
    return new Engine(
      db,
      startCheckpointer(db, database, native),
      new ReadPool(database, { ...options.reads, ...native }),
      undefined,
      key,
      options,
    );
  }

  /**
   * Opens the engine of a data dir: its own SQLite ledger, or, with `options.store`, the store
   * server's ledger (brought up to the newest schema first), with the store's one card-hash secret.
   * API keys, settings, staff and their audit entries stay in the data dir's file either way. Fails
   * within seconds when the store server cannot be reached.
   */
  static async start(dataDir: string, options: EngineOptions = {}): Promise<Engine> {
    const { store, ...local } = options;
    if (!store) return Engine.open(dataDir, local);
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const parts = await openStoreServer(store);
    const { database } = dataDirLayout(dataDir);
    const native = options.nativeBinding ? { nativeBinding: options.nativeBinding } : {};
    let db: Connection;
    try {
      db = openDatabase(database, native);
    } catch (error) {
      await parts.close();
      throw error;
    }
    return new Engine(
      db,
      startCheckpointer(db, database, native),
      undefined,
      parts,
      parts.cardHashKey,
      local,
    );
  }

  /** What the integrity check finds wrong with the ledger; empty when it is sound. */
  checkIntegrity(depth: IntegrityDepth = 'full'): string[] {
    return integrityProblems(this.db, depth);
  }

  /** Writes a consistent copy of the ledger to `file` while the engine keeps running. */
  backup(file: string): Promise<void> {
    return backupDatabase(this.db, file);
  }

  /**
   * Stops the readers and the background checkpoints, then closes the ledger (which checkpoints
   * what is left).
   */
  async close(): Promise<void> {
    await this.readPool?.close();
    await this.parts?.close();
    await this.checkpointer.stop();
    this.db.close();
  }
}

async function openStoreServer(store: StoreServerOptions): Promise<LedgerParts> {
  const ledger = await PostgresLedger.open({ url: store.url, lane: store.lane });
  let reads: PostgresLedgerReads | undefined;
  try {
    reads = new PostgresLedgerReads({ url: store.url });
    const cardHashKey = await ledger.cardHashKey();
    const opened = reads;
    return {
      ledger,
      reads: opened,
      cardHashKey,
      lane: store.lane,
      ledgerKeyId: (keys) => {
        const ids = new Map<number, number>();
        return async (apiKeyId) => {
          const known = ids.get(apiKeyId);
          if (known !== undefined) return known;
          const record = keys.list().find((key) => key.id === apiKeyId);
          if (!record) throw new Error(`API key ${apiKeyId} is not in this data dir`);
          const id = await ledger.storeKeyId(record);
          ids.set(apiKeyId, id);
          return id;
        };
      },
      close: async () => {
        await opened.close();
        await ledger.close();
      },
    };
  } catch (error) {
    await reads?.close();
    await ledger.close();
    throw error;
  }
}
