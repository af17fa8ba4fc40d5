/**
 * The merchant's hosted gateway, reached over HTTPS with the account's API key in the `api_key`
 * header, speaking the same interface the engine serves (JSON). Every exchange ends in one of three
 * ways, because each asks the engine for something different:
 *
 * - unreachable: no connection was made (refused, no route, DNS, a TLS failure, a certificate that is
 *   not trusted). The request never left: nothing can have been charged.
 * - no answer: the connection was made and the request went out, but no answer came back (the time
 *   limit passed, or the connection was cut). The gateway may or may not have acted on it.
 * - answered: an HTTP answer arrived, whatever its status.
 *
 * The gateway's certificate is always verified, against the CAs Node trusts by default and the
 * PEM file the merchant names for a private gateway; nothing turns verification off.
 */
import { request as httpsRequest } from 'node:https';
import type { IncomingMessage } from 'node:http';
import * as tls from 'node:tls';
import { KeptAgent } from './kept-agent';

/** Where the gateway is and how Tender signs in to it. */
export interface UpstreamEndpoint {
  /** The gateway's base address, `https://…/rest/v1`. */
  url: string;
  apiKey: string;
  /** Certificates to trust besides the default ones (PEM), for a private gateway. */
  extraCaPem?: string;
  /** The longest an exchange may take, connecting included. */
  timeoutMs: number;
}

/** Why no connection could be made. */
export type UnreachableCause = 'refused' | 'no route' | 'dns' | 'tls' | 'certificate' | 'timeout';

/** Why a request that went out brought no answer. */
export type NoAnswerCause = 'timeout' | 'cut';

export type UpstreamExchange =
  | { kind: 'answered'; status: number; body: string }
  | { kind: 'unreachable'; cause: UnreachableCause; detail: string }
  | { kind: 'no answer'; cause: NoAnswerCause; detail: string };

/** The longest connecting may take, within the exchange's own limit: a line that is down fails fast. */
const CONNECT_LIMIT_MS = 10_000;
/** Far above any answer of the interface (a list page of 100 items is about 100 KB). */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/** OpenSSL's and Node's codes for a certificate chain or name that did not verify. */
const CERTIFICATE_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_DECRYPT_CERT_SIGNATURE',
  'UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY',
  'CERT_SIGNATURE_FAILURE',
  'CERT_NOT_YET_VALID',
  'CERT_HAS_EXPIRED',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'CERT_REVOKED',
  'INVALID_CA',
  'INVALID_PURPOSE',
  'PATH_LENGTH_EXCEEDED',
  'HOSTNAME_MISMATCH',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

const CERTIFICATE_WORDS: Partial<Record<string, string>> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'it is self-signed and not among the trusted certificates',
  SELF_SIGNED_CERT_IN_CHAIN: 'its chain ends in a certificate that is not trusted',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'no trusted certificate issued it',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'no trusted certificate issued it',
  CERT_HAS_EXPIRED: 'it has expired',
  CERT_NOT_YET_VALID: 'it is not valid yet',
  ERR_TLS_CERT_ALTNAME_INVALID: 'it was issued for another name',
  HOSTNAME_MISMATCH: 'it was issued for another name',
};

const CONNECT_CAUSES: Partial<Record<string, UnreachableCause>> = {
  ECONNREFUSED: 'refused',
  EHOSTUNREACH: 'no route',
  ENETUNREACH: 'no route',
  EHOSTDOWN: 'no route',
  ENETDOWN: 'no route',
  EADDRNOTAVAIL: 'no route',
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  EAI_FAIL: 'dns',
  EAI_NONAME: 'dns',
  ETIMEDOUT: 'timeout',
};

/** A deadline that ended an exchange, told apart from the errors the socket raises itself. */
class Deadline extends Error {
  constructor(readonly stage: 'connect' | 'answer') {
    super(`deadline: ${stage}`);
  }
}

class AnswerTooLarge extends Error {}

