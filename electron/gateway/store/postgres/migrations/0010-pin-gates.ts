import type { Migration } from '../../migration';

/**
 * Wrong PINs are counted where they were typed and for what (signing in, or a manager's approval),
 * one row each: the one row for the whole store let five wrong PINs at one counter refuse every PIN
 * at every counter, and any correct PIN forgive everyone's wrong ones. SQLite's step 10 makes the
 * same table.
 */
export const pinGates: Migration = {
  version: 10,
  description: 'wrong PINs counted per counter and per target of the guess',
  sql: `
      DROP TABLE pin_gate;
      CREATE TABLE pin_gates (
        scope           text PRIMARY KEY,
        failures        integer NOT NULL DEFAULT 0 CHECK (failures >= 0),
        paused_until    bigint NOT NULL DEFAULT 0,
        last_failure_at bigint NOT NULL DEFAULT 0
      );
    `,
};
