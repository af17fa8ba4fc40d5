// Packaging for Linux, Windows and macOS with electron-builder. Run through `npm run package`
// (resources/package.mjs), which first builds better-sqlite3 for Electron and the app itself.
//
// Native modules: better-sqlite3 is loaded from out/native/<platform>-<arch>/ (built for Electron by
// resources/electron-native.mjs), so the Node build in node_modules is left out. node-hid ships N-API
// prebuilds for every platform, which Electron loads as they are: it is never rebuilt. electron-builder
// must therefore not rebuild node_modules itself (npmRebuild: false), which would also overwrite the
// Node build the tests use. Addons cannot load from inside app.asar, so both are unpacked beside it.
//
// Electron fuses are flipped in afterPack (resources/electron-fuses.mjs), before signing.
import { flipTenderFuses } from './electron-fuses.mjs';

/** @type {import('electron-builder').Configuration} */
const config = {
  appId: 'org.tender.pos',
  productName: 'Tender',
  copyright: 'Copyright © Tender contributors. MIT licence.',
  directories: { output: 'dist', buildResources: 'resources/build' },
  files: [
    'package.json',
    'out/main/**',
    'out/preload/**',
    'out/renderer/**',
    '!node_modules/better-sqlite3/build/**',
    '!node_modules/better-sqlite3/deps/**',
    '!node_modules/better-sqlite3/src/**',
    // React is bundled into out/renderer; the main process never loads it.
    '!node_modules/react/**',
    '!node_modules/react-dom/**',
    '!node_modules/scheduler/**',
  ],
  asar: true,
  asarUnpack: ['out/native/**', 'node_modules/node-hid/**'],
  npmRebuild: false,
  nodeGypRebuild: false,
  buildDependenciesFromSource: false,
  afterPack: flipTenderFuses,
  // The udev rule that lets the logged-in user open MagTek readers on Linux (see docs/operations.md).
  extraResources: [{ from: 'resources/udev', to: 'udev' }],
  linux: {
    target: ['AppImage', 'deb'],
    category: 'Office',
    synopsis: 'Counter point of sale',
    files: ['out/native/linux-${arch}/**'],
  },
  deb: {
    // electron-builder's own list, plus what node-hid needs to open readers (libudev for hidraw, libusb).
    depends: [
      'libgtk-3-0',
      'libnotify4',
      'libnss3',
      'libxss1',
      'libxtst6',
      'xdg-utils',
      'libatspi2.0-0',
      'libuuid1',
      'libsecret-1-0',
      'libudev1',
      'libusb-1.0-0',
    ],
  },
  win: {
    target: ['nsis'],
    files: ['out/native/win32-${arch}/**'],
  },
  nsis: { oneClick: false, perMachine: false, allowToChangeInstallationDirectory: true },
  mac: {
    target: ['dmg'],
    category: 'public.app-category.business',
    hardenedRuntime: true,
    files: ['out/native/darwin-${arch}/**'],
  },
};

export default config;
