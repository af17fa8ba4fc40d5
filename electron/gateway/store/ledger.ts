/**
 * The ledger's SQL: transactions and settlement batches. Rules about what may happen live in
 * ../domain; this file only reads and writes rows, inside the write transactions the engine opens.
 * The lists' SQL is built here too, and read on the reader threads (ledger-reads.ts).
 */
import type { TransactionResult, TransactionTypeLabel } from '../../../shared/api/transaction-types';
import type { BatchDelta } from '../domain/batch';
import type { Connection } from './database';
import { GroupCommit } from './group-commit';

export interface LedgerTransaction {
  id: number;
  type: TransactionTypeLabel | null;
  result: TransactionResult;
  resultCode: string | null;
  errorCode: string | null;
  displayMessage: string;
  /** Total in cents, tip included; null on a rejected request that named no valid amount. */
  amount: number | null;
  tipAmount: number;
  authorizationCode: string | null;
  avsResultCode: string | null;
  cscResultCode: string | null;
  cardBin: string | null;
  cardLastFour: string | null;
  cardLength: number | null;
  cardBrand: string | null;
  entryMode: string | null;
  invoice: string | null;
  orderNumber: string | null;
  purchaseOrder: string | null;
  customerId: string | null;
  email: string | null;
  clientIp: string | null;
  description: string | null;
  comments: string | null;
  serverId: string | null;
  firstName: string | null;
  lastName: string | null;
  billingIsShipping: boolean;
  billing: string | null;
  shipping: string | null;
  originalId: number | null;
  batchId: number | null;
  voidedBy: number | null;
  capturedBy: number | null;
  refundedAmount: number;
  apiKeyId: number | null;
  /** The KSN of the swipe that carried the card, when it was swiped. */
  swipeKsn: string | null;
  createdAt: number;
}

export type NewTransaction = Omit<LedgerTransaction, 'id' | 'voidedBy' | 'capturedBy' | 'refundedAmount'>;

export interface BatchRecord {
  id: number;
  status: 'OPEN' | 'CLOSED';
  openedAt: number;
  settledAt: number | null;
  confirmationCode: string | null;
  salesCount: number;
  salesTotal: number;
  refundCount: number;
  refundTotal: number;
  tipTotal: number;
}

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

const TRANSACTION_COLUMNS: Record<keyof TransactionFilter & string, string> = {
  id: 'id',
  amount: 'amount',
  type: 'type',
  result: 'result',
  lastFour: 'card_last_four',
  authorizationCode: 'authorization_code',
  invoice: 'invoice',
  orderNumber: 'order_number',
  firstName: 'first_name_key',
  lastName: 'last_name_key',
  serverId: 'server_id',
  batchId: 'batch_id',
  from: 'created_at',
  before: 'created_at',
};

