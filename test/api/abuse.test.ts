/** Slow and abusive clients, over real TLS sockets. */
import { connect, type TLSSocket } from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import { useGatewayPerTest, VISA, type TestGateway } from '../support/gateway';

const startGatewayForTest = useGatewayPerTest();
const sockets: TLSSocket[] = [];
// Registered after the gateways' hook, so it runs before it: the sockets go before their gateway.
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.destroy();
});

function open(g: TestGateway): Promise<TLSSocket> {
  return new Promise((resolve, reject) => {
    const socket = connect({
      host: '127.0.0.1',
      port: g.gateway.port,
      ca: g.gateway.certificatePem,
      servername: 'localhost',
    });
    sockets.push(socket);
    socket.once('secureConnect', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Everything the server sends until it closes the connection. */
function untilClosed(socket: TLSSocket): Promise<string> {
  return new Promise((resolve) => {
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    socket.on('error', () => undefined);
    socket.once('close', () => resolve(received));
  });
}

describe('slow clients', () => {
  it('a client that never finishes its headers is cut off', async () => {
    const t = await startGatewayForTest({ limits: { headersTimeoutMs: 400, requestTimeoutMs: 2000 } });
    const socket = await open(t);
    const closed = untilClosed(socket);
    socket.write(
      `GET /rest/v1/batches/open HTTP/1.1\r\nHost: 127.0.0.1:${t.gateway.port}\r\napi_key: ${t.key}\r\n`,
    );
    const received = await closed;
    expect(received === '' || received.startsWith('HTTP/1.1 408')).toBe(true);
  });

  it('a client that never finishes its body is cut off, and nothing is recorded', async () => {
    const t = await startGatewayForTest({ limits: { headersTimeoutMs: 400, requestTimeoutMs: 800 } });
    const socket = await open(t);
    const closed = untilClosed(socket);
    const body = JSON.stringify({ type: 'SALE', amount: '5.00', ...VISA });
    socket.write(
      `POST /rest/v1/transactions HTTP/1.1\r\nHost: 127.0.0.1:${t.gateway.port}\r\napi_key: ${t.key}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length + 50}\r\n\r\n${body}`,
    );
    const received = await closed;
    expect(received).not.toContain('Approved');
    expect(await t.client.listTransactions()).toEqual([]);
  });
});

describe('abusive clients', () => {
  it('past the cap, the connection idle the longest is closed to let a newcomer in', async () => {
    const t = await startGatewayForTest({ limits: { maxConnections: 4 } });
    const held: TLSSocket[] = [];
    for (let i = 0; i < 4; i++) held.push(await open(t));
    const oldestClosed = untilClosed(held[0] as TLSSocket);
    const newcomer = await open(t);
    await oldestClosed;
    expect(newcomer.destroyed).toBe(false);
    expect((await t.client.openBatch()) ?? 'no open batch').toBe('no open batch');
  });

  it('wrong API keys past the limit are refused with 429 and Retry-After, while the right key still works', async () => {
    const t = await startGatewayForTest({ limits: { failedKeysPerWindow: 5, failedKeyWindowMs: 60_000 } });
    const statuses: number[] = [];
    let retryAfter: string | string[] | undefined;
    for (let i = 0; i < 8; i++) {
      const response = await t.request('batches/open', {
        headers: { api_key: `tender_${'0'.repeat(16)}_${'x'.repeat(43)}` },
      });
      statuses.push(response.status);
      if (response.status === 429) retryAfter ??= response.headers['retry-after'];
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    expect((await t.request('batches/open', { headers: { api_key: t.key } })).status).toBe(204);
  });
});
