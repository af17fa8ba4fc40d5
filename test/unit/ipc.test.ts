/**
 * The IPC contract in Node: what the main process accepts, from whom, and what the preload facade
 * lets through, with stand-ins for ipcMain, ipcRenderer and webContents.
 */
import { CUSTOMER_SCREEN_EVENTS, type CustomerView } from '../../shared/ipc/customer-contract';
import { describe, expect, it, vi } from 'vitest';
import { invokeChannels, type AppSettings, type InvokeResult } from '../../shared/ipc/contract';
import { BridgeCallError, createBridge } from '../../shared/ipc/facade';
import { BridgeError, dispatchInvoke, type BridgeHandlers } from '../../electron/bridge/dispatch';
import { BridgeEventHub } from '../../electron/bridge/events';
import { StoreUnreachableError } from '../../electron/gateway/store/store-errors';
import {
  forwardBridgeEvents,
  frameOrigin,
  isTrustedSender,
  registerBridgeIpc,
  type EventTarget,
  type IpcMainLike,
  type IpcSender,
  type TrustedScreens,
} from '../../electron/main/ipc';
import { ipcTransport, type IpcRendererLike } from '../../electron/preload/ipc-transport';

const API_KEY = `tender_0123456789abcdef_${'A'.repeat(43)}`;
const SESSION = {
  version: '0.1.0',
  shell: 'desktop' as const,
  engineUrl: 'https://127.0.0.1:8443/rest/v1',
  apiKey: API_KEY,
  readerSimulator: false,
};
const SWIPE = {
  encryptedTrackData: '%B4111000000001111^PAT MORGAN^3012?;...',
  trackFormat: 'MAGTEK' as const,
  card: {
    maskedPan: '************1111',
    lastFour: '1111',
    brand: 'visa' as const,
    cardholderName: 'PAT MORGAN',
  },
};

const SETTINGS: AppSettings = {
  tipsEnabled: false,
  tipPercentages: [15, 18, 20],
  authExpiryDays: 7,
  tipWarnPercent: 30,
  duplicateWindowMinutes: 2,
  confirmAmountAboveCents: 100_000,
  counterTips: false,
  smartTipBelowCents: 1000,
  smartTipAmountsCents: [100, 200, 300],
  signatureAboveCents: null,
  customerScreen: true,
  managerPin: false,
  swipeKey: {
    held: true,
    testKey: true,
    kcv: '08D7B4',
    description: 'ANSI test BDK (TEST ONLY), KCV 08D7B4',
  },
};
const RECEIPT_SETTINGS = {
  merchantName: 'Blue Door Bistro',
  merchantAddress: [],
  merchantPhone: '',
  footer: [],
  printer: '',
  width: 42 as const,
  customerCopy: 'ask' as const,
  merchantCopy: 'never' as const,
  merchantCopyAboveCents: 2500,
  checkAtAuth: 'always' as const,
  smtp: { host: '', port: 587, security: 'starttls' as const, user: '', from: '', passwordSet: false },
};
const PROCESSOR_SETTINGS = {
  processor: 'simulator' as const,
  upstreamUrl: '',
  apiKeySet: false,
  caFile: '',
  timeoutSeconds: 20,
  offlineEnabled: false,
  offlineMaxAmountCents: 5000,
  offlineMaxTotalCents: 50000,
  offlineMaxHours: 24,
};
const PROCESSOR_LINE = {
  processor: 'simulator' as const,
  line: 'online' as const,
  offlineEnabled: false,
  offlineMaxAmountCents: 5000,
  waiting: { count: 0, cents: 0, oldest: null },
  declined: [],
};
const KEY_INFO = {
  id: '0123456789abcdef',
  name: 'Kitchen display',
  permissions: ['transactions:read' as const],
  created: '2026-11-20T14:05:09.042Z',
  lastUsed: null,
  revoked: null,
  current: false,
  counterScreens: false,
};

const COUNTER_SESSION = {
  signedIn: { id: 1, name: 'Dana', role: 'manager' as const, serverId: '07', retired: false },
  needsFirstManager: false,
  lockAfterMinutes: 5,
};

function fakeStaffHandlers(): Pick<
  BridgeHandlers,
  (`staff:${string}` & keyof BridgeHandlers) | (`counter:${string}` & keyof BridgeHandlers)
