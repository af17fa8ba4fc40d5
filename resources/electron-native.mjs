// Builds better-sqlite3 for Electron into out/native/<platform>-<arch>/better_sqlite3.node, where the
// desktop app loads it (electron/main/native.ts spells the same path).
//
// better-sqlite3 is not N-API: one build serves either Node or Electron. node_modules keeps the Node
// build that the tests and the headless engine use; this step works on a copy of the module's sources
// in a scratch project, so it can never overwrite that build. `npm start` and packaging run it; it
// does nothing when the build on disk is for the same Electron and better-sqlite3 versions.
//
//   node resources/electron-native.mjs [--platform linux|darwin|win32] [--arch x64|arm64] [--force]
//
// @electron/rebuild first downloads a prebuilt binary for that Electron version and platform (the only
// way to get one for another platform), and otherwise compiles from source against Electron's headers
// (python3, make and a C++ compiler, on the same platform only).
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SQLITE_SOURCES = ['package.json', 'binding.gyp', 'lib', 'src', 'deps'];

/** Where the desktop app looks for its better-sqlite3 build (before packaging moves it out of app.asar). */
export function electronSqlitePath(outDir, platform, arch) {
  return join(outDir, 'native', `${platform}-${arch}`, 'better_sqlite3.node');
}

function readJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

function defaults(root) {
  const require = createRequire(join(root, 'package.json'));
  return {
    outDir: join(root, 'out'),
    stageDir: join(root, 'node_modules', '.cache', 'tender-electron-native'),
    sqliteDir: dirname(require.resolve('better-sqlite3/package.json')),
    electronVersion: readJson(require.resolve('electron/package.json')).version,
  };
}

/**
 * Builds (or finds already built) better-sqlite3 for Electron. `rebuild` is @electron/rebuild's, unless
 * a test hands in its own. Resolves with the addon's path and whether it was built this time.
 */
export async function buildElectronSqlite(options = {}) {
  const root = options.root ?? ROOT;
  const { outDir, stageDir, sqliteDir, electronVersion } = { ...defaults(root), ...options };
  const platform = options.platform ?? process.platform;
  const arch = options.arch ?? process.arch;
  const log = options.log ?? ((line) => console.log(line));
  const sqliteVersion = readJson(join(sqliteDir, 'package.json')).version;

  const target = electronSqlitePath(outDir, platform, arch);
  const manifestFile = join(dirname(target), 'build.json');
  const manifest = { electron: electronVersion, 'better-sqlite3': sqliteVersion, platform, arch };
  if (!options.force && existsSync(target) && existsSync(manifestFile)) {
    if (JSON.stringify(readJson(manifestFile)) === JSON.stringify(manifest)) return { target, built: false };
  }

  log(
    `Tender: building better-sqlite3 ${sqliteVersion} for Electron ${electronVersion} (${platform}-${arch})...`,
  );
  const stage = join(stageDir, `${platform}-${arch}`);
  rmSync(stage, { recursive: true, force: true });
  const stagedModule = join(stage, 'node_modules', 'better-sqlite3');
  mkdirSync(stagedModule, { recursive: true });
  for (const entry of SQLITE_SOURCES) {
    cpSync(join(sqliteDir, entry), join(stagedModule, entry), { recursive: true });
  }
  writeFileSync(
    join(stage, 'package.json'),
    JSON.stringify({
      name: 'tender-electron-native',
      private: true,
      dependencies: { 'better-sqlite3': sqliteVersion },
    }),
  );

  const rebuild = options.rebuild ?? (await import('@electron/rebuild')).rebuild;
  await rebuild({
    buildPath: stage,
    projectRootPath: stage,
    electronVersion,
    platform,
    arch,
    onlyModules: ['better-sqlite3'],
    force: true,
    mode: 'sequential',
  });

  const built = join(stagedModule, 'build', 'Release', 'better_sqlite3.node');
  if (!existsSync(built)) throw new Error(`the rebuild finished without producing ${built}`);
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(built, target);
  writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
  rmSync(stage, { recursive: true, force: true });
  log(`Tender: better-sqlite3 for Electron is in ${target}`);
  return { target, built: true };
}

export function explainBuildFailure(error) {
  const reason = error instanceof Error ? error.message : String(error);
  return [
    '',
    "Tender could not build its database module (better-sqlite3) for Electron's runtime.",
    `  Reason: ${reason}`,
    '',
    'This step downloads a prebuilt binary for your Electron version, or else compiles one against',
    "Electron's headers (downloaded too) with python3, make and a C++ compiler. Check the internet",
    'connection (or ELECTRON_MIRROR), install those build tools, and run `npm start` again.',
    '',
  ].join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({
    options: { platform: { type: 'string' }, arch: { type: 'string' }, force: { type: 'boolean' } },
  });
  try {
    const { target, built } = await buildElectronSqlite(values);
    if (!built) console.log(`Tender: better-sqlite3 for Electron is up to date in ${target}`);
  } catch (error) {
    console.error(explainBuildFailure(error));
    process.exit(1);
  }
}
