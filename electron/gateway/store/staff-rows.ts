/** Staff accounts as both stores keep them: cashiers and managers, each PIN only as a salted slow hash. */

export type StaffRole = 'cashier' | 'manager';

/** A name with letter case aside, as the stores compare names (SQLite's NOCASE): ASCII letters only. */
export function foldCase(text: string): string {
  return text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
}

export interface StaffRecord {
  id: number;
  name: string;
  role: StaffRole;
  /** JSON of the PIN's salted scrypt hash. */
  pinHash: string;
  serverId: string | null;
  createdAt: number;
  retiredAt: number | null;
}

/** A person of the staff as either store returns their row. */
export interface StaffRow {
  id: number;
  name: string;
  role: StaffRole;
  pin_hash: string;
  server_id: string | null;
  created_at: number;
  retired_at: number | null;
}

export function staffFromRow(row: StaffRow): StaffRecord {
  return {
    id: row.id,
    name: row.name,
    role: row.role,
    pinHash: row.pin_hash,
    serverId: row.server_id,
    createdAt: row.created_at,
    retiredAt: row.retired_at,
  };
}

export type StaffChange = Partial<Pick<StaffRecord, 'name' | 'role' | 'pinHash' | 'serverId'>>;

/** The live first, by name letter case aside, then id: the order of the staff list in both stores. */
export function byStaffOrder(a: StaffRecord, b: StaffRecord): number {
  const retired = Number(a.retiredAt !== null) - Number(b.retiredAt !== null);
  if (retired !== 0) return retired;
  const [x, y] = [foldCase(a.name), foldCase(b.name)];
  if (x !== y) return x < y ? -1 : 1;
  return a.id - b.id;
}
