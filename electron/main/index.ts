import { app, BrowserWindow, dialog, net, protocol, session } from 'electron';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startGateway } from '../gateway/gateway';
import type { RunningGateway } from '../gateway/gateway';
import {
  DEFAULT_GATEWAY_PORT,
  RENDERER_ORIGIN,
  RENDERER_SCHEME,
  gatewayPortFrom,
  rendererFileFor,
  rendererOrigins,
  verifyCertificate,
} from './security';

export { DEFAULT_GATEWAY_PORT };

// A packaged app must never be pointed at another page through the environment.
const devServerUrl = app.isPackaged ? undefined : process.env.ELECTRON_RENDERER_URL;
const rendererDir = join(import.meta.dirname, '../renderer');
const preloadPath = join(import.meta.dirname, '../preload/index.cjs');

// Must happen before 'ready'. `standard` and `secure` give the scheme a real origin, relative URLs and
// a secure context, like https.
protocol.registerSchemesAsPrivileged([
  { scheme: RENDERER_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
]);

let mainWindow: BrowserWindow | undefined;
// Settles to undefined when the engine did not start, so quitting never waits on a failure.
let engine: Promise<RunningGateway | undefined> = Promise.resolve(undefined);
let engineClosing: Promise<void> | undefined;
let engineClosed = false;
let startFailed = false;

if (!app.requestSingleInstanceLock()) {
  // Two windows on one ledger and one port would fight over both; the first one gets focus instead.
  app.quit();
} else {
  app.on('second-instance', () => {
    if (!mainWindow) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });

  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-navigate', (event) => event.preventDefault());
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  });

  app.on('window-all-closed', () => app.quit());

  // The ledger must be closed cleanly before the process goes away: hold the quit until it is.
  app.on('before-quit', (event) => {
    if (engineClosed) return;
    event.preventDefault();
    void closeEngine().then(() => {
      engineClosed = true;
      app.quit();
    });
  });

  app.whenReady().then(start).catch(failToStart);
}

async function start(): Promise<void> {
  const appSession = session.defaultSession;
  appSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  appSession.setPermissionCheckHandler(() => false);
  protocol.handle(RENDERER_SCHEME, (request) => {
    const file = rendererFileFor(request.url, rendererDir);
    return file ? net.fetch(pathToFileURL(file).toString()) : new Response('Not found', { status: 404 });
  });

  const port = gatewayPortFrom(process.env);
  const starting = startGateway({
    dataDir: app.getPath('userData'),
    port,
    allowedOrigins: rendererOrigins(devServerUrl),
  });
  engine = starting.catch(() => undefined);
  const gateway = await starting;

  appSession.setCertificateVerifyProc((request, callback) => {
    callback(
      verifyCertificate(
        { hostname: request.hostname, pem: request.certificate.data },
        gateway.certificatePem,
      ),
    );
  });

  mainWindow = createWindow();
}

function createWindow(): BrowserWindow {
  const window = new BrowserWindow({
    title: 'Tender',
    width: 1280,
    height: 800,
    minWidth: 1024,
    minHeight: 640,
    show: false,
    // Same colour as the page, so the window never flashes white before the first paint.
    backgroundColor: '#f5f3ee',
    autoHideMenuBar: true,
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
    },
  });
  window.once('ready-to-show', () => window.show());
  window.on('closed', () => {
    mainWindow = undefined;
  });
  window.loadURL(devServerUrl ?? `${RENDERER_ORIGIN}/index.html`).catch(failToStart);
  return window;
}

function closeEngine(): Promise<void> {
  engineClosing ??= engine
    .then((gateway) => gateway?.close())
    .catch((error: unknown) => console.error('Tender: the payment engine did not shut down cleanly.', error));
  return engineClosing;
}

function failToStart(error: unknown): void {
  if (startFailed) return;
  startFailed = true;
  console.error('Tender could not start.', error);
  dialog.showErrorBox('Tender could not start', startupErrorMessage(error));
  void closeEngine().then(() => app.exit(1));
}

function startupErrorMessage(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'EADDRINUSE' || code === 'EACCES') {
    return (
      `The payment engine could not listen on port ${process.env.TENDER_PORT?.trim() || DEFAULT_GATEWAY_PORT}. ` +
      'Close the program that uses that port, or start Tender with TENDER_PORT set to a free port.'
    );
  }
  const reason = error instanceof Error ? error.message : String(error);
  return `${reason}\n\nRestart Tender. If this keeps happening, run it from a terminal and share the output with support.`;
}
