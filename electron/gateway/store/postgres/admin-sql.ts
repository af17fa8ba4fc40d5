/** The store server's statements for API keys, settings, staff and the PIN gate, and their rows. */
import { statement } from './ledger-sql';

/** The channel every change of keys, settings or staff is announced on, naming what changed. */
export const ADMIN_CHANNEL = 'tender_admin';
export const ADMIN_PARTS = ['keys', 'settings', 'staff'] as const;
export type AdminPart = (typeof ADMIN_PARTS)[number];

/** Staff writes take this lock (transaction-scoped) before reading, so their checks hold at commit. */
export const STAFF_LOCK = 0x73746166; // "staf"

const KEY_COLUMNS = 'id, public_id, secret_hash, name, permissions, created_at, last_used_at, revoked_at';

export const ADMIN_SQL = {
  keys: statement('admin_keys', `SELECT ${KEY_COLUMNS} FROM api_keys WHERE NOT awaiting_counter ORDER BY id`),
  insertKey: statement(
    'admin_insert_key',
    `INSERT INTO api_keys (public_id, secret_hash, name, permissions, created_at) VALUES ($1, $2, $3, $4, $5)
     RETURNING ${KEY_COLUMNS}`,
  ),
  revokeKey: statement(
    'admin_revoke_key',
    `UPDATE api_keys SET revoked_at = $1
     WHERE public_id = $2 AND revoked_at IS NULL AND NOT awaiting_counter RETURNING ${KEY_COLUMNS}`,
  ),
  // A stamp only moves forward: counters flush theirs in any order.
  touchKey: statement(
    'admin_touch_key',
    'UPDATE api_keys SET last_used_at = $2 WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $2)',
  ),
  settings: statement('admin_settings', 'SELECT key, value FROM settings'),
  lockSetting: statement('admin_lock_setting', 'SELECT value FROM settings WHERE key = $1 FOR UPDATE'),
  setSetting: statement(
    'admin_set_setting',
    'INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  ),
  staff: statement('admin_staff', 'SELECT * FROM staff'),
  lockStaff: statement('admin_lock_staff', 'SELECT pg_advisory_xact_lock($1)'),
  insertStaff: statement(
    'admin_insert_staff',
    'INSERT INTO staff (name, role, pin_hash, server_id, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING *',
  ),
  updateStaff: statement(
    'admin_update_staff',
    'UPDATE staff SET name = $1, role = $2, pin_hash = $3, server_id = $4 WHERE id = $5 AND retired_at IS NULL RETURNING *',
  ),
  retireStaff: statement(
    'admin_retire_staff',
    'UPDATE staff SET retired_at = $1 WHERE id = $2 AND retired_at IS NULL RETURNING *',
  ),
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
  appendAudit: statement(
    'admin_append_audit',
    'INSERT INTO audit_log (at, actor, action, subject, detail) VALUES ($1, $2, $3, $4, $5)',
  ),
};
