// Types of electron-native.mjs, for the tests that drive it.
export const ROOT: string;

export function electronSqlitePath(outDir: string, platform: string, arch: string): string;

export interface RebuildOptions {
  buildPath: string;
  projectRootPath: string;
  electronVersion: string;
  platform: string;
  arch: string;
  onlyModules: string[];
  force: boolean;
  mode: 'sequential';
}

export interface BuildElectronSqliteOptions {
  root?: string;
  outDir?: string;
  stageDir?: string;
  sqliteDir?: string;
  electronVersion?: string;
  platform?: string;
  arch?: string;
  force?: boolean;
  rebuild?: (options: RebuildOptions) => Promise<void>;
  log?: (line: string) => void;
}

export function buildElectronSqlite(
  options?: BuildElectronSqliteOptions,
): Promise<{ target: string; built: boolean }>;

export function explainBuildFailure(error: unknown): string;
