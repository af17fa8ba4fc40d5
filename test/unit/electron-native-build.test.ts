/**
 * The desktop app's native side without Electron: the step that builds better-sqlite3 for Electron
 * (with @electron/rebuild stood in for, since it needs the internet) and the packaging config.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { electronSqliteBinding } from '../../electron/main/native';
import builderConfig from '../../resources/electron-builder.config.mjs';
import {
  buildElectronSqlite,
  electronSqlitePath,
  ROOT,
  type RebuildOptions,
} from '../../resources/electron-native.mjs';

const require = createRequire(join(ROOT, 'package.json'));
const nodeBuild = join(
  dirname(require.resolve('better-sqlite3/package.json')),
  'build',
  'Release',
  'better_sqlite3.node',
);
const digest = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

const scratch: string[] = [];
afterEach(() => scratch.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function folders() {
  const dir = mkdtempSync(join(tmpdir(), 'tender-native-'));
  scratch.push(dir);
  return { outDir: join(dir, 'out'), stageDir: join(dir, 'stage') };
}

/** Stands in for @electron/rebuild: checks it got a copy of the sources, and "compiles" one. */
function fakeRebuild(content = 'electron build') {
  return vi.fn(async (options: RebuildOptions) => {
    const module = join(options.buildPath, 'node_modules', 'better-sqlite3');
    expect(existsSync(join(module, 'binding.gyp'))).toBe(true);
    expect(existsSync(join(module, 'src'))).toBe(true);
    mkdirSync(join(module, 'build', 'Release'), { recursive: true });
    writeFileSync(join(module, 'build', 'Release', 'better_sqlite3.node'), content);
  });
}

describe('the Electron build of better-sqlite3', () => {
  it('is built from a copy of the sources and written to out/native, leaving node_modules alone', async () => {
    const before = digest(nodeBuild);
    const { outDir, stageDir } = folders();
    const rebuild = fakeRebuild();
    const result = await buildElectronSqlite({
      outDir,
      stageDir,
      platform: 'linux',
      arch: 'x64',
      rebuild,
      log: () => undefined,
    });
    expect(result).toEqual({
      target: join(outDir, 'native', 'linux-x64', 'better_sqlite3.node'),
      built: true,
    });
    expect(readFileSync(result.target, 'utf8')).toBe('electron build');
    expect(rebuild).toHaveBeenCalledOnce();
    const options = rebuild.mock.calls[0]?.[0];
    expect(options).toMatchObject({
      electronVersion: require('electron/package.json').version,
      platform: 'linux',
      arch: 'x64',
      onlyModules: ['better-sqlite3'],
    });
    expect(options?.buildPath.startsWith(stageDir)).toBe(true);
    expect(existsSync(options?.buildPath ?? '')).toBe(false);
    expect(digest(nodeBuild)).toBe(before);
  });

  it('is not built again for the same Electron and better-sqlite3, but is for another Electron', async () => {
    const { outDir, stageDir } = folders();
    const quiet = { outDir, stageDir, platform: 'linux', arch: 'x64', log: () => undefined };
    await buildElectronSqlite({ ...quiet, rebuild: fakeRebuild() });
    const again = fakeRebuild();
    expect(await buildElectronSqlite({ ...quiet, rebuild: again })).toMatchObject({ built: false });
    expect(again).not.toHaveBeenCalled();
    const newer = fakeRebuild('newer electron');
    expect(await buildElectronSqlite({ ...quiet, electronVersion: '99.0.0', rebuild: newer })).toMatchObject({
      built: true,
    });
    expect(newer).toHaveBeenCalledOnce();
  });

  it('keeps one build per platform and architecture, for packaging other targets', async () => {
    const { outDir, stageDir } = folders();
    const result = await buildElectronSqlite({
      outDir,
      stageDir,
      platform: 'win32',
      arch: 'arm64',
      rebuild: fakeRebuild(),
      log: () => undefined,
    });
    expect(result.target).toBe(join(outDir, 'native', 'win32-arm64', 'better_sqlite3.node'));
  });

  it('is found by the main process where the step writes it, and beside app.asar when packaged', () => {
    expect(electronSqliteBinding(ROOT, 'linux', 'x64', false)).toBe(
      electronSqlitePath(join(ROOT, 'out'), 'linux', 'x64'),
    );
    expect(electronSqliteBinding(join('/opt', 'Tender', 'resources', 'app.asar'), 'linux', 'x64', true)).toBe(
      join(
        '/opt',
        'Tender',
        'resources',
        'app.asar.unpacked',
        'out',
        'native',
        'linux-x64',
        'better_sqlite3.node',
      ),
    );
  });
});

describe('the packaging config', () => {
  it('is valid for electron-builder', async () => {
    const { validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
      validateConfiguration(config: unknown, logger: { isEnabled: boolean; add(): void }): Promise<void>;
    };
    await expect(
      validateConfiguration(builderConfig, { isEnabled: false, add: () => undefined }),
    ).resolves.toBeUndefined();
  });

  it('never rebuilds node_modules, and unpacks the native modules', () => {
    expect(builderConfig.npmRebuild).toBe(false);
    expect(builderConfig.asarUnpack).toEqual(
      expect.arrayContaining(['out/native/**', 'node_modules/node-hid/**']),
    );
    expect(builderConfig.files).toContain('!node_modules/better-sqlite3/build/**');
  });

  it('puts each platform’s Electron build of better-sqlite3 in its package', () => {
    const platforms = { linux: 'linux', win: 'win32', mac: 'darwin' } as const;
    for (const [key, platform] of Object.entries(platforms)) {
      const section = builderConfig[key as keyof typeof platforms];
      const native = electronSqlitePath('out', platform, '${arch}').replace(/better_sqlite3\.node$/, '**');
      expect(section?.files, key).toEqual([native.split('\\').join('/')]);
    }
  });
});
