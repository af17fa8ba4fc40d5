/**
 * The SQL of the transaction and batch lists: filters, the orders a list may take, and its pages.
 * The lists are read on the reader threads (ledger-reads.ts); the benchmarks run the same SQL.
 */
import type { TransactionResult, TransactionTypeLabel } from '../../../../shared/api/transaction-types';
import { NAME_KEY_COLUMNS, nameKey, TRANSACTION_COLUMNS } from '../transaction-rows';
import { ID_BLOCK, SQLITE_DIALECT, type SqlDialect, type StoreFilter } from './dialect';

export type { StoreFilter };

export interface TransactionFilter {
  id?: number;
  amount?: number;
  type?: TransactionTypeLabel;
  result?: TransactionResult;
  lastFour?: string;
  authorizationCode?: string;
  invoice?: string;
  orderNumber?: string;
  firstName?: string;
  lastName?: string;
  serverId?: string;
  cashier?: string;
  batchId?: number;
  /** Inclusive lower bound, epoch ms. */
  from?: number;
  /** Exclusive upper bound, epoch ms. */
  before?: number;
}

export interface BatchFilter {
  id?: number;
  status?: 'OPEN' | 'CLOSED';
  /** Settled at or after, epoch ms. */
  from?: number;
  /** Settled before, epoch ms. */
  before?: number;
  /** Batches holding at least one transaction that matches. */
  holding?: Omit<TransactionFilter, 'id' | 'batchId' | 'from' | 'before'>;
}

export interface Page<Field extends string> {
  orderBy: Field;
  descending: boolean;
  limit: number;
  offset: number;
}

/** The column each filter compares. */
const FILTER_COLUMNS: Record<keyof TransactionFilter & string, string> = {
  id: TRANSACTION_COLUMNS.id.name,
  amount: TRANSACTION_COLUMNS.amount.name,
  type: TRANSACTION_COLUMNS.type.name,
  result: TRANSACTION_COLUMNS.result.name,
  lastFour: TRANSACTION_COLUMNS.cardLastFour.name,
  authorizationCode: TRANSACTION_COLUMNS.authorizationCode.name,
  invoice: TRANSACTION_COLUMNS.invoice.name,
  orderNumber: TRANSACTION_COLUMNS.orderNumber.name,
  firstName: NAME_KEY_COLUMNS.firstName,
  lastName: NAME_KEY_COLUMNS.lastName,
  serverId: TRANSACTION_COLUMNS.serverId.name,
  cashier: TRANSACTION_COLUMNS.cashier.name,
  batchId: TRANSACTION_COLUMNS.batchId.name,
  from: TRANSACTION_COLUMNS.createdAt.name,
  before: TRANSACTION_COLUMNS.createdAt.name,
};

/** The list's order_by names, and the SQL each sorts by. Ties always break by id. */
export const TRANSACTION_ORDER_COLUMNS = {
  id: TRANSACTION_COLUMNS.id.name,
  created: TRANSACTION_COLUMNS.createdAt.name,
  amount: TRANSACTION_COLUMNS.amount.name,
  type: TRANSACTION_COLUMNS.type.name,
  result: TRANSACTION_COLUMNS.result.name,
  last_four: TRANSACTION_COLUMNS.cardLastFour.name,
  authorization_code: TRANSACTION_COLUMNS.authorizationCode.name,
  invoice: TRANSACTION_COLUMNS.invoice.name,
  order_id: TRANSACTION_COLUMNS.orderNumber.name,
  first_name: NAME_KEY_COLUMNS.firstName,
  last_name: NAME_KEY_COLUMNS.lastName,
  server_id: TRANSACTION_COLUMNS.serverId.name,
} as const;

export const BATCH_ORDER_COLUMNS = {
  id: 'id',
  settled: 'settled_at',
  opened: 'opened_at',
  status: 'status',
  amount: '(sales_total - refund_total)',
  net_amount: '(sales_total - refund_total)',
  sales_total: 'sales_total',
  refund_total: 'refund_total',
  total_count: '(sales_count + refund_count)',
  type: 'id',
  result: 'id',
  last_four: 'id',
  authorization_code: 'id',
  invoice: 'id',
  order_id: 'id',
  first_name: 'id',
  last_name: 'id',
} as const;

function transactionConditions(
  filter: TransactionFilter & StoreFilter,
  alias = '',
  dialect: SqlDialect = SQLITE_DIALECT,
): { sql: string[]; params: unknown[] } {
  const sql: string[] = [];
  const params: unknown[] = [];
  for (const [key, value] of Object.entries(filter) as [
    keyof TransactionFilter | keyof StoreFilter,
    unknown,
  ][]) {
    if (value === undefined) continue;
    const name = key === 'lane' ? dialect.storeFilterColumns.lane : FILTER_COLUMNS[key];
    if (name === undefined) throw new Error(`This ledger keeps no ${key} to filter by.`);
    const column = alias + name;
    if (key === 'from') sql.push(`${column} >= ?`);
    else if (key === 'before') sql.push(`${column} < ?`);
    else sql.push(`${column} = ?`);
    params.push(key === 'firstName' || key === 'lastName' ? nameKey(value as string) : value);
  }
  return { sql, params };
}

function orderClause(expression: string, descending: boolean, dialect: SqlDialect): string {
  const direction = descending ? 'DESC' : 'ASC';
  return expression === 'id'
    ? `ORDER BY id ${direction}`
    : `ORDER BY ${expression} ${direction}${dialect.nulls(descending)}, id ${direction}`;
}

/**
 * What is known of the ledger's transaction ids: whether they run without a gap. The engine gives
 * each new transaction the id after the highest (`nextTransactionId`) and deletes none, so they do;
 * where that was checked (ledger-reads.ts), any page of the id order is reached by its first id.
 */
