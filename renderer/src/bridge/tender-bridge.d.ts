import type { TenderBridge } from '../../../shared/ipc/contract';

declare global {
  interface Window {
    /** Set by the desktop app's preload; absent in a browser, where the WebSocket bridge stands in. */
    readonly tender?: TenderBridge;
  }
}
