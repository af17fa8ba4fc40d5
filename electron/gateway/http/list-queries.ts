/**
 * Reads the list endpoints' query strings into ledger filters (a bad parameter is a 400 naming it),
 * and answers a read past its time limit.
 */
import type { z } from 'zod';
import {
  batchListQuerySchema,
  closeBatchQuerySchema,
  PAGE_SIZE_DEFAULT,
  receiptQuerySchema,
  noQuerySchema,
  transactionListQuerySchema,
  type BatchOrderField,
  type TransactionOrderField,
} from '../../../shared/api/schemas';
import { parseResult, parseTransactionType, TYPE_LABELS } from '../../../shared/api/transaction-types';
import { parseMoney, parseNetCents } from '../../../shared/money';
import { ACCEPTED_DATE_FORMATS, parseQueryDateTime } from './dates';
import type { ExpectedBatch } from '../domain/batch';
import type { BatchFilter, Page, StoreFilter, TransactionFilter } from '../store/sql/list-sql';
import { ReadTimeoutError } from '../store/store-errors';
import { ApiProblem, problems } from './problems';

type Query = Record<string, unknown>;

function validated<S extends z.ZodType>(schema: S, query: Query): z.output<S> {
  for (const [name, value] of Object.entries(query)) {
    if (Array.isArray(value)) throw problems.badParameter(name, 'is given more than once; send it once.');
  }
  const parsed = schema.safeParse(query);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  if (issue?.code === 'unrecognized_keys') {
    const name = issue.keys[0] ?? '';
    throw problems.badParameter(
      name,
      'is not a parameter of this request. See /rest/v1/openapi.json for the ones it takes.',
    );
  }
  throw problems.badParameter(String(issue?.path[0] ?? 'query'), issue?.message ?? 'is not valid');
}

function dateParameter(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const epoch = parseQueryDateTime(text);
  if (epoch === undefined)
    throw problems.badParameter(name, `must be one of: ${ACCEPTED_DATE_FORMATS.join('; ')}.`);
  return epoch;
}

type CommonQuery = z.output<typeof transactionListQuerySchema> | z.output<typeof batchListQuerySchema>;

function paging<Field extends string>(query: CommonQuery, orderBy: Field): Page<Field> {
  const limit = query.page_size === undefined ? PAGE_SIZE_DEFAULT : Number(query.page_size);
  const page = query.page === undefined ? 1 : Number(query.page);
  return {
    orderBy,
    descending: query.descending?.toLowerCase() !== 'false',
    limit,
    offset: (page - 1) * limit,
  };
}

/** The filters both lists share: the fields of a transaction. */
function transactionFields(
  query: CommonQuery,
): Omit<TransactionFilter, 'id' | 'batchId' | 'from' | 'before'> {
  const filter: Omit<TransactionFilter, 'id' | 'batchId' | 'from' | 'before'> = {};
  if (query.amount !== undefined) {
    const amount = parseMoney(query.amount, { allowZero: true });
    if (!amount.ok) throw problems.badParameter('amount', 'must be dollars with two decimals, like 25.00');
    filter.amount = amount.cents;
  }
  if (query.type !== undefined) {
    const type = parseTransactionType(query.type);
    if (!type)
      throw problems.badParameter('type', 'must be one of SALE, FORCED SALE, AUTH, CAPTURE, REFUND, VOID');
    filter.type = TYPE_LABELS[type];
  }
  if (query.result !== undefined) {
    const result = parseResult(query.result);
    if (!result) throw problems.badParameter('result', 'must be one of Approved, Declined, Rejected, Error');
    filter.result = result;
  }
  if (query.last_four !== undefined) filter.lastFour = query.last_four;
  if (query.authorization_code !== undefined) filter.authorizationCode = query.authorization_code;
  if (query.invoice !== undefined) filter.invoice = query.invoice;
  const orderNumber = query.order_id ?? query.order_number;
  if (orderNumber !== undefined) filter.orderNumber = orderNumber;
  if (query.first_name !== undefined) filter.firstName = query.first_name;
  if (query.last_name !== undefined) filter.lastName = query.last_name;
  if (query.server_id !== undefined) filter.serverId = query.server_id;
  return filter;
}

