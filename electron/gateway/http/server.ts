/**
 * The /rest/v1 HTTPS server. Every answer, errors included, comes in the format the client asked
 * for; requests from other hosts or web origins are refused before they reach a route.
 */
import type * as https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type RouteHandlerMethod,
} from 'fastify';
import { mayRun, type Permission } from '../../../shared/api/permissions';
import { parseTransactionType } from '../../../shared/api/transaction-types';
import { buildOpenApiDocument } from '../../../shared/api/openapi';
import {
  API_PREFIX,
  API_ROUTES,
  OPENAPI_DOCUMENT_ROUTE,
  methodsByPath,
  pathPattern,
  type ApiRoute,
} from '../../../shared/api/routes';
import type { Engine } from '../engine';
import { IdempotencyConflict } from '../idempotency';
import type { BatchRecord } from '../store/batch-rows';
import { StoreBusyError, StoreUnreachableError } from '../store/store-errors';
import type { ApiKeyInfo } from '../keys';
import type { SubmitContext } from '../operations/operation';
import { staffActor } from '../staff/actors';
import { presentBatch, presentReceipt, presentTransaction } from '../presenters';
import { ReceiptNotFoundError, ReceiptService } from '../receipts/receipt-service';
import {
  contentTypeOf,
  formatOfContentType,
  normalizeFields,
  parseBody,
  prefersPlainText,
  responseFormat,
  serialize,
  type Format,
} from './formats';
import { FailedKeyBrake } from './brake';
import { ConnectionGuard, type ConnectionLimits } from './connections';
import {
  readBatchListQuery,
  readCloseBatchQuery,
  readReceiptRequest,
  readTransactionListQuery,
  withinReadLimit,
} from './list-queries';
import { allowedHosts, apiOrigins, requestedHost } from './loopback';
import { ApiProblem, problems } from './problems';

export const BODY_LIMIT_BYTES = 64 * 1024;
export { API_PREFIX };

declare module 'fastify' {
  interface FastifyRequest {
    format: Format;
    /** The route can answer as text and Accept prefers it; errors are then written as text too. */
    plainText: boolean;
  }
}

export interface ApiServerOptions {
  engine: Engine;
  tls: { key: string; cert: string };
  /** Web origins allowed to call the API (the desktop app's renderer); all others are refused. */
  allowedOrigins?: readonly string[];
  /**
   * Adds routes and listeners beside /rest/v1 before the server listens: the headless engine serves
   * the cashier screens and their bridge socket this way. Added routes pass the same Host and Origin
   * checks as the API.
   */
  extend?: (app: FastifyInstance) => void | Promise<void>;
  limits?: Partial<ServerLimits>;
}

/** What a slow or abusive client may take from the engine. */
export interface ServerLimits extends ConnectionLimits {
  /** Wrong API keys allowed per window before they are refused with 429. */
  failedKeysPerWindow: number;
  failedKeyWindowMs: number;
}

export const DEFAULT_LIMITS: ServerLimits = {
  maxConnections: 4096,
  handshakeTimeoutMs: 5_000,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  lingerMs: 2_000,
  failedKeysPerWindow: 20,
  failedKeyWindowMs: 60_000,
};

/** The methods each path answers: the Allow header of a 405 and the methods a CORS preflight is told. */
const ALLOWED_METHODS = new Map<string, readonly string[]>(
  [...methodsByPath()].map(([path, methods]) => [`${API_PREFIX}${path}`, methods]),
);

/** The paths with a transaction id in them, as patterns, with the methods each answers. */
const ALLOWED_METHODS_BY_PATTERN = [...ALLOWED_METHODS]
  .filter(([path]) => path.includes('{'))
  .map(([path, methods]) => ({ pattern: pathPattern(path), methods }));

function allowedMethodsOf(path: string): readonly string[] | undefined {
  return (
    ALLOWED_METHODS.get(path) ?? ALLOWED_METHODS_BY_PATTERN.find(({ pattern }) => pattern.test(path))?.methods
  );
}

