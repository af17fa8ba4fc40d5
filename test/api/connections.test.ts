/**
 * Connections a local program opens and never uses, or uses slowly, over real TCP and TLS: each is
 * closed on time, they never keep another client out, and an answer that ends its connection reaches
 * a client that is still sending.
 */
import { connect as connectTcp, type Socket } from 'node:net';
import { connect as connectTls, type TLSSocket } from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import { SimulatedProcessor } from '../../electron/gateway/processor/simulated';
import { useGatewayPerTest, VISA, type TestGateway } from '../support/gateway';
import { holdConnections } from '../support/held-connections';

const startGatewayForTest = useGatewayPerTest();
const sockets: Socket[] = [];
// Registered after the gateways' hook, so it runs before it: the sockets go before their gateway.
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.destroy();
});

/** A TCP connection that never starts TLS. */
function openTcp(t: TestGateway): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connectTcp({ host: '127.0.0.1', port: t.gateway.port });
    sockets.push(socket);
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** A TLS connection, ready to send requests. */
function openTls(t: TestGateway): Promise<TLSSocket> {
  return new Promise((resolve, reject) => {
    const socket = connectTls({
      host: '127.0.0.1',
      port: t.gateway.port,
      ca: t.gateway.certificatePem,
      servername: 'localhost',
    });
    sockets.push(socket);
    socket.once('secureConnect', () => resolve(socket));
    socket.once('error', reject);
  });
}

/**
 * Resolves when the server has closed the socket. It waits as long as that takes: a socket the server
 * never closes fails the test at its time limit, however busy the machine is meanwhile.
 */
function closed(socket: Socket): Promise<void> {
  if (socket.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    socket.on('error', () => undefined);
    socket.once('close', () => resolve());
  });
}

/** Sends blank lines, which start no request, every 100 ms until the socket closes. */
function trickleBlankLines(socket: Socket): void {
  const timer = setInterval(() => {
    if (socket.writable) socket.write('\r\n');
  }, 100);
  socket.once('close', () => clearInterval(timer));
}

const openApiRequest = (t: TestGateway) =>
  `GET /rest/v1/openapi.json HTTP/1.1\r\nHost: 127.0.0.1:${t.gateway.port}\r\n\r\n`;

/** Everything the server sends until it closes, read only after the client has sent all it meant to. */
function sendAllThenRead(socket: TLSSocket, head: string, bodyBytes: number): Promise<string> {
  return new Promise((resolve) => {
    let received = '';
    socket.pause();
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.once('close', () => resolve(received));
    socket.write(head);
    const piece = Buffer.alloc(16 * 1024, 'a');
    let sent = 0;
    const sendMore = () => {
      while (sent < bodyBytes && !socket.destroyed) {
        sent += piece.length;
        if (!socket.write(piece)) {
          socket.once('drain', sendMore);
          return;
        }
      }
      socket.resume();
    };
    sendMore();
  });
}

describe('deadlines from the moment of connect', () => {
  it('a connection that never starts TLS is closed when the handshake time is up', async () => {
    const t = await startGatewayForTest({ limits: { handshakeTimeoutMs: 300 } });
    // Taken before the connect, so that the engine's clock for the handshake cannot start first.
    const started = Date.now();
    const socket = await openTcp(t);
    await closed(socket);
    // Not before its time: a busy machine can only make the close later.
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });

  it('a connection that sends only blank lines is closed when its first request is due', async () => {
    // Blank lines are not a request: were they counted as activity, the trickle would hold the
    // connection open for ever and this would wait until the test's time limit.
    const t = await startGatewayForTest({ limits: { headersTimeoutMs: 600 } });
    const socket = await openTls(t);
    trickleBlankLines(socket);
    await closed(socket);
  });

  it('an idle keep-alive connection is closed on time, even while its client sends blank lines', async () => {
    const t = await startGatewayForTest({ limits: { keepAliveTimeoutMs: 500 } });
    const socket = await openTls(t);
    const answered = new Promise<string>((resolve) =>
      socket.once('data', (chunk: Buffer) => resolve(String(chunk))),
    );
    socket.write(openApiRequest(t));
    expect(await answered).toMatch(/^HTTP\/1\.1 200/);
    trickleBlankLines(socket);
    await closed(socket);
  });

  it('the engine stops at once, though a connection never started TLS', async () => {
    // A handshake limit far past the test's own: a stop that waited for that connection would never
    // come in time, while one that closes it at once takes no time to speak of.
    const t = await startGatewayForTest({ limits: { handshakeTimeoutMs: 3_600_000 } });
    const socket = await openTcp(t);
    await t.gateway.close();
    await closed(socket);
  });
});

