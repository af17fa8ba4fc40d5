/**
 * API keys, settings, staff and the PIN gate on the store server, shared by its counters. Reads are
 * answered from a snapshot in memory, loaded at start and kept current: each write announces what it
 * changed (NOTIFY, sent at its commit), every counter listens and reloads that part, and a counter
 * that lost the server reloads everything once it is back. The listening connection is asked to
 * answer every second; one that does not within two is dropped and replaced, and keys and staff are
 * refused (store_unreachable) once the snapshot has gone five seconds without a confirmed listener,
 * so a revocation or a retirement reaches every counter within that bound (STALE_AFTER_MS). Writes run as one transaction with their audit entries and settle after the commit, with
 * the writer's own snapshot already reloaded. The PIN gate is read from the server at each check, so
 * a pause after wrong PINs holds at every counter at once.
 */
import type pg from 'pg';
import {
  forgivenPinGate,
  liftedPinGate,
  nextPinGate,
  OPEN_PIN_GATE,
  type AdminStore,
  type AdminWrite,
  type DataDirAdmin,
  type PinGateRule,
  type PinGateState,
} from '../admin-store';
import { auditRow } from '../audit';
import { keyFromRow, type ApiKeyRecord, type ApiKeyRow } from '../key-rows';
import { byStaffOrder, staffFromRow, type StaffRecord, type StaffRow } from '../staff-rows';
import { StoreUnreachableError } from '../store-errors';
import { adoptDataDir } from './admin-adopt';
import { ADMIN_CHANNEL, ADMIN_PARTS, ADMIN_SQL, STAFF_LOCK, type AdminPart } from './admin-sql';
import { openPool, type PostgresConnectionOptions } from './connection';
import { waitingUnderLock } from './forward-queue';
import { asStoreError, inTransaction } from './transaction';

/** How soon a counter that lost the server tries again to listen. */
const RELISTEN_MS = 1000;
/** How often the listening connection is asked to answer, and how long it has to. */
const HEARTBEAT_MS = 1000;
const HEARTBEAT_TIMEOUT_MS = 2000;
/**
 * How old the snapshot of keys and staff may be: the last moment the listener was known to have
 * delivered every change committed before it. Past this, keys and staff are refused.
 */
export const STALE_AFTER_MS = 5000;
/** Last-used stamps wait this long in memory and reach the server together. */
const TOUCH_FLUSH_MS = 10_000;

interface Snapshot {
  keys: Map<string, ApiKeyRecord>;
  settings: Map<string, string>;
  staff: StaffRecord[];
}

export class PostgresAdminStore implements AdminStore {
  private readonly snapshot: Snapshot = { keys: new Map(), settings: new Map(), staff: [] };
  private listener: pg.PoolClient | undefined;
  private relisten: NodeJS.Timeout | undefined;
  private readonly reloads = new Map<AdminPart, Promise<void>>();
  private readonly touched = new Map<number, number>();
  private touchTimer: NodeJS.Timeout | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  /** Every change committed before this moment is in the snapshot (epoch ms). */
  private freshAt = 0;
  private closed = false;

  private constructor(
    private readonly pool: pg.Pool,
    /** How the listening connection is named in the server's activity view. */
    private readonly listenerName: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** Loads the snapshot and starts listening; fails within seconds when the server cannot be reached. */
  static async open(options: PostgresConnectionOptions): Promise<PostgresAdminStore> {
    const store = new PostgresAdminStore(
      openPool({ max: 3, ...options }),
      `${options.applicationName ?? 'tender'} listener`,
    );
    try {
      await store.listen();
    } catch (error) {
      await store.close();
      throw asStoreError(error);
    }
    return store;
  }

  findKey(publicId: string): Readonly<ApiKeyRecord> | undefined {
    this.requireFresh();
    return this.snapshot.keys.get(publicId);
  }

  keys(): ApiKeyRecord[] {
    this.requireFresh();
    return [...this.snapshot.keys.values()].sort((a, b) => a.id - b.id).map((key) => ({ ...key }));
  }

  setting(name: string): string | undefined {
    return this.snapshot.settings.get(name);
  }

  staff(): StaffRecord[] {
    this.requireFresh();
    return this.snapshot.staff.map((member) => ({ ...member }));
  }

  /** Refuses a snapshot that may have missed a revocation or a retirement. */
  private requireFresh(): void {
    if (this.now() - this.freshAt > STALE_AFTER_MS) {
      throw new StoreUnreachableError(
        'The store server has not confirmed this counter’s keys and staff for a few seconds.',
      );
    }
  }

  async pinGate(scope: string): Promise<PinGateState> {
    try {
      const row = (await this.pool.query<GateRow>(ADMIN_SQL.pinGate([scope]))).rows[0];
      return toGate(row);
    } catch (error) {
      throw asStoreError(error);
    }
  }

  write<T>(work: (tx: AdminWrite) => Promise<T>): Promise<T> {
    return this.inTransaction((client, changed) => work(writeSide(client, changed)));
  }

  /** Enters what a counter's data dir holds (admin-adopt.ts); settles with the snapshot reloaded. */
  adopt(local: DataDirAdmin): Promise<void> {
    return this.inTransaction(async (client, changed) => {
      await adoptDataDir(client, local);
      for (const part of ADMIN_PARTS) changed.add(part);
    });
  }

  /**
   * Runs `work` as one transaction, announcing the parts it changed at its commit; settles once
   * committed, with this counter's snapshot of those parts reloaded.
   */
  private async inTransaction<T>(
    work: (client: pg.ClientBase, changed: Set<AdminPart>) => Promise<T>,
  ): Promise<T> {
    if (this.closed) throw new Error('The store connection is closed.');
    const changed = new Set<AdminPart>();
    const value = await inTransaction(this.pool, async (client) => {
      const done = await work(client, changed);
      for (const part of changed) await client.query(ADMIN_SQL.notify([ADMIN_CHANNEL, part]));
      return done;
    });
    // Committed: the write is done whatever follows. When the reload fails, the counter listens
    // afresh, which reloads everything.
    await this.reload([...changed]).catch(() => this.dropListener());
    return value;
  }

  touchKey(id: number, at: number): void {
    for (const [publicId, key] of this.snapshot.keys) {
      if (key.id === id) this.snapshot.keys.set(publicId, { ...key, lastUsedAt: at });
    }
    this.touched.set(id, at);
    this.touchTimer ??= setTimeout(() => {
      this.touchTimer = undefined;
      void this.flushTouches();
    }, TOUCH_FLUSH_MS).unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.relisten);
    clearInterval(this.heartbeat);
    clearTimeout(this.touchTimer);
    await this.flushTouches();
    this.listener?.release(true);
    this.listener = undefined;
    await this.pool.end();
  }