function dateRange(query: CommonQuery): { from?: number; before?: number } {
  const from = dateParameter('start_date', query.start_date);
  const before = dateParameter('end_date', query.end_date);
  if (from !== undefined && before !== undefined && from >= before) {
    throw problems.badParameter('end_date', 'must be later than start_date.');
  }
  return { ...(from !== undefined && { from }), ...(before !== undefined && { before }) };
}

export function readTransactionListQuery(query: Query): {
  filter: TransactionFilter & StoreFilter;
  page: Page<TransactionOrderField>;
  pageNumber: number;
} {
  const parsed = validated(transactionListQuerySchema, query);
  const filter: TransactionFilter & StoreFilter = { ...transactionFields(parsed), ...dateRange(parsed) };
  if (parsed.id !== undefined) filter.id = Number(parsed.id);
  if (parsed.batch_id !== undefined) filter.batchId = Number(parsed.batch_id);
  if (parsed.cashier !== undefined) filter.cashier = parsed.cashier;
  if (parsed.lane !== undefined) filter.lane = parsed.lane;
  if (parsed.offline !== undefined) filter.offline = parsed.offline.toLowerCase() === 'true';
  return { filter, page: paging(parsed, parsed.order_by ?? 'id'), pageNumber: Number(parsed.page ?? 1) };
}

export function readBatchListQuery(query: Query): {
  filter: BatchFilter;
  page: Page<BatchOrderField>;
  pageNumber: number;
} {
  const parsed = validated(batchListQuerySchema, query);
  const filter: BatchFilter = { ...dateRange(parsed), holding: transactionFields(parsed) };
  if (parsed.id !== undefined) filter.id = Number(parsed.id);
  if (parsed.status !== undefined) filter.status = parsed.status.toUpperCase() as 'OPEN' | 'CLOSED';
  return { filter, page: paging(parsed, parsed.order_by ?? 'id'), pageNumber: Number(parsed.page ?? 1) };
}

/** The transaction id in a path; a malformed one is a 400 naming it. */
export function readTransactionId(idText: string): number {
  if (!/^[1-9]\d{0,14}$/.test(idText)) {
    throw problems.badParameter('id', 'in the path must be a transaction id, a positive whole number.');
  }
  return Number(idText);
}

/** A receipt's query and the transaction id in its path; a malformed one is a 400 naming it. */
export function readReceiptRequest(
  idText: string,
  query: Query,
): { id: number; copy: 'customer' | 'merchant' | 'check'; width: 32 | 42 | 48 } {
  const id = readTransactionId(idText);
  const parsed = validated(receiptQuerySchema, query);
  return {
    id,
    copy: parsed.copy ?? 'customer',
    width: Number(parsed.width ?? '42') as 32 | 42 | 48,
  };
}

/** The query of a route that takes no parameter (POST /transactions, GET /batches/open, a signature). */
export function readNoQuery(query: Query): void {
  validated(noQuerySchema, query);
}

/** PUT /batches/open's query: the figures the closer saw, if any. */
export function readCloseBatchQuery(query: Query): ExpectedBatch {
  const parsed = validated(closeBatchQuerySchema, query);
  // The schema's pattern has let the text through, so it reads as cents.
  const net =
    parsed.expected_net_amount === undefined ? undefined : parseNetCents(parsed.expected_net_amount);
  return {
    ...(parsed.expected_total_count !== undefined && { totalCount: Number(parsed.expected_total_count) }),
    ...(net !== undefined && { netAmount: net }),
  };
}

/**
 * A read of the ledger for the API that ran past its time limit is answered 503 query_timeout: it
 * was stopped, changed nothing, and a narrower filter or a moment's wait will do.
 */
export async function withinReadLimit<T>(read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (error) {
    if (!(error instanceof ReadTimeoutError)) throw error;
    throw new ApiProblem(
      503,
      'query_timeout',
      `Reading the ledger took longer than ${error.timeoutMs / 1000} s and was stopped; nothing was changed. ` +
        'Narrow the filter (a date range, last_four, batch_id) or try again in a moment.',
    );
  }
}
