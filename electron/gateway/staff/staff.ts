/**
 * Cashiers and managers. A PIN names its owner at the counter (sign-in and switching cashier take
 * one PIN), so no two people at work share one; every check goes through one gate with a lockout,
 * and every wrong PIN is in the audit log. Retired staff keep their rows, so history still names
 * them. Which staff member the counter's screens act for is kept here too, beside the engine that
 * records it with each transaction.
 */
import { hasControlCharacter } from '../settings';
import type { AuditLog } from '../store/audit';
import type { StaffRecord, StaffRole, StaffStore } from '../store/staff';
import { hashPin, isStoredPin, PinGate, pinMatches, type StoredPin } from './pins';

export type { StaffRole } from '../store/staff';

export interface StaffMember {
  id: number;
  name: string;
  role: StaffRole;
  serverId: string | null;
  created: number;
  retired: number | null;
}

export class InvalidStaffRequestError extends Error {}

/** A PIN that was not accepted: wrong, or the gate is closed for a while after too many. */
export class PinRefusedError extends Error {
  constructor(
    readonly reason: 'wrong' | 'locked' | 'not-manager',
    message: string,
  ) {
    super(message);
  }
}

export const STAFF_ROLES: readonly StaffRole[] = ['cashier', 'manager'];
const PIN_PATTERN = /^\d{4,8}$/;
const SERVER_PATTERN = /^\d{2}$/;

function toMember(record: StaffRecord): StaffMember {
  return {
    id: record.id,
    name: record.name,
    role: record.role,
    serverId: record.serverId,
    created: record.createdAt,
    retired: record.retiredAt,
  };
}

