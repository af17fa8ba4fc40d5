/**
 * A MagTek reader without hardware: a HID backend whose devices replay recorded report bytes, and a
 * generator of encrypted MagneSafe V5 reports for any test card. Both feed MagtekReaders exactly as
 * node-hid does, so demos and tests exercise the real parsing path.
 */
import { createHash, randomBytes } from 'node:crypto';
import { passesLuhn } from '../../shared/cards';
import {
  ANSI_TEST_BDK,
  isValidKsnCounter,
  tdesCbcEncrypt,
  tdesTrackKey,
  type TrackKeyVariant,
} from '../gateway/crypto/dukpt';
import { ENCRYPTION_STATUS } from '../gateway/swipe/format';
import type { HidBackend, HidDeviceInfo, HidReportDevice } from './reader';
import { MAGTEK_PRODUCT_IDS, MAGTEK_USAGE_PAGE, MAGTEK_VENDOR_ID } from './reader';
import {
  CARD_ENCODE_TYPES,
  MAGNESAFE_EXTENDED_REPORT_LENGTH,
  MAGNESAFE_OFFSETS,
  parseReport,
  SURESWIPE_OFFSETS,
  SURESWIPE_REPORT_LENGTH,
  type MagneSafeReport,
} from './reports';
import { buildSwipeString } from './swipe-string';

/** The initial KSN of the ANSI X9.24 examples; generated test reports count up from it. */
export const SIMULATOR_INITIAL_KSN = 'FFFF9876543210E00000';

/**
 * The initial KSN of a simulated reader of its own: the test key set's FFFF, then a random device
 * (43 bits). A real reader keeps its counter through a restart of the counter PC; a simulated one
 * starts again at 1, so it takes a device of its own each time and never sends a KSN the engine
 * has already seen, which the engine would refuse as a replayed swipe.
 */
export function randomSimulatorInitialKsn(): string {
  const ksn = Buffer.alloc(10);
  ksn.writeUInt16BE(0xffff, 0);
  randomBytes(6).copy(ksn, 2);
  ksn[7] = (ksn[7] ?? 0) & 0xe0;
  return ksn.toString('hex').toUpperCase();
}

export interface TestCard {
  pan: string;
  /** MMYY, as on the gateway's exp_date. */
  expMmyy: string;
  firstName?: string;
  lastName?: string;
  serviceCode?: string;
}

export interface GeneratedReportOptions {
  /** The KSN transaction counter (21 bits); a real reader never uses one with more than ten 1-bits. */
  counter: number;
  /** Hex; the ANSI test BDK unless given. */
  bdk?: string;
  initialKsn?: string;
  variant?: TrackKeyVariant;
  /** 887 (current firmware) unless 856 is asked for. */
  length?: MagneSafeReport['length'];
  deviceSerial?: string;
  /** Replaces the computed status, e.g. keys exhausted or encryption off. */
  encryptionStatus?: number;
  /** The reader saw a card but could decode neither track 1 nor track 2. */
  badRead?: boolean;
}

const ENCRYPTING_STATUS = ENCRYPTION_STATUS.KEY_INJECTED | ENCRYPTION_STATUS.ENCRYPTION_ENABLED;
/** Status bytes of the manual's sample swipe; the simulator does not model MagnePrint. */
const SAMPLE_MAGNEPRINT_STATUS = Buffer.from('A1050000', 'hex');
const MAGNEPRINT_LENGTH = 0x38;
const MAGNEPRINT_ABSOLUTE_LENGTH = 0x36;
const SIMULATOR_VERSION = 'TNDRSIM1';
export const SIMULATOR_SERIAL = 'TENDER-SIM-0001';

