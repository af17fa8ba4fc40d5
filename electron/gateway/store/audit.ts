/** The audit log: rows are only ever added (triggers refuse updates and deletes). */
import type { Connection } from './database';

export const AUDIT_ACTIONS = [
  'capture',
  'refund',
  'void',
  'batch_close',
  'key_create',
  'key_revoke',
  'setting_change',
  'duplicate_override',
  'staff_create',
  'staff_change',
  'staff_retire',
  'pin_failed',
  'sign_in',
  'sign_out',
  'offline_declined',
  'offline_acknowledged',
  'gateway_void',
  'batch_unreconciled',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export interface AuditEntry {
  id: number;
  at: number;
  actor: string;
  action: AuditAction;
  subject: string;
  detail: string;
}

/** Newest first, a page at a time. */
export const RECENT_AUDIT_SQL =
  'SELECT id, at, actor, action, subject, detail FROM audit_log ORDER BY id DESC LIMIT ? OFFSET ?';

export class AuditLog {
  private readonly statements;

  constructor(private readonly db: Connection) {
    this.statements = {
      append: db.prepare<[number, string, string, string, string]>(
        'INSERT INTO audit_log (at, actor, action, subject, detail) VALUES (?, ?, ?, ?, ?)',
      ),
      recent: db.prepare<[number, number], AuditEntry>(RECENT_AUDIT_SQL),
    };
  }

  /** Adds an entry; call it inside the write whose effect it records, so both commit or neither. */
  append(entry: Omit<AuditEntry, 'id'>): void {
    this.statements.append.run(entry.at, entry.actor, entry.action, entry.subject, entry.detail);
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
