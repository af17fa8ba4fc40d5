/**
 * `npm start` where Electron's runtime is not there: the engine serves the cashier screens and an
 * installed browser opens them as an app window trusting only this engine's certificate. The browser
 * here is a stand-in that records how it was started; Debian's Chromium then opens that address.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/screens';
import { ROOT } from './counter-page';
// @ts-expect-error the start script is plain JavaScript, run by node without a build
import { spkiHash } from '../../resources/start-in-browser.mjs';

const work = mkdtempSync(join(tmpdir(), 'tender-start-'));
let start: ChildProcess | undefined;
afterAll(() => {
  start?.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

describe('npm start without Electron’s runtime', () => {
  it(
    'serves the screens and opens them in an installed browser as an app window',
    { timeout: 240_000 },
    async () => {
      const dataDir = join(work, 'data');
      const started = join(work, 'browser-args');
      // The stand-in browser: writes its arguments, then stays open like a window until it is closed.
      const browser = join(work, 'chromium');
      writeFileSync(
        browser,
        `#!/bin/sh\nprintf '%s\\n' "$$" "$@" > '${started}.tmp'\nmv '${started}.tmp' '${started}'\nexec sleep 600\n`,
      );
      chmodSync(browser, 0o755);
      const port = await freePort();
      start = spawn(
        process.execPath,
        [
          join(ROOT, 'resources', 'start.mjs'),
          '--browser',
          '--simulate-reader',
          '--data-dir',
          dataDir,
          '--port',
          String(port),
        ],
        {
          cwd: ROOT,
          env: { ...process.env, TENDER_BROWSER: browser, TENDER_BUILD_DIR: join(work, 'build') },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let output = '';
      start.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => start?.on('close', resolve));

      await expect.poll(() => existsSync(started), { timeout: 200_000, interval: 250 }).toBe(true);
      expect(output).toContain('the counter opens in a browser, as asked');
      const [pid, ...args] = readFileSync(started, 'utf8').trim().split('\n');
      const app = args.find((arg) => arg.startsWith('--app='))?.slice('--app='.length) ?? '';
      expect(app).toMatch(new RegExp(`^https://127\\.0\\.0\\.1:${port}/`));
      expect(output).toContain(`Cashier screens: ${app}`);
      const certificate = readFileSync(join(dataDir, 'tls', 'cert.pem'), 'utf8');
      expect(args).toContain(`--ignore-certificate-errors-spki-list=${spkiHash(certificate) as string}`);
      expect(args).toContain(`--user-data-dir=${join(dataDir, 'browser-profile')}`);

      // The address the window got is the counter.
      const chromium = await launchChromium([certificate]);
      try {
        const page = await (await chromium.newContext()).newPage();
        await page.goto(app);
        await page.locator('.reader-badge', { hasText: 'Card reader ready' }).waitFor();
      } finally {
        await chromium.close();
      }

      // Closing the window closes the counter.
      process.kill(Number(pid), 'SIGTERM');
      expect(await exited).toBe(0);
      start = undefined;
    },
  );
});
