/**
 * The headless engine serving the cashier screens, and a bridge client in Node that speaks to it
 * through the same transport the screens use in a browser.
 */
import { createHash, X509Certificate } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { Agent, request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright';
import WebSocket from 'ws';
import { TenderClient } from '../../shared/api/client';
import type { TenderBridge } from '../../shared/ipc/contract';
import { createBridge } from '../../shared/ipc/facade';
import { BRIDGE_SOCKET_PATH } from '../../shared/ipc/socket-protocol';
import {
  socketTransport,
  type PagePass,
  type SocketState,
  type SocketTransport,
} from '../../shared/ipc/socket-transport';
import { startHeadlessScreens, type RunningHeadlessScreens } from '../../electron/bridge/headless';
import type { ReaderSetup } from '../../electron/bridge/terminal';
import type { OpenEngineOptions } from '../../electron/gateway/open-store';

export interface TestScreens {
  running: RunningHeadlessScreens;
  /** https://127.0.0.1:<port> */
  origin: string;
  dataDir: string;
  /** The REST API with a key of its own, to check what the screens did. */
  client: TenderClient;
  /** A raw HTTPS request to the engine (path from the origin). */
  send(
    path: string,
    options?: { method?: string; headers?: Record<string, string>; body?: string },
  ): Promise<TestResponse>;
  get(path: string, headers?: Record<string, string>): Promise<TestResponse>;
  /**
   * A bridge in Node over the WebSocket, as a browser page would hold it: paired with a ticket of its
   * own unless `pass` says otherwise.
   */
  connectBridge(pass?: PagePass): Promise<NodeBridge>;
  close(): Promise<void>;
}

export interface TestResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The body as it came, for an answer that is a picture. */
  bytes: Buffer;
}

export interface NodeBridge {
  bridge: TenderBridge;
  /** The credential the host made for this page, once it is paired. */
  credential(): string | undefined;
  transport: SocketTransport;
  /** Resolves once the transport reaches a state that passes the test. */
  until(test: (state: SocketState) => boolean): Promise<SocketState>;
}

export async function startTestScreens(options: {
  rendererDir: string;
  reader?: ReaderSetup;
  engine?: OpenEngineOptions;
  /** duplicate_window_minutes: off unless a test sets it, since the tests charge the same cards again. */
  duplicateWindowMinutes?: number;
  /** A data dir of the test's own, kept after close so that the screens can start again on it. */
  dataDir?: string;
  /** The loopback port; by default a free one. A restart on the same port keeps open pages' address. */
  port?: number;
  /** How long a new bridge socket has to pair or present its credential; by default the engine's. */
  helloTimeoutMs?: number;
}): Promise<TestScreens> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'tender-screens-'));
  const running = await startHeadlessScreens({
    dataDir,
    port: options.port ?? 0,
    rendererDir: options.rendererDir,
    ...(options.helloTimeoutMs !== undefined && { helloTimeoutMs: options.helloTimeoutMs }),
    reader: options.reader ?? { kind: 'simulator' },
    ...(options.engine && { engine: options.engine }),
    version: '0.1.0-test',
  });
  await running.gateway.engine.settings.setFromText(
    'duplicate_window_minutes',
    String(options.duplicateWindowMinutes ?? 0),
  );
  const { port, certificatePem } = running.gateway;
  const origin = `https://127.0.0.1:${port}`;
  const agent = new Agent({ ca: certificatePem, keepAlive: false });
  const sockets = new Set<SocketTransport>();

  const request = (
    path: string,
    options: { method?: string; headers?: Record<string, string>; body?: string } = {},
  ) =>
    new Promise<TestResponse>((resolve, reject) => {
      const { method = 'GET', headers = {}, body } = options;
      const outgoing = httpsRequest(`${origin}${path}`, { agent, method, headers }, (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () => {
          const bytes = Buffer.concat(chunks);
          resolve({
            status: incoming.statusCode ?? 0,
            headers: incoming.headers,
            body: bytes.toString('utf8'),
            bytes,
          });
        });
      });
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  const get = (path: string, headers: Record<string, string> = {}) => request(path, { headers });
  const client = new TenderClient({
    baseUrl: running.gateway.url,
    apiKey: (await running.gateway.engine.keys.create('screens test checks')).key,
    fetch: async (url, init) => {
      const response = await request(new URL(url).pathname + new URL(url).search, init);
      return {
        status: response.status,
        text: async () => response.body,
        bytes: async () => new Uint8Array(response.bytes),
      };
    },
  });

  const connectBridge = async (given?: PagePass): Promise<NodeBridge> => {
    let credential = given?.credential;
    const pass: PagePass = {
      ...(given ?? { ticket: running.issueTicket() }),
      keep: (made) => {
        credential = made;
        given?.keep?.(made);
      },
    };
    const transport = socketTransport(
      (handlers) => {
        const ws = new WebSocket(`wss://127.0.0.1:${port}${BRIDGE_SOCKET_PATH}`, {
          ca: certificatePem,
          origin,
        });
        ws.on('open', () => handlers.open());
        ws.on('message', (data) => handlers.message(String(data)));
        ws.on('close', (code, reason) => handlers.close(code, String(reason)));
        ws.on('error', () => undefined);
        return { send: (text) => ws.send(text), close: (code, reason) => ws.close(code, reason) };
      },
      pass,
      {
        schedule: (callback, delayMs) => {
          const timer = setTimeout(callback, delayMs);
          return () => clearTimeout(timer);
        },
        reconnectDelayMs: 50,
      },
    );
    sockets.add(transport);
    const until = (test: (state: SocketState) => boolean) =>
      new Promise<SocketState>((resolve) => {
        if (test(transport.state)) return resolve(transport.state);
        const off = transport.onStateChange((state) => {
          if (!test(state)) return;
          off();
          resolve(state);
        });
      });
    return {
      bridge: createBridge(transport, '0.1.0-test'),
      credential: () => credential,
      transport,
      until,
    };
  };

  return {
    running,
    origin,
    dataDir,
    client,
    send: request,
    get,
    connectBridge,
    close: async () => {
      for (const transport of sockets) transport.close();
      agent.destroy();
      await running.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Chromium's --ignore-certificate-errors-spki-list value that trusts exactly this certificate. */
export function spkiFingerprint(certificatePem: string): string {
  const spki = new X509Certificate(certificatePem).publicKey.export({
    type: 'spki',
    format: 'der',
  });
  return createHash('sha256').update(spki).digest('base64');
}

/** Debian's Chromium, which the browser tests and the bench drive (never a downloaded one). */
export const CHROMIUM = '/usr/bin/chromium';

/** A declared dependency of the tests (resources/debian-packages.txt): missing, it fails loudly. */
export function requireChromium(): void {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `The browser tests use Debian's Chromium at ${CHROMIUM}, which is not installed: ` +
        'sh resources/install-debian-packages.sh',
    );
  }
}

/**
 * Debian's Chromium, trusting exactly these engines' self-signed certificates by their key's
 * fingerprint, as a browser set up per docs/operations.md would: no blanket certificate bypass.
 */
export async function launchChromium(certificatePems: readonly string[]): Promise<Browser> {
  requireChromium();
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--ignore-certificate-errors-spki-list=${certificatePems.map(spkiFingerprint).join(',')}`,
    ],
  });
}
