/**
 * A typed client for /rest/v1, for the cashier screens, the tests and any TypeScript integrator.
 * It speaks JSON, checks every answer against the same schemas the engine answers with, and takes
 * its fetch from the caller, so that each side can bring its own TLS trust.
 */
import { z } from 'zod';
import {
  batchSchema,
  errorSchema,
  transactionListItemSchema,
  transactionResponseSchema,
  type ApiError,
  type Batch,
  type BatchListQuery,
  type TransactionListItem,
  type TransactionListQuery,
  type TransactionRequestBody,
  type TransactionResponse,
} from './schemas';

export interface FetchResponse {
  status: number;
  text(): Promise<string>;
}

export type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
) => Promise<FetchResponse>;

export class TenderApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiError | undefined,
  ) {
    super(body?.message ?? `The gateway answered HTTP ${status}.`);
  }
}

type QueryValues<Q> = { [K in keyof Q]?: string | number | boolean };

export interface TenderClientOptions {
  /** https://127.0.0.1:<port>/rest/v1 */
  baseUrl: string;
  apiKey: string;
  fetch: FetchLike;
}

export class TenderClient {
  constructor(private readonly options: TenderClientOptions) {}

  /**
   * Runs a transaction. With an idempotency key, sending the same request again (after a lost
   * answer) returns the first answer instead of charging twice.
   */
  createTransaction(
    request: TransactionRequestBody,
    options: { idempotencyKey?: string } = {},
  ): Promise<TransactionResponse> {
    return this.call(
      'POST',
      '/transactions',
      transactionResponseSchema,
      request,
      options.idempotencyKey === undefined ? {} : { 'idempotency-key': options.idempotencyKey },
    ) as Promise<TransactionResponse>;
  }

  /** One page of transactions; an empty list when nothing matches. */
  async listTransactions(query: QueryValues<TransactionListQuery> = {}): Promise<TransactionListItem[]> {
    return (
      (await this.call('GET', `/transactions${queryString(query)}`, z.array(transactionListItemSchema))) ?? []
    );
  }

  async listBatches(query: QueryValues<BatchListQuery> = {}): Promise<Batch[]> {
    return (await this.call('GET', `/batches${queryString(query)}`, z.array(batchSchema))) ?? [];
  }

  /** The open batch, or undefined when none is open. */
  openBatch(): Promise<Batch | undefined> {
    return this.call('GET', '/batches/open', batchSchema);
  }

  /** Closes the open batch for settlement; undefined when none was open. */
  closeOpenBatch(): Promise<Batch | undefined> {
    return this.call('PUT', '/batches/open', batchSchema);
  }

  private async call<T>(
    method: string,
    path: string,
    schema: z.ZodType<T>,
    body?: unknown,
    extraHeaders: Record<string, string> = {},
  ): Promise<T | undefined> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      api_key: this.options.apiKey,
      ...extraHeaders,
    };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await this.options.fetch(`${this.options.baseUrl}${path}`, {
      method,
      headers,
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    if (response.status === 204) return undefined;
    const text = await response.text();
    if (response.status !== 200) {
      const parsed = errorSchema.safeParse(safeJson(text));
      throw new TenderApiError(response.status, parsed.success ? parsed.data : undefined);
    }
    return schema.parse(JSON.parse(text));
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
