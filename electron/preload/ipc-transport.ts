/**
 * The bridge transport over Electron IPC. The renderer never sees ipcRenderer or an IPC event
 * (whose `sender` would hand it ipcRenderer back): only the contract's channels, and only payloads.
 */
import type { BridgeTransport } from '../../shared/ipc/facade';

/** The parts of ipcRenderer used here, so tests can stand in for it. */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

export function ipcTransport(ipcRenderer: IpcRendererLike): BridgeTransport {
  return {
    invoke: (channel, input) => ipcRenderer.invoke(channel, input),
    subscribe: (event, listener) => {
      const receive = (_event: unknown, payload: unknown) => listener(payload);
      ipcRenderer.on(event, receive);
      return () => {
        ipcRenderer.removeListener(event, receive);
      };
    },
  };
}