> {
  return {
    'staff:session': vi.fn(() => COUNTER_SESSION),
    'staff:sign-in': vi.fn(() => COUNTER_SESSION),
    'staff:lock': vi.fn(() => ({ ...COUNTER_SESSION, signedIn: null })),
    'staff:active': vi.fn(() => null),
    'staff:first-manager': vi.fn(() => COUNTER_SESSION),
    'staff:list': vi.fn(() => ({ staff: [COUNTER_SESSION.signedIn] })),
    'staff:create': vi.fn(() => COUNTER_SESSION.signedIn),
    'staff:change': vi.fn(() => COUNTER_SESSION.signedIn),
    'staff:retire': vi.fn(() => ({ ...COUNTER_SESSION.signedIn, retired: true })),
    'staff:set-lock-minutes': vi.fn(() => COUNTER_SESSION),
    'counter:approved-transaction': vi.fn(() => ({
      result: 'Approved' as const,
      id: '9',
      display_message: 'Approved',
    })),
    'counter:approved-close': vi.fn(() => ({ outcome: 'none-open' as const })),
  };
}

const CUSTOMER_VIEW: CustomerView = {
  sequence: 1,
  merchantName: 'Blue Door Bistro',
  step: { step: 'idle' },
  choices: { receiptNotices: [] },
  screen: { connected: false, enabled: true },
};

function customerHandlers(): Pick<BridgeHandlers, `customer:${string}` & keyof BridgeHandlers> {
  const view = () => CUSTOMER_VIEW;
  return {
    'customer:view': vi.fn(view),
    'customer:choose-tip': vi.fn(view),
    'customer:sign': vi.fn(view),
    'customer:choose-receipt': vi.fn(view),
    'customer:still-here': vi.fn(view),
    'customer:start': vi.fn(view),
    'customer:skip': vi.fn(view),
    'customer:cancel': vi.fn(view),
    'customer:charging': vi.fn(view),
    'customer:answered': vi.fn(view),
    'customer:try-again': vi.fn(view),
    'customer:finish': vi.fn(view),
    'customer:open-screen': vi.fn(() => ({
      address: `https://127.0.0.1:8443/customer#pair=${'T'.repeat(43)}`,
    })),
  };
}

/** Only what a customer's screen is answered, as the Terminal gives them. */
function customerHandlersOnly() {
  const view = () => CUSTOMER_VIEW;
  return {
    'customer:view': vi.fn(view),
    'customer:choose-tip': vi.fn(view),
    'customer:sign': vi.fn(view),
    'customer:choose-receipt': vi.fn(view),
    'customer:still-here': vi.fn(view),
  };
}

