/**
 * The store an engine is given: everything the engine needs of its ledger, from whichever store keeps
 * it. A counter's own SQLite file (sqlite/open.ts) and a store server shared by several counters
 * (postgres/open.ts) each make one; the engine uses it without asking which.
 */
import type { AdminStore } from './admin-store';
import type { CustomerRecords } from './customer-records';
import type { LedgerStore } from './ledger-store';
import type { LedgerReadPort } from './read-port';

/**
 * 'full' is SQLite's integrity_check and foreign_key_check: every page, and every index entry
 * against its row. 'quick' is quick_check: every page's structure, but an index key changed in a
 * well-formed page passes it.
 */
export type IntegrityDepth = 'full' | 'quick';

/**
 * What only a ledger kept in one file has: it can be checked page by page, copied while the engine
 * serves, and sealed at a clean stop. A store server's database is the database server's to check and
 * back up (see the operations guide).
 */
export interface LedgerFile {
  /** Where the file is. */
  readonly path: string;
  /** What the integrity check finds wrong with the file; empty when it is sound. */
  checkIntegrity(depth?: IntegrityDepth): string[];
  /** Writes a consistent copy of the file to `file` while the engine keeps serving. */
  backup(file: string): Promise<void>;
}

export interface Store {
  /** The write side and committed lookups: every rule's transaction. */
  readonly ledger: LedgerStore;
  /** Lists, the open batch, each lane's share of a batch, the audit log. */
  readonly reads: LedgerReadPort;
  /** API keys, settings, staff and the PIN gate, with the audit entries of their changes. */
  readonly admin: AdminStore;
  /** Customers' signatures and the addresses their receipts were emailed to. */
  readonly customerRecords: CustomerRecords;
  /** The secret of the keyed hashes of card numbers and of requests that carry card data. */
  readonly cardHashKey: Buffer;
  /** The lane this counter writes in: its name on a store server, LOCAL_LANE in its own file. */
  readonly lane: string;
  /** True when other counters share this store. */
  readonly shared: boolean;
  /** Present when the ledger is one file (SQLite). */
  readonly file?: LedgerFile;
  /** Closes everything the store opened. */
  close(): Promise<void>;
}
