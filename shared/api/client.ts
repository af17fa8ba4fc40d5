/**
 * A typed client for /rest/v1, for the cashier screens, the tests and any TypeScript integrator.
 * It speaks JSON, checks every answer against the same schemas the engine answers with, and takes
 * its fetch from the caller, so that each side can bring its own TLS trust.
 */
import type { z } from 'zod';
import { API_ROUTES, type ApiRoute } from './routes';
import {
  errorSchema,
  type ApiError,
  type Batch,
  type BatchListQuery,
  type CloseBatchQuery,
  type Receipt,
  type ReceiptQuery,
  type TransactionListItem,
  type TransactionListQuery,
  type TransactionRequestBody,
  type TransactionResponse,
} from './schemas';

export interface FetchResponse {
  status: number;
  text(): Promise<string>;
  /** The body as bytes, for the routes that answer a picture. */
  bytes?(): Promise<Uint8Array>;
}

export type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
) => Promise<FetchResponse>;

/** A route that answers JSON (or XML): every route but the pictures. */
type JsonRoute = ApiRoute & { answer: NonNullable<ApiRoute['answer']> };

export class TenderApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiError | undefined,
  ) {
    super(body?.message ?? `The gateway answered HTTP ${status}.`);
  }
}

type QueryValues<Q> = { [K in keyof Q]?: string | number | boolean };

/** What a call sends beside the route's method and path. */
interface CallParts {
  body?: unknown;
  headers?: Record<string, string>;
  query?: Record<string, string | number | boolean | undefined>;
  /** Values for the `{name}` parts of the route's path. */
  path?: Record<string, string>;
}

export interface TenderClientOptions {
  /** https://127.0.0.1:<port>/rest/v1 */
  baseUrl: string;
  apiKey: string;
  fetch: FetchLike;
}

export class TenderClient {
  constructor(private readonly options: TenderClientOptions) {}

  /** The public id inside the client's key `tender_<id>_<secret>`, which names the key in lists. */
  get keyId(): string {
    return this.options.apiKey.split('_')[1] ?? '';
  }

  /**
   * Runs a transaction. With an idempotency key, sending the same request again (after a lost
   * answer) returns the first answer instead of charging twice.
   */
  createTransaction(
    request: TransactionRequestBody,
    options: { idempotencyKey?: string } = {},
  ): Promise<TransactionResponse> {
    return this.call(API_ROUTES.createTransaction, {
      body: request,
      headers: options.idempotencyKey === undefined ? {} : { 'idempotency-key': options.idempotencyKey },
    }) as Promise<TransactionResponse>;
  }

  /** One page of transactions; an empty list when nothing matches. */
  async listTransactions(query: QueryValues<TransactionListQuery> = {}): Promise<TransactionListItem[]> {
    return (await this.call(API_ROUTES.listTransactions, { query })) ?? [];
  }

  /** The receipt of any transaction, structured, with its printed `lines`. */
  async receipt(id: number | string, query: QueryValues<ReceiptQuery> = {}): Promise<Receipt> {
    const receipt = await this.call(API_ROUTES.getReceipt, { query, path: { id: String(id) } });
    if (receipt === undefined) throw new TenderApiError(204, undefined);
    return receipt;
  }

  /**
   * The customer's signature for a transaction as PNG bytes, or undefined when it has none. Needs a
   * fetch that can give the body as bytes.
   */
  async signature(id: number | string): Promise<Uint8Array | undefined> {
    const route = API_ROUTES.getSignature;
    const response = await this.options.fetch(
      `${this.options.baseUrl}${route.path.replace('{id}', encodeURIComponent(String(id)))}`,
      { method: route.method, headers: { accept: route.image.mediaType, api_key: this.options.apiKey } },
    );
    if (response.status === 200) {
      if (!response.bytes) throw new Error('This client was given a fetch that cannot read a picture.');
      return response.bytes();
    }
    const parsed = errorSchema.safeParse(safeJson(await response.text()));
    if (response.status === 404 && parsed.success && parsed.data.error === 'not_found') return undefined;
    throw new TenderApiError(response.status, parsed.success ? parsed.data : undefined);
  }

  async listBatches(query: QueryValues<BatchListQuery> = {}): Promise<Batch[]> {
    return (await this.call(API_ROUTES.listBatches, { query })) ?? [];
  }

  /** The open batch, or undefined when none is open. */
  openBatch(): Promise<Batch | undefined> {
    return this.call(API_ROUTES.getOpenBatch);
  }

  /**
   * Closes the open batch for settlement; undefined when none was open. With `expected`, only if the
   * open batch still has those figures: otherwise a TenderApiError 409 batch_changed carries it.
   */
  closeOpenBatch(expected: QueryValues<CloseBatchQuery> = {}): Promise<Batch | undefined> {
    return this.call(API_ROUTES.closeOpenBatch, { query: expected });
  }

  /** Calls a route of the table; undefined when it answers 204. */
  private async call<R extends JsonRoute>(
    route: R,
    { body, headers: extraHeaders = {}, query = {}, path = {} }: CallParts = {},
  ): Promise<z.output<R['answer']['schema']> | undefined> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      api_key: this.options.apiKey,
      ...extraHeaders,
    };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const routePath = route.path.replace(/\{(\w+)\}/g, (_whole, name: string) =>
      encodeURIComponent(path[name] ?? ''),
    );
    const response = await this.options.fetch(`${this.options.baseUrl}${routePath}${queryString(query)}`, {
      method: route.method,
      headers,
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    if (response.status === 204) return undefined;
    const text = await response.text();
    if (response.status !== 200) {
      const parsed = errorSchema.safeParse(safeJson(text));
      throw new TenderApiError(response.status, parsed.success ? parsed.data : undefined);
    }
    return route.answer.schema.parse(JSON.parse(text)) as z.output<R['answer']['schema']>;
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function queryString(query: Record<string, string | number | boolean | undefined>): string {
  const pairs = Object.entries(query).filter(([, value]) => value !== undefined);
  if (pairs.length === 0) return '';
  return `?${pairs.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`).join('&')}`;
}
