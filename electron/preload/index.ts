import { contextBridge, ipcRenderer } from 'electron';
import { createBridge } from '../../shared/ipc/facade';
import { ipcTransport } from './ipc-transport';

/** Replaced at build time with package.json's version (see electron.vite.config.ts). */
declare const __TENDER_VERSION__: string;

// `window.tender`, generated from the IPC contract in shared/ipc: typed requests and events, each
// checked against its schema on this side too. Nothing else of Electron or Node is exposed.
contextBridge.exposeInMainWorld(
  'tender',
  createBridge(ipcTransport(ipcRenderer), __TENDER_VERSION__, {
    onInvalidEvent: (event, problem) => console.error(`Tender: ignored a malformed ${event} event.`, problem),
  }),
);