function storedPinOf(record: StaffRecord): StoredPin | undefined {
  try {
    const parsed: unknown = JSON.parse(record.pinHash);
    return isStoredPin(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function checkedName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > 40 || hasControlCharacter(trimmed)) {
    throw new InvalidStaffRequestError('A name has 1 to 40 characters.');
  }
  return trimmed;
}

function checkedPin(pin: string): string {
  if (!PIN_PATTERN.test(pin)) throw new InvalidStaffRequestError('A PIN has 4 to 8 digits.');
  return pin;
}

function checkedServer(serverId: string | null): string | null {
  if (serverId === null || serverId === '') return null;
  if (!SERVER_PATTERN.test(serverId)) {
    throw new InvalidStaffRequestError('A server number has two digits, like 07.');
  }
  return serverId;
}

function checkedRole(role: string): StaffRole {
  if (!(STAFF_ROLES as readonly string[]).includes(role)) {
    throw new InvalidStaffRequestError('The role is cashier or manager.');
  }
  return role as StaffRole;
}

export interface NewStaffMember {
  name: string;
  role: string;
  pin: string;
  serverId?: string | null;
}

export interface StaffMemberChange {
  name?: string;
  role?: string;
  pin?: string;
  serverId?: string | null;
}

export class StaffService {
  readonly #gate: PinGate;
  /** The staff member each counter key acts for, by the key's record id; none while it is locked. */
  readonly #counters = new Map<number, StaffMember>();
  /** The keys of counters' screens. */
  readonly #registered = new Set<number>();

  constructor(
    private readonly store: StaffStore,
    private readonly audit: AuditLog,
    private readonly now: () => number = Date.now,
  ) {
    this.#gate = new PinGate(now);
  }

  list(): StaffMember[] {
    return this.store.list().map(toMember);
  }

  /** Whether anyone may sign in: a first start has no staff and must create its first manager. */
  hasStaff(): boolean {
    return this.store.counts().live > 0;
  }

  async create(member: NewStaffMember, actor: string): Promise<StaffMember> {
    const name = checkedName(member.name);
    const role = checkedRole(member.role);
    const pin = checkedPin(member.pin);
    const serverId = checkedServer(member.serverId ?? null);
    this.#requireFreeName(name);
    await this.#requireFreePin(pin);
    const stored = await hashPin(pin);
    return this.#insert({ name, role, serverId, pinHash: JSON.stringify(stored) }, actor, 'new');
  }

  /**
   * The counter's manager PIN of earlier versions becomes the first manager, with the same PIN (its
   * hash is kept as it is). Does nothing once anyone has an account.
   */
  adoptManagerPin(stored: StoredPin, actor: string): StaffMember | undefined {
    if (this.store.list().length > 0) return undefined;
    return this.#insert(
      { name: 'Manager', role: 'manager', serverId: null, pinHash: JSON.stringify(stored) },
      actor,
      'from the counter manager PIN',
    );
  }

  async change(who: string, change: StaffMemberChange, actor: string): Promise<StaffMember> {
    const current = this.#find(who);
    const next: Partial<Pick<StaffRecord, 'name' | 'role' | 'pinHash' | 'serverId'>> = {};
    const said: string[] = [];
    if (change.name !== undefined && checkedName(change.name) !== current.name) {
      next.name = checkedName(change.name);
      if (next.name.toLowerCase() !== current.name.toLowerCase()) this.#requireFreeName(next.name);
      said.push(`name ${current.name} → ${next.name}`);
    }
    if (change.role !== undefined && checkedRole(change.role) !== current.role) {
      next.role = checkedRole(change.role);
      if (next.role === 'cashier') this.#requireAnotherManager(current);
      said.push(`role ${current.role} → ${next.role}`);
    }
    if (change.serverId !== undefined && checkedServer(change.serverId) !== current.serverId) {
      next.serverId = checkedServer(change.serverId);
      said.push(`server ${current.serverId ?? 'none'} → ${next.serverId ?? 'none'}`);
    }
    if (change.pin !== undefined) {
      const pin = checkedPin(change.pin);
      await this.#requireFreePin(pin, current.id);
      next.pinHash = JSON.stringify(await hashPin(pin));
      said.push('PIN changed');
    }
    if (said.length === 0) return toMember(current);
    const updated = this.audit.atomically(() => {
      const row = this.store.update(current.id, current, next);
      if (!row) throw new InvalidStaffRequestError(`${current.name} was retired meanwhile.`);
      this.audit.append({
        at: this.now(),
        actor,
        action: 'staff_change',
        subject: `staff ${row.id} "${row.name}"`,
        detail: said.join(', '),
      });
      return row;
    });
    this.#refreshCounters(updated);
    return toMember(updated);
  }

  retire(who: string, actor: string): StaffMember {
    const current = this.#find(who);
    if (current.role === 'manager') this.#requireAnotherManager(current);
    const retired = this.audit.atomically(() => {
      const row = this.store.retire(current.id, this.now());
      if (!row) throw new InvalidStaffRequestError(`${current.name} is retired already.`);
      this.audit.append({
        at: this.now(),
        actor,
        action: 'staff_retire',
        subject: `staff ${row.id} "${row.name}"`,
        detail: row.role,
      });
      return row;
    });
    for (const [key, member] of this.#counters) if (member.id === retired.id) this.#counters.delete(key);
    return toMember(retired);
  }

  /**
   * The live staff member whose PIN this is. A wrong PIN is written to the audit log with what it
   * was for (never the PIN itself); after five in a row every PIN is refused for a minute.
   */
  async identify(pin: string, purpose: string, where: string): Promise<StaffMember> {
    const candidates = PIN_PATTERN.test(pin)
      ? this.store.live().flatMap((record) => {
          const stored = storedPinOf(record);
          return stored ? [{ record, stored }] : [];
        })
      : [];
    let found: StaffRecord | undefined;
    const check = await this.#gate.attempt(async () => {
      const matches = await Promise.all(candidates.map(({ stored }) => pinMatches(pin, stored)));
      found = candidates[matches.indexOf(true)]?.record;
      return found !== undefined;
    });
    if (check.ok && found) return toMember(found);
    const locked = !check.ok && check.reason === 'locked';
    const message = locked
      ? `Too many wrong PINs. Wait ${check.retryInSeconds ?? 60} seconds, then try again.`
      : `Wrong PIN. ${this.#gate.attemptsLeft} more ${this.#gate.attemptsLeft === 1 ? 'try' : 'tries'} before a one-minute pause.`;
    this.audit.append({
      at: this.now(),
      actor: where,
      action: 'pin_failed',
      subject: purpose,
      detail: locked ? `refused: PIN entry paused for ${check.retryInSeconds ?? 60} s` : 'wrong PIN',
    });
    throw new PinRefusedError(locked ? 'locked' : 'wrong', message);
  }

  /** The manager whose PIN this is, for one action; a cashier's PIN does not approve. */
  async approvingManager(pin: string, purpose: string, where: string): Promise<StaffMember> {
    const member = await this.identify(pin, purpose, where);
    if (member.role !== 'manager') {
      this.audit.append({
        at: this.now(),
        actor: where,
        action: 'pin_failed',
        subject: purpose,
        detail: `refused: ${member.name} is a cashier`,
      });
      throw new PinRefusedError(
        'not-manager',
        `${member.name} is a cashier. A manager must enter their PIN.`,
      );
    }
    return member;
  }

  /** The staff member a counter's key now acts for, or none while the counter is locked. */
  signedInAt(keyRecordId: number): StaffMember | undefined {
    return this.#counters.get(keyRecordId);
  }

  /** Whether the key is a counter's own, whose transactions need someone signed in. */
  isCounterKey(keyRecordId: number): boolean {
    return this.#registered.has(keyRecordId);
  }

  /** Marks a key as a counter's own: it acts for whoever signs in there, and for no one while locked. */
  registerCounter(keyRecordId: number): void {
    this.#registered.add(keyRecordId);
  }

  unregisterCounter(keyRecordId: number): void {
    this.#registered.delete(keyRecordId);
    this.#counters.delete(keyRecordId);
  }

  signIn(keyRecordId: number, member: StaffMember, where: string): void {
    const previous = this.#counters.get(keyRecordId);
    this.#counters.set(keyRecordId, member);
    this.audit.append({
      at: this.now(),
      actor: where,
      action: 'sign_in',
      subject: `staff ${member.id} "${member.name}"`,
      detail: previous ? `after ${previous.name}` : '',
    });
  }

  signOut(keyRecordId: number, where: string, reason: string): void {
    const previous = this.#counters.get(keyRecordId);
    if (!previous) return;
    this.#counters.delete(keyRecordId);
    this.audit.append({
      at: this.now(),
      actor: where,
      action: 'sign_out',
      subject: `staff ${previous.id} "${previous.name}"`,
      detail: reason,
    });
  }

  #insert(
    member: Pick<StaffRecord, 'name' | 'role' | 'serverId' | 'pinHash'>,
    actor: string,
    detail: string,
  ): StaffMember {
    const record = this.audit.atomically(() => {
      const inserted = this.store.insert({ ...member, createdAt: this.now() });
      this.audit.append({
        at: inserted.createdAt,
        actor,
        action: 'staff_create',
        subject: `staff ${inserted.id} "${inserted.name}"`,
        detail: [inserted.role, inserted.serverId && `server ${inserted.serverId}`, detail]
          .filter(Boolean)
          .join(', '),
      });
      return inserted;
    });
    return toMember(record);
  }

  /** By id (digits) or by a live member's name. */
  #find(who: string): StaffRecord {
    const trimmed = who.trim();
    const record = /^\d+$/.test(trimmed)
      ? this.store.findById(Number(trimmed))
      : this.store.findLiveByName(trimmed);
    if (!record || record.retiredAt !== null) {
      throw new InvalidStaffRequestError(`No staff member at work is called or numbered "${trimmed}".`);
    }
    return record;
  }

  #requireFreeName(name: string): void {
    if (this.store.findLiveByName(name)) {
      throw new InvalidStaffRequestError(`Someone is already called ${name}. Add a last initial.`);
    }
  }

  async #requireFreePin(pin: string, except?: number): Promise<void> {
    const others = this.store.live().filter((record) => record.id !== except);
    const taken = await Promise.all(
      others.map((record) => {
        const stored = storedPinOf(record);
        return stored ? pinMatches(pin, stored) : Promise.resolve(false);
      }),
    );
    if (taken.includes(true)) {
      throw new InvalidStaffRequestError('That PIN is taken: each person needs a PIN of their own.');
    }
  }

  #requireAnotherManager(member: StaffRecord): void {
    const others = this.store.live().filter((record) => record.role === 'manager' && record.id !== member.id);
    if (others.length === 0) {
      throw new InvalidStaffRequestError(
        `${member.name} is the only manager. Make someone else a manager first.`,
      );
    }
  }

  #refreshCounters(record: StaffRecord): void {
    for (const [key, member] of this.#counters) {
      if (member.id === record.id) this.#counters.set(key, toMember(record));
    }
  }
}
