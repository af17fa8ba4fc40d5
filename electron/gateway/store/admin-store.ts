/**
 * The store port of what the merchant administers: API keys, settings, staff and the PIN gate, with
 * the audit entries of every change. Reads are synchronous (every request looks its key up and reads
 * settings); the SQLite file answers them at once (sqlite/admin-store.ts), and the store server from
 * a snapshot it keeps current (postgres/admin-store.ts). Writes are asynchronous and settle once their
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
  /** Made for a counter's own screens (issueTerminalKey), not for another program. */
  counterScreens: boolean;
}

/** What a data dir's file holds of keys, settings and staff, for a store server to take over. */
export interface DataDirAdmin {
  keys: ApiKeyRecord[];
  settings: [name: string, value: string][];
  staff: StaffRecord[];
}

/**
 * The wrong PINs counted in one scope (a counter, and what its PINs were for), until when PIN entry
 * there is paused (epoch ms, 0 when open), and when the last wrong one came.
 */
export interface PinGateState {
  failures: number;
  pausedUntil: number;
  lastFailureAt: number;
}

/**
 * The rule of both stores. The first `attempts - 1` wrong PINs in a scope are free; each one from
 * the `attempts`-th on pauses the scope, for `pauseMs` and then twice as long each time. A correct
 * PIN forgives nothing: the count falls by one for each `forgetMs` without a wrong PIN.
 */
export interface PinGateRule {
  attempts: number;
  pauseMs: number;
  forgetMs: number;
}

export const PIN_GATE_RULE: PinGateRule = { attempts: 5, pauseMs: 60_000, forgetMs: 7 * 24 * 3_600_000 };

/** A scope nobody has typed a wrong PIN in. */
export const OPEN_PIN_GATE: PinGateState = { failures: 0, pausedUntil: 0, lastFailureAt: 0 };

/** The count as time has worn it down by `now`. */
export function wornPinGate(state: PinGateState, now: number, rule: PinGateRule): PinGateState {
  if (state.failures === 0) return state;
  const forgotten = Math.floor(Math.max(0, now - state.lastFailureAt) / rule.forgetMs);
  const failures = Math.max(0, state.failures - forgotten);
  return {
    failures,
    pausedUntil: state.pausedUntil,
    // The time still counting towards the next one forgotten is kept.
    lastFailureAt: failures === 0 ? 0 : state.lastFailureAt + forgotten * rule.forgetMs,
  };
}

/** The gate after one more wrong PIN at `now`. */
export function nextPinGate(state: PinGateState, now: number, rule: PinGateRule): PinGateState {
  const failures = wornPinGate(state, now, rule).failures + 1;
  const doublings = Math.min(failures - rule.attempts, 40);
  return {
    failures,
    pausedUntil: doublings >= 0 ? now + rule.pauseMs * 2 ** doublings : state.pausedUntil,
    lastFailureAt: now,
  };
}

/** The gate after `count` wrong PINs were found to be typing slips of a correct one. */
export function forgivenPinGate(state: PinGateState, count: number): PinGateState {
  const failures = Math.max(0, state.failures - count);
  return { ...state, failures, lastFailureAt: failures === 0 ? 0 : state.lastFailureAt };
}

/**
 * The gate once its pause is lifted by hand (`staff unpause`): open at once, with the count kept just
 * below a pause, so the next wrong PIN there pauses it again, for a minute, and doubling from there.
 * Lifting gives no one a guess the rule would not have given them.
 */
export function liftedPinGate(state: PinGateState, now: number, rule: PinGateRule): PinGateState {
  const worn = wornPinGate(state, now, rule);
  const failures = Math.min(worn.failures, rule.attempts - 1);
  return { failures, pausedUntil: 0, lastFailureAt: failures === 0 ? 0 : worn.lastFailureAt };
}

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
  /**
   * How many transactions made offline wait to be forwarded, as this write sees them; on a store
   * server under the lock an offline approval holds to its commit, held to this write's end.
   */
  waitingForwards(): Promise<number>;
  /** Everyone, the live first by name, as this write sees them; other staff writes wait for it to end. */
  staff(): Promise<StaffRecord[]>;
  insertStaff(member: Omit<StaffRecord, 'id' | 'retiredAt'>): Promise<StaffRecord>;
  updateStaff(id: number, current: StaffRecord, change: StaffChange): Promise<StaffRecord | undefined>;
  retireStaff(id: number, at: number): Promise<StaffRecord | undefined>;
  /** Counts a wrong PIN in `scope` at `now`, pausing the scope as the rule says. */
  recordWrongPin(scope: string, now: number, rule: PinGateRule): Promise<PinGateState>;
  /** Takes `count` wrong PINs off the scope's count: typing slips of a PIN then typed right. */
  forgiveWrongPins(scope: string, count: number): Promise<void>;
  /** Lifts the scope's pause, if it is paused at `now` (liftedPinGate); the gate as it was before. */
  liftPinPause(scope: string, now: number, rule: PinGateRule): Promise<PinGateState>;
  appendAudit(entry: Omit<AuditEntry, 'id'>): Promise<void>;
}

export interface AdminStore {
  /** The key with this public id. The record is shared with later callers: do not change it. */
  findKey(publicId: string): Readonly<ApiKeyRecord> | undefined;
  keys(): ApiKeyRecord[];
  setting(name: string): string | undefined;
  /** Everyone, the live first, by name (letter case aside), then id. */
  staff(): StaffRecord[];
  /** The PIN gate of one scope now, as stored (the store's on a store server). */
  pinGate(scope: string): Promise<PinGateState>;
  /** Runs `work` as one transaction; settles with its value once it is committed. */
  write<T>(work: (tx: AdminWrite) => Promise<T>): Promise<T>;
  /** Notes when a key was last used; kept for people, so it may be written later and in batches. */
  touchKey(id: number, at: number): void;
  close(): Promise<void>;
}