function fakeHandlers(overrides: Partial<BridgeHandlers> = {}): BridgeHandlers {
  return {
    'terminal:session': vi.fn(() => SESSION),
    'attempts:begin': vi.fn(() => null),
    'attempts:resolve': vi.fn(() => null),
    'attempts:interrupted': vi.fn(() => []),
    'attempts:earlier-answer': vi.fn(() => ({ state: 'never-reached' as const })),
    'store-server:get': vi.fn(() => ({ running: null, saved: null, setOutside: null })),
    'store-server:set': vi.fn(() => ({ running: null, saved: null, setOutside: null })),
    'store-server:clear': vi.fn(() => ({ running: null, saved: null, setOutside: null })),
    'attempts:dismiss': vi.fn(() => null),
    'processor:get': vi.fn(() => PROCESSOR_SETTINGS),
    'processor:update': vi.fn(() => PROCESSOR_SETTINGS),
    'processor:test': vi.fn(() => ({ ok: true, message: 'Connected.' })),
    'processor:line': vi.fn(() => PROCESSOR_LINE),
    'processor:acknowledge': vi.fn(() => PROCESSOR_LINE),
    ...customerHandlers(),
    'terminal:connection': vi.fn(() => ({
      engineUrl: SESSION.engineUrl,
      certificate: {
        sha256: Array.from({ length: 32 }, () => 'AB').join(':'),
        validFrom: '2026-11-20T14:05:09.042Z',
        validTo: '2029-02-22T14:05:09.042Z',
        file: '/home/shop/.config/Tender/tls/cert.pem',
      },
      platform: 'linux' as const,
    })),
    'reader:status': vi.fn(() => ({ state: 'waiting' as const })),
    'settings:get': vi.fn(() => SETTINGS),
    'settings:update': vi.fn((input) => ({ ...SETTINGS, tipsEnabled: input.tipsEnabled ?? false })),
    'settings:set-swipe-key': vi.fn(() => ({
      ...SETTINGS,
      swipeKey: { ...SETTINGS.swipeKey, testKey: false },
    })),
    'manager:set-pin': vi.fn((input) => ({ ...SETTINGS, managerPin: input.newPin !== null })),
    'manager:verify': vi.fn(() => null),
    'keys:list': vi.fn(() => ({ active: [KEY_INFO], revoked: [], revokedTotal: 0 })),
    'keys:create': vi.fn(() => ({ key: API_KEY, info: KEY_INFO })),
    'keys:revoke': vi.fn(() => ({ ...KEY_INFO, revoked: '2026-11-21T09:00:00.000Z' })),
    'audit:recent': vi.fn(() => ({ entries: [], more: false })),
    'report:save-pdf': vi.fn(() => ({ saved: true })),
    'receipts:settings': vi.fn(() => RECEIPT_SETTINGS),
    'receipts:update-settings': vi.fn(() => RECEIPT_SETTINGS),
    'receipts:preview': vi.fn((input) => ({
      id: input.id,
      copy: input.copy,
      width: 42 as const,
      title: 'SALE',
      lines: ['SALE'],
    })),
    'receipts:print': vi.fn(() => ({ message: 'The printer at tcp://10.0.0.9:9100 took the receipt.' })),
    'receipts:after-approval': vi.fn(() => ({ printed: [], offerCustomerCopy: true })),
    'receipts:test-print': vi.fn(() => ({ message: 'The printer at tcp://10.0.0.9:9100 took the receipt.' })),
    'receipts:print-report': vi.fn(() => ({
      message: 'The printer at tcp://10.0.0.9:9100 took the receipt.',
    })),
    'receipts:email': vi.fn(() => ({ message: 'Receipt emailed to ada@example.test.' })),
    'receipts:customer-kept': vi.fn(() => ({ signed: false, address: 'ada@example.test' })),
    'simulator:swipe': vi.fn(() => null),
    'simulator:plug': vi.fn(() => null),
    ...fakeStaffHandlers(),
    ...overrides,
  };
}

const WINDOW_ID = 7;
const trusted: TrustedScreens = { webContentsId: () => WINDOW_ID, origins: ['tender://app'] };

function sender(url: string, options: { id?: number; parent?: unknown; noFrame?: boolean } = {}): IpcSender {
  return {
    sender: { id: options.id ?? WINDOW_ID },
    senderFrame: options.noFrame ? null : { url, parent: options.parent ?? null },
  };
}

