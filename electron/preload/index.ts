import { contextBridge } from 'electron';

/** Replaced at build time with package.json's version (see electron.vite.config.ts). */
declare const __TENDER_VERSION__: string;

/**
 * What the renderer sees as `window.tender`. Keep in step with `TenderBridge` in
 * renderer/src/bridge.d.ts; the renderer never gets ipcRenderer or any Node API.
 */
const bridge = Object.freeze({
  version: __TENDER_VERSION__,
});

contextBridge.exposeInMainWorld('tender', bridge);
