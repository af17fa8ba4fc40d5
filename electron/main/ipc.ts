/**
 * The bridge contract on Electron IPC. Every request is answered only for the app's own windows, from
 * their top frame, showing the screens' own origin; its input is then validated by the dispatcher.
 * The cashier's window is answered everything; the customer's window only its own few requests.
 * Events go to those windows alone, and only while they still show the screens: a swipe string must
 * never reach another page, nor the customer's window.
 */
import { invokeChannels, type InvokeChannel } from '../../shared/ipc/contract';
import { bridgeFailure, dispatchInvoke, type BridgeHandlers } from '../bridge/dispatch';
import type { BridgeEvents } from '../bridge/events';

/** The parts of an IPC event the sender check reads (a subset of IpcMainInvokeEvent). */
export interface IpcSender {
  sender: { id: number };
  senderFrame: { url: string; parent: unknown } | null;
}

/** The parts of ipcMain used here, so tests can stand in for it. */
export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcSender, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
}

/** The parts of a window's webContents that events are sent through. */
export interface EventTarget {
  readonly mainFrame: { url: string };
  isDestroyed(): boolean;
  send(channel: string, payload: unknown): void;
}

export interface TrustedScreens {
  /** The app window's webContents id; undefined while no window is open. */
  webContentsId(): number | undefined;
  /** The customer's window's webContents id; undefined while it is not open. */
  customerWebContentsId?(): number | undefined;
  /** Origins the screens load from: tender://app, or the dev server while developing. */
  origins: readonly string[];
}

export type ScreenWindowRole = 'cashier' | 'customer';

/**
 * scheme://host of a URL. Node's URL gives "null" as the origin of non-special schemes such as
 * tender://, so the origin is spelled out here the way Chromium sees it.
 */
export function frameOrigin(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.host ? `${parsed.protocol}//${parsed.host}` : undefined;
  } catch {
    return undefined;
  }
}

/** Which of the app's windows sent a request, from its top frame on the screens' origin; else undefined. */
export function senderRole(event: IpcSender, trusted: TrustedScreens): ScreenWindowRole | undefined {
  const frame = event.senderFrame;
  // A frame that navigated away or was destroyed has no senderFrame; a subframe has a parent.
  if (!frame || frame.parent !== null) return undefined;
  const origin = frameOrigin(frame.url);
  if (origin === undefined || !trusted.origins.includes(origin)) return undefined;
  const id = event.sender.id;
  if (id === trusted.webContentsId()) return 'cashier';
  if (trusted.customerWebContentsId !== undefined && id === trusted.customerWebContentsId())
    return 'customer';
  return undefined;
}

/** The cashier's window, and nothing else. */
export function isTrustedSender(event: IpcSender, trusted: TrustedScreens): boolean {
  return senderRole(event, trusted) === 'cashier';
}

/**
 * Registers a handler per contract channel; returns the function that removes them. The customer's
 * window is answered only from `customerHandlers`; every other channel is refused to it.
 */
export function registerBridgeIpc(
  ipcMain: IpcMainLike,
  handlers: BridgeHandlers,
  trusted: TrustedScreens,
  customerHandlers: Partial<BridgeHandlers> = {},
): () => void {
  const channels = Object.keys(invokeChannels) as InvokeChannel[];
  for (const channel of channels) {
    ipcMain.handle(channel, (event, input) => {
      const role = senderRole(event, trusted);
      if (role === 'cashier') return dispatchInvoke(handlers, channel, input);
      if (role === 'customer') return dispatchInvoke(customerHandlers, channel, input);
      return bridgeFailure('forbidden', 'Only the Tender window may use the Tender bridge.');
    });
  }
  return () => {
    for (const channel of channels) ipcMain.removeHandler(channel);
  };
}

/**
 * Sends bridge events to one of the app's windows; returns the unsubscribe function. With `only`, just
 * those events (the customer's window gets its own view and nothing of the counter's).
 */
export function forwardBridgeEvents(
  events: BridgeEvents,
  target: () => EventTarget | undefined,
  trustedOrigins: readonly string[],
  only?: readonly string[],
): () => void {
  return events.subscribe((event, payload) => {
    if (only && !only.includes(event)) return;
    const contents = target();
    if (!contents || contents.isDestroyed()) return;
    const origin = frameOrigin(contents.mainFrame.url);
    if (origin === undefined || !trustedOrigins.includes(origin)) return;
    contents.send(event, payload);
  });
}