describe('the contract validates every request on the host side', () => {
  it('answers a known channel with its output', async () => {
    const result = await dispatchInvoke(fakeHandlers(), 'terminal:session', undefined);
    expect(result).toEqual({ ok: true, value: SESSION });
  });

  it('refuses channels outside the contract, including inherited property names', async () => {
    for (const channel of ['nope', '__proto__', 'constructor', 'toString', 42, undefined]) {
      const result = await dispatchInvoke(fakeHandlers(), channel, undefined);
      expect(result).toMatchObject({ ok: false, error: { code: 'unknown-channel' } });
    }
  });

  it('refuses input that does not match the schema, before the handler runs', async () => {
    const handlers = fakeHandlers();
    const cases: [string, unknown][] = [
      ['terminal:session', { anything: true }],
      ['settings:update', { tipsEnabled: 'yes' }],
      ['settings:update', { tipsEnabled: true, swipe_bdk: '00' }],
      ['simulator:swipe', { card: '4111111111111111' }],
      ['simulator:swipe', { card: 'declined', pan: '4111111111111111' }],
      ['simulator:plug', {}],
      ['receipts:print', { id: 1, copies: [] }],
      ['receipts:print', { id: 0, copies: ['customer'] }],
      ['receipts:preview', { id: 1, copy: 'customer', width: 40 }],
      ['receipts:print-report', { lines: [] }],
      ['receipts:print-report', { lines: ['x'.repeat(49)] }],
      ['receipts:print-report', { lines: ['\u001b@ reset the printer'] }],
      ['receipts:email', { id: 1, to: 'ada@example.test', card: '4111111111111111' }],
      ['receipts:update-settings', { smtp_password: 'x' }],
      ['settings:update', { tipPercentages: [15, 15] }],
      ['settings:update', { tipPercentages: [0] }],
      ['settings:update', { tipsEnabled: true, pin: '12ab' }],
      ['settings:set-swipe-key', { bdk: '0123456789ABCDEFFEDCBA987654321' }],
      ['manager:set-pin', { newPin: '123' }],
      ['manager:set-pin', { newPin: '123456789' }],
      ['manager:verify', { pin: '1234', action: 'sale' }],
      ['keys:create', { name: '  ', permissions: ['transactions:read'] }],
      ['keys:create', { name: 'Kitchen', permissions: [] }],
      ['keys:create', { name: 'Kitchen', permissions: ['admin'] }],
      ['keys:revoke', { id: 'tender_0123456789abcdef_x' }],
      ['audit:recent', { limit: 0, offset: 0 }],
      ['audit:recent', { limit: 101, offset: 0 }],
      ['report:save-pdf', { fileName: '../../.bashrc.pdf' }],
      ['report:save-pdf', { fileName: 'report.sh' }],
    ];
    for (const [channel, input] of cases) {
      const result = await dispatchInvoke(handlers, channel, input);
      expect(result, `${channel} ${JSON.stringify(input)}`).toMatchObject({
        ok: false,
        error: { code: 'invalid-input' },
      });
    }
    for (const channel of [
      'settings:update',
      'simulator:swipe',
      'settings:set-swipe-key',
      'manager:set-pin',
      'manager:verify',
      'keys:create',
      'keys:revoke',
      'audit:recent',
      'report:save-pdf',
    ] as const) {
      expect(handlers[channel], channel).not.toHaveBeenCalled();
    }
  });

  it('never lets a created key or a swipe key out except where the contract says', async () => {
    const handlers = fakeHandlers({
      'keys:list': () =>
        ({
          active: [{ ...KEY_INFO, key: API_KEY, secretHash: 'ab12' }],
          revoked: [],
          revokedTotal: 0,
        }) as never,
      'settings:get': () => ({ ...SETTINGS, swipe_bdk: '0123456789ABCDEFFEDCBA9876543210' }) as never,
    });
    const list = await dispatchInvoke(handlers, 'keys:list', undefined);
    expect(list).toEqual({ ok: true, value: { active: [KEY_INFO], revoked: [], revokedTotal: 0 } });
    const settings = await dispatchInvoke(handlers, 'settings:get', undefined);
    expect(JSON.stringify(settings)).not.toContain('0123456789ABCDEF');
  });

  it('passes parsed input to the handler', async () => {
    const handlers = fakeHandlers();
    await dispatchInvoke(handlers, 'simulator:swipe', { card: 'declined' });
    expect(handlers['simulator:swipe']).toHaveBeenCalledWith({ card: 'declined' });
  });

  it('parses the answer too, so fields outside the contract never leave the host', async () => {
    const handlers = fakeHandlers({
      'terminal:session': () => ({ ...SESSION, bdk: '0123456789ABCDEFFEDCBA9876543210' }) as typeof SESSION,
    });
    const result = await dispatchInvoke(handlers, 'terminal:session', undefined);
    expect(result).toEqual({ ok: true, value: SESSION });
  });

  it('passes a refusal meant for the screens through, and hides unexpected failures', async () => {
    const onUnexpectedError = vi.fn();
    const handlers = fakeHandlers({
      'simulator:plug': () => {
        throw new BridgeError('unavailable', 'This terminal uses a real card reader.');
      },
      'settings:get': () => {
        throw new Error('SQLITE_BUSY at /home/shop/.config/Tender/tender.db');
      },
    });
    expect(await dispatchInvoke(handlers, 'simulator:plug', { plugged: true })).toEqual({
      ok: false,
      error: { code: 'unavailable', message: 'This terminal uses a real card reader.' },
    });
    const failed = await dispatchInvoke(handlers, 'settings:get', undefined, { onUnexpectedError });
    expect(failed).toMatchObject({ ok: false, error: { code: 'failed' } });
    expect(JSON.stringify(failed)).not.toContain('SQLITE_BUSY');
    expect(onUnexpectedError).toHaveBeenCalledOnce();
  });

  it('says that the store server cannot be reached, rather than to restart Tender', async () => {
    const onUnexpectedError = vi.fn();
    const handlers = fakeHandlers({
      'settings:get': () => {
        throw new StoreUnreachableError(new Error('connect ECONNREFUSED 10.0.0.5:5432'));
      },
    });
    const failed = await dispatchInvoke(handlers, 'settings:get', undefined, { onUnexpectedError });
    expect(failed).toMatchObject({ ok: false, error: { code: 'unavailable' } });
    expect(JSON.stringify(failed)).toMatch(/store server cannot be reached.*resumes by itself/);
    expect(onUnexpectedError).not.toHaveBeenCalled();
  });
});

