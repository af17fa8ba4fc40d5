/** The store server's statements for API keys, settings, staff and the PIN gate. */
import { adminStatements } from '../sql/admin-sql';
import { POSTGRES_DIALECT } from '../sql/dialect';
import { named, statement } from './ledger-sql';

/** The channel every change of keys, settings or staff is announced on, naming what changed. */
export const ADMIN_CHANNEL = 'tender_admin';
export const ADMIN_PARTS = ['keys', 'settings', 'staff'] as const;
export type AdminPart = (typeof ADMIN_PARTS)[number];

/** Staff writes take this lock (transaction-scoped) before reading, so their checks hold at commit. */
export const STAFF_LOCK = 0x73746166; // "staf"

/**
 * The statements both stores share (../sql/admin-sql.ts), named, and those only the store server
 * has: its PIN gate, the notices of what changed, and the staff lock.
 */
export const ADMIN_SQL = {
  ...named('admin', adminStatements(POSTGRES_DIALECT)),
  lockStaff: statement('admin_lock_staff', 'SELECT pg_advisory_xact_lock($1)'),
  pinGate: statement('admin_pin_gate', 'SELECT failures, paused_until FROM pin_gate'),
  wrongPin: statement(
    'admin_wrong_pin',
    `UPDATE pin_gate SET
       failures = CASE WHEN failures + 1 >= $2::integer THEN 0 ELSE failures + 1 END,
       paused_until = CASE WHEN failures + 1 >= $2::integer THEN $1::bigint + $3::bigint ELSE paused_until END
     RETURNING failures, paused_until`,
  ),
  clearPins: statement('admin_clear_pins', 'UPDATE pin_gate SET failures = 0 WHERE failures <> 0'),
  notify: statement('admin_notify', 'SELECT pg_notify($1, $2)'),
};
