/**
 * The desktop app itself, driven by Playwright. Electron downloads its runtime from the internet on
 * first use; where it has not been downloaded this test is skipped, saying so, and everything it
 * covers besides the thin shell is tested in Node and Chromium.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { _electron as electron } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const require = createRequire(join(ROOT, 'package.json'));

/** The Electron runtime's path, without triggering its download. */
function electronRuntime(): string | undefined {
  const electronDir = dirname(require.resolve('electron/package.json'));
  const pathFile = join(electronDir, 'path.txt');
  if (!existsSync(pathFile)) return undefined;
  const executable = join(electronDir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(executable) ? executable : undefined;
}

const runtime = electronRuntime();
if (!runtime) {
  console.warn(
    'Skipping the Electron app test: the Electron runtime is not on this machine (it is downloaded from the ' +
      'internet on first start). Run `npm start` once with internet access to enable it.',
  );
}

describe.skipIf(!runtime)('the desktop app', () => {
  let home: string;

  beforeAll(() => {
    execFileSync(
      process.execPath,
      [join(ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'],
      {
        cwd: ROOT,
        stdio: 'inherit',
      },
    );
    home = mkdtempSync(join(tmpdir(), 'tender-electron-'));
  }, 120_000);
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it('opens its window on the starting screen with the payment engine running', async () => {
    const app = await electron.launch({
      executablePath: runtime as string,
      args: [ROOT],
      cwd: ROOT,
      env: { ...process.env, TENDER_PORT: '18443', XDG_CONFIG_HOME: home },
    });
    try {
      const window = await app.firstWindow();
      await expect.poll(() => window.title()).toBe('Tender');
      await window.getByText('Payment engine on').waitFor();
      mkdirSync(join(ROOT, 'test-results'), { recursive: true });
      await window.screenshot({ path: join(ROOT, 'test-results', 'electron-start.png') });
      expect(existsSync(join(home, 'Tender', 'tls', 'cert.pem'))).toBe(true);
    } finally {
      await app.close();
    }
  });
});