export interface LedgerIds {
  dense: boolean;
}

/** The SQL of one page of the transaction list: the engine runs it, and so does its benchmark baseline. */
export function transactionListQuery(
  filter: TransactionFilter & StoreFilter,
  page: Page<keyof typeof TRANSACTION_ORDER_COLUMNS>,
  ids: LedgerIds = { dense: false },
  dialect: SqlDialect = SQLITE_DIALECT,
): { sql: string; params: unknown[] } {
  const { sql, params } = transactionConditions(filter, '', dialect);
  if (page.orderBy === 'id' && sql.length === 0) {
    const deep = deepPageQuery(page, ids, dialect);
    if (deep) return deep;
  }
  const where = sql.length ? `WHERE ${sql.join(' AND ')}` : '';
  const order = orderClause(TRANSACTION_ORDER_COLUMNS[page.orderBy], page.descending, dialect);
  // The page's ids come from the index alone (each index ends in id), so rows are read only for the
  // page itself: not for the rows an OFFSET skips, nor for every row of a date range being sorted.
  return {
    sql: `SELECT * FROM transactions WHERE id IN (SELECT id FROM transactions ${where} ${order} LIMIT ? OFFSET ?) ${order}`,
    params: [...params, page.limit, page.offset],
  };
}

/**
 * A page of the whole list in id order, found without stepping over the rows before it, or undefined
 * when stepping is all there is (a SQLite file whose ids were not found dense, or a page near enough
 * to the end it starts from).
 */
function deepPageQuery(
  page: Page<keyof typeof TRANSACTION_ORDER_COLUMNS>,
  ids: LedgerIds,
  dialect: SqlDialect,
): { sql: string; params: unknown[] } | undefined {
  const direction = page.descending ? 'DESC' : 'ASC';
  if (dialect.deepPages === 'dense ids') {
    if (!ids.dense) return undefined;
    // Page N of the whole ledger starts N-1 pages from the newest (or oldest) id: one seek of the
    // table b-tree, the same rows as stepping over every row before them, at any depth.
    return page.descending
      ? {
          sql: 'SELECT * FROM transactions WHERE id <= (SELECT max(id) FROM transactions) - ? ORDER BY id DESC LIMIT ?',
          params: [page.offset, page.limit],
        }
      : {
          sql: 'SELECT * FROM transactions WHERE id >= (SELECT min(id) FROM transactions) + ? ORDER BY id ASC LIMIT ?',
          params: [page.offset, page.limit],
        };
  }
  if (page.offset < ID_BLOCK) return undefined;
  // The block the page starts in, from the rows counted in each block before it (from the end the
  // list starts at); then the page's ids stepped from that block's edge, at most a block's worth. The
  // counts and the rows are read in one statement, so they agree: a count is committed with its rows.
  const from = page.descending ? `id < (start.block + 1) * ${ID_BLOCK}` : `id >= start.block * ${ID_BLOCK}`;
  return {
    sql: `
      WITH wanted AS (
        SELECT CAST(? AS bigint) AS skip
      ), blocks AS (
        SELECT block, sum(rows) AS rows FROM transaction_blocks GROUP BY block
      ), placed AS (
        SELECT block, rows, sum(rows) OVER (ORDER BY block ${direction}) - rows AS before FROM blocks
      ), start AS (
        SELECT placed.block, wanted.skip - placed.before AS skip FROM placed, wanted
        WHERE placed.before <= wanted.skip AND placed.before + placed.rows > wanted.skip
      )
      SELECT page.* FROM start, LATERAL (
        SELECT * FROM transactions WHERE id IN (
          SELECT id FROM transactions WHERE ${from} ORDER BY id ${direction} LIMIT ? OFFSET start.skip)
      ) page
      ORDER BY page.id ${direction}`,
    params: [page.offset, page.limit],
  };
}

/** The SQL of one page of the batch list. */
export function batchListQuery(
  filter: BatchFilter,
  page: Page<keyof typeof BATCH_ORDER_COLUMNS>,
  dialect: SqlDialect = SQLITE_DIALECT,
): { sql: string; params: unknown[] } {
  const sql: string[] = [];
  const params: unknown[] = [];
  const add = (condition: string, value: unknown) => {
    sql.push(condition);
    params.push(value);
  };
  if (filter.id !== undefined) add('id = ?', filter.id);
  if (filter.status !== undefined) add('status = ?', filter.status);
  if (filter.from !== undefined) add('settled_at >= ?', filter.from);
  if (filter.before !== undefined) add('settled_at < ?', filter.before);
  if (filter.holding && Object.values(filter.holding).some((v) => v !== undefined)) {
    const inner = transactionConditions(filter.holding, 't.', dialect);
    sql.push(
      `EXISTS (SELECT 1 FROM transactions t WHERE t.batch_id = batches.id AND ${inner.sql.join(' AND ')})`,
    );
    params.push(...inner.params);
  }
  const where = sql.length ? `WHERE ${sql.join(' AND ')}` : '';
  const order = orderClause(BATCH_ORDER_COLUMNS[page.orderBy], page.descending, dialect);
  return {
    sql: `SELECT * FROM ${dialect.batchTotals} AS batches ${where} ${order} LIMIT ? OFFSET ?`,
    params: [...params, page.limit, page.offset],
  };
}

/** The open batch, with its counters. */
export function openBatchSql(dialect: SqlDialect = SQLITE_DIALECT): string {
  return `SELECT * FROM ${dialect.batchTotals} WHERE status = 'OPEN'`;
}

/** The audit log, newest first, a page at a time. */
export const RECENT_AUDIT_SQL =
  'SELECT id, at, actor, action, subject, detail FROM audit_log ORDER BY id DESC LIMIT ? OFFSET ?';
