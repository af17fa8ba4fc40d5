import type { Migration } from '../../migration';

export const auditLog: Migration = {
  version: 4,
  description:
    'the append-only audit log of who moved money back, closed batches, or changed keys and settings',
  sql: `
      CREATE TABLE audit_log (
        id      INTEGER PRIMARY KEY,
        at      INTEGER NOT NULL,
        actor   TEXT NOT NULL,
        action  TEXT NOT NULL,
        subject TEXT NOT NULL,
        detail  TEXT NOT NULL
      ) STRICT;
      CREATE INDEX audit_log_by_at ON audit_log (at, id);
      CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
        BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
      CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
        BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
    `,
};
