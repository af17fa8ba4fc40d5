/**
 * The headless engine serving the screens: the files and their security headers, and the bridge
 * WebSocket with its Host, Origin and pairing checks, driven from Node through the screens' own
 * transport.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect } from 'node:tls';
import { join } from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BRIDGE_SOCKET_PATH, SOCKET_CLOSE_CODES } from '../../shared/ipc/socket-protocol';
import { NOT_PAIRED, REPLACED } from '../../shared/ipc/socket-transport';
import { startTestScreens, type TestScreens } from '../support/screens';

let rendererDir: string;
let screens: TestScreens;

beforeAll(async () => {
  rendererDir = mkdtempSync(join(tmpdir(), 'tender-renderer-'));
  mkdirSync(join(rendererDir, 'assets'));
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Tender</title>');
  writeFileSync(join(rendererDir, 'customer.html'), '<!doctype html><title>Tender customer</title>');
  writeFileSync(join(rendererDir, 'assets', 'index-abc123.js'), 'console.log("screens");');
  writeFileSync(join(rendererDir, 'secret.txt'), 'not served');
  screens = await startTestScreens({ rendererDir });
  // Someone at work at the counter: a locked counter's screens swipe and move the customer's screen
  // along no more than they read.
  await screens.running.gateway.engine.staff.create({ name: 'Olga', role: 'manager', pin: '2580' }, 'test');
  await (await screens.connectBridge()).bridge.invoke('staff:sign-in', { pin: '2580' });
});
afterAll(async () => {
  await screens.close();
  rmSync(rendererDir, { recursive: true, force: true });
});

/** The status line of an upgrade attempt, or 101 when it became a socket. */
function upgrade(options: { path?: string; host?: string; origin?: string }): Promise<number> {
  const { port, certificatePem } = screens.running.gateway;
  return new Promise((resolve) => {
    const ws = new WebSocket(`wss://127.0.0.1:${port}${options.path ?? BRIDGE_SOCKET_PATH}`, {
      ca: certificatePem,
      ...(options.origin && { origin: options.origin }),
      ...(options.host && { headers: { host: options.host } }),
    });
    ws.on('open', () => {
      ws.close();
      resolve(101);
    });
    ws.on('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0);
      ws.terminate();
    });
    ws.on('error', () => undefined);
  });
}

/** Sends raw frames on a new socket and resolves with the close code the host chose. */
function closeCodeAfter(...messages: (string | Buffer)[]): Promise<number> {
  const { port, certificatePem } = screens.running.gateway;
  return new Promise((resolve) => {
    const ws = new WebSocket(`wss://127.0.0.1:${port}${BRIDGE_SOCKET_PATH}`, {
      ca: certificatePem,
      origin: screens.origin,
    });
    ws.on('open', () => messages.forEach((message) => ws.send(message)));
    ws.on('close', (code) => resolve(code));
    ws.on('error', () => undefined);
  });
}

