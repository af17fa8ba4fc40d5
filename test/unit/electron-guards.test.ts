/**
 * The desktop shell's guards in Node, with stand-ins for webContents and the session: navigation,
 * new windows, webviews and browser permissions, and the report's Save as PDF.
 */
import { describe, expect, it } from 'vitest';
import {
  guardContents,
  isPermissionGranted,
  permissionCheckHandler,
  permissionRequestHandler,
  type GuardedContents,
} from '../../electron/main/guards';
import { pdfDocuments } from '../../electron/main/report-pdf';

function fakeContents() {
  const listeners = new Map<string, ((event: { preventDefault(): void }) => void)[]>();
  let openHandler: ((details: { url: string }) => { action: string }) | undefined;
  const contents: GuardedContents = {
    on(event: string, listener: (event: { preventDefault(): void }) => void) {
      listeners.set(event, [...(listeners.get(event) ?? []), listener]);
      return contents;
    },
    setWindowOpenHandler(handler) {
      openHandler = handler;
    },
  };
  /** Fires an event as Electron would; true when a guard prevented it. */
  const fire = (event: string): boolean => {
    let prevented = false;
    for (const listener of listeners.get(event) ?? []) listener({ preventDefault: () => (prevented = true) });
    return prevented;
  };
  return { contents, fire, open: (url: string) => openHandler?.({ url }) };
}

describe('every page Electron creates', () => {
  it('cannot navigate away, be redirected, or attach a webview', () => {
    const { contents, fire } = fakeContents();
    guardContents(contents);
    expect(fire('will-navigate')).toBe(true);
    expect(fire('will-redirect')).toBe(true);
    expect(fire('will-attach-webview')).toBe(true);
  });

  it('cannot open a window, whatever the address', () => {
    const { contents, open } = fakeContents();
    guardContents(contents);
    for (const url of [
      'https://example.com/',
      'tender://app/index.html',
      'file:///etc/passwd',
      'about:blank',
    ]) {
      expect(open(url), url).toEqual({ action: 'deny' });
    }
  });
});

describe('browser permissions', () => {
  const origins = ['tender://app'];

  it('grant the screens writing to the clipboard, to copy a new API key', () => {
    expect(isPermissionGranted('clipboard-sanitized-write', 'tender://app/index.html', origins)).toBe(true);
    expect(isPermissionGranted('clipboard-sanitized-write', 'tender://app', origins)).toBe(true);
  });

  it('refuse everything else to the screens, and everything to any other origin', () => {
    for (const permission of [
      'clipboard-read',
      'media',
      'geolocation',
      'hid',
      'usb',
      'notifications',
      'openExternal',
    ]) {
      expect(isPermissionGranted(permission, 'tender://app/index.html', origins), permission).toBe(false);
    }
    for (const url of ['https://example.com/', 'tender://app.evil/', 'file:///x', 'null', undefined]) {
      expect(isPermissionGranted('clipboard-sanitized-write', url, origins), String(url)).toBe(false);
    }
  });

  it('answer requests and checks alike, and never for a subframe', () => {
    const answers: boolean[] = [];
    const request = permissionRequestHandler(origins);
    request(null, 'clipboard-sanitized-write', (granted) => answers.push(granted), {
      requestingUrl: 'tender://app/index.html',
      isMainFrame: true,
    });
    request(null, 'clipboard-sanitized-write', (granted) => answers.push(granted), {
      requestingUrl: 'tender://app/index.html',
      isMainFrame: false,
    });
    request(null, 'media', (granted) => answers.push(granted), {
      requestingUrl: 'tender://app/index.html',
      isMainFrame: true,
    });
    expect(answers).toEqual([true, false, false]);

    const check = permissionCheckHandler(origins);
    expect(check(null, 'clipboard-sanitized-write', 'tender://app', { isMainFrame: true })).toBe(true);
    expect(check(null, 'clipboard-sanitized-write', 'https://example.com', { isMainFrame: true })).toBe(
      false,
    );
    expect(check(null, 'clipboard-read', 'tender://app', { isMainFrame: true })).toBe(false);
  });
});

describe('Save as PDF in the desktop app', () => {
  it('asks where, in the documents folder by default, then writes the printed page there', async () => {
    const written: [string, Uint8Array][] = [];
    const asked: string[] = [];
    const pdf = new Uint8Array([0x25, 0x50, 0x44, 0x46]);
    const documents = pdfDocuments(() => ({
      printToPdf: async () => pdf,
      askWhereToSave: async (path) => (asked.push(path), '/home/shop/Batch 12.pdf'),
      documentsFolder: () => '/home/shop/Documents',
      write: async (file, data) => void written.push([file, data]),
    }));
    expect(await documents.savePdf('Batch 12.pdf')).toBe(true);
    expect(asked).toEqual(['/home/shop/Documents/Batch 12.pdf']);
    expect(written).toEqual([['/home/shop/Batch 12.pdf', pdf]]);
  });

  it('writes nothing when the dialog is cancelled or the window is gone', async () => {
    let printed = 0;
    const cancelled = pdfDocuments(() => ({
      printToPdf: async () => (printed++, new Uint8Array()),
      askWhereToSave: async () => undefined,
      documentsFolder: () => '/tmp',
      write: async () => {
        throw new Error('must not write');
      },
    }));
    expect(await cancelled.savePdf('x.pdf')).toBe(false);
    expect(printed).toBe(0);
    expect(await pdfDocuments(() => undefined).savePdf('x.pdf')).toBe(false);
  });
});
