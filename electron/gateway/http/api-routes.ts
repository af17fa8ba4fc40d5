/**
 * The routes of /rest/v1, registered at the methods and paths of the route table
 * (shared/api/routes.ts): transactions, their lists and receipts, batches, and the OpenAPI document.
 * The server (server.ts) has checked the host, the origin and the formats before any of them runs.
 */
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  RouteHandlerMethod,
  RouteOptions,
} from 'fastify';
import {
  asksDuplicateOverride,
  lacksPermission,
  TYPE_PERMISSIONS,
  type Permission,
} from '../../../shared/api/permissions';
import { parseTransactionType } from '../../../shared/api/transaction-types';
import { buildOpenApiDocument } from '../../../shared/api/openapi';
import { API_PREFIX, API_ROUTES, OPENAPI_DOCUMENT_ROUTE, type ApiRoute } from '../../../shared/api/routes';
import type { Engine } from '../engine';
import type { ApiKeyInfo } from '../keys';
import { MoneyMoveRefused, type MoneyMoveRefusal } from '../money-moves';
import { presentBatch, presentReceipt, presentTransaction, storeErrorAnswer } from '../presenters';
import { trackGatewayTiming } from '../processor/gateway-timing';
import { NotATabError, ReceiptNotFoundError } from '../receipts/receipt-service';
import type { BatchRecord } from '../store/batch-rows';
import { isStoreError } from '../store/store-errors';
import { normalizeFields } from '../request-fields';
import { formatOfContentType, parseBody } from './formats';
import {
  readBatchListQuery,
  readCloseBatchQuery,
  readReceiptRequest,
  readNoQuery,
  readTransactionId,
  readTransactionListQuery,
  withinReadLimit,
} from './list-queries';
import { ApiProblem, problems } from './problems';
import { PLAIN_TEXT, send } from './replies';

/** The status of each refusal of a money move. */
const REFUSAL_STATUS: Record<MoneyMoveRefusal, number> = {
  counter_locked: 403,
  forbidden: 403,
  idempotency_key_in_flight: 409,
  idempotency_key_reused: 422,
};

/**
 * Checks the request's API key for one of the permissions, or throws the answer that refuses it;
 * with null, only that the key is one (the route then checks what it allows with requirePermission).
 */
export type Authenticate = (
  request: FastifyRequest,
  permission: Permission | readonly Permission[] | null,
  bodyKey?: unknown,
) => ApiKeyInfo;

/** Refuses a key holding none of the permissions with 403, naming them (and what needs them). */
export function requirePermission(key: ApiKeyInfo, accepted: readonly Permission[], neededBy?: string): void {
  if (accepted.some((one) => key.permissions.includes(one))) return;
  throw problems.forbidden(lacksPermission(accepted, neededBy));
}

/**
 * The permissions that would let a key send this transaction, and what needs them: for one type,
 * transactions:write or that type's narrower permission, and transactions:write alone past a possible
 * duplicate. Every transaction permission when the type cannot be told.
 */
function permissionsFor(
  body: Record<string, unknown>,
  every: readonly Permission[],
): { accepted: readonly Permission[]; neededBy?: string } {
  const type = typeof body.type === 'string' ? parseTransactionType(body.type) : undefined;
  if (type === undefined) return { accepted: every };
  if (asksDuplicateOverride(body.duplicate_override))
    return { accepted: ['transactions:write'], neededBy: 'duplicate_override' };
  return { accepted: ['transactions:write', TYPE_PERMISSIONS[type]], neededBy: type };
}

/** Idempotency-Key: 1 to 64 visible ASCII characters, or absent. */
function readIdempotencyKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (typeof header !== 'string' || !/^[\x21-\x7e]{1,64}$/.test(header)) {
    throw problems.badRequest('Idempotency-Key must be 1 to 64 visible ASCII characters, sent once.');
  }
  return header;
}

/** What the routes take from the host besides the engine. */
export interface ApiRouteOptions {
  /** The counter's suggested tip percentages, which the check of a tab prints. */
  tipPercentages?: () => readonly number[];
}