describe('the main process answers only its own window showing the screens', () => {
  it('trusts the top frame of the app window on the screens origin', () => {
    expect(isTrustedSender(sender('tender://app/index.html'), trusted)).toBe(true);
  });

  it('refuses a subframe, another window, a destroyed frame, or no window at all', () => {
    expect(isTrustedSender(sender('tender://app/index.html', { parent: {} }), trusted)).toBe(false);
    expect(isTrustedSender(sender('tender://app/index.html', { id: 8 }), trusted)).toBe(false);
    expect(isTrustedSender(sender('tender://app/index.html', { noFrame: true }), trusted)).toBe(false);
    expect(
      isTrustedSender(sender('tender://app/index.html'), { ...trusted, webContentsId: () => undefined }),
    ).toBe(false);
  });

  it('refuses any other origin, however it is spelled', () => {
    for (const url of [
      'https://example.com/',
      'file:///opt/tender/out/renderer/index.html',
      'tender://other/index.html',
      'tender://app.evil/index.html',
      'http://localhost:5173/',
      'about:blank',
      'not a url',
    ]) {
      expect(isTrustedSender(sender(url), trusted), url).toBe(false);
    }
  });

  it('trusts the dev server origin only when it is configured', () => {
    const dev = { ...trusted, origins: ['http://localhost:5173'] };
    expect(isTrustedSender(sender('http://localhost:5173/'), dev)).toBe(true);
    expect(isTrustedSender(sender('tender://app/index.html'), dev)).toBe(false);
  });

  it('spells tender:// origins the way Chromium does, not as "null"', () => {
    expect(frameOrigin('tender://app/index.html')).toBe('tender://app');
    expect(frameOrigin('about:blank')).toBeUndefined();
  });
});

describe('IPC registration', () => {
  function fakeIpcMain() {
    const handlers = new Map<string, (event: IpcSender, ...args: unknown[]) => unknown>();
    const ipcMain: IpcMainLike = {
      handle: (channel, listener) => {
        if (handlers.has(channel)) throw new Error(`second handler for ${channel}`);
        handlers.set(channel, listener);
      },
      removeHandler: (channel) => handlers.delete(channel),
    };
    const call = (channel: string, event: IpcSender, input?: unknown) =>
      Promise.resolve(handlers.get(channel)?.(event, input)) as Promise<InvokeResult>;
    return { ipcMain, handlers, call };
  }

  it('registers exactly the contract channels, and removes them again', () => {
    const { ipcMain, handlers } = fakeIpcMain();
    const remove = registerBridgeIpc(ipcMain, fakeHandlers(), trusted);
    expect([...handlers.keys()].sort()).toEqual(Object.keys(invokeChannels).sort());
    remove();
    expect(handlers.size).toBe(0);
  });

  it('refuses an untrusted sender without running the handler', async () => {
    const { ipcMain, call } = fakeIpcMain();
    const handlers = fakeHandlers();
    registerBridgeIpc(ipcMain, handlers, trusted);
    const result = await call('terminal:session', sender('https://example.com/'));
    expect(result).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(handlers['terminal:session']).not.toHaveBeenCalled();
  });

  it('answers the customer’s window only its own requests, from the customer’s handlers', async () => {
    const { ipcMain, call } = fakeIpcMain();
    const handlers = fakeHandlers();
    const customerHandlers = customerHandlersOnly();
    const CUSTOMER_WINDOW = 9;
    registerBridgeIpc(
      ipcMain,
      handlers,
      { ...trusted, customerWebContentsId: () => CUSTOMER_WINDOW },
      customerHandlers,
    );
    const customer = sender('tender://app/customer.html', { id: CUSTOMER_WINDOW });
    expect(await call('customer:view', customer)).toEqual({ ok: true, value: CUSTOMER_VIEW });
    expect(customerHandlers['customer:view']).toHaveBeenCalled();
    expect(handlers['customer:view']).not.toHaveBeenCalled();
    for (const channel of ['terminal:session', 'reader:status', 'customer:start', 'keys:list']) {
      const refused = await call(
        channel,
        customer,
        channel === 'customer:start' ? { amountCents: 1, askTip: false } : undefined,
      );
      expect(refused, channel).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    }
    expect(handlers['terminal:session']).not.toHaveBeenCalled();
    // Another page in the customer's window is not the customer's screen.
    expect(
      await call('customer:view', sender('https://example.com/', { id: CUSTOMER_WINDOW })),
    ).toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });
  });

  it('validates a trusted sender’s input, then answers', async () => {
    const { ipcMain, call } = fakeIpcMain();
    const handlers = fakeHandlers();
    registerBridgeIpc(ipcMain, handlers, trusted);
    const screens = sender('tender://app/index.html');
    expect(await call('settings:update', screens, { tipsEnabled: 1 })).toMatchObject({
      ok: false,
      error: { code: 'invalid-input' },
    });
    expect(handlers['settings:update']).not.toHaveBeenCalled();
    expect(await call('settings:update', screens, { tipsEnabled: true })).toEqual({
      ok: true,
      value: { ...SETTINGS, tipsEnabled: true },
    });
  });
});

