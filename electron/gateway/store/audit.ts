/** The audit log's entries, as both stores keep them: rows are only ever added. */

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
