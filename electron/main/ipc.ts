/**
 * The bridge contract on Electron IPC. Every request is answered only for the app's own window, from
 * its top frame, showing the screens' own origin; its input is then validated by the dispatcher.
 * Events go to that window alone, and only while it still shows the screens: a swipe string must
 * never reach another page.
 */
import { invokeChannels, type InvokeChannel } from '../../shared/ipc/contract';
import { bridgeFailure, dispatchInvoke, type BridgeHandlers } from '../bridge/dispatch';
import type { BridgeEventHub } from '../bridge/events';

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
  /** Origins the screens load from: tender://app, or the dev server while developing. */
  origins: readonly string[];
}

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

export function isTrustedSender(event: IpcSender, trusted: TrustedScreens): boolean {
  const frame = event.senderFrame;
  // A frame that navigated away or was destroyed has no senderFrame; a subframe has a parent.
  if (!frame || frame.parent !== null) return false;
  const windowId = trusted.webContentsId();
  if (windowId === undefined || event.sender.id !== windowId) return false;
  const origin = frameOrigin(frame.url);
  return origin !== undefined && trusted.origins.includes(origin);
}

/** Registers a handler per contract channel; returns the function that removes them. */
export function registerBridgeIpc(
  ipcMain: IpcMainLike,
  handlers: BridgeHandlers,
  trusted: TrustedScreens,
): () => void {
  const channels = Object.keys(invokeChannels) as InvokeChannel[];
  for (const channel of channels) {
    ipcMain.handle(channel, (event, input) =>
      isTrustedSender(event, trusted)
        ? dispatchInvoke(handlers, channel, input)
        : bridgeFailure('forbidden', 'Only the Tender window may use the Tender bridge.'),
    );
  }
  return () => {
    for (const channel of channels) ipcMain.removeHandler(channel);
  };
}

/** Sends bridge events to the app window; returns the unsubscribe function. */
export function forwardBridgeEvents(
  events: BridgeEventHub,
  target: () => EventTarget | undefined,
  trustedOrigins: readonly string[],
): () => void {
  return events.subscribe((event, payload) => {
    const contents = target();
    if (!contents || contents.isDestroyed()) return;
    const origin = frameOrigin(contents.mainFrame.url);
    if (origin === undefined || !trustedOrigins.includes(origin)) return;
    contents.send(event, payload);
  });
}
