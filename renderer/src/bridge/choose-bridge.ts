/**
 * The screens run the same code in the desktop app and in a browser; only the bridge differs, and
 * it is chosen here, once, at startup: the preload's window.tender when present, otherwise the
 * WebSocket bridge of `npm run gateway -- serve --renderer`, which a page joins with the pairing
 * ticket it was opened with (in the address's fragment) and then with the credential the host made
 * for it.
 */
import type { TenderBridge } from '../../../shared/ipc/contract';
import { createBridge } from '../../../shared/ipc/facade';
import { BRIDGE_PAIRING_PARAMETER, BRIDGE_SOCKET_PATH } from '../../../shared/ipc/socket-protocol';
import { socketTransport, type PagePass, type SocketTransport } from '../../../shared/ipc/socket-transport';

export type BridgeChoice =
  | { kind: 'desktop'; bridge: TenderBridge }
  | { kind: 'browser'; bridge: TenderBridge; link: SocketTransport }
  | { kind: 'none' };

/**
 * This tab's credential: session storage is the tab's own, and a reload finds it again. The
 * customer's screen keeps its own under another name, so neither page ever presents the other's.
 */
const CREDENTIAL_STORAGE_KEYS = {
  cashier: 'tender.screen-credential',
  customer: 'tender.customer-screen-credential',
} as const;

export type PageRole = keyof typeof CREDENTIAL_STORAGE_KEYS;

/**
 * Who this page is to the host: a pairing ticket taken out of the address (so it is not bookmarked,
 * shared or shown, and a reload does not try it twice), else the credential this tab was given.
 */
function pageAtStart(role: PageRole): PagePass | undefined {
  const fragment = new URLSearchParams(window.location.hash.slice(1));
  const ticket = fragment.get(BRIDGE_PAIRING_PARAMETER);
  if (ticket) window.history.replaceState(null, '', `${window.location.pathname}${window.location.search}`);
  const storageKey = CREDENTIAL_STORAGE_KEYS[role];
  const keep = (credential: string) => window.sessionStorage.setItem(storageKey, credential);
  // A new ticket pairs this tab afresh, even one that was a screen before.
  if (ticket) return { ticket, keep };
  const credential = window.sessionStorage.getItem(storageKey) ?? undefined;
  return credential === undefined ? undefined : { credential, keep };
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

/** The bridge of this page, a cashier's screen or the customer's. */
export function chooseBridge(role: PageRole = 'cashier'): BridgeChoice {
  if (window.tender) return { kind: 'desktop', bridge: window.tender };
  const pass = pageAtStart(role);
  if (!pass || window.location.protocol !== 'https:') return { kind: 'none' };
  const link = socketTransport(
    openBrowserSocket(`wss://${window.location.host}${BRIDGE_SOCKET_PATH}`),
    pass,
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
