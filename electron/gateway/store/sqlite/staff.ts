/** The staff table of a data dir's SQLite file. */
import { staffFromRow, type StaffChange, type StaffRecord, type StaffRow } from '../staff-rows';
import type { Connection } from './database';

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
