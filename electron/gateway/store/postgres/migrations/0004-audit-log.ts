import type { Migration } from '../../migration';

export const auditLog: Migration = {
  version: 4,
  description:
    'the append-only audit log of who moved money back, closed batches, or changed keys and settings',
  sql: `
      CREATE TABLE audit_log (
        id      bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        at      bigint NOT NULL,
        actor   text NOT NULL,
        action  text NOT NULL,
        subject text NOT NULL,
        detail  text NOT NULL
      );
      CREATE INDEX audit_log_by_at ON audit_log (at, id);
      CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'the audit log is append-only'; END
      $$;
      CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
        FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
      CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
        FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
      CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
        FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();
    `,
};
