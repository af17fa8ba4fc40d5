/**
 * MagTek readers as a typed event source: attached, detached, error, swipe. The USB side comes in
 * through HidBackend (node-hid in the app, recorded or generated reports in tests and demos), so every
 * report goes through the same parsing path whatever produced it. No event carries track data or a
 * full card number: a swipe carries the encrypted swipe string and masked display data only.
 */
import { ENCRYPTION_STATUS, isEncrypting } from '../gateway/swipe/format';
import { CARD_ENCODE_TYPES, parseReport, trackDecodeFailed, type MagneSafeReport } from './reports';
import { buildSwipeString, swipeDisplay, type SwipeDisplay } from './swipe-string';

export const MAGTEK_VENDOR_ID = 0x0801;
export const MAGTEK_USAGE_PAGE = 0xff00;
export const MAGTEK_PRODUCT_IDS = {
  KEYBOARD_MODE: 0x0001,
  SURESWIPE: 0x0002,
  MAGNESAFE_SWIPE: 0x0011,
  MAGNESAFE_INSERT: 0x0013,
  MAGNESAFE_WIRELESS: 0x0014,
} as const;

// ---------------------------------------------------------------------------------------------
// The device layer

export interface HidDeviceInfo {
  /** What open() takes; unique per plugged interface (a hidraw node on Linux). */
  path: string;
  vendorId: number;
  productId: number;
  usagePage?: number;
  usage?: number;
  product?: string;
  serialNumber?: string;
}

/** A HID device that hands over whole input reports. */
export interface HidReportDevice {
  onReport(listener: (report: Uint8Array) => void): void;
  /** After an error the device delivers no more reports; it is closed and opened again. */
  onError(listener: (error: Error) => void): void;
  close(): Promise<void>;
}

export interface HidBackend {
  list(vendorId: number): Promise<HidDeviceInfo[]>;
  open(device: HidDeviceInfo): Promise<HidReportDevice>;
  /** Calls back when devices may have come or gone. Without it, readers are polled. Returns an unsubscribe. */
  watch?(onChange: () => void): () => void;
}

// ---------------------------------------------------------------------------------------------
// Events

export type ReaderMode = 'magnesafe' | 'sureswipe' | 'keyboard' | 'unknown';

export interface ReaderInfo {
  id: string;
  productId: number;
  mode: ReaderMode;
  product?: string;
  serialNumber?: string;
}

export const READER_PROBLEMS = {
  'keyboard-mode':
    "The MagTek card reader is in keyboard mode, which Tender cannot use. Switch it to USB HID mode with MagTek's configuration utility, then unplug it and plug it in again.",
  'not-encrypting':
    'This card reader does not encrypt card data, so Tender refuses it for payments. Use a MagTek MagneSafe (encrypting) reader, or key the card in.',
  'encryption-off':
    'The card reader is not encrypting (no key loaded, or encryption switched off), so Tender refuses its swipes. Have the reader keyed, or key the card in.',
  'keys-exhausted':
    'The card reader has used up its encryption keys and must be re-keyed before it can take cards. Key the card in meanwhile.',
  'bad-read': 'Swipe again, steadily.',
  'not-payment-card': 'This is not a payment card. Ask for another card.',
  'unexpected-report':
    'The card reader sent data Tender does not understand. Check that it is a MagTek MagneSafe reader in USB HID mode, then swipe again.',
  'device-error':
    'The card reader stopped responding. Tender is reconnecting to it; if this lasts, unplug it and plug it in again.',
  'open-failed':
    'Tender cannot open the card reader. Close any other program that uses it, then unplug it and plug it in again.',
  'open-failed-linux':
    'Tender cannot open the card reader. Install the udev rule resources/udev/99-tender-magtek.rules (see docs/operations.md), then unplug the reader and plug it in again.',
  'hid-unavailable':
    'Tender cannot look for USB card readers on this computer. Check that the USB HID libraries are installed (libudev and libusb on Linux), then restart Tender.',
} as const;
export type ReaderProblemCode = keyof typeof READER_PROBLEMS;

export interface ReaderProblem {
  code: ReaderProblemCode;
  /** For the cashier: what happened and what to do next. */
  message: string;
  reader?: ReaderInfo;
  /** The operating system's own words, for a log (never card data). */
  detail?: string;
}

export interface ReaderSwipe {
  reader: ReaderInfo;
  /** The encrypted swipe string, for encrypted_track_data. */
  encryptedTrackData: string;
  trackFormat: 'MAGTEK';
  display: SwipeDisplay;
}

