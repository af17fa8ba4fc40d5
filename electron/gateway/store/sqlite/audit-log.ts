/** The audit log of a data dir's SQLite file: rows are only ever added (triggers refuse updates and deletes). */
import { auditRow, type AuditEntry } from '../audit';
import { APPEND_AUDIT_SQL } from '../sql/ledger-sql';
import { RECENT_AUDIT_SQL } from '../sql/list-sql';
import type { Connection } from './database';

export class AuditLog {
  private readonly statements;

  constructor(private readonly db: Connection) {
    this.statements = {
      append: db.prepare<[number, string, string, string, string]>(APPEND_AUDIT_SQL),
      recent: db.prepare<[number, number], AuditEntry>(RECENT_AUDIT_SQL),
    };
  }

  /** Adds an entry; call it inside the write whose effect it records, so both commit or neither. */
  append(entry: Omit<AuditEntry, 'id'>): void {
    this.statements.append.run(...auditRow(entry));
  }

  /** Runs a change and the entry recording it as one transaction: both are kept, or neither. */
  atomically<T>(work: () => T): T {
    return this.db.inTransaction ? work() : this.db.transaction(work).immediate();
  }

  /** Newest first. */
  recent(limit: number, offset = 0): AuditEntry[] {
    return this.statements.recent.all(limit, offset);
  }
}
