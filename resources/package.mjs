// `npm run package`: installers of the desktop app with electron-builder (resources/electron-builder.config.mjs).
//
//   npm run package                      this computer's platform and architecture
//   npm run package -- --linux --x64     AppImage and .deb
//   npm run package -- --win --x64       NSIS installer
//   npm run package -- --mac --arm64     dmg (on macOS: Apple's tools sign and build it)
//   npm run package -- --dir             an unpacked app folder only, to try it quickly
//
// Each target first gets better-sqlite3 built for Electron (resources/electron-native.mjs) and the app
// built by electron-vite; installers land in dist/. Build each platform on its own OS where possible:
// a prebuilt better-sqlite3 can be downloaded for another platform, but not compiled for it.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildElectronSqlite, explainBuildFailure, ROOT } from './electron-native.mjs';

const require = createRequire(join(ROOT, 'package.json'));
const PLATFORMS = { linux: 'linux', win: 'win32', mac: 'darwin' };
const HOST = Object.keys(PLATFORMS).find((name) => PLATFORMS[name] === process.platform);
const ARCHES = ['x64', 'arm64', 'ia32'];

const { values } = parseArgs({
  options: {
    linux: { type: 'boolean' },
    win: { type: 'boolean' },
    mac: { type: 'boolean' },
    x64: { type: 'boolean' },
    arm64: { type: 'boolean' },
    ia32: { type: 'boolean' },
    dir: { type: 'boolean' },
  },
});
const platforms = Object.keys(PLATFORMS).filter((name) => values[name]);
const arches = ARCHES.filter((arch) => values[arch]);
if (platforms.length === 0 && HOST) platforms.push(HOST);
if (arches.length === 0) arches.push(process.arch);

function run(command, args) {
  const result = spawnSync(process.execPath, [command, ...args], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

try {
  for (const platform of platforms) {
    for (const arch of arches) await buildElectronSqlite({ platform: PLATFORMS[platform], arch });
  }
} catch (error) {
  console.error(explainBuildFailure(error));
  process.exit(1);
}

run(join(dirname(require.resolve('electron-vite/package.json')), 'bin', 'electron-vite.js'), ['build']);
run(join(dirname(require.resolve('electron-builder/package.json')), 'cli.js'), [
  '--config',
  'resources/electron-builder.config.mjs',
  ...platforms.map((platform) => `--${platform}`),
  ...arches.map((arch) => `--${arch}`),
  ...(values.dir ? ['--dir'] : []),
]);
