/** The merchant's gateway settings, one row each. Defaults live with their definitions, not here. */
import type { Connection } from './database';
import { ReadCache } from './read-cache';

export class SettingsStore {
  private readonly statements;
  /** Settings are read on every request that depends on one (tips, capture expiry, the swipe key). */
  private readonly values: ReadCache<string, string>;

  constructor(db: Connection) {
    this.values = new ReadCache(db);
    this.statements = {
      get: db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?'),
      all: db.prepare<[], { key: string; value: string }>('SELECT key, value FROM settings ORDER BY key'),
      set: db.prepare<[string, string]>(
        'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      ),
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
