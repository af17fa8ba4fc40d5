/** Staff accounts: cashiers and managers, each with a PIN kept only as a salted slow hash. */
import type { Connection } from './database';

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

/** A person of the staff as both stores keep them. */
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

export class StaffStore {
  private readonly statements;

  constructor(db: Connection) {
    this.statements = {
      insert: db.prepare<[string, string, string, string | null, number], StaffRow>(
        'INSERT INTO staff (name, role, pin_hash, server_id, created_at) VALUES (?, ?, ?, ?, ?) RETURNING *',
      ),
      all: db.prepare<[], StaffRow>(
        'SELECT * FROM staff ORDER BY retired_at IS NOT NULL, name COLLATE NOCASE, id',
      ),
      update: db.prepare<[string, string, string, string | null, number], StaffRow>(
        'UPDATE staff SET name = ?, role = ?, pin_hash = ?, server_id = ? WHERE id = ? AND retired_at IS NULL RETURNING *',
      ),
      retire: db.prepare<[number, number], StaffRow>(
        'UPDATE staff SET retired_at = ? WHERE id = ? AND retired_at IS NULL RETURNING *',
      ),
    };
  }

  insert(member: Omit<StaffRecord, 'id' | 'retiredAt'>): StaffRecord {
    return staffFromRow(
      this.statements.insert.get(
        member.name,
        member.role,
        member.pinHash,
        member.serverId,
        member.createdAt,
      ) as StaffRow,
    );
  }

  /** Everyone, the live first, by name. */
  list(): StaffRecord[] {
    return this.statements.all.all().map(staffFromRow);
  }

  update(id: number, current: StaffRecord, change: StaffChange): StaffRecord | undefined {
    const next = { ...current, ...change };
    const row = this.statements.update.get(next.name, next.role, next.pinHash, next.serverId, id);
    return row && staffFromRow(row);
  }

  retire(id: number, at: number): StaffRecord | undefined {
    const row = this.statements.retire.get(at, id);
    return row && staffFromRow(row);
  }
}
