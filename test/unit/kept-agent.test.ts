/**
 * The kept-connection agent against a real HTTPS server that keeps an idle connection 2 s (its
 * Keep-Alive hint): a connection within its idle time is reused; one whose time is up is never, even
 * when the process was too busy for any timer to run, which the server would close under the request.
 */
import { createServer, request, type Server } from 'node:https';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLoopbackCertificate } from '../../electron/gateway/crypto/certificate';
import { KeptAgent } from '../../electron/gateway/processor/kept-agent';

let server: Server;
let port: number;
let ca: string;

beforeAll(async () => {
  const identity = await createLoopbackCertificate();
  ca = identity.certificatePem;
  server = createServer(
    { key: identity.privateKeyPem, cert: identity.certificatePem, keepAliveTimeout: 2_000 },
    (_incoming, outgoing) => outgoing.end('ok'),
  );
  port = await new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)),
  );
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

/** One GET; what it got, and whether it went on a kept connection. */
function get(agent: KeptAgent): Promise<{ body: string; reused: boolean }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { host: '127.0.0.1', port, path: '/', agent, ca, servername: 'localhost' },
      (incoming) => {
        let body = '';
        incoming.setEncoding('utf8');
        incoming.on('data', (chunk: string) => (body += chunk));
        incoming.on('end', () => resolve({ body, reused: outgoing.reusedSocket }));
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** Resolves once the agent keeps an idle connection. */
async function keptIdle(agent: KeptAgent): Promise<void> {
  while (Object.values(agent.freeSockets).every((sockets) => (sockets?.length ?? 0) === 0))
    await new Promise((resolve) => setImmediate(resolve));
}

/** Holds the thread, timers and all, as a process busy with other work does. */
const busyFor = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

it('reuses a kept connection within its idle time', async () => {
  const agent = new KeptAgent();
  await get(agent);
  await keptIdle(agent);
  agent.retireExpired();
  expect(await get(agent)).toEqual({ body: 'ok', reused: true });
  agent.destroy();
});

it('sends a request on a new connection once the kept one is past its idle time, though the process was too busy for any timer to run', async () => {
  const agent = new KeptAgent();
  await get(agent);
  await keptIdle(agent);
  // Neither the agent's timer nor the server's has run: the server may close the kept one at any moment.
  busyFor(2_100);
  agent.retireExpired();
  expect(await get(agent)).toEqual({ body: 'ok', reused: false });
  agent.destroy();
});

it('gives a kept connection the time the server keeps it, less a second, to be closed in by its own timer', async () => {
  const agent = new KeptAgent();
  await get(agent);
  await keptIdle(agent);
  const kept = Object.values(agent.freeSockets).flatMap((sockets) => sockets ?? []);
  expect(kept.map((socket) => socket.timeout)).toEqual([1_000]);
  agent.destroy();
});
