/**
 * The cashier screens without Electron: the engine serves the built renderer on its own HTTPS origin
 * and carries the bridge over a WebSocket guarded by the data dir's bridge token. Used by
 * `npm run gateway -- serve --renderer` and by the browser tests.
 */
import { BRIDGE_TOKEN_PARAMETER } from '../../shared/ipc/socket-protocol';
import type { OpenEngineOptions } from '../gateway/open-store';
import { startGateway, type RunningGateway } from '../gateway/gateway';
import { API_PREFIX } from '../gateway/http/server';
import { dataDirLayout } from '../gateway/paths';
import { loadBridgeToken } from './bridge-token';
import { serveScreens } from './screens-files';
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
}

export interface RunningHeadlessScreens {
  gateway: RunningGateway;
  terminal: Terminal;
  /** The address to open in a browser; its fragment carries the bridge token. */
  screensUrl: string;
  /** The bridge token alone, for programs that drive the bridge (tests, demos). */
  bridgeToken: string;
  close(): Promise<void>;
}

export async function startHeadlessScreens(options: HeadlessScreensOptions): Promise<RunningHeadlessScreens> {
  let bridgeToken = '';
  let terminal: Terminal | undefined;
  const gateway = await startGateway({
    dataDir: options.dataDir,
    port: options.port,
    ...(options.allowedOrigins && { allowedOrigins: options.allowedOrigins }),
    ...(options.engine && { engine: options.engine }),
    extend: (app) => {
      // Read once the data dir is this engine's, so two starts never make two tokens.
      bridgeToken = loadBridgeToken(dataDirLayout(options.dataDir).bridgeToken);
      serveScreens(app, options.rendererDir);
      hostBridgeSocket(app, { token: bridgeToken, host: () => terminal });
    },
  });
  try {
    terminal = await Terminal.start({
      gateway,
      dataDir: options.dataDir,
      shell: 'browser',
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
  let closing: Promise<void> | undefined;
  return {
    gateway,
    terminal: started,
    screensUrl: `${gateway.url.slice(0, -API_PREFIX.length)}/#${BRIDGE_TOKEN_PARAMETER}=${bridgeToken}`,
    bridgeToken,
    close: () => (closing ??= started.stop().finally(() => gateway.close())),
  };
}
