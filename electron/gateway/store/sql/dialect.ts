/**
 * What differs between the two stores' SQL, so that every statement is written once (ledger-sql.ts,
 * admin-sql.ts, list-sql.ts) and each store runs it in its own words. Statements are written with `?`
 * parameters, in SQLite's and the SQL standard's common ground: `RETURNING`, `ON CONFLICT ... DO
 * NOTHING` and `DO UPDATE SET ... = excluded...` mean the same in both. What does not is here.
 */

/** Filters on what only a store server keeps: the lane (counter) that wrote each transaction. */
export interface StoreFilter {
  lane?: string;
}

export interface SqlDialect {
  readonly store: 'sqlite' | 'postgres';
  /** A statement written with `?` as this store takes it: PostgreSQL numbers its parameters. */
  placeholders(sql: string): string;
  /**
   * The index a statement must be read through, after its table's name. SQLite's planner, which
   * keeps no statistics of a partial index's selectivity, sometimes prefers another; PostgreSQL's
   * needs no hint (and has none).
   */
  indexedBy(index: string): string;
  /**
   * What a SELECT of a row the write will change ends with: a row lock on a store server, held to the
   * write's commit (a lock that other writes of the row wait for, and that the inserts referring to
   * the row do not); nothing on SQLite, whose one writer holds the whole file.
   */
  readonly forUpdate: string;
  /**
   * What ends the SELECT of an `INSERT ... SELECT` before its `ON CONFLICT`: SQLite would read the
   * `ON` as the join constraint of the SELECT's last table unless a WHERE comes first.
   */
  readonly beforeUpsert: string;
  /**
   * Where NULLs go in a sort key, as SQLite puts them: before every value when ascending, after when
   * descending. A store server is told so, and its indexes say so too.
   */
  nulls(descending: boolean): string;
  /** The columns of the filters only this store keeps; undefined where it keeps none. */
  readonly storeFilterColumns: Readonly<Record<keyof StoreFilter, string | undefined>>;
  /**
   * Whether each transaction carries its lane and each batch its lanes' shares: a store server's
   * counters share one ledger, a single counter's file keeps none.
   */
  readonly keepsLanes: boolean;
  /**
   * Where batches are read with their counters: a store server keeps an open batch's counters in
   * its lanes' shares (one row per writer, so that counters never wait for each other) and shows them
   * through a view.
   */
  readonly batchTotals: string;
  /**
   * How a deep page of the whole list in id order is found without stepping over every row before
   * it: SQLite's ids run without a gap (one writer takes the next id), so page N starts at an id it
   * can compute; a store server's counters take ids at the same time and may leave one unused, so it
   * counts the rows in each block of ids (`transaction_blocks`) and steps within one block.
   */
  readonly deepPages: 'dense ids' | 'id blocks';
  /**
   * The condition of an API key in use. A store server keeps the copies of counters' keys made before
   * keys were the store's, which open nothing until their counter confirms them.
   */
  readonly keyInUse: string;
}

export const SQLITE_DIALECT: SqlDialect = {
  store: 'sqlite',
  placeholders: (sql) => sql,
  indexedBy: (index) => ` INDEXED BY ${index}`,
  forUpdate: '',
  beforeUpsert: ' WHERE true',
  nulls: () => '',
  storeFilterColumns: { lane: undefined },
  keepsLanes: false,
  batchTotals: 'batches',
  deepPages: 'dense ids',
  keyInUse: 'true',
};

export const POSTGRES_DIALECT: SqlDialect = {
  store: 'postgres',
  placeholders: numbered,
  indexedBy: () => '',
  forUpdate: ' FOR NO KEY UPDATE',
  beforeUpsert: '',
  nulls: (descending) => (descending ? ' NULLS LAST' : ' NULLS FIRST'),
  storeFilterColumns: { lane: 'lane' },
  keepsLanes: true,
  batchTotals: 'batch_totals',
  deepPages: 'id blocks',
  keyInUse: 'NOT awaiting_counter',
};

/** How many ids each row of a store server's `transaction_blocks` counts (schema step 11). */
export const ID_BLOCK = 4096;

/** `?` parameters numbered as PostgreSQL takes them: `$1`, `$2`, ... */
export function numbered(sql: string): string {
  let position = 0;
  return sql.replace(/\?/g, () => `$${++position}`);
}

/** Each statement of a set as one store takes it. */
export function inDialect<Statements extends Record<string, string>>(
  dialect: SqlDialect,
  statements: Statements,
): { readonly [Name in keyof Statements]: string } {
  return Object.fromEntries(
    Object.entries(statements).map(([name, sql]) => [name, dialect.placeholders(sql)]),
  ) as { [Name in keyof Statements]: string };
}