/** The 10-byte KSN for a counter, from an initial KSN (whose counter bits are ignored). */
export function ksnForCounter(counter: number, initialKsn = SIMULATOR_INITIAL_KSN): Buffer {
  if (!/^[0-9A-Fa-f]{20}$/.test(initialKsn)) throw new RangeError('an initial KSN is 20 hex digits');
  if (!Number.isInteger(counter) || counter < 0 || counter > 0x1f_ffff)
    throw new RangeError('a KSN counter is a 21-bit unsigned integer');
  const ksn = Buffer.from(initialKsn, 'hex');
  ksn[7] = ((ksn[7] ?? 0) & 0xe0) | (counter >>> 16);
  ksn[8] = (counter >>> 8) & 0xff;
  ksn[9] = counter & 0xff;
  return ksn;
}

/** The counter a reader uses after this one: the next with at most ten 1-bits. */
export function nextKsnCounter(counter: number): number {
  let next = counter + 1;
  while (!isValidKsnCounter(next)) next += 1;
  return next;
}

/**
 * MagTek's default masking: the first and last four digits clear, the rest 0, and the middle digit
 * set so that the masked number still passes the Luhn check.
 */
export function magtekMaskPan(pan: string): string {
  const digits = [...pan].map((digit, index) => (index < 4 || index >= pan.length - 4 ? digit : '0'));
  const middle = Math.floor(pan.length / 2);
  for (let candidate = 0; candidate <= 9; candidate++) {
    digits[middle] = String(candidate);
    if (passesLuhn(digits.join(''))) break;
  }
  return digits.join('');
}

function stripeName(card: TestCard): string {
  const name = `${card.lastName ?? 'TEST'}/${card.firstName ?? 'CARD'}`.toUpperCase();
  return name.slice(0, 26);
}

interface SimulatedTracks {
  clear: readonly [string, string];
  masked: readonly [string, string];
}

/** Tracks 1 and 2 of the card; the masked forms keep the expiry and zero what follows it. */
function cardTracks(card: TestCard): SimulatedTracks {
  if (!/^\d{12,19}$/.test(card.pan)) throw new RangeError('a test card number has 12 to 19 digits');
  if (!/^\d{4}$/.test(card.expMmyy)) throw new RangeError('a test card expiry is MMYY');
  const yymm = card.expMmyy.slice(2) + card.expMmyy.slice(0, 2);
  const after1 = `${card.serviceCode ?? '101'}0000000000000`;
  const after2 = `${card.serviceCode ?? '101'}0000000000`;
  const masked = magtekMaskPan(card.pan);
  const zeros = (text: string): string => '0'.repeat(text.length);
  return {
    clear: [`%B${card.pan}^${stripeName(card)}^${yymm}${after1}?`, `;${card.pan}=${yymm}${after2}?`],
    masked: [
      `%B${masked}^${stripeName(card)}^${yymm}${zeros(after1)}?`,
      `;${masked}=${yymm}${zeros(after2)}?`,
    ],
  };
}

function deterministicBytes(label: string, seed: Buffer, length: number): Buffer {
  return createHash('sha512').update(label).update(seed).digest().subarray(0, length);
}