describe('the screens on the engine’s origin', () => {
  it('serves the document with a strict policy that forbids framing', async () => {
    const response = await screens.get('/');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toContain('<title>Tender</title>');
    const policy = String(response.headers['content-security-policy']);
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("script-src 'self';");
    expect(policy).toContain(`connect-src 'self' wss://127.0.0.1:${screens.running.gateway.port}`);
    expect(policy).not.toContain('unsafe');
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect((await screens.get('/index.html')).status).toBe(200);
  });

  it('serves built assets and nothing else of the folder', async () => {
    const asset = await screens.get('/assets/index-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers['content-type']).toMatch(/^text\/javascript/);
    for (const path of [
      '/secret.txt',
      '/assets/..%2fsecret.txt',
      '/assets/.hidden.js',
      '/assets/missing.js',
    ]) {
      const response = await screens.get(path);
      expect(response.status, path).toBe(404);
      expect(response.headers['content-type'], path).toMatch(/^application\/json/);
    }
  });

  it('leaves the API as it was', async () => {
    expect((await screens.get('/rest/v1/openapi.json')).status).toBe(200);
    expect((await screens.get('/rest/v1/transactions')).status).toBe(401);
    expect((await screens.get('/rest/v1/nowhere')).status).toBe(404);
    const foreign = await screens.get('/', { origin: 'https://example.com' });
    expect(foreign.status).toBe(403);
  });
});

/**
 * A socket upgraded to the bridge by a client that then never writes again: no hello, and no answer
 * to the close the engine sends. Resolves once the upgrade is answered 101; `closed` settles when the
 * engine has let the connection go.
 */
function silentSocket(target: TestScreens): Promise<{ closed: Promise<void>; isClosed: () => boolean }> {
  const { port, certificatePem } = target.running.gateway;
  return new Promise((resolve, reject) => {
    let isClosed = false;
    const socket = connect({ host: '127.0.0.1', port, ca: certificatePem }, () =>
      socket.write(
        [
          `GET ${BRIDGE_SOCKET_PATH} HTTP/1.1`,
          `Host: 127.0.0.1:${port}`,
          'Upgrade: websocket',
          'Connection: Upgrade',
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
          'Sec-WebSocket-Version: 13',
          `Origin: ${target.origin}`,
          '',
          '',
        ].join('\r\n'),
      ),
    );
    const closed = new Promise<void>((done) =>
      socket.once('close', () => {
        isClosed = true;
        done();
      }),
    );
    let answer = '';
    socket.on('data', (chunk: Buffer) => {
      if (answer.includes('\r\n\r\n')) return;
      answer += chunk.toString('latin1');
      if (!answer.includes('\r\n\r\n')) return;
      if (answer.startsWith('HTTP/1.1 101')) resolve({ closed, isClosed: () => isClosed });
      else reject(new Error(`the upgrade was answered ${answer.split('\r\n')[0]}`));
    });
    socket.on('error', () => undefined);
  });
}

describe('the bridge socket', () => {
  it('opens only on its path, for a loopback Host and the screens’ own origin', async () => {
    const { origin, running } = screens;
    expect(await upgrade({ origin })).toBe(101);
    // A program that sends no Origin is no page of the screens, whatever it presents next.
    expect(await upgrade({})).toBe(403);
    expect(await upgrade({ path: '/elsewhere', origin })).toBe(404);
    expect(await upgrade({ origin: 'https://example.com' })).toBe(403);
    expect(await upgrade({ origin: 'null' })).toBe(403);
    expect(await upgrade({ host: `attacker.example:${running.gateway.port}`, origin })).toBe(421);
  });

  it('closes a socket that presents a wrong ticket or credential, asks before pairing, or talks nonsense', async () => {
    expect(await closeCodeAfter(JSON.stringify({ type: 'pair', ticket: 'guess' }))).toBe(
      SOCKET_CLOSE_CODES.UNAUTHORIZED,
    );
    expect(await closeCodeAfter(JSON.stringify({ type: 'hello', credential: 'guess' }))).toBe(
      SOCKET_CLOSE_CODES.UNAUTHORIZED,
    );
    expect(await closeCodeAfter(JSON.stringify({ type: 'invoke', id: 1, channel: 'terminal:session' }))).toBe(
      SOCKET_CLOSE_CODES.UNAUTHORIZED,
    );
    expect(await closeCodeAfter('not json')).toBe(SOCKET_CLOSE_CODES.BAD_MESSAGE);
    expect(await closeCodeAfter(Buffer.from([1, 2, 3]))).toBe(SOCKET_CLOSE_CODES.BAD_MESSAGE);
  });

  it('lets go of a socket that never says which screen it is, even when it never answers the close', async () => {
    const own = await startTestScreens({ rendererDir, reader: { kind: 'none' }, helloTimeoutMs: 100 });
    try {
      const opened = Date.now();
      const silent = await silentSocket(own);
      await silent.closed;
      // Well short of the 30 s the WebSocket library would wait for an answer to the close.
      expect(Date.now() - opened).toBeLessThan(15_000);
    } finally {
      await own.close();
    }
  });

  it('keeps few sockets waiting to pair: the oldest goes for a newer one, and a page still gets in', async () => {
    const own = await startTestScreens({ rendererDir, reader: { kind: 'none' }, helloTimeoutMs: 600_000 });
    try {
      const silent = [];
      for (let count = 0; count < 32; count++) silent.push(await silentSocket(own));
      expect(silent.some((socket) => socket.isClosed())).toBe(false);
      silent.push(await silentSocket(own));
      await silent[0]?.closed;
      expect(silent.slice(1).filter((socket) => socket.isClosed())).toHaveLength(0);
      const page = await own.connectBridge();
      await page.until((state) => state.state === 'ready');
      expect(await page.bridge.invoke('reader:status')).toEqual({ state: 'off' });
    } finally {
      await own.close();
    }
  });

  it('tells a page whose ticket was used, or a credential no engine of this data dir made, to open the screens again', async () => {
    const ticket = screens.running.issueTicket();
    const first = await screens.connectBridge({ ticket });
    await first.until((state) => state.state === 'ready');
    const second = await screens.connectBridge({ ticket });
    expect(await second.until((state) => state.state === 'refused')).toEqual({
      state: 'refused',
      message: NOT_PAIRED,
    });
    await expect(second.bridge.invoke('reader:status')).rejects.toThrow(NOT_PAIRED);
    const forged = await screens.connectBridge({ credential: `${'A'.repeat(22)}.${'B'.repeat(43)}` });
    expect(await forged.until((state) => state.state === 'refused')).toEqual({
      state: 'refused',
      message: NOT_PAIRED,
    });
  });

  it('gives each page a credential of its own, which one socket holds at a time', async () => {
    const cashier = await screens.connectBridge();
    await cashier.until((state) => state.state === 'ready');
    const credential = cashier.credential() ?? '';
    expect(credential).toMatch(/^[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/);
    const other = await screens.connectBridge();
    await other.until((state) => state.state === 'ready');
    expect(other.credential()).not.toBe(credential);

    // The same page again (a reload, or a copy of its credential) takes over from the older socket.
    const again = await screens.connectBridge({ credential });
    expect(await again.bridge.invoke('reader:status')).toEqual(
      expect.objectContaining({ state: expect.any(String) }),
    );
    expect(await cashier.until((state) => state.state === 'refused')).toEqual({
      state: 'refused',
      message: REPLACED,
    });
    expect(other.transport.state).toEqual({ state: 'ready' });
  });

  it('answers requests once paired, and validates their input', async () => {
    const { bridge } = await screens.connectBridge();
    const session = await bridge.invoke('terminal:session');
    expect(session).toMatchObject({
      shell: 'browser',
      engineUrl: screens.running.gateway.url,
      readerSimulator: true,
    });
    expect(screens.running.gateway.engine.keys.authenticate(session.apiKey)?.name).toBe(
      'Tender browser screens',
    );
    await expect(
      (bridge as unknown as { invoke(c: string, i: unknown): Promise<unknown> }).invoke('simulator:swipe', {
        card: '4111111111111111',
      }),
    ).rejects.toMatchObject({ code: 'invalid-input' });
  });

  it('answers a customer’s page only its own requests, and sends it only its own view', async () => {
    const cashier = await screens.connectBridge();
    const customer = await screens.connectBridge({ ticket: screens.running.issueTicket('customer') });
    const view = await customer.bridge.invoke('customer:view');
    expect(view.screen).toEqual({ connected: true, enabled: true });
    expect(customer.credential()).toMatch(/^customer\./);
    // Not the screens' API key, not the reader, not the cashier's moves, not settings.
    for (const channel of ['terminal:session', 'reader:status', 'customer:start', 'staff:session'] as const) {
      await expect(
        (customer.bridge as unknown as { invoke(c: string, i?: unknown): Promise<unknown> }).invoke(
          channel,
          channel === 'customer:start' ? { amountCents: 500, askTip: false } : undefined,
        ),
        channel,
      ).rejects.toMatchObject({ code: 'forbidden' });
    }
    const events: string[] = [];
    for (const event of [
      'reader:swipe',
      'reader:status-changed',
      'settings:changed',
      'customer:changed',
    ] as const) {
      customer.bridge.on(event, () => events.push(event));
    }
    const changed = new Promise<void>((resolve) => {
      const off = customer.bridge.on('customer:changed', () => {
        off();
        resolve();
      });
    });
    // The cashier moves it along; a swipe meanwhile goes to the cashier's screens only.
    const swiped = new Promise<void>((resolve) => {
      const off = cashier.bridge.on('reader:swipe', () => {
        off();
        resolve();
      });
    });
    await cashier.bridge.invoke('simulator:swipe', { card: 'approved-visa' });
    await swiped;
    const started = await cashier.bridge.invoke('customer:start', { amountCents: 1250, askTip: false });
    await changed;
    await cashier.bridge.invoke('customer:finish', { saleSequence: started.saleSequence ?? 0 });
    await customer.bridge.invoke('customer:view');
    expect(new Set(events)).toEqual(new Set(['customer:changed']));
    // Gone, the cashier is told there is no customer's screen.
    customer.transport.close();
    await expect
      .poll(async () => (await cashier.bridge.invoke('customer:view')).screen.connected)
      .toBe(false);
  });

  it('delivers swipes from the simulated reader to every connected page', async () => {
    const cashier = await screens.connectBridge();
    const controller = await screens.connectBridge();
    await cashier.bridge.invoke('reader:status');
    const swiped = new Promise((resolve) => {
      const off = cashier.bridge.on('reader:swipe', (swipe) => {
        off();
        resolve(swipe.card);
      });
    });
    await controller.bridge.invoke('simulator:swipe', { card: 'approved-mastercard' });
    expect(await swiped).toEqual({
      maskedPan: '************5454',
      lastFour: '5454',
      brand: 'mastercard',
      cardholderName: 'ALEX RIVERA',
    });
  });
});

describe('stopping the engine', () => {
  it('closes open bridge sockets, and the page then tries to reconnect', async () => {
    const own = await startTestScreens({ rendererDir, reader: { kind: 'none' } });
    const { bridge, until } = await own.connectBridge();
    expect(await bridge.invoke('reader:status')).toEqual({ state: 'off' });
    const stopping = own.running.close();
    expect(await until((state) => state.state === 'reconnecting')).toEqual({ state: 'reconnecting' });
    await stopping;
    await own.close();
  });

  it('lets a paired page back in once the engine has started again on the same data dir', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tender-screens-restart-'));
    try {
      const first = await startTestScreens({ rendererDir, reader: { kind: 'none' }, dataDir });
      const page = await first.connectBridge();
      await page.until((state) => state.state === 'ready');
      const { port } = first.running.gateway;
      await first.running.close();
      await page.until((state) => state.state === 'reconnecting');
      const second = await startTestScreens({ rendererDir, reader: { kind: 'none' }, dataDir, port });
      try {
        await page.until((state) => state.state === 'ready');
        expect(await page.bridge.invoke('reader:status')).toEqual({ state: 'off' });
      } finally {
        await first.close();
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
