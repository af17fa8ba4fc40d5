/**
 * The cashier screens without Electron: the engine serves the built renderer on its own HTTPS origin
 * and carries the bridge over a WebSocket that only paired pages may use (screens-pairing.ts). Used
 * by `npm run gateway -- serve --renderer` and by the browser tests.
 */
import type { OpenEngineOptions } from '../gateway/open-store';
import { startGateway, type RunningGateway } from '../gateway/gateway';
import { API_PREFIX } from '../gateway/http/server';
import { counterTipPercentages } from './counter-preferences';
import { serveScreens } from './screens-files';
import { SCREEN_PATHS, ScreensPairing, type ScreenRole } from './screens-pairing';
import { hostBridgeSocket } from './socket';
import { Terminal, type ReaderSetup } from './terminal';

export interface HeadlessScreensOptions {
  dataDir: string;
  /** Loopback port; 0 picks a free one. */
  port: number;
  /** The built renderer (out/renderer). */
  rendererDir: string;
  reader: ReaderSetup;
  version: string;
  allowedOrigins?: readonly string[];
  engine?: OpenEngineOptions;
  /** How `engine.store` was given outside the screens ("--database and --lane"); none: the saved setting. */
  storeSetOutside?: string;
  /** How long a new bridge socket has to pair or present its credential (socket.ts). */
  helloTimeoutMs?: number;
}

export interface RunningHeadlessScreens {
  gateway: RunningGateway;
  terminal: Terminal;
  /** The screens' address; it holds no credential, so a page opened at it alone is not paired. */
  screensUrl: string;
  /** The launch page: opened in a browser on this computer, it pairs one page (then holds a new ticket). */
  launchPage: string;
  /** The customer's screen's address; like screensUrl, it pairs nothing by itself. */
  customerUrl: string;
  /** The customer's screen's launch page, which pairs one customer's page as launchPage does a cashier's. */
  customerLaunchPage: string;
  /** A new pairing ticket, for a page this process opens itself (a second screen, the tests). */
  issueTicket(role?: ScreenRole): string;
  /** The address that pairs the one page that opens it first, as a cashier's screen or the customer's. */
  pairingAddress(role?: ScreenRole): string;
  close(): Promise<void>;
}

export async function startHeadlessScreens(options: HeadlessScreensOptions): Promise<RunningHeadlessScreens> {
  let pairing: ScreensPairing | undefined;
  let terminal: Terminal | undefined;
  const gateway = await startGateway({
    dataDir: options.dataDir,
    port: options.port,
    ...(options.allowedOrigins && { allowedOrigins: options.allowedOrigins }),
    ...(options.engine && { engine: options.engine }),
    tipPercentages: () => counterTipPercentages(options.dataDir),
    extend: (app) => {
      // Opened once the data dir is this engine's, so two starts never make two page keys.
      const opened = ScreensPairing.open(options.dataDir);
      pairing = opened;
      serveScreens(app, options.rendererDir);
      hostBridgeSocket(app, {
        pairing: opened,
        host: () => terminal,
        ...(options.helloTimeoutMs !== undefined && { helloTimeoutMs: options.helloTimeoutMs }),
      });
      app.addHook('onClose', async () => opened.close());
    },
  });
  const screensOrigin = gateway.url.slice(0, -API_PREFIX.length);
  try {
    terminal = await Terminal.start({
      gateway,
      dataDir: options.dataDir,
      shell: 'browser',
      customerScreenAddress: () => {
        if (!pairing) throw new Error('The engine started without the screens.');
        return ScreensPairing.pairingAddress(screensOrigin, pairing.issueTicket('customer'), 'customer');
      },
      version: options.version,
      reader: options.reader,
      ...(options.engine?.store && {
        store: {
          options: options.engine.store,
          ...(options.storeSetOutside !== undefined && { setOutside: options.storeSetOutside }),
        },
      }),
    });
  } catch (error) {
    await gateway.close();
    throw error;
  }
  const started = terminal;
  const paired = pairing;
  if (!paired) throw new Error('The engine started without the screens.');
  // Written once the screens can be used: a page opened from it at once finds its host.
  paired.keepLaunchPage(screensOrigin);
  let closing: Promise<void> | undefined;
  return {
    gateway,
    terminal: started,
    screensUrl: `${screensOrigin}/`,
    launchPage: paired.launchPagePath,
    customerUrl: `${screensOrigin}${SCREEN_PATHS.customer}`,
    customerLaunchPage: paired.customerLaunchPagePath,
    issueTicket: (role) => paired.issueTicket(role),
    pairingAddress: (role = 'cashier') =>
      ScreensPairing.pairingAddress(screensOrigin, paired.issueTicket(role), role),
    close: () => (closing ??= started.stop().finally(() => gateway.close())),
  };
}
