/**
 * The engine's composition: one ledger file per data dir, and the services over it. Used alike by
 * the Electron main process, the headless CLI and the tests.
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
import { LedgerReads } from './store/ledger-reads';
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
  /** Lists and the open batch, read on the reader threads. */
  readonly reads: LedgerReads;
  /** The clock every rule reads (epoch ms). */
  readonly now: () => number;

  private constructor(
    private readonly db: Connection,
    private readonly checkpointer: Checkpointer,
    private readonly readPool: ReadPool,
    cardHashKey: Buffer,
    options: EngineOptions,
  ) {
    const now = options.now ?? Date.now;
    this.now = now;
    this.audit = new AuditLog(db);
    this.ledger = new SqliteLedger(db, this.audit);
    this.reads = new LedgerReads(readPool);
    this.keys = new ApiKeys(new KeyStore(db), this.audit, now);
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
    );
    this.batches = new BatchService(this.ledger, this.reads, now);
  }

  /** Opens (creating when new) the ledger of a data dir. */
  static open(dataDir: string, options: EngineOptions = {}): Engine {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const { database, cardHashKey } = dataDirLayout(dataDir);
    const key = loadCardHashKey(cardHashKey);
    const native = options.nativeBinding ? { nativeBinding: options.nativeBinding } : {};
    const db = openDatabase(database, native);
    return new Engine(
      db,
      startCheckpointer(db, database, native),
      new ReadPool(database, { ...options.reads, ...native }),
      key,
      options,
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
    await this.readPool.close();
    await this.checkpointer.stop();
    this.db.close();
  }
}
