/** The merchant's gateway settings, one row each. Defaults live with their definitions, not here. */
import type { Connection } from './database';

export class SettingsStore {
  private readonly statements;

  constructor(db: Connection) {
    this.statements = {
      get: db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?'),
      set: db.prepare<[string, string]>(
        'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      ),
    };
  }

  get(key: string): string | undefined {
    return this.statements.get.get(key)?.value;
  }

  set(key: string, value: string): void {
    this.statements.set.run(key, value);
  }
}
