/**
 * The ledger's statements (../sql/ledger-sql.ts) as the store server's connections run them, named,
 * with the few only it has; and the reads a write and a lookup share.
 */
import type pg from 'pg';

import { toBatch, type BatchRecord, type BatchRowShape } from '../batch-rows';
import type { SameCardCharge } from '../ledger-store';
import { ID_BLOCK, POSTGRES_DIALECT } from '../sql/dialect';
import { ADD_TO_SHARE, COUNTERS, counterType, insertedColumns, ledgerStatements } from '../sql/ledger-sql';
import { toTransaction, type LedgerTransaction, type TransactionRowShape } from '../transaction-rows';

/**
 * Named statements: each connection prepares one the first time it runs it, and reuses the plan. The
 * text of each is fixed; only the parameters change.
 */
export function statement(name: string, text: string): (values?: unknown[]) => pg.QueryConfig {
  return (values = []) => ({ name: `tender_${name}`, text, values });
}

/** A set of statements in PostgreSQL's SQL, each named `<prefix>_<name>`. */
export function named<Names extends string>(
  prefix: string,
  statements: { readonly [Name in Names]: string },
): { readonly [Name in Names]: (values?: unknown[]) => pg.QueryConfig } {
  return Object.fromEntries(
    Object.entries<string>(statements).map(([name, text]) => [name, statement(`${prefix}_${name}`, text)]),
  ) as { [Name in Names]: (values?: unknown[]) => pg.QueryConfig };
}

/**
 * The advisory locks of the rules (two-part keys: the rule, then the thing): taken inside a write and
 * held to its end, or held by a request across its outside calls (ledger.ts, `hold`). Each is taken
 * only by the writes its rule is about; everything else runs beside them.
 */
export const LOCKS = {
  /** One open batch against its close: writes that count into it share it, the close takes it alone. */
  batch: 1,
  /** The duplicate check of one card (a key from its keyed hash). */
  card: 2,
  /** One swipe's KSN, seen once. */
  swipe: 3,
  /** A follow-up's original, held across the processor's answer (see `hold`). */
  original: 4,
  /** An Idempotency-Key of one API key, held while its first request is answered (see `hold`). */
  answer: 5,
  /**
   * What waits to be forwarded, store-wide, taken by an offline approval to its commit before it reads
   * the total: two counters approving at once would each see the total without the other's sale.
   */
  offlineTotal: 6,
  /** The store's one forwarder, held by a counter's forwarding round on a connection of its own. */
  forwarder: 7,
  /**
   * The close of the open batch with the merchant's gateway, held alone across the gateway's answers,
   * and shared by each request that may go to the gateway, across its own.
   */
  close: 8,
  /** A counter's lane, held by the engine serving it for as long as it runs (ledger.ts, `claimLane`). */
  lane: 9,
} as const;

/**
 * The SQLSTATEs `tender_expect` fails a statement with (schema step 11), for what a write took for
 * granted: the open batch its group began with, the API key it is made with.
 */
export const EXPECTED = { openBatch: 'TD001', liveKey: 'TD002' } as const;

/** The two-part key of the lock an engine holds on its lane while it serves it. */
export function laneLock(lane: string): [number, number] {
  return [LOCKS.lane, lockKey(`lane ${lane}`)];
}

/** A 32-bit key for a lock on text (a hash's first eight hex digits, or a hash of the text). */
export function lockKey(text: string): number {
  if (/^[0-9a-f]{8}/.test(text)) return Number.parseInt(text.slice(0, 8), 16) | 0;
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  }
  return hash | 0;
}

const LEDGER = ledgerStatements(POSTGRES_DIALECT);

/** The columns of a new row on the store server, as `insertParams` gives them, then its lane. */
export const HELD_ROW_COLUMNS = insertedColumns(POSTGRES_DIALECT);

