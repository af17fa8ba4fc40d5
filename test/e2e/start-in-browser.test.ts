/**
 * `npm start` where Electron's runtime is not there: the engine serves the cashier screens and an
 * installed browser opens them as an app window trusting only this engine's certificate. The browser
 * is Debian's Chromium, run headless through a small stand-in that also opens a debugging port for
 * the test; nothing that opens the bridge may appear on any process's command line or in the output.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { request } from 'node:https';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright';
import WebSocket from 'ws';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createLoopbackCertificate } from '../../electron/gateway/crypto/certificate';
import { BRIDGE_SOCKET_PATH } from '../../shared/ipc/socket-protocol';
import { CHROMIUM, requireChromium } from '../support/screens';
import { ROOT } from './counter-page';
// @ts-expect-error the start script is plain JavaScript, run by node without a build
import { browserArguments, browserFailure, spkiHash } from '../../resources/start-in-browser.mjs';

const work = mkdtempSync(join(tmpdir(), 'tender-start-'));
let start: ChildProcess | undefined;
afterEach(async () => {
  const running = start;
  start = undefined;
  if (!running || running.exitCode !== null) return;
  const exited = new Promise((resolve) => running.once('close', resolve));
  running.kill('SIGTERM');
  await exited;
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** `npm start -- --browser` on a data dir of its own, with `browser` as the installed browser. */
function startInBrowser(
  name: string,
  browser: string,
  env: NodeJS.ProcessEnv = process.env,
): { dataDir: string; port: Promise<number>; output: () => string; exited: Promise<number | null> } {
  const dataDir = join(work, name);
  let output = '';
  const port = freePort().then((free) => {
    start = spawn(
      process.execPath,
      [
        join(ROOT, 'resources', 'start.mjs'),
        '--browser',
        '--simulate-reader',
        '--data-dir',
        dataDir,
        '--port',
        String(free),
      ],
      {
        cwd: ROOT,
        env: { ...env, TENDER_BROWSER: browser, TENDER_BUILD_DIR: join(work, 'build') },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    start.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    start.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    return free;
  });
  const exited = port.then(
    () => new Promise<number | null>((resolve) => start?.on('close', (code) => resolve(code))),
  );
  return { dataDir, port, output: () => output, exited };
}

/** Every process's command line that this user may read, as one text per process. */
function commandLines(): string[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((pid) => {
      try {
        return [readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ')];
      } catch {
        return [];
      }
    });
}

/** The screens' session through the bridge, as a second page paired by the launch page would get it. */
function screensSession(port: number, certificate: string, ticket: string): Promise<{ apiKey: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`wss://127.0.0.1:${port}${BRIDGE_SOCKET_PATH}`, {
      ca: certificate,
      origin: `https://127.0.0.1:${port}`,
    });
    ws.on('open', () => ws.send(JSON.stringify({ type: 'pair', ticket })));
    ws.on('message', (data) => {
      const message = JSON.parse(String(data)) as { type: string; result?: { ok: boolean; value: unknown } };
      if (message.type === 'ready')
        ws.send(JSON.stringify({ type: 'invoke', id: 1, channel: 'terminal:session' }));
      if (message.type === 'result') {
        ws.close();
        resolve(message.result?.value as { apiKey: string });
      }
    });
    ws.on('close', (code) => reject(new Error(`the bridge closed with ${code}`)));
    ws.on('error', reject);
  });
}

/** Playwright on the browser's debugging port, once the browser listens on it. */
async function connectWhenUp(endpoint: string) {
  let connected: Awaited<ReturnType<typeof chromium.connectOverCDP>> | undefined;
  await expect
    .poll(
      async () => {
        connected ??= await chromium.connectOverCDP(endpoint).catch(() => undefined);
        return connected !== undefined;
      },
      { timeout: 60_000, interval: 250 },
    )
    .toBe(true);
  if (!connected) throw new Error(`no browser at ${endpoint}`);
  return connected;
}

/** The screens stopped answering the test's session: neither their text nor a script could be read. */
class UnreadablePageError extends Error {}

