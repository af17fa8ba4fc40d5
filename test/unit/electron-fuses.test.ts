/**
 * The packaged app's Electron fuses: electron-builder's afterPack hook flips them in the binary, here
 * a stand-in file carrying Electron's fuse wire, laid out where electron-builder puts each platform's
 * binary. Reading the wire back with @electron/fuses shows what a packaged Tender would run with.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { afterEach, describe, expect, it } from 'vitest';
import builderConfig from '../../resources/electron-builder.config.mjs';
import {
  flipTenderFuses,
  packagedElectronBinary,
  TENDER_FUSES,
  type FusesPackContext,
} from '../../resources/electron-fuses.mjs';

const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
const ENABLED = 49;
const DISABLED = 48;
/** Electron's defaults for its eight V1 fuses, as an Electron 45 binary ships them. */
const ELECTRON_DEFAULTS = '10110001';

const scratch: string[] = [];
afterEach(() => scratch.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A file laid out like the Electron binary around its fuse wire. */
function standInBinary(file: string): void {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(
    file,
    Buffer.concat([
      Buffer.from('\x7fELF…machine code…'),
      Buffer.from(SENTINEL),
      Buffer.from([1, ELECTRON_DEFAULTS.length]),
      Buffer.from(ELECTRON_DEFAULTS),
      Buffer.from('…more machine code'),
    ]),
  );
}

function linuxPackage(): FusesPackContext {
  const appOutDir = mkdtempSync(join(tmpdir(), 'tender-fuses-'));
  scratch.push(appOutDir);
  return {
    appOutDir,
    electronPlatformName: 'linux',
    arch: 1,
    packager: { appInfo: { productFilename: 'Tender' }, executableName: 'tender' },
  };
}

describe('the packaged app’s Electron fuses', () => {
  it('are flipped by electron-builder’s afterPack hook', () => {
    expect(builderConfig.afterPack).toBe(flipTenderFuses);
  });

  it('turn off running as Node, NODE_OPTIONS and --inspect, and turn on asar integrity and asar-only loading', async () => {
    const context = linuxPackage();
    const binary = join(context.appOutDir, 'tender');
    standInBinary(binary);
    await flipTenderFuses(context);

    const wire = await getCurrentFuseWire(binary);
    expect(wire[FuseV1Options.RunAsNode]).toBe(DISABLED);
    expect(wire[FuseV1Options.EnableNodeOptionsEnvironmentVariable]).toBe(DISABLED);
    expect(wire[FuseV1Options.EnableNodeCliInspectArguments]).toBe(DISABLED);
    expect(wire[FuseV1Options.EnableEmbeddedAsarIntegrityValidation]).toBe(ENABLED);
    expect(wire[FuseV1Options.OnlyLoadAppFromAsar]).toBe(ENABLED);
    // Fuses Tender does not name keep Electron's defaults.
    expect(wire[FuseV1Options.EnableCookieEncryption]).toBe(DISABLED);
    expect(wire[FuseV1Options.GrantFileProtocolExtraPrivileges]).toBe(ENABLED);
  });

  it('name exactly the five fuses Tender depends on', () => {
    expect(TENDER_FUSES).toEqual({
      [FuseV1Options.RunAsNode]: false,
      [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
      [FuseV1Options.EnableNodeCliInspectArguments]: false,
      [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
      [FuseV1Options.OnlyLoadAppFromAsar]: true,
    });
  });

  it('are found where electron-builder puts each platform’s binary', () => {
    const packager = { appInfo: { productFilename: 'Tender' }, executableName: 'tender' };
    const at = (electronPlatformName: string) =>
      packagedElectronBinary({ appOutDir: '/out', electronPlatformName, arch: 1, packager });
    expect(at('linux')).toBe('/out/tender');
    expect(at('win32')).toBe('/out/Tender.exe');
    expect(at('darwin')).toBe('/out/Tender.app');
  });

  it('refuse a binary without a fuse wire rather than package it unprotected', async () => {
    const context = linuxPackage();
    writeFileSync(join(context.appOutDir, 'tender'), 'not electron');
    await expect(flipTenderFuses(context)).rejects.toThrow(/sentinel/);
  });
});
