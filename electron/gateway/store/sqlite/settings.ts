/** The settings table of a data dir's SQLite file: one row each. Defaults live with their definitions. */
import { adminStatements } from '../sql/admin-sql';
import { SQLITE_DIALECT } from '../sql/dialect';
import type { Connection } from './database';
import { ReadCache } from './read-cache';

export class SettingsStore {
  private readonly statements;
  /** Settings are read on every request that depends on one (tips, capture expiry, the swipe key). */
  private readonly values: ReadCache<string, string>;

  constructor(db: Connection) {
    this.values = new ReadCache(db);
    const sql = adminStatements(SQLITE_DIALECT);
    this.statements = {
      get: db.prepare<[string], { value: string }>(sql.setting),
      all: db.prepare<[], { key: string; value: string }>(sql.settings),
      set: db.prepare<[string, string]>(sql.setSetting),
    };
  }

  get(key: string): string | undefined {
    return this.values.get(key, (name) => this.statements.get.get(name)?.value);
  }

  /** Every stored setting, by name. */
  all(): [name: string, value: string][] {
    return this.statements.all.all().map((row) => [row.key, row.value]);
  }

  set(key: string, value: string): void {
    this.values.clear();
    this.statements.set.run(key, value);
  }
}