/** The screens' page, once it shows the card reader ready; why not, when it never does. */
async function readyScreens(cdp: Awaited<ReturnType<typeof chromium.connectOverCDP>>, port: number) {
  const screensPage = () =>
    cdp
      .contexts()
      .flatMap((context) => context.pages())
      .find((page) => page.url().startsWith(`https://127.0.0.1:${port}/`));
  await expect.poll(screensPage, { timeout: 60_000, interval: 250 }).toBeDefined();
  const page = screensPage();
  if (!page) throw new Error('the screens did not open');
  const said: string[] = [];
  page.on('console', (message) => said.push(`${message.type()}: ${message.text()}`));
  page.on('pageerror', (error) => said.push(`uncaught: ${error.message}`));
  try {
    await page.locator('.reader-badge', { hasText: 'Card reader ready' }).waitFor({ timeout: 60_000 });
    return page;
  } catch (error) {
    // What the screens show instead is the cause (a refused pairing, a start-up error).
    const shown = await page
      .locator('body')
      .innerText({ timeout: 10_000 })
      .then(
        (text) => ({ text }),
        (unreadable: unknown) => ({ unreadable }),
      );
    const problem =
      `the card reader never showed as ready at ${page.url()}; ` +
      ('text' in shown
        ? `the page said: ${shown.text}`
        : `the page could not be read (${String(shown.unreadable)})`) +
      (said.length > 0 ? `; its console said: ${said.join(' | ')}` : '');
    throw 'text' in shown
      ? new Error(problem, { cause: error })
      : new UnreadablePageError(problem, { cause: error });
  }
}

function ticketOf(launchPage: string): string {
  return /#pair=([A-Za-z0-9_-]{43})"/.exec(readFileSync(launchPage, 'utf8'))?.[1] ?? '';
}

