import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { app, BrowserWindow, dialog, ipcMain, net, protocol, screen, session, type Display } from 'electron';
import { CUSTOMER_SCREEN_EVENTS } from '../../shared/ipc/customer-contract';
import { screensDocumentHeaders } from '../bridge/content-security-policy';
import { counterTipPercentages } from '../bridge/counter-preferences';
import { hidReaderSetup, Terminal, type ReaderSetup } from '../bridge/terminal';
import { startGateway, type RunningGateway } from '../gateway/gateway';
import { readStoreServerFile } from '../gateway/store-server-file';
import { storeServerOptions } from '../gateway/store-server-options';
import { keepEngineHeapSmall } from '../gateway/heap';
import { nodeHidBackend } from '../reader/node-hid-backend';
import { CustomerWindows, type CustomerWindow, type DisplayArea } from './customer-window';
import { guardContents, permissionCheckHandler, permissionRequestHandler } from './guards';
import { forwardBridgeEvents, registerBridgeIpc } from './ipc';
import { electronSqliteBinding, MissingElectronBuildError } from './native';
import { pdfDocuments } from './report-pdf';
import {
  DEFAULT_GATEWAY_PORT,
  GATEWAY_HOST,
  RENDERER_ORIGIN,
  RENDERER_SCHEME,
  gatewayPortFrom,
  rendererFileFor,
  rendererOrigins,
  verifyCertificate,
} from './security';

export { DEFAULT_GATEWAY_PORT };

keepEngineHeapSmall();

// A packaged app must never be pointed at another page, or at a pretend reader, through its environment.
const devServerUrl = app.isPackaged ? undefined : process.env.ELECTRON_RENDERER_URL;
const simulateReader =
  !app.isPackaged &&
  (process.argv.includes('--simulate-reader') || process.env.TENDER_READER === 'simulator');
const rendererDir = join(import.meta.dirname, '../renderer');
const preloadPath = join(import.meta.dirname, '../preload/index.cjs');
const screensOrigins = rendererOrigins(devServerUrl);

// Must happen before 'ready'. `standard` and `secure` give the scheme a real origin, relative URLs and
// a secure context, like https.
protocol.registerSchemesAsPrivileged([
  { scheme: RENDERER_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
]);

interface Services {
  gateway: RunningGateway;
  terminal?: Terminal;
}

let mainWindow: BrowserWindow | undefined;
let customerWindow: BrowserWindow | undefined;
let customerWindows: CustomerWindows | undefined;
// Settles to undefined when the engine did not start, so quitting never waits on a failure.
let services: Promise<Services | undefined> = Promise.resolve(undefined);
let servicesClosing: Promise<void> | undefined;
let servicesClosed = false;
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

  app.on('web-contents-created', (_event, contents) => guardContents(contents));

  app.on('window-all-closed', () => app.quit());

  // The reader and the ledger must be closed cleanly before the process goes away: hold the quit.
  app.on('before-quit', (event) => {
    if (servicesClosed) return;
    event.preventDefault();
    void closeServices().then(() => {
      servicesClosed = true;
      app.quit();
    });
  });

  app.whenReady().then(start).catch(failToStart);
}

async function start(): Promise<void> {
  const port = gatewayPortFrom(process.env);
  const appSession = session.defaultSession;
  appSession.setPermissionRequestHandler(permissionRequestHandler(screensOrigins));
  appSession.setPermissionCheckHandler(permissionCheckHandler(screensOrigins));
  protocol.handle(RENDERER_SCHEME, (request) => serveScreensFile(request.url, port));

  const nativeBinding = electronSqliteBinding(
    app.getAppPath(),
    process.platform,
    process.arch,
    app.isPackaged,
  );
  if (!existsSync(nativeBinding)) throw new MissingElectronBuildError(nativeBinding);

  const dataDir = app.getPath('userData');
  // A counter of a store with several keeps the ledger on the store server: as the environment
  // says, or else as saved in Settings.
  const fromEnvironment = storeServerOptions(
    { database: process.env.TENDER_DATABASE, lane: process.env.TENDER_LANE },
    { database: 'TENDER_DATABASE', lane: 'TENDER_LANE' },
  );
  const store = fromEnvironment ?? readStoreServerFile(dataDir);
  const starting = startGateway({
    dataDir,
    port,
    allowedOrigins: screensOrigins,
    engine: { nativeBinding, ...(store && { store }) },
    tipPercentages: () => counterTipPercentages(dataDir),
  });
  let current: Services | undefined;
  services = starting.then(
    (gateway) => (current = { gateway }),
    () => undefined,
  );
  const gateway = await starting;

  appSession.setCertificateVerifyProc((request, callback) => {
    callback(
      verifyCertificate(
        { hostname: request.hostname, pem: request.certificate.data },
        gateway.certificatePem,
      ),
    );
  });

  const reader: ReaderSetup = simulateReader ? { kind: 'simulator' } : hidReaderSetup(nodeHidBackend);
  const terminal = await Terminal.start({
    gateway,
    dataDir,
    shell: 'desktop',
    version: app.getVersion(),
    reader,
    ...(store && {
      store: {
        options: store,
        ...(fromEnvironment && { setOutside: 'TENDER_DATABASE and TENDER_LANE' }),
      },
    }),
    documents: pdfDocuments(() => {
      const window = mainWindow;
      if (!window) return undefined;
      return {
        printToPdf: () => window.webContents.printToPDF({ printBackground: true, pageSize: 'Letter' }),
        askWhereToSave: async (defaultPath) => {
          const choice = await dialog.showSaveDialog(window, {
            title: 'Save the report as PDF',
            defaultPath,
            filters: [{ name: 'PDF', extensions: ['pdf'] }],
          });
          return choice.canceled ? undefined : choice.filePath;
        },
        documentsFolder: () => app.getPath('documents'),
      };
    }),
  });
  if (current) current.terminal = terminal;

  registerBridgeIpc(
    ipcMain,
    terminal.handlers,
    {
      webContentsId: () => mainWindow?.webContents.id,
      customerWebContentsId: () => customerWindow?.webContents.id,
      origins: screensOrigins,
    },
    terminal.customerHandlers,
  );
  forwardBridgeEvents(terminal.cashierEvents, () => mainWindow?.webContents, screensOrigins);
  forwardBridgeEvents(
    terminal.customerEvents,
    () => customerWindow?.webContents,
    screensOrigins,
    CUSTOMER_SCREEN_EVENTS,
  );

  const cashierWindow = createWindow();
  mainWindow = cashierWindow;
  // The customer's screen goes on a second display, and follows displays plugged in and out.
  const windows = new CustomerWindows({
    displays: () => screen.getAllDisplays().map(displayArea),
    cashierDisplayId: () =>
      mainWindow && !mainWindow.isDestroyed()
        ? screen.getDisplayMatching(mainWindow.getBounds()).id
        : undefined,
    enabled: () => terminal.customer.view().screen.enabled,
    open: () => openCustomerWindow(terminal),
  });
  customerWindows = windows;
  const follow = () => windows.update();
  screen.on('display-added', follow);
  screen.on('display-removed', follow);
  screen.on('display-metrics-changed', follow);
  cashierWindow.on('moved', follow);
  cashierWindow.on('closed', () => windows.close());
  terminal.events.subscribe((event) => {
    if (event === 'settings:changed') follow();
  });
  follow();
}

