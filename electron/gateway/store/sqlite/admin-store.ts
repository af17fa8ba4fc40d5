/**
 * Keys, settings, staff and the PIN gates in a data dir's SQLite file: reads at once, writes in the
 * ledger's group commit, so they settle once on disk with the writes around them.
 */
import {
  forgivenPinGate,
  liftedPinGate,
  nextPinGate,
  OPEN_PIN_GATE,
  type AdminStore,
  type AdminWrite,
  type DataDirAdmin,
  type PinGateState,
} from '../admin-store';
import type { ApiKeyRecord } from '../key-rows';
import { FORWARD_QUEUE_SQL } from '../sql/forward-queue-sql';
import type { StaffRecord } from '../staff-rows';
import type { AuditLog } from './audit-log';
import type { Connection } from './database';
import type { GroupCommit } from './group-commit';
import { KeyStore } from './keys';
import { PinGateStore } from './pin-gates';
import { SettingsStore } from './settings';
import { StaffStore } from './staff';

/** Everything a data dir's file holds of keys, settings and staff, for a store server to take over. */
export function dataDirAdmin(db: Connection): DataDirAdmin {
  return {
    keys: new KeyStore(db).list(),
    settings: new SettingsStore(db).all(),
    staff: new StaffStore(db).list(),
  };
}

/** The data dir's SQLite file: writes join the ledger's group commit. */
export class SqliteAdminStore implements AdminStore {
  private readonly keyStore: KeyStore;
  private readonly settingsStore: SettingsStore;
  private readonly staffStore: StaffStore;
  private readonly gates: PinGateStore;
  private readonly inWrite: AdminWrite;

  constructor(
    db: Connection,
    private readonly audit: AuditLog,
    private readonly commits: GroupCommit,
  ) {
    this.keyStore = new KeyStore(db);
    this.settingsStore = new SettingsStore(db);
    this.staffStore = new StaffStore(db);
    this.gates = new PinGateStore(db);
    const keys = this.keyStore;
    const staff = this.staffStore;
    const waitingCount = db.prepare<[], { count: number }>(FORWARD_QUEUE_SQL.waitingCount);
    this.inWrite = {
      insertKey: async (key) => keys.insert(key),
      revokeKey: async (publicId, at) => keys.revoke(publicId, at),
      setting: async (name) => this.settingsStore.get(name),
      setSetting: async (name, value) => this.settingsStore.set(name, value),
      waitingForwards: async () => waitingCount.get()?.count ?? 0,
      staff: async () => staff.list(),
      insertStaff: async (member) => staff.insert(member),
      updateStaff: async (id, current, change) => staff.update(id, current, change),
      retireStaff: async (id, at) => staff.retire(id, at),
      recordWrongPin: async (scope, now, rule) => {
        const next = nextPinGate(this.gateOf(scope), now, rule);
        this.gates.put(scope, {
          failures: next.failures,
          paused_until: next.pausedUntil,
          last_failure_at: next.lastFailureAt,
        });
        return next;
      },
      forgiveWrongPins: async (scope, count) => {
        const next = forgivenPinGate(this.gateOf(scope), count);
        this.gates.put(scope, {
          failures: next.failures,
          paused_until: next.pausedUntil,
          last_failure_at: next.lastFailureAt,
        });
      },
      liftPinPause: async (scope, now, rule) => {
        const before = this.gateOf(scope);
        if (before.pausedUntil <= now) return before;
        const next = liftedPinGate(before, now, rule);
        this.gates.put(scope, {
          failures: next.failures,
          paused_until: next.pausedUntil,
          last_failure_at: next.lastFailureAt,
        });
        return before;
      },
      appendAudit: async (entry) => this.audit.append(entry),
    };
  }

  findKey(publicId: string): Readonly<ApiKeyRecord> | undefined {
    return this.keyStore.findByPublicId(publicId);
  }

  keys(): ApiKeyRecord[] {
    return this.keyStore.list();
  }

  setting(name: string): string | undefined {
    return this.settingsStore.get(name);
  }

  staff(): StaffRecord[] {
    return this.staffStore.list();
  }

  async pinGate(scope: string): Promise<PinGateState> {
    return this.gateOf(scope);
  }

  private gateOf(scope: string): PinGateState {
    const row = this.gates.get(scope);
    return row
      ? { failures: row.failures, pausedUntil: row.paused_until, lastFailureAt: row.last_failure_at }
      : OPEN_PIN_GATE;
  }

  write<T>(work: (tx: AdminWrite) => Promise<T>): Promise<T> {
    return this.commits.run(() => work(this.inWrite));
  }

  touchKey(id: number, at: number): void {
    this.keyStore.touch(id, at);
  }

  async close(): Promise<void> {}
}
