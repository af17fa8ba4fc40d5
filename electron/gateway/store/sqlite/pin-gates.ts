/** Wrong PINs per scope (where they were typed, and for what), in the data dir's file. */
import { adminStatements } from '../sql/admin-sql';
import { SQLITE_DIALECT } from '../sql/dialect';
import type { Connection } from './database';

export interface PinGateRow {
  failures: number;
  paused_until: number;
  last_failure_at: number;
}

export class PinGateStore {
  private readonly statements;

  constructor(db: Connection) {
    const sql = adminStatements(SQLITE_DIALECT);
    this.statements = {
      get: db.prepare<[string], PinGateRow>(sql.pinGate),
      put: db.prepare<[string, number, number, number]>(sql.putPinGate),
    };
  }

  get(scope: string): PinGateRow | undefined {
    return this.statements.get.get(scope);
  }

  put(scope: string, row: PinGateRow): void {
    this.statements.put.run(scope, row.failures, row.paused_until, row.last_failure_at);
  }
}