/** An encrypted MagneSafe V5 report of a swipe of this card, as the reader would send it. */
export function generateMagneSafeReport(card: TestCard, options: GeneratedReportOptions): Buffer {
  const at = MAGNESAFE_OFFSETS;
  const length = options.length ?? MAGNESAFE_EXTENDED_REPORT_LENGTH;
  const variant = options.variant ?? 'pin';
  const ksn = ksnForCounter(options.counter, options.initialKsn);
  const bdk = Buffer.from(options.bdk ?? ANSI_TEST_BDK, 'hex');
  const status =
    options.encryptionStatus ??
    (variant === 'data' ? ENCRYPTING_STATUS | ENCRYPTION_STATUS.DATA_VARIANT : ENCRYPTING_STATUS);
  const tracks = cardTracks(card);
  const report = Buffer.alloc(length);

  if (options.badRead) {
    report[at.trackStatus] = 1;
    report[at.trackStatus + 1] = 1;
    report[at.encodeType] = CARD_ENCODE_TYPES.UNDETERMINED;
  } else {
    const key = tdesTrackKey(bdk, ksn, variant);
    tracks.clear.forEach((track, i) => {
      const index = i as 0 | 1;
      const clear = Buffer.from(track, 'latin1');
      const encrypted = tdesCbcEncrypt(key, clear);
      clear.fill(0);
      const masked = tracks.masked[index] ?? '';
      report[at.encryptedLengths + index] = encrypted.length;
      encrypted.copy(report, at.encryptedTracks[index]);
      report[at.maskedLengths + index] = masked.length;
      report.write(masked, at.maskedTracks[index], 'latin1');
      report[at.absoluteLengths + index] = track.length;
    });
    key.fill(0);
    report[at.encodeType] = CARD_ENCODE_TYPES.ISO_ABA;
  }
  SAMPLE_MAGNEPRINT_STATUS.copy(report, at.magnePrintStatus);
  report[at.magnePrintLength] = MAGNEPRINT_LENGTH;
  deterministicBytes('magneprint', ksn, MAGNEPRINT_LENGTH).copy(report, at.magnePrint);
  report.write((options.deviceSerial ?? SIMULATOR_SERIAL).slice(0, at.serialBytes - 1), at.serial, 'latin1');
  report.writeUInt16BE(status, at.encryptionStatus);
  ksn.copy(report, at.ksn);
  deterministicBytes('session', ksn, at.sessionIdBytes).copy(report, at.sessionId);
  report[at.magnePrintAbsoluteLength] = MAGNEPRINT_ABSOLUTE_LENGTH;
  if (length === MAGNESAFE_EXTENDED_REPORT_LENGTH) {
    report.writeUIntBE(options.counter, at.encryptionCounter, 3);
    report.write(SIMULATOR_VERSION, at.version, 'latin1');
    if (!options.badRead) createHash('sha1').update(tracks.clear[1]).digest().copy(report, at.track2Hash);
  }
  return report;
}

/** A legacy SureSwipe report: clear tracks, which Tender must refuse. */
export function generateSureSwipeReport(card: TestCard): Buffer {
  const report = Buffer.alloc(SURESWIPE_REPORT_LENGTH);
  cardTracks(card).clear.forEach((track, index) => {
    report[SURESWIPE_OFFSETS.trackLengths + index] = track.length;
    report.write(track, SURESWIPE_OFFSETS.tracks[index] ?? 0, 'latin1');
  });
  return report;
}

/** The encrypted swipe string a simulated swipe of this card produces: what a POST carries. */
export function simulatedSwipeString(card: TestCard, options: GeneratedReportOptions): string {
  const parsed = parseReport(generateMagneSafeReport(card, options));
  if (!parsed.ok || parsed.report.kind !== 'magnesafe')
    throw new Error('the simulator generated a report it cannot read back');
  return buildSwipeString(parsed.report);
}

// ---------------------------------------------------------------------------------------------
// Simulated devices

export class SimulatedHidDevice implements HidReportDevice {
  #reportListeners: ((report: Uint8Array) => void)[] = [];
  #errorListeners: ((error: Error) => void)[] = [];
  #closed = false;

  constructor(readonly info: HidDeviceInfo) {}

  get closed(): boolean {
    return this.#closed;
  }

  onReport(listener: (report: Uint8Array) => void): void {
    this.#reportListeners.push(listener);
  }

  onError(listener: (error: Error) => void): void {
    this.#errorListeners.push(listener);
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#reportListeners = [];
    this.#errorListeners = [];
  }

