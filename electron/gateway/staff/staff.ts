/**
 * Cashiers and managers. A PIN names its owner at the counter (sign-in and switching cashier take
 * one PIN), so no two people at work share one; every check goes through a gate that counts wrong
 * PINs where they were typed and for what (pin-gate.ts), and every wrong PIN is in the audit log.
 * Retired staff keep their rows, so history still names them. On a store server, staff and the
 * gates are the store's: a PIN works at every counter, and a counter's pause holds whichever of the
 * store's engines it talks to. Which staff member the counter's screens act for is kept here too,
 * beside the engine that records it with each transaction.
 */
import {
  PIN_GATE_RULE,
  wornPinGate,
  type AdminStore,
  type AdminWrite,
  type PinGateRule,
} from '../store/admin-store';
import type { AuditEntry } from '../store/audit';
import { foldCase, type StaffRecord } from '../store/staff-rows';
import { PIN_TARGETS, PinRefusals, pinScope, pinSlips, waitInWords, type PinTarget } from './pin-gate';
import { hashPin, type StoredPin } from './pins';
import {
  checkedName,
  checkedPin,
  checkedRole,
  checkedServer,
  holderOf,
  InvalidStaffRequestError,
  liveOf,
  PIN_PATTERN,
  PinRefusedError,
  requireAnotherManager,
  StaffExistError,
  requireFreeName,
  samePins,
  toMember,
  type StaffMember,
} from './staff-rules';

export type { StaffRole } from '../store/staff-rows';
export type { PinTarget } from './pin-gate';
/** Where PINs are typed when no counter is named: a single counter's own screens. */
export const THIS_COUNTER = 'this counter';

/** What a counter's own key is told while nobody is signed in there, whatever it asked. */
export const COUNTER_LOCKED_MESSAGE = 'The counter is locked. Sign in with your PIN.';

/**
 * What a counter's screens key is told at an engine that does not host those screens (another
 * counter of the store, or a gateway started on its own), whatever it asked.
 */
export const ANOTHER_COUNTERS_KEY_MESSAGE =
  "This key is a counter's own, not this counter's: it works only at its counter, for whoever is signed in there.";

/** A key as the counter's rules read it: its row id, and whether it was made for a counter's screens. */
export interface CounterKeyFacts {
  recordId: number;
  counterScreens?: boolean;
}
export {
  InvalidStaffRequestError,
  PinRefusedError,
  STAFF_ROLES,
  StaffExistError,
  type StaffMember,
} from './staff-rules';

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
/** One PIN typed at a counter: what for, who the audit log names, and what the PIN had to be. */
interface PinGuess {
  purpose: string;
  where: string;
  counter: string;
  target: PinTarget;
  /** The keypad prompt it was typed in (sign-in only), within which a slip may be taken back. */
  prompt?: string;
}

/**
 * PINs chosen for people, counted store-wide as wrong PINs are at a counter: "That PIN is taken"
 * tells whoever chose it that someone holds it, so choosing PIN after PIN would find everyone's.
 * Twenty may be chosen at once (a new team); past that each waits a minute, doubling, and one is
 * forgotten an hour.
 */
const PIN_CHOICES = 'PINs chosen';
const PIN_CHOICE_RULE: PinGateRule = { attempts: 20, pauseMs: 60_000, forgetMs: 3_600_000 };

function pausedMessage(ms: number): string {
  return `Too many wrong PINs at this counter. Wait ${waitInWords(ms)}, then try again.`;
}

/** How the audit log names the counter's screens, which the idle lock signs out for. */
const SCREENS_ACTOR = 'cashier app';

export class StaffService {
  /** The PIN check in progress: the next waits for it, so guesses sent at once cannot all pass the gate. */
  #previousCheck: Promise<unknown> = Promise.resolve();
  /** The staff member each counter key acts for, by the key's record id; none while it is locked. */
  readonly #counters = new Map<number, StaffMember>();
  /** When each counter was last used, by its key's record id: its idle lock is kept here, not in the page. */
  readonly #lastUsed = new Map<number, number>();
  /** The keys of counters' screens. */
  readonly #registered = new Set<number>();
  /** Wrong PINs of the last moments, in memory only, by scope: a PIN typed right next in the same prompt forgives its slips. */
  readonly #slips = pinSlips();
  readonly #refusals: PinRefusals;

