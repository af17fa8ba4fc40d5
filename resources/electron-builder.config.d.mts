// Types of electron-builder.config.mjs, for the test that validates it.
import type { Configuration } from 'electron-builder';

declare const config: Configuration;
export default config;
