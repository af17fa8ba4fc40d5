import type { Migration } from '../../migration';

/**
 * Wrong PINs are counted where they were typed and for what (signing in, or a manager's approval),
 * one row each, kept across restarts: a count in the engine's memory started afresh at every start,
 * and one count for everything let any correct PIN forgive everyone's wrong ones.
 */
export const pinGates: Migration = {
  version: 10,
  description: 'wrong PINs counted per counter and per target of the guess, kept across restarts',
  sql: `
      CREATE TABLE pin_gates (
        scope           TEXT PRIMARY KEY,
        failures        INTEGER NOT NULL DEFAULT 0 CHECK (failures >= 0),
        paused_until    INTEGER NOT NULL DEFAULT 0,
        last_failure_at INTEGER NOT NULL DEFAULT 0
      );
    `,
};
