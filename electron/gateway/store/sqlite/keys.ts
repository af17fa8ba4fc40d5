/** The API keys table of a data dir's SQLite file. */
import type { NewApiKey } from '../admin-store';
import { keyFromRow, type ApiKeyRecord, type ApiKeyRow } from '../key-rows';
import { adminStatements } from '../sql/admin-sql';
import { SQLITE_DIALECT } from '../sql/dialect';
import type { Connection } from './database';
import { ReadCache } from './read-cache';

export class KeyStore {
  private readonly statements;
  /** Keys as read by public id: every request looks its key up. */
  private readonly byPublicId: ReadCache<string, ApiKeyRecord>;

  constructor(db: Connection) {
    this.byPublicId = new ReadCache(db);
    const sql = adminStatements(SQLITE_DIALECT);
    this.statements = {
      insert: db.prepare<[string, Buffer, string, string, number, number], ApiKeyRow>(sql.insertKey),
      byPublicId: db.prepare<[string], ApiKeyRow>(sql.keyByPublicId),
      all: db.prepare<[], ApiKeyRow>(sql.keys),
      revoke: db.prepare<[number, string], ApiKeyRow>(sql.revokeKey),
      touch: db.prepare<[number, number, number]>(sql.touchKey),
    };
  }

  insert(key: NewApiKey) {
    this.byPublicId.clear();
    return keyFromRow(
      this.statements.insert.get(
        key.publicId,
        key.secretHash,
        key.name,
        key.permissions.join(','),
        key.createdAt,
        key.counterScreens ? 1 : 0,
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
    this.statements.touch.run(at, id, at);
  }
}