/** The paths that also answer in text/plain. */
const PLAIN_TEXT_PATHS = Object.values<ApiRoute>(API_ROUTES)
  .filter((route) => route.plainText !== undefined)
  .map((route) => pathPattern(`${API_PREFIX}${route.path}`));

function pathOf(url: string): string {
  const path = url.split('?')[0] ?? '';
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

const PLAIN_TEXT = 'text/plain; charset=utf-8';

function send(reply: FastifyReply, status: number, root: string, payload: object | object[], item?: string) {
  if (reply.request.plainText && root === 'error') {
    const problem = payload as { error?: string; message?: string };
    return reply.code(status).type(PLAIN_TEXT).send(`${status} ${problem.error}: ${problem.message}\n`);
  }
  return reply
    .code(status)
    .type(contentTypeOf(reply.request.format))
    .send(serialize(reply.request.format, root, payload, item));
}

function sendProblem(reply: FastifyReply, problem: ApiProblem) {
  for (const [name, value] of Object.entries(problem.extra.headers ?? {})) reply.header(name, value);
  return send(reply, problem.status, 'error', {
    status: String(problem.status),
    error: problem.code,
    message: problem.message,
    ...(problem.extra.parameter !== undefined && { parameter: problem.extra.parameter }),
    ...(problem.extra.batch !== undefined && { batch: problem.extra.batch }),
  });
}

/**
 * A request Node's HTTP parser cannot read (a raw byte in the request line, a malformed header) or
 * that timed out never reaches a route. It still gets the engine's error body, in the format its
 * Accept header asked for as far as it can be read, and the connection is closed, since nothing
 * after an unreadable request can be trusted to start where the next one does.
 */
function answerUnparsableRequest(error: { code?: string; rawPacket?: unknown }, socket: Socket): void {
  // What the client still sends after the answer fails to parse again; the connection, already
  // answered and ended, lingers to take it and closes on its own.
  if (socket.writableEnded) return;
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const timedOut = error.code === 'ERR_HTTP_REQUEST_TIMEOUT';
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const [status, reason, code, message] = timedOut
    ? [408, 'Request Timeout', 'request_timeout', 'The request did not arrive in time.']
    : tooLarge
      ? [431, 'Request Header Fields Too Large', 'headers_too_large', 'The request headers are too large.']
      : [400, 'Bad Request', 'bad_request', 'The request could not be read as HTTP.'];
  const raw = Buffer.isBuffer(error.rawPacket) ? error.rawPacket.toString('latin1') : '';
  const accept = /^accept:([^\r\n]*)/im.exec(raw)?.[1] ?? '';
  const format: Format = /xml/i.test(accept) && !/json/i.test(accept) ? 'xml' : 'json';
  const body = serialize(format, 'error', { status: String(status), error: code, message });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: ${contentTypeOf(format)}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** How the audit log names a caller. */
function actorOf(key: ApiKeyInfo): string {
  return `API key ${key.id} "${key.name}"`;
}

/** Idempotency-Key: 1 to 64 visible ASCII characters, or absent. */
function readIdempotencyKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (typeof header !== 'string' || !/^[\x21-\x7e]{1,64}$/.test(header)) {
    throw problems.badRequest('Idempotency-Key must be 1 to 64 visible ASCII characters, sent once.');
  }
  return header;
}

export async function createApiServer(options: ApiServerOptions): Promise<FastifyInstance> {
  const { engine } = options;
  // The Host check needs the port actually bound, known only once listening (port 0 picks one).
  let hosts: Set<string> | undefined;
  let origins: Set<string> | undefined;

  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const brake = new FailedKeyBrake(limits.failedKeysPerWindow, limits.failedKeyWindowMs);
  const connections = new ConnectionGuard(limits);
  const app = Fastify({
    https: {
      key: options.tls.key,
      cert: options.tls.cert,
      minVersion: 'TLSv1.2',
      handshakeTimeout: limits.handshakeTimeoutMs,
      // How often Node looks for connections past their header or request timeout.
      connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs),
    } as https.ServerOptions,
    bodyLimit: BODY_LIMIT_BYTES,
    logger: false,
    exposeHeadRoutes: false,
    routerOptions: { ignoreTrailingSlash: true },
    return503OnClosing: true,
    forceCloseConnections: true,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    clientErrorHandler: answerUnparsableRequest,
  });
  app.server.headersTimeout = limits.headersTimeoutMs;
  connections.watch(app.server);
  app.decorateRequest('format', 'json');
  app.decorateRequest('plainText', false);

  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    ['application/json', 'application/xml', 'text/xml'],
    { parseAs: 'string' },
    (_req, body, done) => done(null, body),
  );

  app.addHook('onRequest', async (request, reply) => {
    const negotiated = responseFormat(request.headers);
    // Until the checks below pass, even a refusal is written in JSON when nothing else was acceptable.
    request.format = negotiated ?? 'json';
    request.plainText =
      prefersPlainText(request.headers.accept) &&
      PLAIN_TEXT_PATHS.some((path) => path.test(pathOf(request.url)));
    reply.header('cache-control', 'no-store').header('x-content-type-options', 'nosniff');
    if (!hosts || !origins) {
      hosts = allowedHosts((app.server.address() as AddressInfo).port);
      origins = apiOrigins(hosts, options.allowedOrigins);
    }
    const host = requestedHost(request.headers);
    if (!hosts.has(host)) throw problems.misdirected(request.headers.host ?? '');
    const origin = request.headers.origin;
    if (origin !== undefined) {
      if (!origins.has(origin))
        throw problems.forbidden(`Requests from the web origin ${origin} are not allowed.`);
      reply
        .header('access-control-allow-origin', origin)
        .header('access-control-expose-headers', 'idempotent-replayed')
        .header('vary', 'Origin');
    }
    if (negotiated === undefined && !request.plainText) throw problems.notAcceptable();
    const allowedMethods = allowedMethodsOf(pathOf(request.url));
    if (request.method === 'OPTIONS' && origin !== undefined && allowedMethods) {
      reply
        .header('access-control-allow-methods', allowedMethods.join(', '))
        .header('access-control-allow-headers', 'accept, content-type, api_key, idempotency-key')
        .header('access-control-max-age', '600');
      return reply.code(204).send();
    }
  });

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof ApiProblem) return sendProblem(reply, error);
    const code = (error as { code?: string }).code;
    if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return sendProblem(reply, problems.unsupportedMediaType(request.headers['content-type']));
    }
    if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      // The rest of the body is not read as requests: the connection ends after the answer, and
      // lingers to take what the client still sends so that the answer reaches it.
      reply.header('connection', 'close');
      return sendProblem(reply, problems.payloadTooLarge(BODY_LIMIT_BYTES));
    }
    if (error instanceof StoreUnreachableError) {
      return sendProblem(
        reply,
        new ApiProblem(
          503,
          'store_unreachable',
          'The store server cannot be reached; nothing was changed. The counter reconnects by itself: try again in a moment.',
        ),
      );
    }
    if (error instanceof StoreBusyError) {
      return sendProblem(
        reply,
        new ApiProblem(
          503,
          'store_busy',
          'The store server did not finish in time (another counter may be holding the ledger); nothing was changed. Try again in a moment.',
        ),
      );
    }
    const status = (error as { statusCode?: number }).statusCode;
    if (status !== undefined && status >= 400 && status < 500) {
      return sendProblem(
        reply,
        new ApiProblem(status, 'bad_request', error instanceof Error ? error.message : 'Bad request.'),
      );
    }
    process.stderr.write(
      `tender: ${request.method} ${pathOf(request.url)} failed: ${(error as Error).stack ?? String(error)}\n`,
    );
    return sendProblem(
      reply,
      new ApiProblem(
        500,
        'internal_error',
        'The engine failed to complete the request; nothing was recorded. Try again.',
      ),
    );
  });

  app.setNotFoundHandler((request, reply) => {
    const path = pathOf(request.url);
    const allowed = allowedMethodsOf(path);
    return sendProblem(
      reply,
      allowed ? problems.methodNotAllowed(request.method, path, allowed) : problems.notFound(path),
    );
  });

  const authenticate = (
    request: FastifyRequest,
    permission: Permission | readonly Permission[],
    bodyKey?: unknown,
  ): ApiKeyInfo => {
    const header = request.headers['api_key'];
    const fromHeader = typeof header === 'string' && header.trim() !== '' ? header : undefined;
    const presented = fromHeader ?? (typeof bodyKey === 'string' ? bodyKey : undefined);
    if (presented === undefined || presented === '') {
      throw problems.unauthorized('An API key is required: send it in the api_key header.');
    }
    const key = engine.keys.authenticate(presented.trim());
    if (!key) {
      const wait = brake.recordFailure();
      if (wait !== undefined) {
        throw new ApiProblem(
          429,
          'too_many_failed_keys',
          `Too many wrong API keys; wrong keys are refused for ${wait} s. Check the key your program sends.`,
          { headers: { 'retry-after': String(wait) } },
        );
      }
      throw problems.unauthorized('The API key is not valid, or was revoked.');
    }
    const accepted: readonly Permission[] = typeof permission === 'string' ? [permission] : permission;
    if (!accepted.some((one) => key.permissions.includes(one))) {
      throw problems.forbidden(`This API key lacks the ${accepted.join(' or ')} permission.`);
    }
    return key;
  };

  const serve = (route: Pick<ApiRoute, 'method' | 'path'>, handler: RouteHandlerMethod) =>
    app.route({
      method: route.method,
      url: `${API_PREFIX}${route.path.replace(/\{(\w+)\}/g, ':$1')}`,
      handler,
    });
  const { createTransaction, listTransactions, getReceipt, listBatches, getOpenBatch, closeOpenBatch } =
    API_ROUTES;
  const receipts = new ReceiptService(engine.reads, engine.settings);

  const transactionPermissions = [createTransaction.permission, ...createTransaction.narrowerPermissions];

  /**
   * Who makes a transaction: at a counter, the staff member signed in there (refused while it is
   * locked); for another program, its key.
   */
  const submitContext = (key: ApiKeyInfo): SubmitContext => {
    if (!engine.staff.isCounterKey(key.recordId)) {
      return { apiKeyId: key.recordId, actor: actorOf(key), cashier: key.name };
    }
    const member = engine.staff.signedInAt(key.recordId);
    if (!member) throw new ApiProblem(403, 'counter_locked', 'The counter is locked. Sign in with your PIN.');
    return { apiKeyId: key.recordId, actor: staffActor(member.name, key), cashier: member.name };
  };

  /** The body's type and duplicate_override, when they can be read: what the key must allow. */
  const requirePermissionFor = (key: ApiKeyInfo, body: Record<string, unknown>) => {
    const type = typeof body.type === 'string' ? parseTransactionType(body.type) : undefined;
    if (type === undefined) return;
    const override = body.duplicate_override === true || /^true$/i.test(String(body.duplicate_override));
    const allowed = mayRun(key.permissions, type, override);
    if (!allowed.ok) {
      throw problems.forbidden(
        override && allowed.missing === 'transactions:write'
          ? 'This API key lacks the transactions:write permission, which duplicate_override needs. Nothing was charged.'
          : `This API key lacks the ${allowed.missing} permission, which ${type} needs. Nothing was recorded.`,
      );
    }
  };

  serve(createTransaction, async (request, reply) => {
    // A key in the header is checked before the body is read; one in the body, once it is parsed.
    const headerKey =
      typeof request.headers['api_key'] === 'string' && request.headers['api_key'].trim() !== ''
        ? authenticate(request, transactionPermissions)
        : undefined;
    const sentAs = formatOfContentType(request.headers['content-type']);
    if (typeof request.body !== 'string' || sentAs === undefined) {
      throw problems.unsupportedMediaType(request.headers['content-type']);
    }
    const body = normalizeFields(parseBody(request.body, sentAs, createTransaction.body.xmlRoot));
    const key = headerKey ?? authenticate(request, transactionPermissions, body.api_key);
    delete body.api_key;
    requirePermissionFor(key, body);
    const context = submitContext(key);
    const idempotencyKey = readIdempotencyKey(request.headers['idempotency-key']);
    if (idempotencyKey === undefined) {
      return send(
        reply,
        200,
        createTransaction.answer.xmlRoot,
        await engine.transactions.submit(body, context),
      );
    }
    try {
      const { response, replayed } = await engine.transactions.submitOnce(
        body,
        { ...context, apiKeyId: key.recordId },
        idempotencyKey,
      );
      if (replayed) reply.header('idempotent-replayed', 'true');
      return send(reply, 200, createTransaction.answer.xmlRoot, response);
    } catch (error) {
      if (!(error instanceof IdempotencyConflict)) throw error;
      throw error.reason === 'in_flight'
        ? new ApiProblem(409, 'idempotency_key_in_flight', error.message)
        : new ApiProblem(422, 'idempotency_key_reused', error.message);
    }
  });

  /** A batch as the API shows it: its counters and each lane's share, read after it. */
  const withLanes = async (batch: BatchRecord) =>
    presentBatch(batch, await engine.reads.batchLanes(batch.id));

  serve(listTransactions, async (request, reply) => {
    authenticate(request, listTransactions.permission);
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
    authenticate(request, getReceipt.permission);
    const { id, copy, width } = readReceiptRequest(
      (request.params as { id: string }).id,
      request.query as Record<string, unknown>,
    );
    let receipt;
    try {
      receipt = await withinReadLimit(receipts.render(id, copy, { width }));
    } catch (error) {
      if (!(error instanceof ReceiptNotFoundError)) throw error;
      throw new ApiProblem(404, 'not_found', `No transaction has id ${id}.`);
    }
    if (request.plainText)
      return reply
        .code(200)
        .type(PLAIN_TEXT)
        .send(`${receipt.lines.join('\n')}\n`);
    return send(reply, 200, getReceipt.answer.xmlRoot, presentReceipt(receipt, width));
  });

  serve(listBatches, async (request, reply) => {
    authenticate(request, listBatches.permission);
    const { filter, page, pageNumber } = readBatchListQuery(request.query as Record<string, unknown>);
    const batches = await withinReadLimit(engine.reads.listBatches(filter, page));
    const items = await withinReadLimit(Promise.all(batches.map(withLanes)));
    if (items.length === 0 && pageNumber === 1) return reply.code(204).send();
    const { xmlRoot, xmlItem } = listBatches.answer;
    return send(reply, 200, xmlRoot, items, xmlItem);
  });

  serve(getOpenBatch, async (request, reply) => {
    authenticate(request, getOpenBatch.permission);
    const open = await withinReadLimit(engine.batches.open());
    return open
      ? send(reply, 200, getOpenBatch.answer.xmlRoot, await withinReadLimit(withLanes(open)))
      : reply.code(204).send();
  });

  serve(closeOpenBatch, async (request, reply) => {
    const key = authenticate(request, closeOpenBatch.permission);
    const expected = readCloseBatchQuery(request.query as Record<string, unknown>);
    const close = await engine.batches.closeOpen(actorOf(key), expected);
    switch (close.outcome) {
      case 'closed':
        return send(
          reply,
          200,
          closeOpenBatch.answer.xmlRoot,
          await withinReadLimit(withLanes(close.closed)),
        );
      case 'none open':
        return reply.code(204).send();
      case 'changed': {
        const open = await withinReadLimit(withLanes(close.open));
        throw new ApiProblem(
          409,
          'batch_changed',
          `The open batch now has ${open.total_count} transactions for ${open.net_amount} net, not what was ` +
            'expected. Nothing was closed: review the batch and close it again.',
          { batch: open },
        );
      }
    }
  });

  const openApi = JSON.stringify(buildOpenApiDocument());
  serve(OPENAPI_DOCUMENT_ROUTE, async (_request, reply) =>
    reply.code(200).type('application/json; charset=utf-8').send(openApi),
  );

  await options.extend?.(app);
  // Node's server closes only the connections its HTTP layer has seen; those still in their TLS
  // handshake would hold the engine's stop until their deadline. Runs after the hooks added above,
  // so the bridge's sockets are told first that the engine is going away.
  app.addHook('preClose', async () => connections.closeAll());
  return app;
}