  constructor(
    private readonly store: AdminStore,
    private readonly now: () => number = Date.now,
    /** lock_after_minutes: how long a counter may go unused before it locks; 0 never. */
    private readonly lockAfterMinutes: () => number = () => 0,
  ) {
    this.#refusals = new PinRefusals((entry) => this.#record(entry), now);
  }

  list(): StaffMember[] {
    return this.store.staff().map(toMember);
  }

  /** Whether anyone may sign in: a first start has no staff and must create its first manager. */
  hasStaff(): boolean {
    return this.#live().length > 0;
  }

  /**
   * The first manager of a counter (or store) that has no one yet. Whether there is no one is decided
   * inside the write that adds them, so of two first managers asked for at once only one is made.
   */
  async createFirstManager(member: Omit<NewStaffMember, 'role'>, actor: string): Promise<StaffMember> {
    if (this.hasStaff()) throw new StaffExistError();
    return this.#create({ ...member, role: 'manager' }, actor, true);
  }

  create(member: NewStaffMember, actor: string): Promise<StaffMember> {
    return this.#create(member, actor, false);
  }

  async #create(member: NewStaffMember, actor: string, first: boolean): Promise<StaffMember> {
    const name = checkedName(member.name);
    const role = checkedRole(member.role);
    const pin = checkedPin(member.pin);
    const serverId = checkedServer(member.serverId ?? null);
    requireFreeName(this.#live(), name);
    const pinHash = JSON.stringify(await hashPin(pin));
    return this.#withFreePin(pin, undefined, (tx, live) => {
      if (first && live.length > 0) throw new StaffExistError();
      requireFreeName(live, name);
      return this.#insert(tx, { name, role, serverId, pinHash }, actor, 'new');
    });
  }

  /**
   * The counter's manager PIN of earlier versions becomes the first manager, with the same PIN (its
   * hash is kept as it is). Does nothing once anyone has an account.
   */
  adoptManagerPin(stored: StoredPin, actor: string): Promise<StaffMember | undefined> {
    return this.store.write(async (tx) => {
      if ((await tx.staff()).length > 0) return undefined;
      const pinHash = JSON.stringify(stored);
      const member = { name: 'Manager', role: 'manager' as const, serverId: null, pinHash };
      return this.#insert(tx, member, actor, 'from the counter manager PIN');
    });
  }

  async change(who: string, change: StaffMemberChange, actor: string): Promise<StaffMember> {
    const current = this.#find(who);
    const next: Partial<Pick<StaffRecord, 'name' | 'role' | 'pinHash' | 'serverId'>> = {};
    const said: string[] = [];
    if (change.name !== undefined && checkedName(change.name) !== current.name) {
      next.name = checkedName(change.name);
      said.push(`name ${current.name} → ${next.name}`);
    }
    if (change.role !== undefined && checkedRole(change.role) !== current.role) {
      next.role = checkedRole(change.role);
      said.push(`role ${current.role} → ${next.role}`);
    }
    if (change.serverId !== undefined && checkedServer(change.serverId) !== current.serverId) {
      next.serverId = checkedServer(change.serverId);
      said.push(`server ${current.serverId ?? 'none'} → ${next.serverId ?? 'none'}`);
    }
    const pin = change.pin === undefined ? undefined : checkedPin(change.pin);
    if (pin !== undefined) {
      next.pinHash = JSON.stringify(await hashPin(pin));
      said.push('PIN changed');
    }
    if (said.length === 0) return toMember(current);
    const checks = (live: StaffRecord[]) => {
      if (next.name !== undefined && foldCase(next.name) !== foldCase(current.name))
        requireFreeName(live, next.name);
      if (next.role === 'cashier') requireAnotherManager(live, current);
    };
    checks(this.#live());
    const write = async (tx: AdminWrite, live: StaffRecord[]) => {
      checks(live);
      const row = await tx.updateStaff(current.id, current, next);
      if (!row) throw new InvalidStaffRequestError(`${current.name} was retired meanwhile.`);
      await tx.appendAudit({
        at: this.now(),
        actor,
        action: 'staff_change',
        subject: `staff ${row.id} "${row.name}"`,
        detail: said.join(', '),
      });
      return row;
    };
    const updated = await (pin === undefined
      ? this.store.write(async (tx) => write(tx, liveOf(await tx.staff())))
      : this.#withFreePin(pin, current.id, write));
    this.#refreshCounters(updated);
    return toMember(updated);
  }

  async retire(who: string, actor: string): Promise<StaffMember> {
    const current = this.#find(who);
    if (current.role === 'manager') requireAnotherManager(this.#live(), current);
    const retired = await this.store.write(async (tx) => {
      if (current.role === 'manager') requireAnotherManager(liveOf(await tx.staff()), current);
      const row = await tx.retireStaff(current.id, this.now());
      if (!row) throw new InvalidStaffRequestError(`${current.name} is retired already.`);
      await tx.appendAudit({
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
   * The live staff member whose PIN this is, signing in at `counter`. A wrong PIN is written to the
   * audit log with what it was for (never the PIN itself) and counted at that counter. `prompt` names
   * the showing of the sign-in keypad it was typed in: a correct PIN takes back its own slips typed
   * just before it in the same prompt (pin-gate.ts), and without one takes back nothing.
   */
  identify(
    pin: string,
    purpose: string,
    where: string,
    counter = THIS_COUNTER,
    prompt?: string,
  ): Promise<StaffMember> {
    return this.#gated(pin, { purpose, where, counter, target: 'sign-in', ...(prompt && { prompt }) });
  }

  /**
   * The manager whose PIN this is, for one action at `counter`. Any other PIN, a cashier's included,
   * is a wrong guess at a manager's PIN and counted as one. Nothing typed here is ever taken back as a
   * slip: the dialog is typed into by two people by design (whoever asked, then the manager), so a
   * wrong PIN in it may not be the manager's.
   */
  approvingManager(
    pin: string,
    purpose: string,
    where: string,
    counter = THIS_COUNTER,
  ): Promise<StaffMember> {
    return this.#gated(pin, { purpose, where, counter, target: 'approval' });
  }

  #gated(pin: string, guess: PinGuess): Promise<StaffMember> {
    const result = this.#previousCheck.then(() => this.#checkAlone(pin, guess));
    this.#previousCheck = result.catch(() => undefined);
    return result;
  }

  /**
   * The staff member a counter's key now acts for, as the store has them now, or none while the
   * counter is locked. A counter unused for lock_after_minutes is locked here, whatever its page did
   * or did not do. Someone retired since signing in (at another counter of the store, or from the
   * command line) is signed out here, and someone whose role changed acts with the role they have now.
   */
  signedInAt(keyRecordId: number): StaffMember | undefined {
    const signedIn = this.#counters.get(keyRecordId);
    if (!signedIn) return undefined;
    const record = this.store.staff().find((each) => each.id === signedIn.id);
    if (!record || record.retiredAt !== null) {
      void this.signOut(keyRecordId, SCREENS_ACTOR, 'retired').catch(() => undefined);
      return undefined;
    }
    const member = toMember(record);
    this.#counters.set(keyRecordId, member);
    const minutes = this.lockAfterMinutes();
    const idleMs = this.now() - (this.#lastUsed.get(keyRecordId) ?? 0);
    if (minutes > 0 && idleMs >= minutes * 60_000) {
      void this.signOut(keyRecordId, SCREENS_ACTOR, `locked after ${minutes} min unused`).catch(
        () => undefined,
      );
      return undefined;
    }
    return member;
  }

  /** The counter is in use now: its idle lock starts again. Call after signedInAt, never before. */
  noteUse(keyRecordId: number): void {
    if (this.#counters.has(keyRecordId)) this.#lastUsed.set(keyRecordId, this.now());
  }

  /**
   * Whether the key is a counter's own, whose transactions need someone signed in: this counter's
   * (registered by its host), or one the store marks as made for a counter's screens.
   */
  isCounterKey(key: CounterKeyFacts): boolean {
    return this.#registered.has(key.recordId) || key.counterScreens === true;
  }

  /**
   * Whom a counter's key acts for now: the staff member signed in at this counter (the idle lock
   * applied first), or, when it may do nothing, why: nobody is signed in here, or it is another
   * counter's key, for which nobody can sign in here. Undefined for another program's key.
   */
  actingFor(key: CounterKeyFacts): { member: StaffMember } | { refusal: string } | undefined {
    if (!this.isCounterKey(key)) return undefined;
    if (!this.#registered.has(key.recordId)) return { refusal: ANOTHER_COUNTERS_KEY_MESSAGE };
    const member = this.signedInAt(key.recordId);
    return member ? { member } : { refusal: COUNTER_LOCKED_MESSAGE };
  }

  /** Why a key may do nothing now (actingFor), or undefined when it may act. */
  lockedOut(key: CounterKeyFacts): string | undefined {
    const acting = this.actingFor(key);
    return acting && 'refusal' in acting ? acting.refusal : undefined;
  }

  /** Marks a key as a counter's own: it acts for whoever signs in there, and for no one while locked. */
  registerCounter(keyRecordId: number): void {
    this.#registered.add(keyRecordId);
  }

  unregisterCounter(keyRecordId: number): void {
    this.#registered.delete(keyRecordId);
    this.#counters.delete(keyRecordId);
  }

  /** Signs `member` in once the entry saying so is committed. */
  async signIn(keyRecordId: number, member: StaffMember, where: string): Promise<void> {
    const previous = this.#counters.get(keyRecordId);
    await this.#record({
      actor: where,
      action: 'sign_in',
      subject: `staff ${member.id} "${member.name}"`,
      detail: previous ? `after ${previous.name}` : '',
    });
    this.#counters.set(keyRecordId, member);
    this.#lastUsed.set(keyRecordId, this.now());
  }

  /** Signs out at once; settles once the entry saying so is committed. */
  async signOut(keyRecordId: number, where: string, reason: string): Promise<void> {
    const previous = this.#counters.get(keyRecordId);
    if (!previous) return;
    this.#counters.delete(keyRecordId);
    await this.#record({
      actor: where,
      action: 'sign_out',
      subject: `staff ${previous.id} "${previous.name}"`,
      detail: reason,
    });
  }

  async #checkAlone(pin: string, guess: PinGuess): Promise<StaffMember> {
    const scope = pinScope(guess.counter, guess.target);
    const gate = wornPinGate(await this.store.pinGate(scope), this.now(), PIN_GATE_RULE);
    if (this.now() < gate.pausedUntil) {
      this.#refusals.refused(scope, guess, gate.pausedUntil);
      throw new PinRefusedError('locked', pausedMessage(gate.pausedUntil - this.now()));
    }
    await this.#refusals.flush(scope);
    const found = PIN_PATTERN.test(pin) ? await holderOf(pin, this.#live()) : undefined;
    if (found && (guess.target === 'sign-in' || found.role === 'manager')) {
      const slips = this.#slips.typedRight(scope, guess.prompt, pin, this.now());
      if (slips > 0) await this.store.write((tx) => tx.forgiveWrongPins(scope, slips));
      return toMember(found);
    }
    // Every guess that is not what the target needs counts, a cashier's own PIN at an approval too:
    // otherwise a cashier could slip their own PIN between guesses at a manager's.
    const now = this.now();
    const after = await this.store.write(async (tx) => {
      const state = await tx.recordWrongPin(scope, now, PIN_GATE_RULE);
      const why = found ? `${found.name} is a cashier` : 'wrong PIN';
      const paused =
        state.pausedUntil > now ? `; PIN entry here paused for ${waitInWords(state.pausedUntil - now)}` : '';
      await tx.appendAudit({
        at: now,
        actor: guess.where,
        action: 'pin_failed',
        subject: guess.purpose,
        detail: `${why} at ${guess.counter}${paused}`,
      });
      return state;
    });
    if (!found) this.#slips.wrong(scope, guess.prompt, pin, now);
    if (after.pausedUntil > now) throw new PinRefusedError('locked', pausedMessage(after.pausedUntil - now));
    if (found) {
      throw new PinRefusedError('not-manager', `${found.name} is a cashier. A manager must enter their PIN.`);
    }
    const left = PIN_GATE_RULE.attempts - after.failures;
    throw new PinRefusedError(
      'wrong',
      `Wrong PIN. ${left} more ${left === 1 ? 'try' : 'tries'} before a pause.`,
    );
  }

  /**
   * Writes what is kept only in memory and belongs in the audit log: the PINs refused during a pause
   * that is not over yet. Call before the store closes.
   */
  async close(): Promise<void> {
    await this.#previousCheck;
    await this.#refusals.flushAll();
  }

  /**
   * Lifts the pauses of PIN entry at `counter` (sign-in and approval), for whoever holds the
   * computer or the store server: a pause, which lengthens with each wrong PIN, refuses every PIN
   * unchecked, so at a single counter one person can otherwise keep everyone out for hours. Each pause
   * lifted is an audit entry; the count stays just below a pause, so lifting gives no guesses away.
   * Says which were lifted, with how much of each was left.
   */
  unpause(counter: string, actor: string): Promise<{ scope: string; leftMs: number; failures: number }[]> {
    const now = this.now();
    return this.store.write(async (tx) => {
      const lifted: { scope: string; leftMs: number; failures: number }[] = [];
      for (const target of PIN_TARGETS) {
        const scope = pinScope(counter, target);
        const before = await tx.liftPinPause(scope, now, PIN_GATE_RULE);
        if (before.pausedUntil <= now) continue;
        const { failures } = wornPinGate(before, now, PIN_GATE_RULE);
        const leftMs = before.pausedUntil - now;
        lifted.push({ scope, leftMs, failures });
        await tx.appendAudit({
          at: now,
          actor,
          action: 'pin_unpaused',
          subject: scope,
          detail: `PIN entry for ${target} at ${counter} opened with ${waitInWords(leftMs)} of its pause left, after ${failures} wrong PINs; the next wrong PIN there pauses it again`,
        });
      }
      return lifted;
    });
  }

  /** An audit entry of its own, stamped now. */
  #record(entry: Omit<AuditEntry, 'id' | 'at'>): Promise<void> {
    return this.store.write((tx) => tx.appendAudit({ at: this.now(), ...entry }));
  }

  /**
   * Runs a write that gives someone `pin`, once no one else live holds it. The PIN is compared
   * outside the write (each comparison takes tens of milliseconds); the write then checks that the
   * live staff are still the ones compared, and when someone joined or changed meanwhile, compares
   * again.
   */
  async #withFreePin<T>(
    pin: string,
    except: number | undefined,
    write: (tx: AdminWrite, live: StaffRecord[]) => Promise<T>,
  ): Promise<T> {
    const choices = wornPinGate(await this.store.pinGate(PIN_CHOICES), this.now(), PIN_CHOICE_RULE);
    if (this.now() < choices.pausedUntil) {
      throw new InvalidStaffRequestError(
        `PINs were chosen too many times in a row. Wait ${waitInWords(choices.pausedUntil - this.now())}, then choose again.`,
      );
    }
    let compared = liveOf(this.store.staff());
    for (;;) {
      if (
        await holderOf(
          pin,
          compared.filter((record) => record.id !== except),
        )
      ) {
        await this.store.write((tx) => tx.recordWrongPin(PIN_CHOICES, this.now(), PIN_CHOICE_RULE));
        throw new InvalidStaffRequestError('That PIN is taken: each person needs a PIN of their own.');
      }
      const seen = compared;
      const outcome = await this.store.write(async (tx): Promise<{ done: T } | { again: StaffRecord[] }> => {
        const live = liveOf(await tx.staff());
        if (!samePins(live, seen)) return { again: live };
        // A free PIN counts too: each choice, taken or not, tells whether someone holds it.
        await tx.recordWrongPin(PIN_CHOICES, this.now(), PIN_CHOICE_RULE);
        return { done: await write(tx, live) };
      });
      if ('done' in outcome) return outcome.done;
      compared = outcome.again;
    }
  }

  async #insert(
    tx: AdminWrite,
    member: Pick<StaffRecord, 'name' | 'role' | 'serverId' | 'pinHash'>,
    actor: string,
    detail: string,
  ): Promise<StaffMember> {
    const inserted = await tx.insertStaff({ ...member, createdAt: this.now() });
    await tx.appendAudit({
      at: inserted.createdAt,
      actor,
      action: 'staff_create',
      subject: `staff ${inserted.id} "${inserted.name}"`,
      detail: [inserted.role, inserted.serverId && `server ${inserted.serverId}`, detail]
        .filter(Boolean)
        .join(', '),
    });
    return toMember(inserted);
  }

  #live(): StaffRecord[] {
    return liveOf(this.store.staff());
  }

  /** By id (digits) or by a live member's name. */
  #find(who: string): StaffRecord {
    const trimmed = who.trim();
    const record = /^\d+$/.test(trimmed)
      ? this.store.staff().find((member) => member.id === Number(trimmed))
      : this.#live().find((member) => foldCase(member.name) === foldCase(trimmed));
    if (!record || record.retiredAt !== null) {
      throw new InvalidStaffRequestError(`No staff member at work is called or numbered "${trimmed}".`);
    }
    return record;
  }

  #refreshCounters(record: StaffRecord): void {
    for (const [key, member] of this.#counters) {
      if (member.id === record.id) this.#counters.set(key, toMember(record));
    }
  }
}
