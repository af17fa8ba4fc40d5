/** API keys as both stores keep them: stored as a hash of their secret, shown in full only once. */

export interface ApiKeyRecord {
  id: number;
  publicId: string;
  secretHash: Buffer;
  name: string;
  permissions: string[];
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
  /** Made for a counter's own screens: it acts only for whoever is signed in at that counter. */
  counterScreens: boolean;
}

/** An API key's row, as either store returns it. */
export interface ApiKeyRow {
  id: number;
  public_id: string;
  secret_hash: Buffer;
  name: string;
  permissions: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
  /** 0 or 1 on SQLite, a boolean on PostgreSQL. */
  counter_screens: number | boolean;
}

export function keyFromRow(row: ApiKeyRow): ApiKeyRecord {
  return {
    id: row.id,
    publicId: row.public_id,
    secretHash: row.secret_hash,
    name: row.name,
    permissions: row.permissions ? row.permissions.split(',') : [],
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
    counterScreens: Boolean(row.counter_screens),
  };
}
