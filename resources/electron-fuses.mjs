// Electron fuses of the packaged app, flipped by electron-builder's afterPack hook (see
// electron-builder.config.mjs) in the Electron binary itself, before the package is signed.
//
// A shop computer is shared and rarely watched, so the binary must not be usable as anything but
// Tender: not as a plain Node (ELECTRON_RUN_AS_NODE), not with code injected through NODE_OPTIONS or
// a debugger attached with --inspect, and not with an app.asar edited after packaging or a loose app
// folder put beside it.
import { join } from 'node:path';
import { flipFuses, FuseV1Options, FuseVersion } from '@electron/fuses';

/** The fuses Tender sets; any other keeps Electron's default. */
export const TENDER_FUSES = Object.freeze({
  [FuseV1Options.RunAsNode]: false,
  [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
  [FuseV1Options.EnableNodeCliInspectArguments]: false,
  [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
  [FuseV1Options.OnlyLoadAppFromAsar]: true,
});

/** electron-builder's Arch.arm64. */
const ARM64 = 3;

/** Where electron-builder put the Electron binary of this package (the same rule it uses itself). */
export function packagedElectronBinary(context) {
  const { appOutDir, electronPlatformName, packager } = context;
  if (electronPlatformName === 'darwin' || electronPlatformName === 'mas') {
    return join(appOutDir, `${packager.appInfo.productFilename}.app`);
  }
  if (electronPlatformName === 'win32') return join(appOutDir, `${packager.appInfo.productFilename}.exe`);
  return join(appOutDir, packager.executableName ?? packager.appInfo.productFilename);
}

/** electron-builder's afterPack hook. */
export async function flipTenderFuses(context) {
  await flipFuses(packagedElectronBinary(context), {
    version: FuseVersion.V1,
    // Changing the binary breaks the ad-hoc signature an Apple Silicon build needs to start at all.
    resetAdHocDarwinSignature: context.electronPlatformName === 'darwin' && context.arch === ARM64,
    ...TENDER_FUSES,
  });
}
