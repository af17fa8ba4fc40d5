/**
 * One numbered forward-only step of the ledger's schema. PRAGMA user_version records the last step a
 * database has taken; a step is never edited once released (databases in the field have run its SQL),
 * only followed by a new one in a new file.
 */
export interface Migration {
  version: number;
  description: string;
  sql: string;
}
