/**
 * The statements of what the merchant administers, each written once for both stores: API keys,
 * settings, staff and the PIN gates, with the audit entries of their changes. What only a store server
 * has (the notices of changes, the staff lock) is its own (postgres/admin-sql.ts).
 */
import { inDialect, type SqlDialect } from './dialect';
import { APPEND_AUDIT_SQL } from './ledger-sql';

/** An API key's columns, as key-rows.ts maps them. */
const KEY_COLUMNS =
  'id, public_id, secret_hash, name, permissions, created_at, last_used_at, revoked_at, counter_screens';

/**
 * Parameters in the order written; `touchKey` takes the time, the key's id, and the time again (a
 * stamp only moves forward: a store's counters write theirs in any order).
 */
export function adminStatements(dialect: SqlDialect) {
  return inDialect(dialect, {
    keys: `SELECT ${KEY_COLUMNS} FROM api_keys WHERE ${dialect.keyInUse} ORDER BY id`,
    keyByPublicId: `SELECT ${KEY_COLUMNS} FROM api_keys WHERE public_id = ? AND ${dialect.keyInUse}`,
    insertKey: `
      INSERT INTO api_keys (public_id, secret_hash, name, permissions, created_at, counter_screens)
      VALUES (?, ?, ?, ?, ?, ?)
      RETURNING ${KEY_COLUMNS}`,
    revokeKey: `
      UPDATE api_keys SET revoked_at = ?
      WHERE public_id = ? AND revoked_at IS NULL AND ${dialect.keyInUse} RETURNING ${KEY_COLUMNS}`,
    touchKey:
      'UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)',

    settings: 'SELECT key, value FROM settings ORDER BY key',
    // Inside a write, the row stays locked until the write ends.
    setting: `SELECT value FROM settings WHERE key = ?${dialect.forUpdate}`,
    setSetting:
      'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',

    // Sorted by the caller (staff-rows.ts, byStaffOrder), the same way for both stores.
    staff: 'SELECT * FROM staff',
    insertStaff:
      'INSERT INTO staff (name, role, pin_hash, server_id, created_at) VALUES (?, ?, ?, ?, ?) RETURNING *',
    updateStaff:
      'UPDATE staff SET name = ?, role = ?, pin_hash = ?, server_id = ? WHERE id = ? AND retired_at IS NULL RETURNING *',
    retireStaff: 'UPDATE staff SET retired_at = ? WHERE id = ? AND retired_at IS NULL RETURNING *',

    // Wrong PINs per scope (where they were typed, and for what).
    pinGate: 'SELECT failures, paused_until, last_failure_at FROM pin_gates WHERE scope = ?',
    putPinGate: `
      INSERT INTO pin_gates (scope, failures, paused_until, last_failure_at) VALUES (?, ?, ?, ?)
      ON CONFLICT (scope) DO UPDATE SET failures = excluded.failures,
        paused_until = excluded.paused_until, last_failure_at = excluded.last_failure_at`,

    appendAudit: APPEND_AUDIT_SQL,
  });
}