describe('the connection cap', () => {
  it('past the cap, a newcomer is served and the connection idle the longest is closed', async () => {
    const t = await startGatewayForTest({ limits: { maxConnections: 4 } });
    const held = [await openTcp(t), await openTcp(t), await openTcp(t), await openTcp(t)];
    const oldestClosed = closed(held[0] as Socket);
    expect((await t.request('openapi.json', { newConnection: true })).status).toBe(200);
    await oldestClosed;
    expect(held.slice(1).every((socket) => !socket.destroyed)).toBe(true);
  });

  // How fast a newcomer is answered meanwhile, beside the same with none held, is measured by the
  // bench (test/bench/connections.ts), where a busy machine cannot fail it.
  it('while a program holds 2,000 connections and reopens those closed, a newcomer is answered, every time', async () => {
    const t = await startGatewayForTest();
    const held = holdConnections({
      port: t.gateway.port,
      ca: t.gateway.certificatePem,
      mix: { tcp: 1200, tls: 300, 'slow-headers': 300, 'idle-keep-alive': 200 },
    });
    try {
      await held.ready;
      // The holder reopens what the engine closes as fast as a busy machine lets it.
      await expect.poll(() => held.open, { timeout: 30_000 }).toBeGreaterThanOrEqual(1900);
      for (let i = 0; i < 10; i++) {
        const response = await t.request('batches/open', {
          newConnection: true,
          headers: { api_key: t.key },
        });
        expect(response.status).toBe(204);
      }
      await expect.poll(() => held.open, { timeout: 30_000 }).toBeGreaterThanOrEqual(1900);
    } finally {
      held.stop();
    }
  });

  // That the newcomer is answered within a second, as a raised listen backlog makes sure, is measured
  // by the bench, beside the same request alone.
  it('2,000 connections opened in one burst do not keep out a newcomer that connects amid them', async () => {
    const t = await startGatewayForTest();
    const burst = Array.from({ length: 2000 }, () => {
      const socket = connectTcp({ host: '127.0.0.1', port: t.gateway.port });
      sockets.push(socket);
      socket.on('error', () => undefined);
      return socket;
    });
    const response = await t.request('batches/open', { newConnection: true, headers: { api_key: t.key } });
    expect(response.status).toBe(204);
    expect(burst.length).toBe(2000);
  });

  it('a request in progress is never closed for a newcomer, and a newcomer gets in when all are busy', async () => {
    let release: () => void = () => undefined;
    let reachedProcessor: () => void = () => undefined;
    const inProcessor = new Promise<void>((resolve) => (reachedProcessor = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    class HeldProcessor extends SimulatedProcessor {
      override async authorize(request: Parameters<SimulatedProcessor['authorize']>[0]) {
        reachedProcessor();
        await released;
        return super.authorize(request);
      }
    }
    const t = await startGatewayForTest({
      limits: { maxConnections: 1 },
      engine: { processor: new HeldProcessor() },
    });
    const sale = t.request('transactions', {
      method: 'POST',
      newConnection: true,
      headers: { api_key: t.key, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'SALE', amount: '5.00', ...VISA }),
    });
    await inProcessor;
    expect((await t.request('openapi.json', { newConnection: true })).status).toBe(200);
    release();
    const answer = await sale;
    expect(answer.status).toBe(200);
    expect(answer.json()).toMatchObject({ result: 'Approved' });
  });
});

describe('answers that end their connection', () => {
  it('a client still sending an oversized body reads its 413', async () => {
    const t = await startGatewayForTest();
    const bodyBytes = 8 * 1024 * 1024;
    const received = await sendAllThenRead(
      await openTls(t),
      `POST /rest/v1/transactions HTTP/1.1\r\nHost: 127.0.0.1:${t.gateway.port}\r\napi_key: ${t.key}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${bodyBytes}\r\n\r\n`,
      bodyBytes,
    );
    expect(received).toMatch(/^HTTP\/1\.1 413 /);
    expect(received).toContain('payload_too_large');
  });

  it('a client still sending oversized headers reads its 431', async () => {
    const t = await startGatewayForTest();
    const received = await sendAllThenRead(
      await openTls(t),
      `GET /rest/v1/batches/open HTTP/1.1\r\nHost: 127.0.0.1:${t.gateway.port}\r\nX-Filler: `,
      8 * 1024 * 1024,
    );
    expect(received).toMatch(/^HTTP\/1\.1 431 /);
  });
});