  /**
   * Last-used stamps, one statement per key used since the last flush. Without the server they wait
   * for the next flush; at close, they are given up.
   */
  private async flushTouches(): Promise<void> {
    for (const [id, at] of [...this.touched]) {
      try {
        await this.pool.query(ADMIN_SQL.touchKey([at, id, at]));
      } catch {
        return;
      }
      if (this.touched.get(id) === at) this.touched.delete(id);
    }
  }

  /** Listens for changes first, then loads everything, so that no change falls between the two. */
  private async listen(): Promise<void> {
    const client = await this.pool.connect();
    let dropped = false;
    const lost = () => {
      if (this.listener !== client) return;
      dropped = true;
      this.dropListener();
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (message) => {
      const part = ADMIN_PARTS.find((name) => name === message.payload);
      this.reload(part ? [part] : [...ADMIN_PARTS]).catch(lost);
    });
    try {
      await client.query(ADMIN_SQL.nameSession([this.listenerName]));
      await client.query(`LISTEN ${ADMIN_CHANNEL}`);
      this.listener = client;
      const listening = this.now();
      await this.reload([...ADMIN_PARTS]);
      this.freshAt = Math.max(this.freshAt, listening);
      this.heartbeat ??= setInterval(() => void this.beat(), HEARTBEAT_MS).unref();
    } catch (error) {
      if (!dropped) {
        if (this.listener === client) this.listener = undefined;
        client.release(true);
      }
      throw error;
    }
  }

  /**
   * Asks the listener to answer. The server sends a listener every notification committed before it
   * reads the question, ahead of the answer; so once answered, the snapshot holds every change made
   * before the question was sent. A listener that does not answer in time (its backend stopped, the
   * network gone silent, which TCP keepalive would notice only after hours) is dropped and replaced.
   */
  private async beat(): Promise<void> {
    const client = this.listener;
    if (!client || this.closed) return;
    const asked = this.now();
    try {
      const answered = client.query('SELECT 1');
      // Dropping the listener ends this query too; its failure then has nobody left to tell.
      answered.catch(() => undefined);
      let timer: NodeJS.Timeout | undefined;
      const silent = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('the listener did not answer')), HEARTBEAT_TIMEOUT_MS);
      });
      try {
        await Promise.race([answered, silent]);
      } finally {
        clearTimeout(timer);
      }
      if (this.listener === client) this.freshAt = Math.max(this.freshAt, asked);
    } catch {
      if (this.listener === client) this.dropListener();
    }
  }

  /** Closes the listening connection and listens again shortly, reloading everything then. */
  private dropListener(): void {
    const client = this.listener;
    this.listener = undefined;
    client?.release(true);
    this.scheduleRelisten();
  }

  private scheduleRelisten(): void {
    if (this.closed || this.relisten) return;
    this.relisten = setTimeout(() => {
      this.relisten = undefined;
      if (this.closed) return;
      this.listen().catch(() => this.scheduleRelisten());
    }, RELISTEN_MS);
    this.relisten.unref();
  }

  /**
   * Reloads each part, one reload of a part after another: a reload started later reads a later
   * state, and no earlier one can finish after it and put an older state back.
   */
  private async reload(parts: readonly AdminPart[]): Promise<void> {
    await Promise.all(
      parts.map((part) => {
        const next = (this.reloads.get(part) ?? Promise.resolve())
          .catch(() => undefined)
          .then(() => this.load(part));
        this.reloads.set(part, next);
        return next;
      }),
    );
  }

  private async load(part: AdminPart): Promise<void> {
    if (part === 'keys') {
      const rows = (await this.pool.query<ApiKeyRow>(ADMIN_SQL.keys())).rows;
      this.snapshot.keys = new Map(rows.map((row) => [row.public_id, keyFromRow(row)]));
    } else if (part === 'settings') {
      const rows = (await this.pool.query<{ key: string; value: string }>(ADMIN_SQL.settings())).rows;
      this.snapshot.settings = new Map(rows.map((row) => [row.key, row.value]));
    } else {
      const rows = (await this.pool.query<StaffRow>(ADMIN_SQL.staff())).rows;
      this.snapshot.staff = rows.map(staffFromRow).sort(byStaffOrder);
    }
  }
}

