/** The checks staff accounts pass, and the shape they are shown in: shared by both stores. */
import { hasControlCharacter } from '../../../shared/api/schemas';
import { foldCase, type StaffRecord, type StaffRole } from '../store/staff-rows';
import { CARD_NUMBER_IN_TEXT, holdsCardNumber } from '../card-number-search';
import { isStoredPin, pinMatches, type StoredPin } from './pins';

export interface StaffMember {
  id: number;
  name: string;
  role: StaffRole;
  serverId: string | null;
  created: number;
  retired: number | null;
}

export class InvalidStaffRequestError extends Error {}

/** The first manager was asked for when someone already has an account. */
export class StaffExistError extends InvalidStaffRequestError {
  constructor() {
    super('Tender already has a manager. Sign in with your PIN.');
  }
}

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
export const PIN_PATTERN = /^\d{4,8}$/;
const SERVER_PATTERN = /^\d{2}$/;

export function toMember(record: StaffRecord): StaffMember {
  return {
    id: record.id,
    name: record.name,
    role: record.role,
    serverId: record.serverId,
    created: record.createdAt,
    retired: record.retiredAt,
  };
}

export function storedPinOf(record: StaffRecord): StoredPin | undefined {
  try {
    const parsed: unknown = JSON.parse(record.pinHash);
    return isStoredPin(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

export function checkedName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > 40 || hasControlCharacter(trimmed)) {
    throw new InvalidStaffRequestError('A name has 1 to 40 characters.');
  }
  // A name is shown on screens and receipts and kept in the audit log: never a card number.
  if (holdsCardNumber(trimmed)) {
    throw new InvalidStaffRequestError(`A name must not hold ${CARD_NUMBER_IN_TEXT}.`);
  }
  // Staff are named by id or name wherever one person is meant; digits alone are read as the id.
  if (/^\d+$/.test(trimmed)) {
    throw new InvalidStaffRequestError(
      `A name needs more than digits: "${trimmed}" would be read as a staff id. Add a letter, as in "Till ${trimmed}".`,
    );
  }
  return trimmed;
}

export function checkedPin(pin: string): string {
  if (!PIN_PATTERN.test(pin)) throw new InvalidStaffRequestError('A PIN has 4 to 8 digits.');
  return pin;
}

export function checkedServer(serverId: string | null): string | null {
  if (serverId === null || serverId === '') return null;
  if (!SERVER_PATTERN.test(serverId)) {
    throw new InvalidStaffRequestError('A server number has two digits, like 07.');
  }
  return serverId;
}

export function checkedRole(role: string): StaffRole {
  if (!(STAFF_ROLES as readonly string[]).includes(role)) {
    throw new InvalidStaffRequestError('The role is cashier or manager.');
  }
  return role as StaffRole;
}

export function liveOf(records: StaffRecord[]): StaffRecord[] {
  return records.filter((record) => record.retiredAt === null);
}

/** Whether two lists of live staff hold the same people with the same PINs. */
export function samePins(a: StaffRecord[], b: StaffRecord[]): boolean {
  const pins = (records: StaffRecord[]) =>
    records
      .map((record) => `${record.id}:${record.pinHash}`)
      .sort()
      .join();
  return pins(a) === pins(b);
}

/** The one of `records` whose PIN this is. */
export async function holderOf(pin: string, records: StaffRecord[]): Promise<StaffRecord | undefined> {
  const matches = await Promise.all(
    records.map((record) => {
      const stored = storedPinOf(record);
      return stored ? pinMatches(pin, stored) : Promise.resolve(false);
    }),
  );
  return records[matches.indexOf(true)];
}

export function requireFreeName(live: StaffRecord[], name: string): void {
  if (live.some((record) => foldCase(record.name) === foldCase(name))) {
    throw new InvalidStaffRequestError(`Someone is already called ${name}. Add a last initial.`);
  }
}

export function requireAnotherManager(live: StaffRecord[], member: StaffRecord): void {
  if (!live.some((record) => record.role === 'manager' && record.id !== member.id)) {
    throw new InvalidStaffRequestError(
      `${member.name} is the only manager. Make someone else a manager first.`,
    );
  }
}
