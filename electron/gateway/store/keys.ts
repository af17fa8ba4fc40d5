/** API keys: stored as a hash of their secret, shown in full only once, when created. */
import type { Connection } from './database';
import { ReadCache } from './read-cache';

export interface ApiKeyRecord {
  id: number;
  publicId: string;
  secretHash: Buffer;
  name: string;
  permissions: string[];
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

/** An API key as both stores keep it. */
export interface ApiKeyRow {
  id: number;
  public_id: string;
  secret_hash: Buffer;
  name: string;
  permissions: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
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
  };
}

export class KeyStore {
  private readonly statements;
  /** Keys as read by public id: every request looks its key up. */
  private readonly byPublicId: ReadCache<string, ApiKeyRecord>;

  constructor(db: Connection) {
    this.byPublicId = new ReadCache(db);
    this.statements = {
      insert: db.prepare<[string, Buffer, string, string, number], ApiKeyRow>(
        'INSERT INTO api_keys (public_id, secret_hash, name, permissions, created_at) VALUES (?, ?, ?, ?, ?) RETURNING *',
      ),
      byPublicId: db.prepare<[string], ApiKeyRow>('SELECT * FROM api_keys WHERE public_id = ?'),
      all: db.prepare<[], ApiKeyRow>('SELECT * FROM api_keys ORDER BY id'),
      revoke: db.prepare<[number, string], ApiKeyRow>(
        'UPDATE api_keys SET revoked_at = ? WHERE public_id = ? AND revoked_at IS NULL RETURNING *',
      ),
      touch: db.prepare<[number, number]>('UPDATE api_keys SET last_used_at = ? WHERE id = ?'),
    };
  }

  insert(key: {
    publicId: string;
    secretHash: Buffer;
    name: string;
    permissions: readonly string[];
    createdAt: number;
  }) {
    this.byPublicId.clear();
    return keyFromRow(
      this.statements.insert.get(
        key.publicId,
        key.secretHash,
        key.name,
        key.permissions.join(','),
        key.createdAt,
      ) as ApiKeyRow,
    );
  }

  /** The key with this public id. The record is shared with later callers: do not change it. */
  findByPublicId(publicId: string): Readonly<ApiKeyRecord> | undefined {
    return this.byPublicId.get(publicId, (id) => {
      const row = this.statements.byPublicId.get(id);
      return row && keyFromRow(row);
    });
  }

  list(): ApiKeyRecord[] {
    return this.statements.all.all().map(keyFromRow);
  }

  revoke(publicId: string, at: number): ApiKeyRecord | undefined {
    this.byPublicId.clear();
    const row = this.statements.revoke.get(at, publicId);
    return row && keyFromRow(row);
  }

  touch(id: number, at: number): void {
    this.byPublicId.clear();
    this.statements.touch.run(at, id);
  }
}