export function registerApiRoutes(
  app: FastifyInstance,
  engine: Engine,
  authenticate: Authenticate,
  options: ApiRouteOptions = {},
): void {
  // The close's figures are query parameters; a body is refused before it is read, rather than
  // ignored, so that figures sent in one never let a close through that they were meant to stop.
  // The key comes first, as on every route: a caller without one learns nothing of the route.
  const refuseCloseBody: RouteOptions['preParsing'] = async (request) => {
    authenticate(request, closeOpenBatch.permission);
    const length = request.headers['content-length'];
    if (request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0')) {
      throw problems.badRequest(
        'PUT /batches/open takes no body: send expected_total_count and expected_net_amount in the query ' +
          'string (PUT /batches/open?expected_total_count=12&expected_net_amount=240.50). Nothing was closed.',
      );
    }
  };

  // HEAD is served wherever GET is, as HTTP expects: the GET's handler, hooks and refusals, its
  // status and headers, without the body.
  const serve = (route: Pick<ApiRoute, 'method' | 'path'>, handler: RouteHandlerMethod) =>
    app.route({
      method: route.method,
      url: `${API_PREFIX}${route.path.replace(/\{(\w+)\}/g, ':$1')}`,
      exposeHeadRoute: route.method === 'GET',
      handler,
      ...(route === closeOpenBatch && { preParsing: refuseCloseBody }),
    });
  const {
    createTransaction,
    listTransactions,
    getReceipt,
    getSignature,
    listBatches,
    getOpenBatch,
    closeOpenBatch,
  } = API_ROUTES;
  const receipts = engine.receipts(options.tipPercentages && { tipPercentages: options.tipPercentages });

  const transactionPermissions = [createTransaction.permission, ...createTransaction.narrowerPermissions];

  /**
   * The key of a read, refused (403 counter_locked) when it is a counter's own and nobody is signed in
   * at that counter: the cashier screens' key reads only for the person at work there. Other
   * programs' keys read as their permissions allow.
   */
  const readingKey = (request: FastifyRequest, permission: Permission): ApiKeyInfo => {
    const key = authenticate(request, permission);
    const lockedOut = engine.staff.lockedOut(key);
    if (lockedOut !== undefined) throw new ApiProblem(403, 'counter_locked', lockedOut);
    return key;
  };

  /** A refusal of the one way in for money moves, as the API answers it. */
  const refused = (error: unknown): unknown => {
    if (!(error instanceof MoneyMoveRefused)) return error;
    return new ApiProblem(REFUSAL_STATUS[error.code], error.code, error.message);
  };

  /** Each transaction request's time at the merchant's gateway, for its Server-Timing header. */
  const gatewayTimings = new WeakMap<object, () => string | undefined>();
  app.addHook('onSend', async (request, reply, payload) => {
    const timing = gatewayTimings.get(request)?.();
    if (timing !== undefined) reply.header('server-timing', timing);
    return payload;
  });

  /**
   * A transaction whose key the counter cannot check, its store server out of reach for a while, is
   * answered as one the store could not take (Error, 9001 or 9002, nothing recorded), as it is once
   * the key was checked: one outage, one answer, however long it lasts.
   */
  const answeringStoreOutages =
    (handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>) =>
    async (request: FastifyRequest, reply: FastifyReply) => {
      try {
        return await handler(request, reply);
      } catch (error) {
        if (!isStoreError(error)) throw error;
        return send(reply, 200, createTransaction.answer.xmlRoot, storeErrorAnswer(error));
      }
    };

  serve(
    createTransaction,
    answeringStoreOutages(async (request, reply) => {
      // Only a request that may reach the merchant's gateway is timed: the tracking it needs makes
      // every promise of the process dearer from then on, which a counter on the simulator never pays.
      if (engine.settings.get('processor') === 'upstream') gatewayTimings.set(request, trackGatewayTiming());
      // A key in the header is checked before the body is read; one in the body, once it is parsed.
      // What a key may send depends on the body's type, so the permission is checked once it is read;
      // a key that may send no transaction at all is refused whatever its body, as before it is read.
      const headerKey =
        typeof request.headers['api_key'] === 'string' && request.headers['api_key'].trim() !== ''
          ? authenticate(request, null)
          : undefined;
      let body: Record<string, unknown>;
      try {
        const sentAs = formatOfContentType(request.headers['content-type']);
        if (typeof request.body !== 'string' || sentAs === undefined) {
          throw problems.unsupportedMediaType(request.headers['content-type']);
        }
        body = normalizeFields(parseBody(request.body, sentAs, createTransaction.body.xmlRoot));
      } catch (error) {
        if (headerKey) requirePermission(headerKey, transactionPermissions);
        throw error;
      }
      const key = headerKey ?? authenticate(request, null, body.api_key);
      const { accepted, neededBy } = permissionsFor(body, transactionPermissions);
      // Only a key holding none of the transaction permissions is refused here; the engine checks the
      // type against a narrower one, with a manager's approval where the screens have one.
      if (!transactionPermissions.some((one) => key.permissions.includes(one)))
        requirePermission(key, accepted, neededBy);
      delete body.api_key;
      readNoQuery(request.query as Record<string, unknown>);
      const idempotencyKey = readIdempotencyKey(request.headers['idempotency-key']);
      try {
        const { response, replayed } = await engine.transact(body, { key }, idempotencyKey);
        if (replayed) reply.header('idempotent-replayed', 'true');
        return send(reply, 200, createTransaction.answer.xmlRoot, response);
      } catch (error) {
        throw refused(error);
      }
    }),
  );

  /** A batch as the API shows it: its counters and each lane's share, as of one moment. */
  const withLanes = async (batch: BatchRecord) => {
    const { batch: asRead, lanes } = await engine.reads.batchWithLanes(batch);
    return presentBatch(asRead, lanes);
  };

  serve(listTransactions, async (request, reply) => {
    readingKey(request, listTransactions.permission);
    const { filter, page, pageNumber } = readTransactionListQuery(request.query as Record<string, unknown>);
    const rows = await withinReadLimit(engine.reads.listTransactions(filter, page));
    // Read after the rows, so a batch closed meanwhile shows its items as settled, as a write would find them.
    const open = await withinReadLimit(engine.batches.open());
    const context = {
      authExpiryDays: engine.settings.get('auth_expiry_days'),
      now: engine.now(),
      openBatchId: open?.id ?? null,
    };
    const items = rows.map((item) => presentTransaction(item, context));
    if (items.length === 0 && pageNumber === 1) return reply.code(204).send();
    const { xmlRoot, xmlItem } = listTransactions.answer;
    return send(reply, 200, xmlRoot, items, xmlItem);
  });

  serve(getReceipt, async (request, reply) => {
    readingKey(request, getReceipt.permission);
    const { id, copy, width } = readReceiptRequest(
      (request.params as { id: string }).id,
      request.query as Record<string, unknown>,
    );
    let receipt;
    try {
      receipt = await withinReadLimit(receipts.render(id, copy, { width }));
    } catch (error) {
      if (error instanceof ReceiptNotFoundError) {
        throw problems.noTransaction(id);
      }
      if (error instanceof NotATabError) throw new ApiProblem(409, 'not_a_tab', error.message);
      throw error;
    }
    if (request.plainText)
      return reply
        .code(200)
        .type(PLAIN_TEXT)
        .send(`${receipt.lines.join('\n')}\n`);
    return send(reply, 200, getReceipt.answer.xmlRoot, presentReceipt(receipt, width));
  });

  serve(getSignature, async (request, reply) => {
    readingKey(request, getSignature.permission);
    const id = readTransactionId((request.params as { id: string }).id);
    readNoQuery(request.query as Record<string, unknown>);
    const png = await engine.signatures.png(id);
    if (png) return reply.code(200).type(getSignature.image.mediaType).send(png);
    const transaction = await withinReadLimit(engine.reads.transaction(id));
    if (!transaction) throw problems.noTransaction(id);
    throw new ApiProblem(
      404,
      'not_found',
      `Transaction ${id} has no signature: the customer did not sign for it on screen.`,
    );
  });

  serve(listBatches, async (request, reply) => {
    readingKey(request, listBatches.permission);
    const { filter, page, pageNumber } = readBatchListQuery(request.query as Record<string, unknown>);
    const batches = await withinReadLimit(engine.reads.listBatches(filter, page));
    const items = await withinReadLimit(Promise.all(batches.map(withLanes)));
    if (items.length === 0 && pageNumber === 1) return reply.code(204).send();
    const { xmlRoot, xmlItem } = listBatches.answer;
    return send(reply, 200, xmlRoot, items, xmlItem);
  });

  serve(getOpenBatch, async (request, reply) => {
    readingKey(request, getOpenBatch.permission);
    readNoQuery(request.query as Record<string, unknown>);
    const open = await withinReadLimit(engine.batches.open());
    return open
      ? send(reply, 200, getOpenBatch.answer.xmlRoot, await withinReadLimit(withLanes(open)))
      : reply.code(204).send();
  });

  serve(closeOpenBatch, async (request, reply) => {
    const key = authenticate(request, closeOpenBatch.permission);
    const expected = readCloseBatchQuery(request.query as Record<string, unknown>);
    let close;
    try {
      close = await withinReadLimit(engine.closeBatch({ key }, expected));
    } catch (error) {
      throw refused(error);
    }
    switch (close.outcome) {
      case 'closed':
        return send(reply, 200, closeOpenBatch.answer.xmlRoot, close.batch);
      case 'none open':
        return reply.code(204).send();
      case 'gateway refused':
        throw new ApiProblem(502, 'gateway_unreachable', close.message);
      case 'changed': {
        // The figures are the batch's: a key that may close but not read batches is not shown them.
        if (!key.permissions.includes('batches:read')) {
          throw new ApiProblem(
            409,
            'batch_changed',
            'The open batch no longer has what was expected. Nothing was closed: review the batch and close it again.',
          );
        }
        throw new ApiProblem(
          409,
          'batch_changed',
          `The open batch now has ${close.batch.total_count} transactions for ${close.batch.net_amount} net, not what was ` +
            'expected. Nothing was closed: review the batch and close it again.',
          { batch: close.batch },
        );
      }
    }
  });

  const openApi = JSON.stringify(buildOpenApiDocument());
  serve(OPENAPI_DOCUMENT_ROUTE, async (_request, reply) =>
    reply.code(200).type('application/json; charset=utf-8').send(openApi),
  );
}
