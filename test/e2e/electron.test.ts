/**
 * The desktop app itself, driven by Playwright. Electron downloads its runtime from the internet on
 * first use; where it has not been downloaded this test is skipped, saying so, and everything it
 * covers besides the thin shell is tested in Node and Chromium (test/e2e/cashier.test.ts runs the
 * same screens through the WebSocket bridge).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { _electron as electron, type ElectronApplication } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildElectronSqlite } from '../../resources/electron-native.mjs';
import { CounterPage } from './counter-page';

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
      'internet on first start). Run `npm start` once with internet access to enable it. The same sale is ' +
      'tested in Chromium by test/e2e/cashier.test.ts.',
  );
}

describe.skipIf(!runtime)('the desktop app', () => {
  let home: string;
  let app: ElectronApplication;
  let cashier: CounterPage;

  beforeAll(async () => {
    // What `npm start` does before opening the window: better-sqlite3 for Electron, then the app.
    await buildElectronSqlite();
    execFileSync(
      process.execPath,
      [join(ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'],
      { cwd: ROOT, stdio: 'inherit' },
    );
    home = mkdtempSync(join(tmpdir(), 'tender-electron-'));
    app = await electron.launch({
      executablePath: runtime as string,
      args: [ROOT, '--simulate-reader'],
      cwd: ROOT,
      env: { ...process.env, TENDER_PORT: '18443', XDG_CONFIG_HOME: home },
    });
    cashier = new CounterPage(await app.firstWindow(), 'electron');
    await cashier.readerBadge('Card reader ready').waitFor();
  }, 300_000);

  afterAll(async () => {
    await app?.close();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('opens its window on the sale screen with the engine and the simulated reader running', async () => {
    expect(await cashier.page.title()).toBe('Tender');
    expect(existsSync(join(home, 'Tender', 'tls', 'cert.pem'))).toBe(true);
    await cashier.check('1-sale');
  });

  it('gives the page window.tender from the contract, and no Node or Electron', async () => {
    const exposed = await cashier.page.evaluate(() => {
      const page = window as unknown as Record<string, unknown> & { tender: Record<string, unknown> };
      return {
        bridge: Object.keys(page.tender).sort(),
        require: typeof page.require,
        process: typeof page.process,
        ipcRenderer: typeof page.ipcRenderer,
      };
    });
    expect(exposed).toEqual({
      bridge: ['invoke', 'on', 'version'],
      require: 'undefined',
      process: 'undefined',
      ipcRenderer: 'undefined',
    });
  });

  it('serves its screens with a policy that forbids framing', async () => {
    const policy = await cashier.page.evaluate(async () =>
      (await fetch('tender://app/index.html')).headers.get('content-security-policy'),
    );
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("connect-src 'self' https://127.0.0.1:18443");
  });

  it('runs a keyed sale through the engine', async () => {
    await cashier.tapAmount('1250');
    await cashier.chargeAndKeyIn();
    await cashier.fillCard({ number: '4111111111111111', expiry: '1230', csc: '123' });
    await cashier.submitCard();
    await cashier.expectApproved();
    expect(await cashier.page.getByTestId('authorization-code').textContent()).toMatch(/^[A-Z0-9]{6}$/);
    await cashier.check('2-keyed-approved');
    await cashier.page.keyboard.press('Enter');
    await cashier.page.getByRole('button', { name: 'Enter an amount' }).waitFor();
  });

  it('runs a swiped sale from the simulated reader over IPC', async () => {
    await cashier.tapAmount('2675');
    await cashier.page.getByRole('button', { name: 'Charge $26.75' }).click();
    await cashier.page.getByTestId('waiting-for-swipe').waitFor();
    await cashier.page.getByText('Test swipes').click();
    await cashier.page.getByRole('button', { name: 'Swipe: Visa that approves' }).click();
    await cashier.expectApproved();
    expect(await cashier.result.textContent()).toContain('PAT MORGAN');
    await cashier.check('3-swiped-approved');
  });
});