/** The causes of an error, outermost first (an AggregateError's too, as `net` raises on dual-stack). */
function codesOf(error: unknown): string[] {
  const codes: string[] = [];
  const visit = (each: unknown) => {
    if (typeof each !== 'object' || each === null) return;
    const code = (each as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    if (each instanceof AggregateError) each.errors.forEach(visit);
    visit((each as { cause?: unknown }).cause);
  };
  visit(error);
  return codes;
}

/** Why a connection that never opened failed, in words for a person. */
export function classifyConnectFailure(
  error: unknown,
  host: string,
): { cause: UnreachableCause; detail: string } {
  if (error instanceof Deadline)
    return { cause: 'timeout', detail: `no connection to ${host} could be made in time` };
  const codes = codesOf(error);
  const certificate = codes.find((code) => CERTIFICATE_CODES.has(code));
  if (certificate !== undefined) {
    const why = CERTIFICATE_WORDS[certificate] ?? `it did not verify (${certificate})`;
    return { cause: 'certificate', detail: `the certificate ${host} presented is not trusted: ${why}` };
  }
  for (const code of codes) {
    const cause = CONNECT_CAUSES[code];
    if (cause === 'refused') return { cause, detail: `${host} refused the connection` };
    if (cause === 'no route') return { cause, detail: `there is no route to ${host} (${code})` };
    if (cause === 'dns') return { cause, detail: `the name ${host} could not be found (${code})` };
    if (cause === 'timeout') return { cause, detail: `no connection to ${host} could be made in time` };
  }
  const code = codes[0];
  return {
    cause: 'tls',
    detail: `the secure connection to ${host} failed${code === undefined ? '' : ` (${code})`}`,
  };
}

/**
 * The CAs to trust: Node's defaults (with the operating system's where this Node can list them) and
 * the merchant's own. Giving `ca` replaces the defaults, so they are listed here with the extra.
 */
function trustedCertificates(extraCaPem: string | undefined): string[] {
  // getCACertificates arrived after the Node types this project builds against (Node 22.15, 23.5).
  const listing = (tls as unknown as { getCACertificates?: (kind: string) => string[] }).getCACertificates;
  const defaults = typeof listing === 'function' ? listing('default') : [...tls.rootCertificates];
  return extraCaPem === undefined || extraCaPem.trim() === '' ? defaults : [...defaults, extraCaPem];
}

export class UpstreamClient {
  readonly #endpoint: UpstreamEndpoint;
  readonly #base: URL;
  readonly #agent: KeptAgent;

  constructor(endpoint: UpstreamEndpoint) {
    this.#endpoint = endpoint;
    this.#base = new URL(endpoint.url.replace(/\/+$/, ''));
    if (this.#base.protocol !== 'https:') throw new RangeError('The gateway is reached over https only.');
    // Connections are kept between requests: a handshake per payment would add its round trips to
    // every sale. One idle as long as the gateway keeps it is closed rather than reused.
    this.#agent = new KeptAgent({
      maxSockets: 64,
      // One secure context for every connection: given as `ca`, the list of trusted certificates
      // would be joined into the agent's name for its connection pool at every single request.
      secureContext: tls.createSecureContext({ ca: trustedCertificates(endpoint.extraCaPem) }),
      rejectUnauthorized: true,
    });
  }

  /** The gateway as people name it: its address without the API path. */
  get host(): string {
    return this.#base.host;
  }

  get timeoutMs(): number {
    return this.#endpoint.timeoutMs;
  }

  /**
   * One request to `path` (below /rest/v1, with its query) and what became of it. Never throws for
   * anything the network or the gateway does.
   */
  async exchange(
    method: 'GET' | 'POST' | 'PUT',
    path: string,
    body?: unknown,
    options: { timeoutMs?: number } = {},
  ): Promise<UpstreamExchange> {
    const first = await this.#attempt(method, path, body, options);
    // A kept connection the gateway closed just as it was reused fails before any answer. A read
    // changes nothing, so it goes again on a new connection; anything else is left to the caller,
    // which looks a lost request up rather than sending it twice.
    if (method === 'GET' && first.retryable) return this.#attempt(method, path, body, options);
    return first;
  }

  #attempt(
    method: 'GET' | 'POST' | 'PUT',
    path: string,
    body: unknown,
    options: { timeoutMs?: number },
  ): Promise<UpstreamExchange & { retryable?: boolean }> {
    const url = new URL(`${this.#base.pathname}${path}`, this.#base);
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body), 'utf8');
    const timeoutMs = Math.max(1, options.timeoutMs ?? this.#endpoint.timeoutMs);
    const host = this.host;
    return new Promise((resolve) => {
      let connected = false;
      let reused = false;
      let answering = false;
      let settled = false;
      const timers: NodeJS.Timeout[] = [];
      const finish = (outcome: UpstreamExchange & { retryable?: boolean }) => {
        if (settled) return;
        settled = true;
        timers.forEach(clearTimeout);
        resolve(outcome);
      };
      const failed = (error: unknown) => {
        if (!connected) return finish({ kind: 'unreachable', ...classifyConnectFailure(error, host) });
        if (error instanceof AnswerTooLarge)
          return finish({
            kind: 'no answer',
            cause: 'cut',
            detail: `${host} sent an answer too large to read`,
          });
        if (error instanceof Deadline)
          return finish({
            kind: 'no answer',
            cause: 'timeout',
            detail: `${host} did not answer within ${Math.round(timeoutMs / 100) / 10} s`,
          });
        const code = codesOf(error)[0];
        finish({
          kind: 'no answer',
          cause: 'cut',
          detail: `the connection to ${host} was cut before its answer arrived${code === undefined ? '' : ` (${code})`}`,
          retryable: reused && !answering && (code === 'ECONNRESET' || code === 'EPIPE'),
        });
      };
      this.#agent.retireExpired();
      const outgoing = httpsRequest(url, {
        method,
        agent: this.#agent,
        headers: {
          accept: 'application/json',
          api_key: this.#endpoint.apiKey,
          ...(payload && { 'content-type': 'application/json', 'content-length': String(payload.length) }),
        },
      });
      timers.push(setTimeout(() => outgoing.destroy(new Deadline('answer')), timeoutMs));
      timers.push(
        setTimeout(
          () => {
            if (!connected) outgoing.destroy(new Deadline('connect'));
          },
          Math.min(timeoutMs, CONNECT_LIMIT_MS),
        ),
      );
      outgoing.on('socket', (socket) => {
        // A kept connection is open already; a new one counts once its TLS handshake has verified
        // the gateway, from which point the request may have reached it.
        if (outgoing.reusedSocket) connected = reused = true;
        else socket.once('secureConnect', () => (connected = true));
      });
      outgoing.on('error', failed);
      outgoing.on('response', (incoming: IncomingMessage) => {
        answering = true;
        const chunks: Buffer[] = [];
        let size = 0;
        incoming.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) {
            outgoing.destroy(new AnswerTooLarge());
            return;
          }
          chunks.push(chunk);
        });
        incoming.on('error', failed);
        incoming.on('aborted', () => failed(new Error('aborted')));
        incoming.on('end', () =>
          finish({
            kind: 'answered',
            status: incoming.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      });
      outgoing.end(payload);
    });
  }

  /** Closes the kept connections. */
  close(): void {
    this.#agent.destroy();
  }
}
