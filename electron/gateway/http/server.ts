/**
 * The /rest/v1 HTTPS server. Every answer, errors included, comes in the format the client asked
 * for; requests from other hosts or web origins are refused before they reach a route.
 */
import type * as https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import type { Permission } from '../../../shared/api/permissions';

import {
  API_PREFIX,
  API_ROUTES,
  methodsByPath,
  pathPattern,
  type ApiRoute,
} from '../../../shared/api/routes';
import type { Engine } from '../engine';

import { KeyRevokedError, StoreBusyError, StoreUnreachableError } from '../store/store-errors';
import type { ApiKeyInfo } from '../keys';

import {
  acceptsMediaType,
  contentTypeOf,
  decodeBody,
  formatOfMediaType,
  mediaTypeOf,
  prefersPlainText,
  responseMediaType,
  serialize,
  type Format,
  type MediaType,
} from './formats';
import { FailedKeyBrake } from './brake';
import { ConnectionGuard, type ConnectionLimits } from './connections';

import { allowedHosts, apiOrigins, requestedHost } from './loopback';
import { registerApiRoutes, requirePermission } from './api-routes';
import { ApiProblem, problems } from './problems';
import { sendProblem } from './replies';

export const BODY_LIMIT_BYTES = 64 * 1024;
export { API_PREFIX };

declare module 'fastify' {
  interface FastifyRequest {
    format: Format;
    /** The media type of the answer in that format: XML is text/xml when the client asked for that. */
    answerType: MediaType;
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
  /** The counter's suggested tip percentages, which the check of a tab prints (see ApiRouteOptions). */
  tipPercentages?: () => readonly number[];
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

/**
 * The methods each path answers: the Allow header of a 405 and the methods a CORS preflight is told.
 * HEAD is served wherever GET is (the routes register it with their GET).
 */
const ALLOWED_METHODS = new Map<string, readonly string[]>(
  [...methodsByPath()].map(([path, methods]) => [
    `${API_PREFIX}${path}`,
    [...methods, ...(methods.includes('GET') ? ['HEAD'] : [])].sort(),
  ]),
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

/** The paths that answer a picture, with its media type. */
const IMAGE_PATHS = Object.values<ApiRoute>(API_ROUTES).flatMap((route) =>
  route.image
    ? [{ pattern: pathPattern(`${API_PREFIX}${route.path}`), mediaType: route.image.mediaType }]
    : [],
);

/** The paths that also answer in text/plain. */
const PLAIN_TEXT_PATHS = Object.values<ApiRoute>(API_ROUTES)
  .filter((route) => route.plainText !== undefined)
  .map((route) => pathPattern(`${API_PREFIX}${route.path}`));

function pathOf(url: string): string {
  const path = url.split('?')[0] ?? '';
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
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
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: ${contentTypeOf(mediaTypeOf(format))}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
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
    // The connection guard closes them at a stop, letting answers under way be written first.
    forceCloseConnections: false,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    clientErrorHandler: answerUnparsableRequest,
    // A URL the router cannot read (a % not starting UTF-8 written as %XX) gets the engine's error
    // body rather than the framework's, which repeats the URL and whatever it holds.
    frameworkErrors: (error, request, reply) => {
      // No hook has run: the answer's format is read from Accept here.
      request.answerType = responseMediaType(request.headers) ?? 'application/json';
      request.format = formatOfMediaType(request.answerType);
      request.plainText = false;
      return sendProblem(
        reply,
        error.code === 'FST_ERR_BAD_URL'
          ? problems.badRequest(
              'The URL could not be read: each % in it must start a byte written as %XX, and the bytes must be UTF-8.',
            )
          : new ApiProblem(error.statusCode ?? 400, 'bad_request', error.message),
      );
    },
  });
  app.server.headersTimeout = limits.headersTimeoutMs;
  connections.watch(app.server);
  app.decorateRequest('format', 'json');
  app.decorateRequest('answerType', 'application/json');
  app.decorateRequest('plainText', false);

  app.removeAllContentTypeParsers();
  // The one place bodies are read: as bytes, decoded as UTF-8 or refused, never patched with U+FFFD.
  app.addContentTypeParser(
    ['application/json', 'application/xml', 'text/xml'],
    { parseAs: 'buffer' },
    (request, body, done) => {
      try {
        done(
          null,
          decodeBody(body as Buffer, request.headers['content-type'], request.headers['content-encoding']),
        );
      } catch (error) {
        done(error as Error, undefined);
      }
    },
  );

  app.addHook('onRequest', async (request, reply) => {
    const negotiated = responseMediaType(request.headers);
    // Until the checks below pass, even a refusal is written in JSON when nothing else was acceptable.
    request.answerType = negotiated ?? 'application/json';
    request.format = formatOfMediaType(request.answerType);
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
      if (!origins.has(origin)) throw problems.foreignOrigin(origin);
      reply
        .header('access-control-allow-origin', origin)
        .header('access-control-expose-headers', 'idempotent-replayed')
        .header('vary', 'Origin');
    }
    // A picture's route answers only the picture; its errors are JSON unless Accept prefers XML.
    const image = IMAGE_PATHS.find(({ pattern }) => pattern.test(pathOf(request.url)));
    if (image && !acceptsMediaType(request.headers.accept, image.mediaType)) {
      throw new ApiProblem(406, 'not_acceptable', `Accept must allow ${image.mediaType}: this is a picture.`);
    }
    if (negotiated === undefined && !request.plainText && !image) throw problems.notAcceptable();
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
    if (error instanceof KeyRevokedError) {
      return sendProblem(reply, problems.unauthorized(error.message));
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
    permission: Permission | readonly Permission[] | null,
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
    if (permission !== null)
      requirePermission(key, typeof permission === 'string' ? [permission] : permission);
    return key;
  };

  registerApiRoutes(app, engine, authenticate, {
    ...(options.tipPercentages && { tipPercentages: options.tipPercentages }),
  });

  await options.extend?.(app);
  // Node's server closes only the connections its HTTP layer has seen; those still in their TLS
  // handshake would hold the engine's stop until their deadline. Runs after the hooks added above,
  // so the bridge's sockets are told first that the engine is going away.
  app.addHook('preClose', async () => connections.closeAll());
  return app;
}