export const SQL = {
  ...named('ledger', LEDGER),
  /**
   * What a group's writes kept back (write-transaction.ts, HeldChanges), in one statement: the new
   * rows ($1, a JSON array of objects keyed by `HELD_ROW_COLUMNS`), then the shares of open batches
   * ($2, a JSON array of one delta for each batch, lane and writer, summed). A share of a batch that is
   * not open changes nothing, so its writer counts the shares changed. PostgreSQL runs the insert of a
   * WITH whether or not the rest reads it.
   */
  writeHeld: statement(
    'write_held',
    `WITH inserted AS (
       INSERT INTO transactions (${HELD_ROW_COLUMNS.join(', ')})
       SELECT ${HELD_ROW_COLUMNS.join(', ')} FROM json_populate_recordset(NULL::transactions, $1::json))
     INSERT INTO batch_lanes AS share (${COUNTERS.join(', ')}, lane, writer, batch_id)
     SELECT ${COUNTERS.map((column) => `delta.${column}`).join(', ')}, delta.lane, delta.writer, batches.id
     FROM json_to_recordset($2::json)
       AS delta (${COUNTERS.map((column) => `${column} ${counterType(column)}`).join(', ')},
                 lane text, writer text, batch_id bigint)
     JOIN batches ON batches.id = delta.batch_id AND batches.status = 'OPEN'
     ${ADD_TO_SHARE}`,
  ),
  /** Ids for a group's writes, taken together with its BEGIN: most writes insert one row. */
  takeIds: statement('take_ids', "SELECT nextval('transaction_ids') AS id FROM generate_series(1, $1)"),
  /** A rule's lock, to the end of the write. */
  lock: statement('lock', 'SELECT pg_advisory_xact_lock($1::integer, $2::integer)'),
  /** The open batch, shared with the other writes that count into it, to the end of the write. */
  shareOpenBatch: statement(
    'share_open_batch',
    `SELECT id, pg_advisory_xact_lock_shared(${LOCKS.batch}, CAST(id AS integer)) FROM batches WHERE status = 'OPEN'`,
  ),
  /** Fails the transaction (TD001) unless a batch is open; after its shared lock, so no close is under way. */
  expectOpenBatch: statement(
    'expect_open_batch',
    `SELECT tender_expect(EXISTS (SELECT 1 FROM batches WHERE id = $1::bigint AND status = 'OPEN'),
       '${EXPECTED.openBatch}', 'batch ' || $1::bigint || ' open')`,
  ),
  /** Fails the transaction (TD002) unless the API key is live in the store. */
  expectLiveKey: statement(
    'expect_live_key',
    `SELECT tender_expect(EXISTS (${LEDGER.liveKey}), '${EXPECTED.liveKey}', 'the API key is live')`,
  ),
  /** A batch a rule reads (a void's target's), shared likewise. */
  shareBatch: statement('share_batch', `SELECT pg_advisory_xact_lock_shared(${LOCKS.batch}, $1::integer)`),
  /** The open batch for its close, alone: every write counting into it has ended, and none begins. */
  takeOpenBatch: statement(
    'take_open_batch',
    `SELECT id, pg_advisory_xact_lock(${LOCKS.batch}, CAST(id AS integer)) FROM batches WHERE status = 'OPEN'`,
  ),
  /** A group's new rows counted in their blocks (schema step 11), in the writer's own rows. */
  countBlocks: statement(
    'count_blocks',
    `INSERT INTO transaction_blocks (block, writer, rows)
     SELECT id / ${ID_BLOCK}, $2, count(*) FROM unnest($1::bigint[]) AS id GROUP BY id / ${ID_BLOCK}
     ON CONFLICT (block, writer) DO UPDATE SET rows = transaction_blocks.rows + excluded.rows`,
  ),
  /** A request's hold across its outside calls (ledger.ts, `hold`). */
  hold: statement('hold', 'SELECT pg_advisory_lock($1::integer, $2::integer)'),
  holdShared: statement('hold_shared', 'SELECT pg_advisory_lock_shared($1::integer, $2::integer)'),
  tryHold: statement('try_hold', 'SELECT pg_try_advisory_lock($1::integer, $2::integer) AS held'),
  release: statement('release', 'SELECT pg_advisory_unlock_all()'),
  makeCardHashKey: statement(
    'make_card_hash_key',
    'INSERT INTO card_hash_key (id, secret) VALUES (1, $1) ON CONFLICT (id) DO NOTHING',
  ),
  cardHashKey: statement('card_hash_key', 'SELECT secret FROM card_hash_key WHERE id = 1'),
};

export async function findTransaction(
  db: pg.Pool | pg.ClientBase,
  id: number,
): Promise<LedgerTransaction | undefined> {
  const row = (await db.query<TransactionRowShape>(SQL.find([id]))).rows[0];
  return row && toTransaction(row);
}

export async function findSameCardCharge(
  db: pg.Pool | pg.ClientBase,
  { cardHash, amount, since }: SameCardCharge,
): Promise<LedgerTransaction | undefined> {
  const row = (await db.query<TransactionRowShape>(SQL.sameCardCharge([cardHash, amount, since]))).rows[0];
  return row && toTransaction(row);
}

export async function findBatch(db: pg.Pool | pg.ClientBase, id: number): Promise<BatchRecord | undefined> {
  const row = (await db.query<BatchRowShape>(SQL.findBatch([id]))).rows[0];
  return row && toBatch(row);
}
