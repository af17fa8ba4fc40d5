/**
 * The store of a counter on a store server: the store's one ledger, its reads, and its API keys,
 * settings, staff and PIN gate, shared by the store's counters. The schema is brought up to date
 * first, and the data dir's keys, settings and staff entered (admin-adopt.ts).
 */
import type { DataDirAdmin } from '../admin-store';
import { POSTGRES_DIALECT } from '../sql/dialect';
import { LedgerReads } from '../sql/ledger-reads';
import type { Store } from '../store';
import { PostgresAdminStore } from './admin-store';
import { PostgresCustomerRecords } from './customer-records';
import { PostgresLedger } from './ledger';
import { PostgresReadPool } from './read-pool';

export interface PostgresStoreOptions {
  /** `postgresql://user:password@host:port/database?sslmode=verify-full&sslrootcert=...` */
  url: string;
  /** This counter's name in the store: 1 to 16 letters, digits or hyphens. */
  lane: string;
  /** What this counter's data dir brings to the store (see admin-adopt.ts). */
  dataDir?: DataDirAdmin;
  /**
   * Whether this store is opened for the engine that serves the lane: the lane is then claimed
   * before anything else is done (a LaneInUseError when another engine serves it).
   */
  servesLane?: boolean;
}

/** Fails within seconds, with nothing left open, when the store server cannot be reached. */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<Store> {
  // The server's activity view names each counter's connections by its lane.
  const applicationName = `tender ${options.lane}`;
  const ledger = await PostgresLedger.open({ url: options.url, lane: options.lane, applicationName });
  const readPool = new PostgresReadPool({ url: options.url, applicationName });
  const customerRecords = new PostgresCustomerRecords({ url: options.url, applicationName });
  let admin: PostgresAdminStore | undefined;
  try {
    if (options.servesLane) await ledger.claimLane();
    const cardHashKey = await ledger.cardHashKey();
    admin = await PostgresAdminStore.open({ url: options.url, applicationName });
    if (options.dataDir) await admin.adopt(options.dataDir);
    const openedAdmin = admin;
    return {
      ledger,
      reads: new LedgerReads(readPool, POSTGRES_DIALECT),
      admin: openedAdmin,
      customerRecords,
      cardHashKey,
      lane: options.lane,
      shared: true,
      close: async () => {
        await openedAdmin.close();
        await customerRecords.close();
        await readPool.close();
        await ledger.close();
      },
    };
  } catch (error) {
    await admin?.close();
    await customerRecords.close();
    await readPool.close();
    await ledger.close();
    throw error;
  }
}