  /** Delivers one report, as a copy: the receiver may wipe it. */
  sendReport(bytes: Uint8Array): void {
    if (this.#closed) throw new Error('the simulated reader is closed');
    for (const listener of this.#reportListeners) listener(Uint8Array.from(bytes));
  }

  /** Fails like a read error: the device delivers nothing more. */
  fail(error = new Error('could not read from HID device')): void {
    const listeners = this.#errorListeners;
    this.#reportListeners = [];
    this.#errorListeners = [];
    for (const listener of listeners) listener(error);
  }
}

/** A USB bus with simulated MagTek readers plugged in and out at will. */
export class SimulatedHidBackend implements HidBackend {
  readonly #plugged = new Map<string, HidDeviceInfo>();
  readonly #opened = new Map<string, SimulatedHidDevice>();
  readonly #watchers = new Set<() => void>();
  #openFailures: Error[] = [];
  #nextPath = 1;

  /** Plugs a reader in (a MagneSafe V5 swipe reader in HID mode unless told); returns its info. */
  plug(device: Partial<HidDeviceInfo> = {}): HidDeviceInfo {
    const info: HidDeviceInfo = {
      path: `sim-hidraw${this.#nextPath++}`,
      vendorId: MAGTEK_VENDOR_ID,
      productId: MAGTEK_PRODUCT_IDS.MAGNESAFE_SWIPE,
      usagePage: MAGTEK_USAGE_PAGE,
      usage: 1,
      product: 'Simulated MagneSafe reader',
      serialNumber: SIMULATOR_SERIAL,
      ...device,
    };
    this.#plugged.set(info.path, info);
    this.#notify();
    return info;
  }

  unplug(path: string): void {
    this.#plugged.delete(path);
    this.#opened.get(path)?.fail(new Error('the simulated reader was unplugged'));
    this.#opened.delete(path);
    this.#notify();
  }

  /** Makes the next open() fail, as a missing permission would. */
  failNextOpen(error = new Error('cannot open device')): void {
    this.#openFailures.push(error);
  }

  /** The device that open() last returned for this path. */
  device(path: string): SimulatedHidDevice {
    const device = this.#opened.get(path);
    if (!device) throw new Error(`no simulated reader is open at ${path}`);
    return device;
  }

  isOpen(path: string): boolean {
    const device = this.#opened.get(path);
    return device !== undefined && !device.closed;
  }

  async list(vendorId: number): Promise<HidDeviceInfo[]> {
    return [...this.#plugged.values()].filter((device) => device.vendorId === vendorId);
  }

  async open(device: HidDeviceInfo): Promise<HidReportDevice> {
    const failure = this.#openFailures.shift();
    if (failure) throw failure;
    if (!this.#plugged.has(device.path)) throw new Error('no such device');
    const opened = new SimulatedHidDevice(device);
    this.#opened.set(device.path, opened);
    return opened;
  }

  watch(onChange: () => void): () => void {
    this.#watchers.add(onChange);
    return () => this.#watchers.delete(onChange);
  }

  #notify(): void {
    for (const watcher of this.#watchers) watcher();
  }
}

/**
 * One simulated reader for demos: plugged into its own backend, it swipes test cards with the
 * next KSN counter each time, like a real reader.
 */
export class SwipeSimulator {
  readonly backend = new SimulatedHidBackend();
  readonly #options: Omit<GeneratedReportOptions, 'counter'>;
  #counter: number;
  #path: string | undefined;

  constructor(options: Omit<GeneratedReportOptions, 'counter'> & { firstCounter?: number } = {}) {
    const { firstCounter = 1, ...rest } = options;
    this.#options = rest;
    this.#counter = firstCounter;
    this.#path = this.backend.plug().path;
  }

  get plugged(): boolean {
    return this.#path !== undefined;
  }

  plug(): void {
    if (this.#path === undefined) this.#path = this.backend.plug().path;
  }

  unplug(): void {
    if (this.#path === undefined) return;
    this.backend.unplug(this.#path);
    this.#path = undefined;
  }

  /** Swipes a card; the reader must have been opened (MagtekReaders started). */
  swipe(card: TestCard, options: Partial<GeneratedReportOptions> = {}): void {
    const counter = options.counter ?? this.#counter;
    this.replay(generateMagneSafeReport(card, { ...this.#options, ...options, counter }));
    this.#counter = nextKsnCounter(Math.max(counter, this.#counter));
  }

  /** Sends recorded report bytes, such as the manual's sample swipe. */
  replay(report: Uint8Array): void {
    if (this.#path === undefined) throw new Error('the simulated reader is unplugged');
    this.backend.device(this.#path).sendReport(report);
  }
}
