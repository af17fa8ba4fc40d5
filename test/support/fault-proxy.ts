/**
 * The line between the engine and its upstream gateway, with faults on demand: a proxy on a loopback
 * port of its own that terminates TLS with the upstream engine's certificate (so the engine verifies
 * it as it would the gateway's) and forwards each request over HTTPS with the upstream's own Host
 * (the engine's Host guard answers 421 to a Host that names another port).
 *
 * What the line does as a whole (`line`): up; refuse (nothing listens on the port); stall (the TCP
 * connection is accepted, TLS never starts); reset (the connection is dropped at once); untrusted
 * (another, untrusted certificate is presented).
 *
 * What happens to requests that match (`fault`), once or for good:
 * - hang: taken and never forwarded nor answered: the gateway never saw it;
 * - cut: forwarded; the gateway's answer is thrown away and the connection cut: the request went
 *   through and its answer is lost;
 * - withhold: forwarded; the answer is never passed on and the connection stays open;
 * - hold: taken and kept until `releaseHeld()` forwards it (a request the gateway acts on late);
 *   with `answer`, the gateway's answer then goes back to the engine (a request slow on the line);
 * - delay: forwarded after a pause;
 * - status: never forwarded; answered at once with that HTTP status, as a gateway that turns a
 *   request away unread (429, 401) does.
 */
import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer, request as httpsRequest, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import { createLoopbackCertificate } from '../../electron/gateway/crypto/certificate';
import { KeptAgent } from '../../electron/gateway/processor/kept-agent';

/** How long `waitFor` waits for a request before it fails, saying what arrived instead. */
const WAIT_LIMIT_MS = 60_000;

export type LineState = 'up' | 'refuse' | 'stall' | 'reset' | 'untrusted';

export type RequestFault =
  | { kind: 'hang' }
  /** With `thenLine`, the line then goes into that state, as when the gateway goes down at that moment. */
  | { kind: 'cut'; thenLine?: LineState }
  | { kind: 'withhold' }
  | { kind: 'hold'; answer?: boolean }
  | { kind: 'delay'; ms: number }
  | { kind: 'status'; status: number };

export interface SeenRequest {
  method: string;
  /** Path and query, as the engine sent them. */
  path: string;
  body: string;
  /** What the proxy did with it. */
  fate: 'forwarded' | RequestFault['kind'];
}

export interface FaultOptions {
  /** Which requests it applies to; every request unless given. */
  match?: (request: { method: string; path: string }) => boolean;
  /** How many matching requests it applies to; Infinity keeps it until cleared. Default 1. */
  times?: number;
}

/** A request to POST /transactions, the ones that may charge a card. */
export const TRANSACTION_POSTS = ({ method, path }: { method: string; path: string }) =>
  method === 'POST' && path.startsWith('/rest/v1/transactions');

export interface FaultProxy {
  /** https://127.0.0.1:<port>/rest/v1, the address the engine is given as upstream_url. */
  readonly url: string;
  readonly port: number;
  line(state: LineState): Promise<void>;
  fault(fault: RequestFault, options?: FaultOptions): void;
  clearFaults(): void;
  /** Every request that arrived, in order. */
  readonly seen: readonly SeenRequest[];
  /**
   * Resolves once a request that satisfies `test` has arrived at index `from` of `seen` or later
   * (or already had): a test passes `seen.length` from before it acted, so that a request of an
   * earlier test never answers for its own.
   */
  waitFor(test: (request: SeenRequest) => boolean, from: number): Promise<SeenRequest>;
  /** Forwards every held request to the gateway now; resolves with the gateway's answers. */
  releaseHeld(): Promise<string[]>;
  close(): Promise<void>;
}

interface StandingFault {
  fault: RequestFault;
  match: (request: { method: string; path: string }) => boolean;
  left: number;
}

export interface UpstreamAddress {
  port: number;
  /** PEM certificate and key of the upstream engine, which the proxy presents as its own. */
  certificatePem: string;
  privateKeyPem: string;
}

