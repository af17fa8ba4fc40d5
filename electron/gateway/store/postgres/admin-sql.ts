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
 * has: the lock of a PIN gate's row, the notices of what changed, the staff lock, and the name its
 * listening connection gives itself.
 */
export const ADMIN_SQL = {
  ...named('admin', adminStatements(POSTGRES_DIALECT)),
  lockStaff: statement('admin_lock_staff', 'SELECT pg_advisory_xact_lock($1)'),
  /** The scope's row, made when missing, locked until the transaction ends. */
  lockPinGate: statement(
    'admin_lock_pin_gate',
    `INSERT INTO pin_gates (scope) VALUES ($1) ON CONFLICT (scope) DO UPDATE SET scope = excluded.scope
     RETURNING failures, paused_until, last_failure_at`,
  ),
  notify: statement('admin_notify', 'SELECT pg_notify($1, $2)'),
  nameSession: statement('admin_name_session', "SELECT set_config('application_name', $1, false)"),
};