export interface ReaderEventMap {
  /** A reader was found and opened (again after a reopen); a keyboard-mode reader when found, then an error. */
  attached: ReaderInfo;
  detached: ReaderInfo;
  error: ReaderProblem;
  swipe: ReaderSwipe;
}
export type ReaderEventName = keyof ReaderEventMap;

// ---------------------------------------------------------------------------------------------
// From one report to a swipe or a problem

export type ReportOutcome =
  | { kind: 'swipe'; encryptedTrackData: string; display: SwipeDisplay }
  | { kind: 'problem'; code: ReaderProblemCode; detail?: string };

function problem(code: ReaderProblemCode, detail?: string): ReportOutcome {
  return { kind: 'problem', code, ...(detail !== undefined && { detail }) };
}

function hasUsableTrack(report: MagneSafeReport, track: 0 | 1): boolean {
  return !trackDecodeFailed(report.trackStatus[track]) && report.encryptedTracks[track].length > 0;
}

export function interpretReport(bytes: Uint8Array): ReportOutcome {
  const parsed = parseReport(bytes);
  if (!parsed.ok) {
    return problem(
      'unexpected-report',
      parsed.problem === 'unexpected-length'
        ? `a ${parsed.length}-byte report; MagTek readers send 337, 856 or 887 bytes`
        : `a ${parsed.length}-byte report whose track lengths exceed their fields`,
    );
  }
  const { report } = parsed;
  if (report.kind === 'sureswipe') return problem('not-encrypting');
  if (report.encryptionStatus & ENCRYPTION_STATUS.KEYS_EXHAUSTED) return problem('keys-exhausted');
  if (!isEncrypting(report.encryptionStatus) || report.ksn.every((byte) => byte === 0))
    return problem('encryption-off');
  if (!hasUsableTrack(report, 0) && !hasUsableTrack(report, 1)) return problem('bad-read');
  if (report.encodeType === CARD_ENCODE_TYPES.AAMVA) return problem('not-payment-card');
  const display = swipeDisplay(report);
  if (!display) return problem('not-payment-card');
  let encryptedTrackData: string;
  try {
    encryptedTrackData = buildSwipeString(report);
  } catch (error) {
    // The layout allows what MagTek's form does not (an encrypted length no multiple of 8, a `|`
    // inside a masked track): a glitch of the reader, told as such.
    if (!(error instanceof RangeError)) throw error;
    return problem(
      'unexpected-report',
      `a report whose fields do not have the MagTek form: ${error.message}`,
    );
  }
  return { kind: 'swipe', encryptedTrackData, display };
}

// ---------------------------------------------------------------------------------------------
// The event source

export interface MagtekReadersOptions {
  backend: HidBackend;
  /** How often to look for plugged and unplugged readers when the backend cannot watch; 0 never. */
  pollIntervalMs?: number;
  /** The first wait before reopening a reader after an error; it doubles on each further failure. */
  reopenDelayMs?: number;
  /** Chooses the advice given when a reader cannot be opened. */
  platform?: NodeJS.Platform;
  /** Where an exception thrown by an event listener goes, so that it cannot stop the reader. */
  onListenerError?: (error: unknown) => void;
}

const DEFAULT_POLL_INTERVAL_MS = 2000;
const DEFAULT_REOPEN_DELAY_MS = 1000;
const MAX_REOPEN_DELAY_MS = 30_000;

interface Entry {
  key: string;
  info: ReaderInfo;
  device: HidDeviceInfo;
  open?: HidReportDevice;
  opening: boolean;
  /** Failed opens and device errors since the last good open. */
  failures: number;
  /** An open failure is announced once per streak, not on every retry. */
  openFailureShown: boolean;
  retry?: ReturnType<typeof setTimeout>;
}

type Listeners = { [E in ReaderEventName]: Set<(payload: ReaderEventMap[E]) => void> };

function readerMode(productId: number): ReaderMode {
  switch (productId) {
    case MAGTEK_PRODUCT_IDS.KEYBOARD_MODE:
      return 'keyboard';
    case MAGTEK_PRODUCT_IDS.SURESWIPE:
      return 'sureswipe';
    case MAGTEK_PRODUCT_IDS.MAGNESAFE_SWIPE:
    case MAGTEK_PRODUCT_IDS.MAGNESAFE_INSERT:
    case MAGTEK_PRODUCT_IDS.MAGNESAFE_WIRELESS:
      return 'magnesafe';
    default:
      return 'unknown';
  }
}

