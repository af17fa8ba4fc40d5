/**
 * What a counter's data dir brings to the store when it starts on a store server. Its API keys are
 * entered (a key the store already holds only takes the data dir's revocation, and a copy the store
 * made of it before keys were the store's is confirmed, see migration 0008), its settings fill in the
 * ones the store has no value for, and its staff become the store's when the store has none yet: the
 * first counter of a store brings its people, and a later one's would clash with them.
 */
import type pg from 'pg';
import type { DataDirAdmin } from '../admin-store';
import { ADMIN_SQL, STAFF_LOCK } from './admin-sql';
import { statement } from './ledger-sql';

const SQL = {
  enterKey: statement(
    'adopt_key',
    `INSERT INTO api_keys AS store
       (public_id, secret_hash, name, permissions, created_at, last_used_at, revoked_at, counter_screens)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (public_id) DO UPDATE SET
       revoked_at = COALESCE(store.revoked_at, excluded.revoked_at),
       counter_screens = store.counter_screens OR excluded.counter_screens,
       awaiting_counter = false`,
  ),
  enterSetting: statement(
    'adopt_setting',
    'INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING',
  ),
  staffCount: statement('adopt_staff_count', 'SELECT count(*)::integer AS count FROM staff'),
  enterStaff: statement(
    'adopt_staff',
    'INSERT INTO staff (name, role, pin_hash, server_id, created_at, retired_at) VALUES ($1, $2, $3, $4, $5, $6)',
  ),
};

/** Enters the data dir's keys, settings and staff on `client`, inside the caller's transaction. */
export async function adoptDataDir(client: pg.ClientBase, local: DataDirAdmin): Promise<void> {
  for (const key of local.keys) {
    await client.query(
      SQL.enterKey([
        key.publicId,
        key.secretHash,
        key.name,
        key.permissions.join(','),
        key.createdAt,
        key.lastUsedAt,
        key.revokedAt,
        key.counterScreens,
      ]),
    );
  }
  for (const [name, value] of local.settings) await client.query(SQL.enterSetting([name, value]));
  await client.query(ADMIN_SQL.lockStaff([STAFF_LOCK]));
  const count = (await client.query<{ count: number }>(SQL.staffCount())).rows[0]?.count ?? 0;
  if (count > 0) return;
  for (const member of local.staff) {
    await client.query(
      SQL.enterStaff([
        member.name,
        member.role,
        member.pinHash,
        member.serverId,
        member.createdAt,
        member.retiredAt,
      ]),
    );
  }
}