function displayArea(display: Display): DisplayArea {
  return { id: display.id, bounds: display.bounds, internal: display.internal };
}

/** The customer's window: the same sandbox as the cashier's, no frame, full screen where it is placed. */
function openCustomerWindow(terminal: Terminal): CustomerWindow {
  const window = new BrowserWindow({
    title: 'Tender: customer screen',
    show: false,
    frame: false,
    backgroundColor: '#f3f1eb',
    autoHideMenuBar: true,
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
      // A packaged app opens no developer tools: at the counter they would let anyone at the screens
      // read and change what the screens hold, a manager's PIN being entered among it.
      devTools: !app.isPackaged,
    },
  });
  customerWindow = window;
  let detach: (() => void) | undefined;
  window.once('ready-to-show', () => {
    window.show();
    detach = terminal.attachCustomerScreen();
  });
  window.on('closed', () => {
    detach?.();
    if (customerWindow === window) customerWindow = undefined;
  });
  const page = devServerUrl
    ? new URL('customer.html', devServerUrl).toString()
    : `${RENDERER_ORIGIN}/customer.html`;
  window
    .loadURL(page)
    .catch((error: unknown) => console.error('Tender: the customer screen did not load.', error));
  return {
    placeOn: (display) => {
      window.setFullScreen(false);
      window.setBounds(display.bounds);
      window.setFullScreen(true);
    },
    close: () => {
      if (!window.isDestroyed()) window.close();
    },
    onClosed: (listener) => window.on('closed', listener),
  };
}

/** A file of the built screens; the document gets the header-only parts of the security policy. */
async function serveScreensFile(url: string, port: number): Promise<Response> {
  const file = rendererFileFor(url, rendererDir);
  if (!file) return new Response('Not found', { status: 404 });
  const response = await net.fetch(pathToFileURL(file).toString());
  if (!file.endsWith('.html')) return response;
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(screensDocumentHeaders([`https://${GATEWAY_HOST}:${port}`]))) {
    headers.set(name, value);
  }
  return new Response(response.body, { status: response.status, headers });
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
      // A packaged app opens no developer tools: at the counter they would let anyone at the screens
      // read and change what the screens hold, a manager's PIN being entered among it.
      devTools: !app.isPackaged,
    },
  });
  window.once('ready-to-show', () => window.show());
  window.on('closed', () => {
    mainWindow = undefined;
  });
  window.loadURL(devServerUrl ?? `${RENDERER_ORIGIN}/index.html`).catch(failToStart);
  return window;
}

/** Reader first (no swipe may arrive for a closed engine), then the engine and its ledger. */
function closeServices(): Promise<void> {
  customerWindows?.close();
  servicesClosing ??= services
    .then(async (running) => {
      await running?.terminal?.stop();
      await running?.gateway.close();
    })
    .catch((error: unknown) => console.error('Tender: the payment engine did not shut down cleanly.', error));
  return servicesClosing;
}

function failToStart(error: unknown): void {
  if (startFailed) return;
  startFailed = true;
  console.error('Tender could not start.', error);
  dialog.showErrorBox('Tender could not start', startupErrorMessage(error));
  void closeServices().then(() => app.exit(1));
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