describe('events reach only the screens, shaped by the contract', () => {
  function fakeWindow(url = 'tender://app/index.html') {
    const sent: [string, unknown][] = [];
    const window: EventTarget & { destroyed: boolean; mainFrame: { url: string } } = {
      mainFrame: { url },
      destroyed: false,
      isDestroyed() {
        return this.destroyed;
      },
      send: (channel, payload) => sent.push([channel, payload]),
    };
    return { window, sent };
  }

  it('sends to the window while it shows the screens, with fields outside the contract dropped', () => {
    const hub = new BridgeEventHub();
    const { window, sent } = fakeWindow();
    forwardBridgeEvents(hub, () => window, ['tender://app']);
    hub.emit('reader:swipe', { ...SWIPE, card: { ...SWIPE.card, pan: '4111111111111111' } } as typeof SWIPE);
    expect(sent).toEqual([['reader:swipe', SWIPE]]);
    expect(JSON.stringify(sent)).not.toContain('4111111111111111');
  });

  it('sends nothing to a window that shows another page, is destroyed, or is gone', () => {
    const hub = new BridgeEventHub();
    const elsewhere = fakeWindow('https://example.com/');
    const destroyed = fakeWindow();
    destroyed.window.destroyed = true;
    forwardBridgeEvents(hub, () => elsewhere.window, ['tender://app']);
    forwardBridgeEvents(hub, () => destroyed.window, ['tender://app']);
    forwardBridgeEvents(hub, () => undefined, ['tender://app']);
    hub.emit('reader:swipe', SWIPE);
    expect(elsewhere.sent).toEqual([]);
    expect(destroyed.sent).toEqual([]);
  });

  it('sends the customer’s window its own view and nothing of the counter’s', () => {
    const hub = new BridgeEventHub();
    const { window, sent } = fakeWindow('tender://app/customer.html');
    forwardBridgeEvents(hub, () => window, ['tender://app'], CUSTOMER_SCREEN_EVENTS);
    hub.emit('reader:swipe', SWIPE);
    hub.emit('settings:changed', SETTINGS);
    hub.emit('customer:changed', CUSTOMER_VIEW);
    expect(sent).toEqual([['customer:changed', CUSTOMER_VIEW]]);
  });

  it('refuses to emit a payload that breaks the contract', () => {
    const hub = new BridgeEventHub();
    expect(() =>
      hub.emit('reader:swipe', { ...SWIPE, card: { ...SWIPE.card, maskedPan: '4111111111111111' } }),
    ).toThrow();
  });
});