describe('npm start without Electron’s runtime', () => {
  it(
    'opens the screens in Chromium, and no process’s command line holds a credential',
    { timeout: 300_000 },
    async () => {
      requireChromium();
      const debugging = await freePort();
      // Headless, so the test needs no display; the debugging port lets it look into the window.
      const browser = join(work, 'chromium');
      writeFileSync(
        browser,
        [
          '#!/bin/sh',
          `printf '%s\\n' "$$" > '${join(work, 'browser-pid')}'`,
          '[ "$(id -u)" = 0 ] || set -- --no-sandbox "$@"',
          `exec ${CHROMIUM} --headless=new --disable-gpu --remote-debugging-port=${debugging} "$@"`,
          '',
        ].join('\n'),
      );
      chmodSync(browser, 0o755);
      const run = startInBrowser('data', browser);
      const port = await run.port;

      await expect
        .poll(() => existsSync(join(work, 'browser-pid')), { timeout: 240_000, interval: 250 })
        .toBe(true);
      const pid = Number(readFileSync(join(work, 'browser-pid'), 'utf8').trim());
      expect(run.output()).toContain('the counter opens in a browser, as asked');
      expect(run.output()).toContain(`Cashier screens: https://127.0.0.1:${port}/\n`);

      // Should the page stop answering the test's debugging session, a second session tells a session
      // that hangs apart from screens that hang for everyone: the test fails only on the second.
      let cdp = await connectWhenUp(`http://127.0.0.1:${debugging}`);
      try {
        const page = await readyScreens(cdp, port).catch(async (first: unknown) => {
          if (!(first instanceof UnreadablePageError)) throw first;
          await cdp.close();
          cdp = await connectWhenUp(`http://127.0.0.1:${debugging}`);
          return readyScreens(cdp, port).catch((second: unknown) => {
            throw new Error(`${String(second)} (and before, on a first session: ${String(first)})`, {
              cause: second,
            });
          });
        });
        // The ticket left the address once redeemed; the page holds a credential of its own.
        expect(new URL(page.url()).hash).toBe('');
        const credential = await page.evaluate(() =>
          window.sessionStorage.getItem('tender.screen-credential'),
        );
        expect(credential).toMatch(/^[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/);

        const launchPage = join(run.dataDir, 'screens', 'open-screens.html');
        const certificate = readFileSync(join(run.dataDir, 'tls', 'cert.pem'), 'utf8');
        const nextTicket = ticketOf(launchPage);
        const { apiKey } = await screensSession(port, certificate, nextTicket);
        expect(apiKey).toMatch(/^tender_/);
        const secrets = {
          credential: credential ?? '',
          'page key': readFileSync(join(run.dataDir, 'screens', 'page.key'), 'utf8').trim(),
          'launch ticket': ticketOf(launchPage),
          'redeemed ticket': nextTicket,
          'screens API key': apiKey,
        };

        const lines = commandLines();
        const windowLine = lines.find((line) =>
          line.includes(`--user-data-dir=${join(run.dataDir, 'browser-profile')}`),
        );
        expect(windowLine).toContain(`--app=${pathToFileURL(launchPage).href}`);
        expect(windowLine).toContain(
          `--ignore-certificate-errors-spki-list=${spkiHash(certificate) as string}`,
        );
        for (const line of lines) {
          expect(line).not.toMatch(/#pair=|#bridge=/);
          for (const [name, secret] of Object.entries(secrets)) {
            expect(line.includes(secret), `${name} on a command line: ${line.slice(0, 200)}`).toBe(false);
          }
        }
        for (const [name, secret] of Object.entries(secrets)) {
          expect(run.output().includes(secret), `${name} in the output`).toBe(false);
        }
      } finally {
        await cdp.close();
      }

      // Closing the window closes the counter.
      process.kill(pid, 'SIGTERM');
      expect(await run.exited).toBe(0);
      start = undefined;
    },
  );

  it(
    'keeps serving the screens, and says why in one line, when the window cannot open',
    { timeout: 300_000 },
    async () => {
      requireChromium();
      // No display: the real browser gives up at once, as on a server or over ssh.
      const env = { ...process.env };
      delete env.DISPLAY;
      delete env.WAYLAND_DISPLAY;
      const run = startInBrowser('no-display', CHROMIUM, env);
      const port = await run.port;
      await expect
        .poll(run.output, { timeout: 240_000, interval: 250 })
        .toMatch(/Tender: the browser window could not open \((.+)\); the payment engine keeps serving/);
      const reason = /could not open \((.+)\); the payment engine/.exec(run.output())?.[1] ?? '';
      expect(reason).toMatch(/Missing X server or \$DISPLAY|--no-sandbox/);
      expect(run.output()).not.toContain('SIGTERM received');
      expect(run.output()).toContain(`Cashier screens: https://127.0.0.1:${port}/\n`);

      const certificate = readFileSync(join(run.dataDir, 'tls', 'cert.pem'), 'utf8');
      const status = await new Promise<number>((resolve, reject) => {
        request(`https://127.0.0.1:${port}/`, { ca: certificate }, (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        })
          .on('error', reject)
          .end();
      });
      expect(status).toBe(200);
      expect(start?.exitCode).toBeNull();
    },
  );
});

describe('the browser window’s command line', () => {
  it('opens the launch page, and runs without the sandbox only as root', async () => {
    const certificate = (await createLoopbackCertificate()).certificatePem;
    const given = {
      launchPage: '/home/counter/.config/Tender/screens/open-screens.html',
      profile: '/p',
      certificate,
    };
    const args = browserArguments({ ...given, asRoot: false }) as string[];
    expect(args[0]).toBe('--app=file:///home/counter/.config/Tender/screens/open-screens.html');
    expect(args).not.toContain('--no-sandbox');
    expect(browserArguments({ ...given, asRoot: true }) as string[]).toContain('--no-sandbox');
  });

  it('names why the browser gave up from its log', () => {
    const log = [
      '[1:2:1126/172700.405069:ERROR:dbus/bus.cc:405] Failed to connect to the bus: no socket',
      '[1:1:1126/172700.406367:ERROR:ui/ozone/platform/x11/ozone_platform_x11.cc:257] Missing X server or $DISPLAY',
      '[1:1:1126/172700.406380:ERROR:ui/aura/env.cc:246] The platform failed to initialize.  Exiting.',
    ].join('\n');
    expect(browserFailure(log)).toBe('Missing X server or $DISPLAY');
  });
});
