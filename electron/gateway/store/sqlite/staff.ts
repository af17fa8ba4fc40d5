/** The staff table of a data dir's SQLite file. */
import { byStaffOrder, staffFromRow, type StaffChange, type StaffRecord, type StaffRow } from '../staff-rows';
import { adminStatements } from '../sql/admin-sql';
import { SQLITE_DIALECT } from '../sql/dialect';
import type { Connection } from './database';

export class StaffStore {
  private readonly statements;

  constructor(db: Connection) {
    const sql = adminStatements(SQLITE_DIALECT);
    this.statements = {
      insert: db.prepare<[string, string, string, string | null, number], StaffRow>(sql.insertStaff),
      all: db.prepare<[], StaffRow>(sql.staff),
      update: db.prepare<[string, string, string, string | null, number], StaffRow>(sql.updateStaff),
      retire: db.prepare<[number, number], StaffRow>(sql.retireStaff),
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
    return this.statements.all.all().map(staffFromRow).sort(byStaffOrder);
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
