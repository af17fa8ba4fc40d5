/**
 * Every route of /rest/v1, once. The engine registers its handlers at these methods and paths and
 * checks the permission named here; it answers 405 and CORS preflights from the methods each path
 * has; the typed client calls these paths; the OpenAPI document describes these routes.
 */
import { z } from 'zod';
import type { Permission } from './permissions';
import {
  batchListQuerySchema,
  batchSchema,
  closeBatchQuerySchema,
  receiptQuerySchema,
  receiptSchema,
  noQuerySchema,
  transactionListItemSchema,
  transactionListQuerySchema,
  transactionRequestSchema,
  transactionResponseSchema,
} from './schemas';
import { transactionFieldsInWords } from './transaction-fields';

export const API_PREFIX = '/rest/v1';

export type HttpMethod = 'GET' | 'POST' | 'PUT';

export interface ApiRoute {
  method: HttpMethod;
  /** Below /rest/v1; `{id}` stands for a transaction id in the path. */
  path: string;
  /** What the API key must hold. */
  permission: Permission;
  /** Narrower permissions that also open the route, each for part of what it does. */
  narrowerPermissions?: readonly Permission[];
  summary: string;
  description?: string;
  /** The query string a list accepts; anything else in it is refused with 400. */
  query?: z.ZodObject;
  /** The request body, and the element it is wrapped in when sent as XML. */
  body?: { schema: z.ZodType; xmlRoot: string };
  /**
   * The 200 answer, and the elements it is written under in XML: a list is `xmlRoot` holding one
   * `xmlItem` per entry. A route that answers a picture has `image` instead.
   */
  answer?: { schema: z.ZodType; xmlRoot: string; xmlItem?: string; description: string };
  /** The 200 answer is a picture of this media type rather than JSON or XML (errors stay JSON or XML). */
  image?: { mediaType: 'image/png'; description: string };
  /** Why the route may answer 204 with no body instead. */
  noContent?: string;
  /** Takes an Idempotency-Key header, so that a retry never runs the request twice. */
  idempotent?: boolean;
  /** Read on a reader thread with its time limit, so it may answer 503 query_timeout. */
  timedRead?: boolean;
  /** Also answers in text/plain when Accept asks for it: what the text is. */
  plainText?: string;
  /** Why the route may answer 404 for a path it serves. */
  notFound?: string;
  /** Why the route may answer 409, changing nothing. */
  conflict?: string;
  /** Why the route may answer 403 besides a missing permission or a foreign origin. */
  forbidden?: string;
  /** Writes to the store, so that on a store server it may answer 503 store_unreachable or store_busy. */
  writes?: boolean;
  /** Why the route may answer 502, changing nothing: the merchant's gateway could not do its part. */
  badGateway?: string;
}

/** Why a read may answer 403 with a key that holds its permission. */
const COUNTER_LOCKED_READ =
  "error counter_locked: the key is a counter's own (the cashier screens') and nobody is signed in at " +
  'that counter, or it was sent to an engine other than its counter; it reads again once someone ' +
  'signs in at its counter. Other keys are not affected.';