describe('the preload facade, generated from the contract', () => {
  function fakeIpcRenderer(
    answer: (channel: string, input: unknown) => unknown = () => ({ ok: true, value: SESSION }),
  ) {
    const listeners = new Map<string, Set<(event: unknown, ...args: unknown[]) => void>>();
    const invoke = vi.fn(async (channel: string, ...args: unknown[]) => answer(channel, args[0]));
    const ipcRenderer: IpcRendererLike = {
      invoke,
      on: (channel, listener) => {
        const set = listeners.get(channel) ?? new Set();
        set.add(listener);
        listeners.set(channel, set);
      },
      removeListener: (channel, listener) => listeners.get(channel)?.delete(listener),
    };
    const emit = (channel: string, payload: unknown) => {
      for (const listener of listeners.get(channel) ?? [])
        listener({ sender: 'ipcRenderer itself' }, payload);
    };
    return { ipcRenderer, invoke, emit, listeners };
  }

  it('invokes contract channels and returns the validated answer', async () => {
    const { ipcRenderer, invoke } = fakeIpcRenderer();
    const bridge = createBridge(ipcTransport(ipcRenderer), '0.1.0');
    await expect(bridge.invoke('terminal:session')).resolves.toEqual(SESSION);
    expect(invoke).toHaveBeenCalledWith('terminal:session', undefined);
    expect(Object.isFrozen(bridge)).toBe(true);
    expect(Object.keys(bridge).sort()).toEqual(['invoke', 'on', 'version']);
  });

  it('never sends a call to an unknown channel or with bad input', async () => {
    const { ipcRenderer, invoke } = fakeIpcRenderer();
    const bridge = createBridge(ipcTransport(ipcRenderer), '0.1.0');
    const untyped = bridge as unknown as { invoke(channel: string, input?: unknown): Promise<unknown> };
    await expect(untyped.invoke('ipc:anything')).rejects.toMatchObject({ code: 'unknown-channel' });
    await expect(untyped.invoke('simulator:swipe', { card: '4111111111111111' })).rejects.toMatchObject({
      code: 'invalid-input',
    });
    expect(invoke).not.toHaveBeenCalled();
  });

  it('turns a refusal into an error with the host’s message', async () => {
    const { ipcRenderer } = fakeIpcRenderer(() => ({
      ok: false,
      error: { code: 'forbidden', message: 'Only the Tender window may use the Tender bridge.' },
    }));
    const bridge = createBridge(ipcTransport(ipcRenderer), '0.1.0');
    const failure = bridge.invoke('reader:status');
    await expect(failure).rejects.toBeInstanceOf(BridgeCallError);
    await expect(failure).rejects.toThrow('Only the Tender window may use the Tender bridge.');
  });

  it('rejects an answer that breaks the contract', async () => {
    const { ipcRenderer } = fakeIpcRenderer(() => ({ ok: true, value: { ...SESSION, apiKey: 'short' } }));
    const bridge = createBridge(ipcTransport(ipcRenderer), '0.1.0');
    await expect(bridge.invoke('terminal:session')).rejects.toThrow();
  });

  it('hands listeners the payload alone, never the IPC event, and unsubscribes', () => {
    const { ipcRenderer, emit, listeners } = fakeIpcRenderer();
    const bridge = createBridge(ipcTransport(ipcRenderer), '0.1.0');
    const listener = vi.fn();
    const off = bridge.on('reader:swipe', listener);
    emit('reader:swipe', SWIPE);
    expect(listener).toHaveBeenCalledTimes(1);
    expect(listener.mock.calls[0]).toEqual([SWIPE]);
    off();
    expect(listeners.get('reader:swipe')?.size).toBe(0);
    emit('reader:swipe', SWIPE);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('drops an event whose payload breaks the contract, and says so', () => {
    const { ipcRenderer, emit } = fakeIpcRenderer();
    const onInvalidEvent = vi.fn();
    const bridge = createBridge(ipcTransport(ipcRenderer), '0.1.0', { onInvalidEvent });
    const listener = vi.fn();
    bridge.on('reader:status-changed', listener);
    emit('reader:status-changed', { state: 'on fire' });
    expect(listener).not.toHaveBeenCalled();
    expect(onInvalidEvent).toHaveBeenCalledWith('reader:status-changed', expect.any(String));
  });

  it('refuses to subscribe to an event outside the contract', () => {
    const { ipcRenderer } = fakeIpcRenderer();
    const bridge = createBridge(ipcTransport(ipcRenderer), '0.1.0') as unknown as {
      on(event: string, listener: () => void): unknown;
    };
    expect(() => bridge.on('ELECTRON_BROWSER_REQUIRE', () => undefined)).toThrow(BridgeCallError);
  });
});