export async function startFaultProxy(upstream: UpstreamAddress): Promise<FaultProxy> {
  const other = await createLoopbackCertificate();
  const toUpstream = new KeptAgent({ ca: upstream.certificatePem, maxSockets: 64 });
  const clientSockets = new Set<Socket>();
  const seen: SeenRequest[] = [];
  const waiters: { test: (request: SeenRequest) => boolean; resolve: (request: SeenRequest) => void }[] = [];
  const held: {
    method: string;
    path: string;
    headers: IncomingMessage['headers'];
    body: Buffer;
    /** Passes the gateway's answer on to the engine, for a request held with `answer`. */
    answer?: (status: number, headers: IncomingMessage['headers'], body: Buffer) => void;
  }[] = [];
  let faults: StandingFault[] = [];
  let state: LineState = 'up';

  const note = (request: SeenRequest) => {
    seen.push(request);
    for (const waiter of [...waiters]) {
      if (!waiter.test(request)) continue;
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(request);
    }
  };

  const forward = (
    method: string,
    path: string,
    headers: IncomingMessage['headers'],
    body: Buffer,
  ): Promise<{ status: number; headers: IncomingMessage['headers']; body: Buffer }> =>
    new Promise((resolve, reject) => {
      const { host: _host, connection: _connection, 'keep-alive': _keepAlive, ...rest } = headers;
      toUpstream.retireExpired();
      const outgoing = httpsRequest(
        {
          host: '127.0.0.1',
          port: upstream.port,
          method,
          path,
          agent: toUpstream,
          headers: { ...rest, host: `127.0.0.1:${upstream.port}`, 'content-length': String(body.length) },
        },
        (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
          incoming.on('error', reject);
          incoming.on('end', () =>
            resolve({
              status: incoming.statusCode ?? 0,
              headers: incoming.headers,
              body: Buffer.concat(chunks),
            }),
          );
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });

  const takeFault = (method: string, path: string): RequestFault | undefined => {
    const standing = faults.find((each) => each.left > 0 && each.match({ method, path }));
    if (!standing) return undefined;
    standing.left -= 1;
    faults = faults.filter((each) => each.left > 0);
    return standing.fault;
  };

  const handle = (incoming: IncomingMessage, outgoing: ServerResponse) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const method = incoming.method ?? 'GET';
      const path = incoming.url ?? '/';
      const body = Buffer.concat(chunks);
      const fault = takeFault(method, path);
      note({ method, path, body: body.toString('utf8'), fate: fault?.kind ?? 'forwarded' });
      const pass = async () => {
        const answer = await forward(method, path, incoming.headers, body);
        if (fault?.kind === 'cut') {
          incoming.socket.destroy();
          if (fault.thenLine !== undefined) await setLine(fault.thenLine);
          return;
        }
        if (fault?.kind === 'withhold') return;
        const { connection: _connection, 'keep-alive': _keepAlive, ...headers } = answer.headers;
        outgoing.writeHead(answer.status, headers);
        outgoing.end(answer.body);
      };
      switch (fault?.kind) {
        case 'hang':
          return;
        case 'hold':
          held.push({
            method,
            path,
            headers: incoming.headers,
            body,
            ...(fault.answer && {
              answer: (status: number, answerHeaders: IncomingMessage['headers'], answerBody: Buffer) => {
                const { connection: _connection, 'keep-alive': _keepAlive, ...rest } = answerHeaders;
                outgoing.writeHead(status, rest);
                outgoing.end(answerBody);
              },
            }),
          });
          return;
        case 'delay':
          setTimeout(() => void pass().catch(() => incoming.socket.destroy()), fault.ms);
          return;
        case 'status':
          outgoing.writeHead(fault.status, { 'content-type': 'application/json' });
          outgoing.end(JSON.stringify({ error: 'turned away by the line under test' }));
          return;
        default:
          void pass().catch(() => incoming.socket.destroy());
      }
    });
  };

  const trusted: Server = createHttpsServer(
    { key: upstream.privateKeyPem, cert: upstream.certificatePem, keepAliveTimeout: 5_000 },
    handle,
  );
  const untrusted: Server = createHttpsServer(
    { key: other.privateKeyPem, cert: other.certificatePem },
    handle,
  );

  const onConnection = (socket: Socket) => {
    clientSockets.add(socket);
    socket.on('close', () => clientSockets.delete(socket));
    socket.on('error', () => undefined);
    switch (state) {
      case 'stall':
        return;
      case 'reset':
        socket.resetAndDestroy();
        return;
      case 'untrusted':
        untrusted.emit('connection', socket);
        return;
      default:
        trusted.emit('connection', socket);
    }
  };

  let tcp: TcpServer | undefined;
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      const server = createTcpServer(onConnection);
      server.once('error', reject);
      server.listen({ host: '127.0.0.1', port }, () => {
        tcp = server;
        resolve((server.address() as { port: number }).port);
      });
    });
  const stopListening = () =>
    new Promise<void>((resolve) => {
      const server = tcp;
      tcp = undefined;
      if (!server) return resolve();
      server.close(() => resolve());
    });
  const dropConnections = () => {
    for (const socket of clientSockets) socket.destroy();
  };

  const port = await listen(0);
  const setLine = async (next: LineState) => {
    if (next === state) return;
    // A line that changes drops what it carried, as a real one does.
    dropConnections();
    state = next;
    if (next === 'refuse') await stopListening();
    else if (!tcp) await listen(port);
  };

  return {
    url: `https://127.0.0.1:${port}/rest/v1`,
    port,
    line: setLine,
    fault(fault, options = {}) {
      faults.push({ fault, match: options.match ?? (() => true), left: options.times ?? 1 });
    },
    clearFaults() {
      faults = [];
    },
    get seen() {
      return seen;
    },
    waitFor(test, from) {
      const already = seen.slice(from).find(test);
      if (already) return Promise.resolve(already);
      return new Promise((resolve, reject) => {
        const waiter = {
          test,
          resolve: (request: SeenRequest) => {
            clearTimeout(limit);
            resolve(request);
          },
        };
        // Only a bound on a request that never comes, for a failure that says what came instead.
        const limit = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          const since = seen
            .slice(from)
            .map((request) => `${request.method} ${request.path} (${request.fate})`);
          reject(new Error(`no such request reached the line; since then: ${since.join(', ') || 'none'}`));
        }, WAIT_LIMIT_MS);
        waiters.push(waiter);
      });
    },
    async releaseHeld() {
      const answers: string[] = [];
      for (const request of held.splice(0)) {
        const answer = await forward(request.method, request.path, request.headers, request.body);
        request.answer?.(answer.status, answer.headers, answer.body);
        answers.push(answer.body.toString('utf8'));
      }
      return answers;
    },
    async close() {
      dropConnections();
      await stopListening();
      trusted.close();
      untrusted.close();
      toUpstream.destroy();
    },
  };
}

/** The certificate and key an engine's data dir holds, for a proxy that stands in for it. */
export function dataDirIdentity(dataDir: string): Pick<UpstreamAddress, 'certificatePem' | 'privateKeyPem'> {
  return {
    certificatePem: readFileSync(`${dataDir}/tls/cert.pem`, 'utf8'),
    privateKeyPem: readFileSync(`${dataDir}/tls/key.pem`, 'utf8'),
  };
}