/** Each route under its OpenAPI operationId, in the order the document lists them. */
export const API_ROUTES = {
  createTransaction: {
    method: 'POST',
    path: '/transactions',
    permission: 'transactions:write',
    query: noQuerySchema,
    narrowerPermissions: ['transactions:sale', 'transactions:refund', 'transactions:void'],
    summary: 'Run a SALE, FORCED SALE, AUTH, CAPTURE, REFUND or VOID',
    description:
      `${transactionFieldsInWords()} The api_key may also be sent in the body. ` +
      'transactions:write allows every type; without it, SALE, AUTH, FORCED SALE and CAPTURE need ' +
      'transactions:sale, REFUND needs transactions:refund and VOID needs transactions:void, and ' +
      'duplicate_override true needs transactions:write itself. A key lacking what its request needs ' +
      'gets 403 forbidden and nothing is recorded.',
    forbidden:
      "error counter_locked: the key is a counter's own (the cashier screens') and nobody is signed in " +
      'at that counter, or it was sent to an engine other than its counter. Nothing is recorded.',
    body: { schema: transactionRequestSchema, xmlRoot: 'transaction' },
    answer: {
      schema: transactionResponseSchema,
      xmlRoot: 'transaction',
      description: 'The outcome, in result.',
    },
    idempotent: true,
  },
  listTransactions: {
    method: 'GET',
    path: '/transactions',
    permission: 'transactions:read',
    summary: 'List transactions, newest first by default',
    query: transactionListQuerySchema,
    answer: {
      schema: z.array(transactionListItemSchema),
      xmlRoot: 'transactions',
      xmlItem: 'transaction',
      description: 'A page of transactions.',
    },
    noContent: 'No transaction matches.',
    timedRead: true,
    forbidden: COUNTER_LOCKED_READ,
  },
  getReceipt: {
    method: 'GET',
    path: '/transactions/{id}/receipt',
    permission: 'transactions:read',
    summary: 'The receipt of a transaction, as printed or structured',
    description:
      'Any transaction in the ledger, by its id. Accept: text/plain gives the receipt as printed, one line per ' +
      'line; application/json and application/xml give the same content structured. The card shows as its brand ' +
      'and last four digits only; never the expiry.',
    query: receiptQuerySchema,
    answer: { schema: receiptSchema, xmlRoot: 'receipt', description: 'The receipt.' },
    plainText: 'The receipt as printed: lines of at most width characters.',
    forbidden: COUNTER_LOCKED_READ,
    notFound: 'No transaction has this id (error not_found).',
    conflict:
      'copy=check of a transaction that is not an open tab: an approved AUTH neither voided, captured nor expired (auth_expiry_days), not a sale tipped at the counter (error not_a_tab).',
    timedRead: true,
  },
  getSignature: {
    method: 'GET',
    path: '/transactions/{id}/signature',
    permission: 'transactions:read',
    summary: "The customer's signature for a transaction, as a PNG",
    description:
      'The signature the customer drew on the screen turned to them, for an approved SALE, FORCED SALE or ' +
      'CAPTURE: black strokes on white, fitted to the picture. It is kept as strokes only, never with card data. ' +
      'Accept must allow image/png (absent, */* and image/* do); errors are written in JSON, or XML when Accept ' +
      'prefers it.',
    query: noQuerySchema,
    image: { mediaType: 'image/png', description: 'The signature, 600 by 200 pixels, 8-bit grayscale.' },
    forbidden: COUNTER_LOCKED_READ,
    notFound:
      'No transaction has this id, or the transaction has no signature: the customer did not sign on screen ' +
      '(error not_found).',
    timedRead: true,
  },
  listBatches: {
    method: 'GET',
    path: '/batches',
    permission: 'batches:read',
    summary: 'List settlement batches',
    description:
      'Transaction filters (amount, type, last_four, ...) select the batches that hold a matching transaction; ' +
      'start_date and end_date select by settled time.',
    query: batchListQuerySchema,
    answer: {
      schema: z.array(batchSchema),
      xmlRoot: 'batches',
      xmlItem: 'batch',
      description: 'A page of batches.',
    },
    noContent: 'No batch matches.',
    timedRead: true,
    forbidden: COUNTER_LOCKED_READ,
  },
  getOpenBatch: {
    method: 'GET',
    path: '/batches/open',
    permission: 'batches:read',
    query: noQuerySchema,
    summary: 'The open batch',
    answer: { schema: batchSchema, xmlRoot: 'batch', description: 'The open batch.' },
    noContent: 'No batch is open.',
    timedRead: true,
    forbidden: COUNTER_LOCKED_READ,
  },
  closeOpenBatch: {
    method: 'PUT',
    path: '/batches/open',
    permission: 'batches:close',
    summary: 'Close the open batch for settlement',
    description:
      'With expected_total_count and/or expected_net_amount, the batch is closed only if it still has ' +
      'what the closer saw; otherwise nothing is closed and the answer is 409 batch_changed, carrying ' +
      'the open batch as it is now. Without them the open batch is closed as it is. The close takes no ' +
      'body: its figures are query parameters, and a request with a body is refused with 400, closing nothing.',
    query: closeBatchQuerySchema,
    conflict:
      'error batch_changed: the open batch no longer has the expected_total_count or expected_net_amount ' +
      'sent. Nothing was closed; batch is the open batch as it is now, when the key may read batches ' +
      '(batches:read); a key that may only close gets the error alone.',
    writes: true,
    answer: {
      schema: batchSchema,
      xmlRoot: 'batch',
      description: 'The closed batch, with settled and confirmation_code.',
    },
    noContent: 'No batch is open.',
    badGateway:
      "error gateway_unreachable: with the merchant's gateway as the processor, what waits to be forwarded could not be sent, or the gateway could not close its open batch; message says which. Nothing was closed, at the gateway or here.",
  },
} as const satisfies Record<string, ApiRoute>;

/** The OpenAPI document itself: JSON only, no API key needed. It describes the routes above, not itself. */
export const OPENAPI_DOCUMENT_ROUTE = { method: 'GET', path: '/openapi.json' } as const satisfies Pick<
  ApiRoute,
  'method' | 'path'
>;

/** A route path as a pattern: `{id}` matches a transaction id, as the engine's routes take it. */
export function pathPattern(path: string): RegExp {
  const escaped = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{id\}/g, '[^/]+');
  return new RegExp(`^${escaped}$`);
}

/** The methods each path below /rest/v1 answers, in alphabetical order: 405's Allow and CORS preflights. */
export function methodsByPath(): Map<string, HttpMethod[]> {
  const methods = new Map<string, HttpMethod[]>();
  for (const { method, path } of [...Object.values<ApiRoute>(API_ROUTES), OPENAPI_DOCUMENT_ROUTE]) {
    methods.set(path, [...(methods.get(path) ?? []), method].sort());
  }
  return methods;
}

/** The routes an API key holding this permission may call. */
export function routesAllowedBy(permission: Permission): ApiRoute[] {
  return Object.values<ApiRoute>(API_ROUTES).filter(
    (route) => route.permission === permission || route.narrowerPermissions?.includes(permission),
  );
}
