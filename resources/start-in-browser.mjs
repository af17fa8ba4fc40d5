// The counter without Electron's runtime: the headless engine serves the cashier screens, and an
// installed Chromium, Chrome or Edge shows them as an app window (`--app=`, no tabs or address bar)
// trusting only this engine's own certificate. Where no such browser is installed, the screens'
// address is printed for any browser on this computer.
import { spawn, spawnSync } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

const BROWSERS = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'microsoft-edge'];

/** An installed Chromium-family browser: TENDER_BROWSER when set, else the first on the PATH. */
export function findBrowser(env = process.env) {
  if (env.TENDER_BROWSER) return existsSync(env.TENDER_BROWSER) ? env.TENDER_BROWSER : undefined;
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    for (const name of BROWSERS) {
      const candidate = join(dir, name);
      if (existsSync(candidate)) return candidate;
    }
  }
  return undefined;
}

/** The base64 SHA-256 of the certificate's public key, as Chromium's SPKI allow list takes it. */
export function spkiHash(certificatePem) {
  const spki = new X509Certificate(certificatePem).publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(spki).digest('base64');
}

/** `--data-dir <dir>`, `--port <n>` and `--simulate-reader` from `npm start -- ...`. */
function options(args) {
  const valueOf = (name, fallback) => {
    const index = args.indexOf(name);
    return index >= 0 && args[index + 1] ? args[index + 1] : fallback;
  };
  return {
    dataDir: resolve(valueOf('--data-dir', '.tender-data')),
    port: valueOf('--port', '8443'),
    simulate: args.includes('--simulate-reader'),
  };
}

export function startInBrowser({ root, electronVite, args, reason }) {
  const { dataDir, port, simulate } = options(args);
  const browser = findBrowser();
  console.log(
    [
      '',
      reason
        ? `Tender: Electron's runtime is not available (${reason}).`
        : 'Tender: the counter opens in a browser, as asked.',
      browser
        ? `The cashier screens open in ${browser} as an app window instead, served by the payment engine.`
        : 'No Chromium, Chrome or Edge is installed: the cashier screens are served to any browser here.',
      '',
    ].join('\n'),
  );

  const build = spawnSync(process.execPath, [electronVite, 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) {
    console.error('Tender: the cashier screens could not be built.');
    process.exit(1);
  }

  const engine = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(root, 'electron', 'cli.ts'),
      'serve',
      '--data-dir',
      dataDir,
      '--port',
      port,
      '--renderer-dir',
      join(process.env.TENDER_BUILD_DIR ?? join(root, 'out'), 'renderer'),
      ...(simulate ? ['--reader', 'simulator'] : []),
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => engine.kill(signal));
  engine.on('close', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

  let opened = false;
  createInterface({ input: engine.stdout }).on('line', (line) => {
    console.log(line);
    const screens = /^Cashier screens: (\S+)$/.exec(line)?.[1];
    if (!screens || opened) return;
    opened = true;
    if (!browser) {
      console.log(`\nOpen the cashier screens at ${screens}`);
      return;
    }
    const certificate = readFileSync(join(dataDir, 'tls', 'cert.pem'), 'utf8');
    const profile = join(dataDir, 'browser-profile');
    mkdirSync(profile, { recursive: true });
    const window = spawn(
      browser,
      [
        `--app=${screens}`,
        `--user-data-dir=${profile}`,
        `--ignore-certificate-errors-spki-list=${spkiHash(certificate)}`,
        '--no-first-run',
        '--no-default-browser-check',
      ],
      { stdio: 'ignore' },
    );
    window.on('error', (error) => {
      console.error(`Tender: ${browser} could not be started (${error.message}). Open ${screens} instead.`);
    });
    // Closing the window closes the counter, as closing the app would.
    window.on('exit', () => engine.kill('SIGTERM'));
  });
}
