/**
 * The store port of what the merchant administers: API keys, settings, staff and the PIN gate, with
 * the audit entries of every change. Reads are synchronous (every request looks its key up and reads
 * settings); the SQLite file answers them at once (sqlite/admin-store.ts), and the store server from a
 * snapshot it keeps current (postgres/admin-store.ts). Writes are asynchronous and settle once their
 * commit, with the audit entry recording them, is durable.
 */
import type { AuditEntry } from './audit';
import type { ApiKeyRecord } from './key-rows';
import type { StaffChange, StaffRecord } from './staff-rows';

export interface NewApiKey {
  publicId: string;
  secretHash: Buffer;
  name: string;
  permissions: readonly string[];
  createdAt: number;
}

/** What a data dir's file holds of keys, settings and staff, for a store server to take over. */
export interface DataDirAdmin {
  keys: ApiKeyRecord[];
  settings: [name: string, value: string][];
  staff: StaffRecord[];
}

/** Wrong PINs in a row, and until when (epoch ms) every PIN is refused; 0 when PIN entry is open. */
export interface PinGateState {
  failures: number;
  pausedUntil: number;
}

/** How many wrong PINs pause PIN entry, and for how long. */
export interface PinGateRule {
  attempts: number;
  pauseMs: number;
}

/** The rule of both stores: five wrong PINs in a row pause PIN entry for a minute. */
export const PIN_GATE_RULE: PinGateRule = { attempts: 5, pauseMs: 60_000 };

/**
 * The changes of one write, committed together. Its methods are valid only while the write runs, and
 * a write's work awaits nothing but them: on SQLite the whole write runs within one turn.
 */
export interface AdminWrite {
  insertKey(key: NewApiKey): Promise<ApiKeyRecord>;
  revokeKey(publicId: string, at: number): Promise<ApiKeyRecord | undefined>;
  /** The stored text of a setting as this write sees it, locked until the write ends. */
  setting(name: string): Promise<string | undefined>;
  setSetting(name: string, value: string): Promise<void>;
  /** Everyone, the live first by name, as this write sees them; other staff writes wait for it to end. */
  staff(): Promise<StaffRecord[]>;
  insertStaff(member: Omit<StaffRecord, 'id' | 'retiredAt'>): Promise<StaffRecord>;
  updateStaff(id: number, current: StaffRecord, change: StaffChange): Promise<StaffRecord | undefined>;
  retireStaff(id: number, at: number): Promise<StaffRecord | undefined>;
  /** Counts a wrong PIN at `now`; the last allowed one pauses PIN entry and starts the count again. */
  recordWrongPin(now: number, rule: PinGateRule): Promise<PinGateState>;
  clearWrongPins(): Promise<void>;
  appendAudit(entry: Omit<AuditEntry, 'id'>): Promise<void>;
}

export interface AdminStore {
  /** The key with this public id. The record is shared with later callers: do not change it. */
  findKey(publicId: string): Readonly<ApiKeyRecord> | undefined;
  keys(): ApiKeyRecord[];
  setting(name: string): string | undefined;
  /** Everyone, the live first, by name (letter case aside), then id. */
  staff(): StaffRecord[];
  /** The PIN gate now: the store's, shared by its counters, on a store server. */
  pinGate(): Promise<PinGateState>;
  /** Runs `work` as one transaction; settles with its value once it is committed. */
  write<T>(work: (tx: AdminWrite) => Promise<T>): Promise<T>;
  /** Notes when a key was last used; kept for people, so it may be written later and in batches. */
  touchKey(id: number, at: number): void;
  close(): Promise<void>;
}

/** Wrong PINs in the engine's memory, as one counter keeps them: its SQLite file does not. */
export function nextPinGate(state: PinGateState, now: number, rule: PinGateRule): PinGateState {
  const failures = state.failures + 1;
  return failures >= rule.attempts
    ? { failures: 0, pausedUntil: now + rule.pauseMs }
    : { failures, pausedUntil: state.pausedUntil };
}