/**
 * A reader in keyboard mode is an OS keyboard, found whatever its usage page. In HID mode only the
 * vendor usage page carries card reports; backends that cannot tell the page report 0 or nothing.
 */
function isCandidate(device: HidDeviceInfo): boolean {
  if (device.vendorId !== MAGTEK_VENDOR_ID) return false;
  if (device.productId === MAGTEK_PRODUCT_IDS.KEYBOARD_MODE) return true;
  return device.usagePage === undefined || device.usagePage === 0 || device.usagePage === MAGTEK_USAGE_PAGE;
}

/** A keyboard-mode reader shows as several keyboard interfaces; it is one reader to the cashier. */
function entryKey(device: HidDeviceInfo): string {
  if (device.productId === MAGTEK_PRODUCT_IDS.KEYBOARD_MODE)
    return `keyboard:${device.serialNumber || device.path}`;
  return device.path;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export class MagtekReaders {
  readonly #backend: HidBackend;
  readonly #pollIntervalMs: number;
  readonly #reopenDelayMs: number;
  readonly #platform: NodeJS.Platform;
  readonly #onListenerError: (error: unknown) => void;
  readonly #listeners: Listeners = {
    attached: new Set(),
    detached: new Set(),
    error: new Set(),
    swipe: new Set(),
  };
  readonly #entries = new Map<string, Entry>();
  #running = false;
  #poll: ReturnType<typeof setInterval> | undefined;
  #unwatch: (() => void) | undefined;
  #scan: Promise<void> | undefined;
  #scanAgain = false;
  #enumerationFailureShown = false;

  constructor(options: MagtekReadersOptions) {
    this.#backend = options.backend;
    this.#pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
    this.#reopenDelayMs = options.reopenDelayMs ?? DEFAULT_REOPEN_DELAY_MS;
    this.#platform = options.platform ?? process.platform;
    this.#onListenerError =
      options.onListenerError ??
      ((error) => console.error('Tender: a card reader event listener failed.', error));
  }

  /** Subscribes to an event; returns the unsubscribe function. */
  on<E extends ReaderEventName>(event: E, listener: (payload: ReaderEventMap[E]) => void): () => void {
    const listeners = this.#listeners[event] as Set<(payload: ReaderEventMap[E]) => void>;
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  /** The readers found and not unplugged since. */
  get readers(): ReaderInfo[] {
    return [...this.#entries.values()].map((entry) => entry.info);
  }

  async start(): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    if (this.#backend.watch) {
      this.#unwatch = this.#backend.watch(() => void this.rescan());
    } else if (this.#pollIntervalMs > 0) {
      this.#poll = setInterval(() => void this.rescan(), this.#pollIntervalMs);
      this.#poll.unref();
    }
    await this.rescan();
  }

  /** Closes every reader; no events follow. */
  async stop(): Promise<void> {
    if (!this.#running) return;
    this.#running = false;
    clearInterval(this.#poll);
    this.#poll = undefined;
    this.#unwatch?.();
    this.#unwatch = undefined;
    await this.#scan;
    const entries = [...this.#entries.values()];
    this.#entries.clear();
    await Promise.all(
      entries.map(async (entry) => {
        clearTimeout(entry.retry);
        const device = entry.open;
        entry.open = undefined;
        if (device) await closeQuietly(device);
      }),
    );
  }

  /** Looks for plugged and unplugged readers now; scans never overlap. */
  rescan(): Promise<void> {
    if (!this.#running) return Promise.resolve();
    if (this.#scan) {
      this.#scanAgain = true;
      return this.#scan;
    }
    this.#scan = (async () => {
      try {
        do {
          this.#scanAgain = false;
          await this.#scanOnce();
        } while (this.#scanAgain && this.#running);
      } finally {
        this.#scan = undefined;
      }
    })();
    return this.#scan;
  }

  async #scanOnce(): Promise<void> {
    let listed: HidDeviceInfo[];
    try {
      listed = await this.#backend.list(MAGTEK_VENDOR_ID);
      this.#enumerationFailureShown = false;
    } catch (error) {
      if (!this.#enumerationFailureShown) {
        this.#enumerationFailureShown = true;
        this.#problem('hid-unavailable', undefined, describe(error));
      }
      return;
    }
    const present = new Map<string, HidDeviceInfo>();
    for (const device of listed) {
      const key = entryKey(device);
      if (isCandidate(device) && !present.has(key)) present.set(key, device);
    }
    for (const entry of [...this.#entries.values()]) {
      if (!present.has(entry.key)) await this.#detach(entry);
    }
    for (const [key, device] of present) {
      if (!this.#running) return;
      const entry = this.#entries.get(key);
      if (!entry) await this.#attach(key, device);
      else if (entry.info.mode !== 'keyboard' && !entry.open && !entry.opening && !entry.retry)
        await this.#open(entry);
    }
  }

  async #attach(key: string, device: HidDeviceInfo): Promise<void> {
    const info: ReaderInfo = {
      id: device.path,
      productId: device.productId,
      mode: readerMode(device.productId),
      ...(device.product && { product: device.product }),
      ...(device.serialNumber && { serialNumber: device.serialNumber }),
    };
    const entry: Entry = { key, info, device, opening: false, failures: 0, openFailureShown: false };
    this.#entries.set(key, entry);
    if (info.mode === 'keyboard') {
      this.#emit('attached', info);
      this.#problem('keyboard-mode', info);
      return;
    }
    await this.#open(entry);
  }

  async #open(entry: Entry): Promise<void> {
    entry.opening = true;
    let device: HidReportDevice;
    try {
      device = await this.#backend.open(entry.device);
    } catch (error) {
      entry.opening = false;
      if (!entry.openFailureShown) {
        entry.openFailureShown = true;
        this.#problem(
          this.#platform === 'linux' ? 'open-failed-linux' : 'open-failed',
          entry.info,
          describe(error),
        );
      }
      this.#scheduleReopen(entry);
      return;
    }
    entry.opening = false;
    if (!this.#running || this.#entries.get(entry.key) !== entry) {
      await closeQuietly(device);
      return;
    }
    entry.open = device;
    entry.failures = 0;
    entry.openFailureShown = false;
    device.onReport((report) => this.#onReport(entry, device, report));
    device.onError((error) => void this.#onDeviceError(entry, device, error));
    this.#emit('attached', entry.info);
    if (entry.info.mode === 'sureswipe') this.#problem('not-encrypting', entry.info);
  }

  async #detach(entry: Entry): Promise<void> {
    this.#entries.delete(entry.key);
    clearTimeout(entry.retry);
    const device = entry.open;
    entry.open = undefined;
    if (device) await closeQuietly(device);
    this.#emit('detached', entry.info);
  }

  #onReport(entry: Entry, device: HidReportDevice, report: Uint8Array): void {
    if (entry.open !== device) return;
    let outcome: ReportOutcome;
    try {
      outcome = interpretReport(report);
    } finally {
      // A refused report may hold clear tracks (a SureSwipe reader); nothing reads the buffer after this.
      report.fill(0);
    }
    if (outcome.kind === 'swipe') {
      this.#emit('swipe', {
        reader: entry.info,
        encryptedTrackData: outcome.encryptedTrackData,
        trackFormat: 'MAGTEK',
        display: outcome.display,
      });
    } else {
      this.#problem(outcome.code, entry.info, outcome.detail);
    }
  }

  async #onDeviceError(entry: Entry, device: HidReportDevice, error: Error): Promise<void> {
    if (entry.open !== device) return;
    entry.open = undefined;
    this.#problem('device-error', entry.info, describe(error));
    await closeQuietly(device);
    this.#scheduleReopen(entry);
  }

  #scheduleReopen(entry: Entry): void {
    if (!this.#running || this.#entries.get(entry.key) !== entry) return;
    entry.failures += 1;
    const delay = Math.min(this.#reopenDelayMs * 2 ** (entry.failures - 1), MAX_REOPEN_DELAY_MS);
    clearTimeout(entry.retry);
    entry.retry = setTimeout(() => {
      entry.retry = undefined;
      void this.rescan();
    }, delay);
    entry.retry.unref();
  }

  #problem(code: ReaderProblemCode, reader?: ReaderInfo, detail?: string): void {
    this.#emit('error', {
      code,
      message: READER_PROBLEMS[code],
      ...(reader && { reader }),
      ...(detail !== undefined && { detail }),
    });
  }

  #emit<E extends ReaderEventName>(event: E, payload: ReaderEventMap[E]): void {
    if (!this.#running) return;
    for (const listener of [...(this.#listeners[event] as Set<(payload: ReaderEventMap[E]) => void>)]) {
      try {
        listener(payload);
      } catch (error) {
        this.#onListenerError(error);
      }
    }
  }
}

async function closeQuietly(device: HidReportDevice): Promise<void> {
  try {
    await device.close();
  } catch {
    // Closing a device that was unplugged fails; it is gone either way.
  }
}
