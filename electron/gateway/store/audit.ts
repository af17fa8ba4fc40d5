/** The audit log's entries, as both stores keep them: rows are only ever added. */
import { CONTROL_CHARACTERS, NOT_CHARACTERS } from '../../../shared/api/schemas';

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
  'pin_unpaused',
  'sign_in',
  'sign_out',
  'offline_forwarded',
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

/**
 * What an entry's words may not hold as written: what no kept text of a request may hold, control
 * characters but tab and line breaks, half a character, U+FFFE and U+FFFF. The words can carry text a
 * screen or a client sent (a name being added, the request a manager is asked to allow).
 */
const UNKEPT = new RegExp(`${CONTROL_CHARACTERS.source}|${NOT_CHARACTERS.source}`, 'gu');

/**
 * An entry's values in the order both stores write them, each of its words with what it may not
 * hold replaced by U+FFFD. PostgreSQL text holds no NUL: one kept as sent would fail the write, and
 * with it what the entry is written beside, such as a wrong PIN's count.
 */
export function auditRow(
  entry: Omit<AuditEntry, 'id'>,
): [at: number, actor: string, action: AuditAction, subject: string, detail: string] {
  const kept = (text: string) => text.replace(UNKEPT, '\uFFFD');
  return [entry.at, kept(entry.actor), entry.action, kept(entry.subject), kept(entry.detail)];
}
