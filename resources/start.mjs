// `npm start`: builds Tender and opens it in Electron. Electron fetches its own runtime from the internet
// on first use; when it cannot, the counter still opens: the headless engine serves the cashier screens
// and an installed Chromium, Chrome or Edge shows them as an app window (start-in-browser.mjs), or,
// with no such browser, their address is printed. With the runtime, better-sqlite3 is built for
// Electron into out/native (once per Electron version; node_modules keeps the Node build the tests
// use), and the app is built and opened.
//
//   npm start                            the app, with the MagTek reader over USB
//   npm start -- --simulate-reader       with the swipe simulator instead (development only)
//   npm start -- --browser               the screens in an installed browser, without Electron
//                [--data-dir <dir>] [--port <n>]   where that keeps its ledger (.tender-data) and serves (8443)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildElectronSqlite, explainBuildFailure } from './electron-native.mjs';
import { startInBrowser } from './start-in-browser.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(join(root, 'package.json'));
const electronDir = dirname(require.resolve('electron/package.json'));
const electronVite = join(dirname(require.resolve('electron-vite/package.json')), 'bin', 'electron-vite.js');

/** The runtime's path, or undefined while it has not been downloaded. Never triggers a download itself. */
function installedRuntime() {
  const pathFile = join(electronDir, 'path.txt');
  if (!existsSync(pathFile)) return undefined;
  const executable = join(electronDir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(executable) ? executable : undefined;
}

function downloadRuntime() {
  console.log('Tender: downloading the Electron runtime (first start only)...');
  const install = spawnSync(process.execPath, [join(electronDir, 'install.js')], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'pipe'],
    encoding: 'utf8',
  });
  const output = `${install.stderr ?? ''}${install.error ? String(install.error) : ''}`;
  return output
    .split('\n')
    .find((line) => line.trim() !== '')
    ?.trim();
}

function explainNoRuntime(reason) {
  console.error(
    [
      '',
      'Electron downloads its runtime the first time the app starts and could not here (no internet access?).',
      ...(reason ? [`  Reason: ${reason}`] : []),
      'Run `npm start` again once this computer can reach the internet (or set ELECTRON_MIRROR to a mirror',
      'your network allows) to get the desktop app. Meanwhile the counter runs in a browser.',
    ].join('\n'),
  );
}

const args = process.argv.slice(2);
if (args.includes('--browser')) {
  startInBrowser({ root, electronVite, args });
} else {
  if (!installedRuntime()) {
    const reason = downloadRuntime();
    if (!installedRuntime()) {
      explainNoRuntime(reason);
      startInBrowser({ root, electronVite, args, reason: 'it could not be downloaded' });
    }
  }
  if (installedRuntime()) await openApp(args);
}

async function openApp(extraArgs) {
  try {
    await buildElectronSqlite();
  } catch (error) {
    console.error(explainBuildFailure(error));
    process.exit(1);
  }

  // `preview` builds main, preload and renderer, then starts Electron on the built app; arguments after
  // `--` reach the app itself.
  const app = spawn(
    process.execPath,
    [electronVite, 'preview', ...(extraArgs.length ? ['--', ...extraArgs] : [])],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );

  // Ctrl+C reaches the child through the terminal's process group; a signal sent to this process alone
  // is passed on so the app can close its ledger before exiting.
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => app.kill(signal));
  }

  app.on('error', (error) => {
    console.error(`Tender: could not run electron-vite: ${error.message}`);
    process.exit(1);
  });
  app.on('close', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