interface GateRow {
  failures: number;
  paused_until: number;
  last_failure_at: number;
}

function toGate(row: GateRow | undefined): PinGateState {
  return row
    ? {
        failures: row.failures,
        pausedUntil: Number(row.paused_until),
        lastFailureAt: Number(row.last_failure_at),
      }
    : OPEN_PIN_GATE;
}

/** One transaction's changes on `client`, noting which parts of the snapshot they touch. */
function writeSide(client: pg.ClientBase, changed: Set<AdminPart>): AdminWrite {
  let staffLocked = false;
  const lockStaff = async () => {
    if (!staffLocked) await client.query(ADMIN_SQL.lockStaff([STAFF_LOCK]));
    staffLocked = true;
  };
  const staffRow = async (query: pg.QueryConfig) => {
    await lockStaff();
    const row = (await client.query<StaffRow>(query)).rows[0];
    if (row) changed.add('staff');
    return row && staffFromRow(row);
  };
  return {
    insertKey: async (key) => {
      const { rows } = await client.query<ApiKeyRow>(
        ADMIN_SQL.insertKey([
          key.publicId,
          key.secretHash,
          key.name,
          key.permissions.join(','),
          key.createdAt,
          key.counterScreens,
        ]),
      );
      changed.add('keys');
      return keyFromRow(rows[0] as ApiKeyRow);
    },
    revokeKey: async (publicId, at) => {
      const row = (await client.query<ApiKeyRow>(ADMIN_SQL.revokeKey([at, publicId]))).rows[0];
      if (row) changed.add('keys');
      return row && keyFromRow(row);
    },
    setting: async (name) =>
      (await client.query<{ value: string }>(ADMIN_SQL.setting([name]))).rows[0]?.value,
    setSetting: async (name, value) => {
      await client.query(ADMIN_SQL.setSetting([name, value]));
      changed.add('settings');
    },
    waitingForwards: () => waitingUnderLock((text, values) => client.query(text, values)),
    staff: async () => {
      await lockStaff();
      return (await client.query<StaffRow>(ADMIN_SQL.staff())).rows.map(staffFromRow).sort(byStaffOrder);
    },
    insertStaff: async (member) => {
      const row = await staffRow(
        ADMIN_SQL.insertStaff([member.name, member.role, member.pinHash, member.serverId, member.createdAt]),
      );
      if (!row) throw new Error('the store did not add the staff member');
      return row;
    },
    updateStaff: async (id, current, change) => {
      const next = { ...current, ...change };
      return staffRow(ADMIN_SQL.updateStaff([next.name, next.role, next.pinHash, next.serverId, id]));
    },
    retireStaff: async (id, at) => staffRow(ADMIN_SQL.retireStaff([at, id])),
    recordWrongPin: async (scope: string, now: number, rule: PinGateRule) => {
      const { rows } = await client.query<GateRow>(ADMIN_SQL.lockPinGate([scope]));
      const next = nextPinGate(toGate(rows[0]), now, rule);
      await client.query(ADMIN_SQL.putPinGate([scope, next.failures, next.pausedUntil, next.lastFailureAt]));
      return next;
    },
    forgiveWrongPins: async (scope: string, count: number) => {
      const { rows } = await client.query<GateRow>(ADMIN_SQL.lockPinGate([scope]));
      const next = forgivenPinGate(toGate(rows[0]), count);
      await client.query(ADMIN_SQL.putPinGate([scope, next.failures, next.pausedUntil, next.lastFailureAt]));
    },
    liftPinPause: async (scope: string, now: number, rule: PinGateRule) => {
      const { rows } = await client.query<GateRow>(ADMIN_SQL.lockPinGate([scope]));
      const before = toGate(rows[0]);
      if (before.pausedUntil <= now) return before;
      const next = liftedPinGate(before, now, rule);
      await client.query(ADMIN_SQL.putPinGate([scope, next.failures, next.pausedUntil, next.lastFailureAt]));
      return before;
    },
    appendAudit: async (entry) => {
      await client.query(ADMIN_SQL.appendAudit(auditRow(entry)));
    },
  };
}
