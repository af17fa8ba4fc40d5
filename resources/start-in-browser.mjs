// The counter without Electron's runtime: the headless engine serves the cashier screens, and an
// installed Chromium, Chrome or Edge shows them as an app window (`--app=`, no tabs or address bar)
// trusting only this engine's own certificate. Where no such browser is installed, or its window
// cannot open (no display), the engine keeps serving and says where the screens are.
//
// Nothing that opens the bridge goes on the browser's command line, which every user of the computer
// can read: the window opens the engine's launch page, a file in the data dir only this user can
// read, which sends it on to the screens with a single-use pairing ticket.
import { spawn, spawnSync } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';

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

/**
 * Why the browser gave up, in one line, from what it wrote on stderr: Chromium logs every problem as
 * `[pid:tid:time:ERROR:file:line] text`, the cause first after the noise of a missing session bus.
 */
export function browserFailure(stderr) {
  const errors = stderr
    .split('\n')
    .map((line) => /^\[[^\]]*ERROR:[^\]]*\]\s*(.+)$/.exec(line.trim())?.[1])
    .filter((text) => text !== undefined && !/bus|dbus/i.test(text));
  return (
    errors[0] ??
    stderr
      .split('\n')
      .filter((line) => line.trim() !== '')
      .pop()
      ?.trim()
  );
}

/** Chromium refuses to run as root with its sandbox; the window then runs without it. */
export function browserArguments({ launchPage, profile, certificate, asRoot }) {
  return [
    `--app=${pathToFileURL(launchPage).href}`,
    `--user-data-dir=${profile}`,
    `--ignore-certificate-errors-spki-list=${spkiHash(certificate)}`,
    '--no-first-run',
    '--no-default-browser-check',
    ...(asRoot ? ['--no-sandbox'] : []),
  ];
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
    // The engine prints the screens' address, then the launch page: the window opens after both.
    const launch = /^To open them in a browser on this computer, open (file:\S+)$/.exec(line)?.[1];
    if (!launch || opened) return;
    opened = true;
    if (!browser) return;
    const launchPage = fileURLToPath(launch);
    const asRoot = process.getuid?.() === 0;
    const profile = join(dataDir, 'browser-profile');
    mkdirSync(profile, { recursive: true, mode: 0o700 });
    if (asRoot) console.log('Tender: running as root, so the browser window runs without its sandbox.');
    const window = spawn(
      browser,
      browserArguments({
        launchPage,
        profile,
        certificate: readFileSync(join(dataDir, 'tls', 'cert.pem'), 'utf8'),
        asRoot,
      }),
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    window.stderr.on('data', (chunk) => (stderr = `${stderr}${chunk}`.slice(-16_384)));
    const keepServing = (why) =>
      console.error(
        `Tender: the browser window could not open (${why}); the payment engine keeps serving the cashier screens: open the launch page above in a browser on this computer.`,
      );
    window.on('error', (error) => keepServing(`${browser}: ${error.message}`));
    window.on('exit', (code, signal) => {
      // A window that failed to open leaves the counter running for another browser; closing an open
      // window closes the counter, as closing the app would.
      if (code !== 0 && signal === null) keepServing(browserFailure(stderr) ?? `exit status ${code}`);
      else engine.kill('SIGTERM');
    });
  });
}
