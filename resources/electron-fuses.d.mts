// Types of electron-fuses.mjs, for the test that flips the fuses of a stand-in binary.
import type { FuseV1Options } from '@electron/fuses';

export declare const TENDER_FUSES: Readonly<Partial<Record<FuseV1Options, boolean>>>;

export interface FusesPackContext {
  appOutDir: string;
  electronPlatformName: string;
  arch: number;
  packager: { appInfo: { productFilename: string }; executableName?: string };
}

export declare function packagedElectronBinary(context: FusesPackContext): string;
export declare function flipTenderFuses(context: FusesPackContext): Promise<void>;