/** The list's order_by names, and the SQL each sorts by. Ties always break by id. */
export const TRANSACTION_ORDER_COLUMNS = {
  id: 'id',
  created: 'created_at',
  amount: 'amount',
  type: 'type',
  result: 'result',
  last_four: 'card_last_four',
  authorization_code: 'authorization_code',
  invoice: 'invoice',
  order_id: 'order_number',
  first_name: 'first_name_key',
  last_name: 'last_name_key',
  server_id: 'server_id',
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

/** The form names are compared in: Unicode case folding, so "élodie" finds "Élodie". */
export function nameKey(name: string): string {
  return name.normalize('NFKC').toLowerCase();
}

function transactionConditions(filter: TransactionFilter, alias = ''): { sql: string[]; params: unknown[] } {
  const sql: string[] = [];
  const params: unknown[] = [];
  for (const [key, value] of Object.entries(filter) as [keyof TransactionFilter, unknown][]) {
    if (value === undefined) continue;
    const column = alias + TRANSACTION_COLUMNS[key];
    if (key === 'from') sql.push(`${column} >= ?`);
    else if (key === 'before') sql.push(`${column} < ?`);
    else sql.push(`${column} = ?`);
    params.push(key === 'firstName' || key === 'lastName' ? nameKey(value as string) : value);
  }
  return { sql, params };
}

function orderClause(expression: string, descending: boolean): string {
  const direction = descending ? 'DESC' : 'ASC';
  return expression === 'id'
    ? `ORDER BY id ${direction}`
    : `ORDER BY ${expression} ${direction}, id ${direction}`;
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
  filter: TransactionFilter,
  page: Page<keyof typeof TRANSACTION_ORDER_COLUMNS>,
  ids: LedgerIds = { dense: false },
): { sql: string; params: unknown[] } {
  const { sql, params } = transactionConditions(filter);
  if (ids.dense && page.orderBy === 'id' && sql.length === 0) {
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
  const where = sql.length ? `WHERE ${sql.join(' AND ')}` : '';
  const order = orderClause(TRANSACTION_ORDER_COLUMNS[page.orderBy], page.descending);
  // The page's ids come from the index alone (each index ends in id), so rows are read only for the
  // page itself: not for the rows an OFFSET skips, nor for every row of a date range being sorted.
  return {
    sql: `SELECT * FROM transactions WHERE id IN (SELECT id FROM transactions ${where} ${order} LIMIT ? OFFSET ?) ${order}`,
    params: [...params, page.limit, page.offset],
  };
}

/** The SQL of one page of the batch list. */
export function batchListQuery(
  filter: BatchFilter,
  page: Page<keyof typeof BATCH_ORDER_COLUMNS>,
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
    const inner = transactionConditions(filter.holding, 't.');
    sql.push(
      `EXISTS (SELECT 1 FROM transactions t WHERE t.batch_id = batches.id AND ${inner.sql.join(' AND ')})`,
    );
    params.push(...inner.params);
  }
  const where = sql.length ? `WHERE ${sql.join(' AND ')}` : '';
  const order = orderClause(BATCH_ORDER_COLUMNS[page.orderBy], page.descending);
  return {
    sql: `SELECT * FROM batches ${where} ${order} LIMIT ? OFFSET ?`,
    params: [...params, page.limit, page.offset],
  };
}

export const OPEN_BATCH_SQL = "SELECT * FROM batches WHERE status = 'OPEN'";

export interface TransactionRowShape {
  id: number;
  type: TransactionTypeLabel | null;
  result: TransactionResult;
  result_code: string | null;
  error_code: string | null;
  display_message: string;
  amount: number | null;
  tip_amount: number;
  authorization_code: string | null;
  avs_result_code: string | null;
  csc_result_code: string | null;
  card_bin: string | null;
  card_last_four: string | null;
  card_length: number | null;
  card_brand: string | null;
  entry_mode: string | null;
  invoice: string | null;
  order_number: string | null;
  purchase_order: string | null;
  customer_id: string | null;
  email: string | null;
  client_ip: string | null;
  description: string | null;
  comments: string | null;
  server_id: string | null;
  first_name: string | null;
  last_name: string | null;
  billing_is_shipping: number;
  billing: string | null;
  shipping: string | null;
  original_id: number | null;
  batch_id: number | null;
  voided_by: number | null;
  captured_by: number | null;
  refunded_amount: number;
  api_key_id: number | null;
  swipe_ksn: string | null;
  created_at: number;
}

export function toTransaction(row: TransactionRowShape): LedgerTransaction {
  return {
    id: row.id,
    type: row.type,
    result: row.result,
    resultCode: row.result_code,
    errorCode: row.error_code,
    displayMessage: row.display_message,
    amount: row.amount,
    tipAmount: row.tip_amount,
    authorizationCode: row.authorization_code,
    avsResultCode: row.avs_result_code,
    cscResultCode: row.csc_result_code,
    cardBin: row.card_bin,
    cardLastFour: row.card_last_four,
    cardLength: row.card_length,
    cardBrand: row.card_brand,
    entryMode: row.entry_mode,
    invoice: row.invoice,
    orderNumber: row.order_number,
    purchaseOrder: row.purchase_order,
    customerId: row.customer_id,
    email: row.email,
    clientIp: row.client_ip,
    description: row.description,
    comments: row.comments,
    serverId: row.server_id,
    firstName: row.first_name,
    lastName: row.last_name,
    billingIsShipping: row.billing_is_shipping === 1,
    billing: row.billing,
    shipping: row.shipping,
    originalId: row.original_id,
    batchId: row.batch_id,
    voidedBy: row.voided_by,
    capturedBy: row.captured_by,
    refundedAmount: row.refunded_amount,
    apiKeyId: row.api_key_id,
    swipeKsn: row.swipe_ksn,
    createdAt: row.created_at,
  };
}

export interface BatchRowShape {
  id: number;
  status: 'OPEN' | 'CLOSED';
  opened_at: number;
  settled_at: number | null;
  confirmation_code: string | null;
  sales_count: number;
  sales_total: number;
  refund_count: number;
  refund_total: number;
  tip_total: number;
}

export function toBatch(row: BatchRowShape): BatchRecord {
  return {
    id: row.id,
    status: row.status,
    openedAt: row.opened_at,
    settledAt: row.settled_at,
    confirmationCode: row.confirmation_code,
    salesCount: row.sales_count,
    salesTotal: row.sales_total,
    refundCount: row.refund_count,
    refundTotal: row.refund_total,
    tipTotal: row.tip_total,
  };
}

export class Ledger {
  private readonly statements;
  readonly commits: GroupCommit;

  constructor(private readonly db: Connection) {
    this.commits = new GroupCommit(db);
    this.statements = {
      find: db.prepare<[number], TransactionRowShape>('SELECT * FROM transactions WHERE id = ?'),
      nextId: db.prepare<[], { next: number }>('SELECT COALESCE(MAX(id), 0) + 1 AS next FROM transactions'),
      insert: db.prepare(`
        INSERT INTO transactions (
          id, type, result, result_code, error_code, display_message, amount, tip_amount,
          authorization_code, avs_result_code, csc_result_code, card_bin, card_last_four, card_length,
          card_brand, entry_mode, invoice, order_number, purchase_order, customer_id, email, client_ip,
          description, comments, server_id, first_name, last_name, first_name_key, last_name_key,
          billing_is_shipping, billing, shipping,
          original_id, batch_id, api_key_id, swipe_ksn, created_at
        ) VALUES (
          @id, @type, @result, @resultCode, @errorCode, @displayMessage, @amount, @tipAmount,
          @authorizationCode, @avsResultCode, @cscResultCode, @cardBin, @cardLastFour, @cardLength,
          @cardBrand, @entryMode, @invoice, @orderNumber, @purchaseOrder, @customerId, @email, @clientIp,
          @description, @comments, @serverId, @firstName, @lastName, @firstNameKey, @lastNameKey,
          @billingIsShipping, @billing, @shipping,
          @originalId, @batchId, @apiKeyId, @swipeKsn, @createdAt
        )`),
      findAnswer: db.prepare<[number, string], { fingerprint: string; response: string }>(
        'SELECT fingerprint, response FROM idempotency_keys WHERE api_key_id = ? AND key = ?',
      ),
      rememberAnswer: db.prepare<[number, string, string, string, number]>(
        'INSERT INTO idempotency_keys (api_key_id, key, fingerprint, response, created_at) VALUES (?, ?, ?, ?, ?)',
      ),
      forgetAnswers: db.prepare<[number]>('DELETE FROM idempotency_keys WHERE created_at < ?'),
      swipeSeen: db.prepare<[string], { id: number }>('SELECT id FROM transactions WHERE swipe_ksn = ?'),
      markVoided: db.prepare('UPDATE transactions SET voided_by = ? WHERE id = ? AND voided_by IS NULL'),
      markCaptured: db.prepare(
        'UPDATE transactions SET captured_by = ? WHERE id = ? AND captured_by IS NULL',
      ),
      addRefunded: db.prepare('UPDATE transactions SET refunded_amount = refunded_amount + ? WHERE id = ?'),
      openBatch: db.prepare<[], BatchRowShape>(OPEN_BATCH_SQL),
      findBatch: db.prepare<[number], BatchRowShape>('SELECT * FROM batches WHERE id = ?'),
      createBatch: db.prepare<[number], BatchRowShape>(
        "INSERT INTO batches (status, opened_at) VALUES ('OPEN', ?) RETURNING *",
      ),
      applyDelta: db.prepare(`
        UPDATE batches SET
          sales_count = sales_count + @salesCount, sales_total = sales_total + @salesTotal,
          refund_count = refund_count + @refundCount, refund_total = refund_total + @refundTotal,
          tip_total = tip_total + @tipTotal
        WHERE id = @batchId AND status = 'OPEN'`),
      closeBatch: db.prepare<[number, string, number], BatchRowShape>(
        "UPDATE batches SET status = 'CLOSED', settled_at = ?, confirmation_code = ? WHERE id = ? RETURNING *",
      ),
    };
  }

  /**
   * Runs `work` atomically in a BEGIN IMMEDIATE transaction, shared with the writes that arrive at
   * the same time (group commit). The promise settles once the commit is on disk: all of `work`
   * committed, or, if it threw, none of it.
   */
  write<T>(work: () => T): Promise<T> {
    return this.commits.run(work);
  }

  find(id: number): LedgerTransaction | undefined {
    const row = this.statements.find.get(id);
    return row && toTransaction(row);
  }

  /**
   * The id the next insert will get; valid inside the write transaction that asked. Every insert
   * takes it, so ids run without a gap, which deep pages of the list rely on (LedgerIds).
   */
  nextTransactionId(): number {
    return this.statements.nextId.get()?.next ?? 1;
  }

  insert(transaction: NewTransaction & { id: number }): void {
    this.statements.insert.run({
      ...transaction,
      firstNameKey: transaction.firstName === null ? null : nameKey(transaction.firstName),
      lastNameKey: transaction.lastName === null ? null : nameKey(transaction.lastName),
      billingIsShipping: transaction.billingIsShipping ? 1 : 0,
    });
  }

  /** The answer stored under an idempotency key, with the fingerprint of the request it answered. */
  findAnswer(apiKeyId: number, key: string): { fingerprint: string; response: string } | undefined {
    return this.statements.findAnswer.get(apiKeyId, key);
  }

  /** Stores an answer under its idempotency key; call it inside the write that made the answer. */
  rememberAnswer(apiKeyId: number, key: string, fingerprint: string, response: string, at: number): void {
    this.statements.rememberAnswer.run(apiKeyId, key, fingerprint, response, at);
  }

  /** Drops the answers stored before `before` (epoch ms). */
  forgetAnswers(before: number): void {
    this.statements.forgetAnswers.run(before);
  }

  /** True when a transaction already carried a swipe with this KSN. */
  isSwipeKsnUsed(ksn: string): boolean {
    return this.statements.swipeSeen.get(ksn) !== undefined;
  }

  markVoided(id: number, voidId: number): void {
    if (this.statements.markVoided.run(voidId, id).changes !== 1)
      throw new Error(`transaction ${id} was voided already`);
  }

  markCaptured(id: number, captureId: number): void {
    if (this.statements.markCaptured.run(captureId, id).changes !== 1)
      throw new Error(`authorization ${id} was captured already`);
  }

  addRefunded(id: number, cents: number): void {
    this.statements.addRefunded.run(cents, id);
  }

  openBatch(): BatchRecord | undefined {
    const row = this.statements.openBatch.get();
    return row && toBatch(row);
  }

  findBatch(id: number): BatchRecord | undefined {
    const row = this.statements.findBatch.get(id);
    return row && toBatch(row);
  }

  /** The open batch, opened now if there is none (the first transaction of a batch opens it). */
  openBatchForWrite(now: number): BatchRecord {
    return this.openBatch() ?? toBatch(this.statements.createBatch.get(now) as BatchRowShape);
  }

  applyBatchDelta(batchId: number, delta: BatchDelta): void {
    if (this.statements.applyDelta.run({ batchId, ...delta }).changes !== 1)
      throw new Error(`batch ${batchId} is not open`);
  }

  closeBatch(batchId: number, settledAt: number, confirmationCode: string): BatchRecord {
    return toBatch(this.statements.closeBatch.get(settledAt, confirmationCode, batchId) as BatchRowShape);
  }
}
