/**
 * What every web page Electron creates is refused, whatever loaded it: navigating away, opening
 * windows, attaching webviews, and browser permissions. The one permission granted is writing text to
 * the clipboard, for the screens' own origin alone, so that a manager can copy a new API key.
 */
import { frameOrigin } from './ipc';

/** The parts of webContents the guards use (a subset of Electron's WebContents). */
export interface GuardedContents {
  on(
    event: 'will-navigate' | 'will-redirect',
    listener: (event: { preventDefault(): void }) => void,
  ): unknown;
  // Separate signatures, as Electron declares one per event: a single union one would not accept it.
  // eslint-disable-next-line @typescript-eslint/unified-signatures
  on(event: 'will-attach-webview', listener: (event: { preventDefault(): void }) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
}

/**
 * Installs the guards on a new webContents. In-page navigations (the screens move between their
 * `#sale`, `#tabs` … views by the address fragment) do not fire will-navigate and stay allowed.
 */
export function guardContents(contents: GuardedContents): void {
  const refuse = (event: { preventDefault(): void }) => event.preventDefault();
  contents.on('will-navigate', refuse);
  contents.on('will-redirect', refuse);
  contents.on('will-attach-webview', refuse);
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
}

/** Permissions a page may hold, by the origin asking: only the screens may write the clipboard. */
const GRANTED_TO_SCREENS: ReadonlySet<string> = new Set(['clipboard-sanitized-write']);

export function isPermissionGranted(
  permission: string,
  requestingUrl: string | undefined,
  screensOrigins: readonly string[],
): boolean {
  if (!GRANTED_TO_SCREENS.has(permission) || requestingUrl === undefined) return false;
  const origin = frameOrigin(requestingUrl);
  return origin !== undefined && screensOrigins.includes(origin);
}

/** For `session.setPermissionRequestHandler`. */
export function permissionRequestHandler(screensOrigins: readonly string[]) {
  return (
    _contents: unknown,
    permission: string,
    callback: (granted: boolean) => void,
    details: { requestingUrl?: string; isMainFrame?: boolean },
  ): void => {
    callback(
      details.isMainFrame !== false && isPermissionGranted(permission, details.requestingUrl, screensOrigins),
    );
  };
}

/** For `session.setPermissionCheckHandler`. */
export function permissionCheckHandler(screensOrigins: readonly string[]) {
  return (
    _contents: unknown,
    permission: string,
    requestingOrigin: string,
    details: { isMainFrame?: boolean },
  ): boolean =>
    details.isMainFrame !== false && isPermissionGranted(permission, requestingOrigin, screensOrigins);
}
