/**
 * The cashier screens' side of `npm run bench`: the production bundle's weight against React's own,
 * and the time from navigation to an interactive sale screen in headless Chromium against a page
 * that holds a single button.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { startHeadlessScreens } from '../../electron/bridge/headless';
import { CHROMIUM, launchChromium } from '../support/screens';
import { median } from './stats';

const ROOT = join(import.meta.dirname, '..', '..');
const require = createRequire(join(ROOT, 'package.json'));

export interface RendererFigures {
  bundleGzipBytes: number;
  reactGzipBytes: number;
  /** Median ms from navigation to a sale screen that takes keys, or undefined without Chromium. */
  interactiveMs?: number;
  blankPageMs?: number;
}

/** The PIN of the manager signed in at the measured counter. */
const BENCH_PIN = '2580';

const gzipped = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length;

export async function measureRenderer(): Promise<RendererFigures> {
  const buildDir = mkdtempSync(join(tmpdir(), 'tender-bench-build-'));
  const dataDir = mkdtempSync(join(tmpdir(), 'tender-bench-screens-'));
  try {
    execFileSync(
      process.execPath,
      [join(ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'],
      {
        cwd: ROOT,
        env: { ...process.env, TENDER_BUILD_DIR: buildDir },
        stdio: 'pipe',
      },
    );
    const rendererDir = join(buildDir, 'renderer');
    // What the page loads before it can be used: the assets index.html names.
    const html = readFileSync(join(rendererDir, 'index.html'), 'utf8');
    const initial = [...html.matchAll(/(?:src|href)="\.?\/?(assets\/[^"]+\.(?:js|css))"/g)].map(
      (match) => match[1] as string,
    );
    const bundleGzipBytes = initial.reduce((total, asset) => total + gzipped(join(rendererDir, asset)), 0);
    const reactGzipBytes = [
      join(dirname(require.resolve('react/package.json')), 'cjs', 'react.production.js'),
      join(dirname(require.resolve('react-dom/package.json')), 'cjs', 'react-dom-client.production.js'),
    ].reduce((total, file) => total + gzipped(file), 0);
    if (!existsSync(CHROMIUM)) return { bundleGzipBytes, reactGzipBytes };

    const screens = await startHeadlessScreens({
      dataDir,
      port: 0,
      rendererDir,
      reader: { kind: 'simulator' },
      version: 'bench',
    });
    // A counter opened for the day: a manager signed in, and no lock while the page is measured.
    const { engine } = screens.gateway;
    await engine.staff.create({ name: 'Bench', role: 'manager', pin: BENCH_PIN }, 'bench');
    await engine.settings.setFromText('lock_after_minutes', '0');
    await screens.terminal.handlers['staff:sign-in']({ pin: BENCH_PIN });
    const browser = await launchChromium([screens.gateway.certificatePem]);
    try {
      const interactive: number[] = [];
      const blank: number[] = [];
      for (let run = 0; run < 7; run++) {
        const context = await browser.newContext();
        const page = await context.newPage();
        const started = Date.now();
        await page.goto(screens.pairingAddress());
        await page
          .getByRole('group', { name: 'Amount keys' })
          .getByRole('button', { name: '1', exact: true })
          .waitFor();
        interactive.push(Date.now() - started);
        const blankStarted = Date.now();
        await page.goto('data:text/html,<!doctype html><title>blank</title><button>1</button>');
        await page.getByRole('button', { name: '1', exact: true }).waitFor();
        blank.push(Date.now() - blankStarted);
        await context.close();
      }
      // The first run pays for the browser's own start; it is not the page's.
      return {
        bundleGzipBytes,
        reactGzipBytes,
        interactiveMs: median(interactive.slice(1)),
        blankPageMs: median(blank.slice(1)),
      };
    } finally {
      await browser.close();
      await screens.close();
    }
  } finally {
    rmSync(buildDir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  }
}
