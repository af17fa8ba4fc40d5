/**
 * The screens run the same code in the desktop app and in a browser; only the bridge differs, and
 * it is chosen here, once, at startup: the preload's window.tender when present, otherwise the
 * WebSocket bridge of `npm run gateway -- serve --renderer`, whose token arrives in the address.
 */
import type { TenderBridge } from '../../../shared/ipc/contract';
import { createBridge } from '../../../shared/ipc/facade';
import { BRIDGE_SOCKET_PATH, BRIDGE_TOKEN_PARAMETER } from '../../../shared/ipc/socket-protocol';
import { socketTransport, type SocketTransport } from '../../../shared/ipc/socket-transport';

export type BridgeChoice =
  | { kind: 'desktop'; bridge: TenderBridge }
  | { kind: 'browser'; bridge: TenderBridge; link: SocketTransport }
  | { kind: 'none' };

const TOKEN_STORAGE_KEY = 'tender.bridge-token';

/**
 * Takes the token out of the address (so it is not bookmarked, shared or shown) into this tab's
 * session storage, where a reload finds it again.
 */
function takeToken(): string | undefined {
  const fragment = new URLSearchParams(window.location.hash.slice(1));
  const fromAddress = fragment.get(BRIDGE_TOKEN_PARAMETER);
  if (fromAddress) {
    window.sessionStorage.setItem(TOKEN_STORAGE_KEY, fromAddress);
    window.history.replaceState(null, '', `${window.location.pathname}${window.location.search}`);
    return fromAddress;
  }
  return window.sessionStorage.getItem(TOKEN_STORAGE_KEY) ?? undefined;
}

function openBrowserSocket(url: string) {
  return (handlers: {
    open(): void;
    message(text: string): void;
    close(code: number, reason: string): void;
  }) => {
    const socket = new WebSocket(url);
    socket.onopen = () => handlers.open();
    socket.onmessage = (event) => {
      if (typeof event.data === 'string') handlers.message(event.data);
    };
    socket.onclose = (event) => handlers.close(event.code, event.reason);
    return {
      send: (text: string) => socket.send(text),
      close: (code?: number, reason?: string) => socket.close(code, reason),
    };
  };
}

export function chooseBridge(): BridgeChoice {
  if (window.tender) return { kind: 'desktop', bridge: window.tender };
  const token = takeToken();
  if (!token || window.location.protocol !== 'https:') return { kind: 'none' };
  const link = socketTransport(
    openBrowserSocket(`wss://${window.location.host}${BRIDGE_SOCKET_PATH}`),
    token,
    {
      schedule: (callback, delayMs) => {
        const timer = window.setTimeout(callback, delayMs);
        return () => window.clearTimeout(timer);
      },
    },
  );
  const bridge = createBridge(link, '', {
    onInvalidEvent: (event, problem) => console.error(`Tender: ignored a malformed ${event} event.`, problem),
  });
  return { kind: 'browser', bridge, link };
}
