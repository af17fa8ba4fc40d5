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
import { dataDirAdmin, SqliteAdminStore, type AdminStore, type DataDirAdmin } from './store/admin-store';
import { AuditLog } from './store/audit';
import { startCheckpointer, type Checkpointer } from './store/checkpoints';
import {
  backupDatabase,
  integrityProblems,
  openDatabase,
  type Connection,
  type IntegrityDepth,
} from './store/database';
import { SqliteLedger } from './store/ledger';
import type { LedgerStore } from './store/ledger-store';
import { LedgerReads, LOCAL_LANE, type LedgerReadPort } from './store/ledger-reads';
import { PostgresAdminStore } from './store/postgres/admin-store';
import { PostgresLedger } from './store/postgres/ledger';
import { PostgresLedgerReads } from './store/postgres/ledger-reads';
import { ReadPool, type ReadPoolOptions } from './store/read-pool';
import { StaffService } from './staff/staff';
import { TransactionService } from './transactions';
import { Signatures } from './signatures';
import { SqliteCustomerRecords, type CustomerRecords } from './store/customer-records';
import { PostgresCustomerRecords } from './store/postgres/customer-records';

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

/**
 * The ledger, its reads, the card-hash secret, and the keys, settings and staff with their audit
 * entries, from the store server.
 */
interface StoreParts {
  ledger: LedgerStore;
  reads: LedgerReadPort;
  admin: AdminStore;
  customerRecords: CustomerRecords;
  cardHashKey: Buffer;
  lane: string;
  /** Closes the ledger and its reads (the engine closes `admin`). */
  close(): Promise<void>;
}

export class Engine {
  readonly ledger: LedgerStore;
  readonly keys: ApiKeys;
  readonly settings: Settings;
  readonly transactions: TransactionService;
  readonly batches: BatchService;
  /**
   * The data dir's audit log. On a store server the entries of the ledger and of keys, settings and
   * staff are the store's: read them with `reads.recentAudit`.
   */
  readonly audit: AuditLog;
  /** API keys, settings, staff and the PIN gate: the data dir's, or the store's on a store server. */
  readonly admin: AdminStore;
  /** Cashiers and managers, their PINs, and who is signed in at each counter. */
  readonly staff: StaffService;
  /** What customers leave with their transactions: signatures and receipt addresses. */
  readonly customerRecords: CustomerRecords;
  /** Customers' signatures for their charges. */
  readonly signatures: Signatures;
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
    private readonly parts: StoreParts | undefined,
    cardHashKey: Buffer,
    options: EngineOptions,
  ) {
    const now = options.now ?? Date.now;
    this.now = now;
    this.audit = new AuditLog(db);
    if (parts) {
      this.ledger = parts.ledger;
      this.reads = parts.reads;
      this.admin = parts.admin;
      this.customerRecords = parts.customerRecords;
      this.lane = parts.lane;
    } else {
      const ledger = new SqliteLedger(db, this.audit);
      this.ledger = ledger;
      this.reads = new LedgerReads(readPool as ReadPool);
      this.admin = new SqliteAdminStore(db, this.audit, ledger.commits);
      this.customerRecords = new SqliteCustomerRecords(db, ledger.commits);
      this.lane = LOCAL_LANE;
    }
    this.onStoreServer = parts !== undefined;
    this.keys = new ApiKeys(this.admin, now);
    this.settings = new Settings(this.admin, now);
    this.staff = new StaffService(this.admin, now, () => this.settings.get('lock_after_minutes'));
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
    );
    this.batches = new BatchService(this.ledger, this.reads, now);
    this.signatures = new Signatures(this.ledger, this.customerRecords, now);
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
   * server's (brought up to the newest schema first): its ledger, card-hash secret, API keys,
   * settings, staff and audit log, shared by the store's counters. The data dir's keys, settings
   * and staff are entered in the store at each start (store/postgres/admin-adopt.ts). Fails within
   * seconds when the store server cannot be reached.
   */
  static async start(dataDir: string, options: EngineOptions = {}): Promise<Engine> {
    const { store, ...local } = options;
    if (!store) return Engine.open(dataDir, local);
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const { database } = dataDirLayout(dataDir);
    const native = options.nativeBinding ? { nativeBinding: options.nativeBinding } : {};
    const db = openDatabase(database, native);
    let parts: StoreParts;
    try {
      parts = await openStoreServer(store, dataDirAdmin(db));
    } catch (error) {
      db.close();
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
    await this.admin.close();
    await this.parts?.close();
    await this.checkpointer.stop();
    this.db.close();
  }
}

async function openStoreServer(store: StoreServerOptions, dataDir: DataDirAdmin): Promise<StoreParts> {
  // The server's activity view names each counter's connections by its lane.
  const applicationName = `tender ${store.lane}`;
  const ledger = await PostgresLedger.open({ url: store.url, lane: store.lane, applicationName });
  let reads: PostgresLedgerReads | undefined;
  let admin: PostgresAdminStore | undefined;
  let customerRecords: PostgresCustomerRecords | undefined;
  try {
    reads = new PostgresLedgerReads({ url: store.url, applicationName });
    customerRecords = new PostgresCustomerRecords({ url: store.url, applicationName });
    const cardHashKey = await ledger.cardHashKey();
    admin = await PostgresAdminStore.open({ url: store.url, applicationName });
    await admin.adopt(dataDir);
    const [openedReads, openedAdmin, openedRecords] = [reads, admin, customerRecords];
    return {
      ledger,
      reads: openedReads,
      admin: openedAdmin,
      customerRecords: openedRecords,
      cardHashKey,
      lane: store.lane,
      close: async () => {
        await openedRecords.close();
        await openedReads.close();
        await ledger.close();
      },
    };
  } catch (error) {
    await admin?.close();
    await customerRecords?.close();
    await reads?.close();
    await ledger.close();
    throw error;
  }
}
