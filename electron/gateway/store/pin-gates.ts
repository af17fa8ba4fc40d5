/** Wrong PINs per scope (where they were typed, and for what), in the data dir's file. */
import type { Connection } from './database';

export interface PinGateRow {
  failures: number;
  paused_until: number;
  last_failure_at: number;
}

export class PinGateStore {
  private readonly statements;

  constructor(db: Connection) {
    this.statements = {
      get: db.prepare<[string], PinGateRow>(
        'SELECT failures, paused_until, last_failure_at FROM pin_gates WHERE scope = ?',
      ),
      put: db.prepare<[string, number, number, number]>(
        `INSERT INTO pin_gates (scope, failures, paused_until, last_failure_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (scope) DO UPDATE SET failures = excluded.failures,
           paused_until = excluded.paused_until, last_failure_at = excluded.last_failure_at`,
      ),
    };
  }

  get(scope: string): PinGateRow | undefined {
    return this.statements.get.get(scope);
  }

  put(scope: string, row: PinGateRow): void {
    this.statements.put.run(scope, row.failures, row.paused_until, row.last_failure_at);
  }
}
