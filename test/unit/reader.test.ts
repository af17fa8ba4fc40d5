import { afterEach, describe, expect, it, vi } from 'vitest';
import { passesLuhn } from '../../shared/cards';
import { ANSI_TEST_BDK, tdesCbcDecrypt, tdesTrackKey } from '../../electron/gateway/crypto/dukpt';
import { MagtekSwipeDecoder } from '../../electron/gateway/swipe/decoder';
import {
  MagtekReaders,
  MAGTEK_PRODUCT_IDS,
  READER_PROBLEMS,
  type HidBackend,
  type ReaderEventMap,
  type ReaderEventName,
} from '../../electron/reader/reader';
import { MAGNESAFE_OFFSETS, parseReport, type MagneSafeReport } from '../../electron/reader/reports';
import { buildSwipeString, swipeDisplay } from '../../electron/reader/swipe-string';
import {
  generateMagneSafeReport,
  generateSureSwipeReport,
  magtekMaskPan,
  SimulatedHidBackend,
  SwipeSimulator,
  type TestCard,
} from '../../electron/reader/simulator';
import { readSampleReport, SAMPLE } from '../fixtures/magtek-sample';

const VISA: TestCard = { pan: '4111111111111111', expMmyy: '1230', firstName: 'Ada', lastName: 'Lovelace' };
const decoder = new MagtekSwipeDecoder(ANSI_TEST_BDK);

function magneSafe(bytes: Uint8Array): MagneSafeReport {
  const parsed = parseReport(bytes);
  if (!parsed.ok || parsed.report.kind !== 'magnesafe') throw new Error('not a MagneSafe report');
  return parsed.report;
}

describe('MagneSafe V5 reports', () => {
  const sample = magneSafe(readSampleReport());

  it('parses the manual sample report to its exact masked tracks', () => {
    expect(sample.length).toBe(856);
    expect(sample.maskedTracks).toEqual(SAMPLE.maskedTracks);
  });

  it('parses the manual sample report header, status, KSN and lengths', () => {
    expect(sample.trackStatus).toEqual([0, 0, 0]);
    expect(sample.encodeType).toBe(0);
    expect(sample.encryptedTracks.map((track) => track.length)).toEqual([0x40, 0x28, 0x20]);
    expect(sample.magnePrintStatus.toString('hex')).toBe('a1050000');
    expect(sample.encryptedMagnePrint).toHaveLength(0x38);
    expect(sample.encryptionStatus).toBe(0x0006);
    expect(sample.ksn.toString('hex').toUpperCase()).toBe(SAMPLE.ksn);
    expect(sample.encryptedSessionId.toString('hex').toUpperCase()).toBe(SAMPLE.encryptedSessionId);
    expect(sample.absoluteLengths).toEqual(SAMPLE.absoluteLengths);
    expect(sample.magnePrintAbsoluteLength).toBe(0x36);
    expect(sample.encryptionCounter).toBeUndefined();
  });

  it('decrypts the manual sample report tracks to the exact clear tracks', () => {
    const key = tdesTrackKey(Buffer.from(SAMPLE.bdk, 'hex'), sample.ksn, 'pin');
    expect(key.toString('hex').toUpperCase()).toBe(SAMPLE.trackKey);
    const clear = sample.encryptedTracks.map((track, index) =>
      tdesCbcDecrypt(key, track).subarray(0, sample.absoluteLengths[index]).toString('latin1'),
    );
    expect(clear).toEqual(SAMPLE.clearTracks);
  });

  it('gives the screen only masked data of the sample: last four, name, expiry', () => {
    expect(swipeDisplay(sample)).toEqual({
      maskedPan: '************7189',
      lastFour: '7189',
      brand: 'mastercard',
      cardholderName: 'PAUL HOGAN',
      firstName: 'PAUL',
      lastName: 'HOGAN',
      expMmyy: '0408',
    });
  });

  it('builds a swipe string from the sample that the engine decodes to the same card', () => {
    expect(decoder.decode(buildSwipeString(sample))).toMatchObject({
      ok: true,
      pan: SAMPLE.pan,
      expMmyy: SAMPLE.expMmyy,
      lastName: 'HOGAN',
    });
  });

  it('reads the encryption counter and MagneSafe version of an 887-byte report', () => {
    const report = magneSafe(generateMagneSafeReport(VISA, { counter: 9 }));
    expect(report.length).toBe(887);
    expect(report.encryptionCounter).toBe(9);
    expect(report.magneSafeVersion).toBe('TNDRSIM1');
  });

  it('classifies a 337-byte report as a SureSwipe report and keeps none of its tracks', () => {
    const parsed = parseReport(generateSureSwipeReport(VISA));
    expect(parsed).toEqual({
      ok: true,
      report: { kind: 'sureswipe', trackStatus: [0, 0, 0], trackLengths: [53, 36, 0], encodeType: 0 },
    });
    expect(JSON.stringify(parsed)).not.toContain('4111');
  });

  it('refuses a report of any other length', () => {
    expect(parseReport(new Uint8Array(64))).toEqual({ ok: false, problem: 'unexpected-length', length: 64 });
  });

  it('refuses a report whose track lengths exceed their fields', () => {
    const report = generateMagneSafeReport(VISA, { counter: 1 });
    report[3] = 200;
    expect(parseReport(report)).toMatchObject({ ok: false, problem: 'inconsistent-lengths' });
  });
});

describe('the simulator', () => {
  it("masks like MagTek: the manual's masked track 1 number, still passing Luhn", () => {
    expect(magtekMaskPan(SAMPLE.pan)).toBe('5452000000007189');
    for (const pan of ['4111111111111111', '371449635398431', '6011000995500000', '4000056655665556'])
      expect(passesLuhn(magtekMaskPan(pan))).toBe(true);
  });

  it('generates reports whose masked tracks hide all but the first and last four digits', () => {
    const report = magneSafe(generateMagneSafeReport(VISA, { counter: 1 }));
    expect(report.maskedTracks[0]).toMatch(/^%B4111\d{8}1111\^LOVELACE\/ADA\^3012[0]+\?$/);
    expect(report.maskedTracks.join('')).not.toContain(VISA.pan);
  });

  it('decrypts generated reports to exactly the clear tracks of the card', () => {
    const report = magneSafe(generateMagneSafeReport(VISA, { counter: 3 }));
    const key = tdesTrackKey(Buffer.from(ANSI_TEST_BDK, 'hex'), report.ksn, 'pin');
    const track2 = tdesCbcDecrypt(key, report.encryptedTracks[1]).subarray(0, report.absoluteLengths[1]);
    expect(track2.toString('latin1')).toBe(';4111111111111111=30121010000000000?');
  });
});

// ---------------------------------------------------------------------------------------------
// The event source

type Recorded = { [E in ReaderEventName]: { event: E; payload: ReaderEventMap[E] } }[ReaderEventName];

function record(readers: MagtekReaders): Recorded[] {
  const events: Recorded[] = [];
  for (const event of ['attached', 'detached', 'error', 'swipe'] as const)
    readers.on(event, (payload) => events.push({ event, payload } as Recorded));
  return events;
}

function nextEvent<E extends ReaderEventName>(readers: MagtekReaders, event: E): Promise<ReaderEventMap[E]> {
  return new Promise((resolve) => {
    const off = readers.on(event, (payload) => {
      off();
      resolve(payload);
    });
  });
}

const running: MagtekReaders[] = [];

async function startReaders(backend: HidBackend, options: { platform?: NodeJS.Platform } = {}) {
  const readers = new MagtekReaders({ backend, reopenDelayMs: 0, pollIntervalMs: 0, ...options });
  const events = record(readers);
  running.push(readers);
  await readers.start();
  return { readers, events };
}

afterEach(async () => {
  await Promise.all(running.splice(0).map((readers) => readers.stop()));
  vi.useRealTimers();
});

describe('the reader event source', () => {
  it('announces a MagneSafe reader in HID mode as attached', async () => {
    const backend = new SimulatedHidBackend();
    const plugged = backend.plug();
    const { readers, events } = await startReaders(backend);
    expect(events).toEqual([
      {
        event: 'attached',
        payload: {
          id: plugged.path,
          productId: MAGTEK_PRODUCT_IDS.MAGNESAFE_SWIPE,
          mode: 'magnesafe',
          product: 'Simulated MagneSafe reader',
          serialNumber: 'TENDER-SIM-0001',
        },
      },
    ]);
    expect(readers.readers).toHaveLength(1);
    expect(backend.isOpen(plugged.path)).toBe(true);
  });

  it('turns the recorded sample report into a swipe with the swipe string and masked display data', async () => {
    const backend = new SimulatedHidBackend();
    const plugged = backend.plug();
    const { readers } = await startReaders(backend);
    const swipe = nextEvent(readers, 'swipe');
    backend.device(plugged.path).sendReport(readSampleReport());
    const event = await swipe;
    expect(event.trackFormat).toBe('MAGTEK');
    expect(event.encryptedTrackData).toBe(buildSwipeString(magneSafe(readSampleReport())));
    expect(event.display).toMatchObject({ maskedPan: '************7189', cardholderName: 'PAUL HOGAN' });
    expect(JSON.stringify(event)).not.toContain(SAMPLE.pan);
    expect(JSON.stringify(event)).not.toContain('4321000000072');
  });

  it('delivers simulated swipes that the engine decodes to the swiped card', async () => {
    const simulator = new SwipeSimulator({ firstCounter: 20 });
    const { readers } = await startReaders(simulator.backend);
    const swipes: string[] = [];
    readers.on('swipe', (event) => swipes.push(event.encryptedTrackData));
    simulator.swipe(VISA);
    simulator.swipe({ pan: '5454545454545454', expMmyy: '0631' });
    const decoded = swipes.map((swipe) => decoder.decode(swipe));
    expect(decoded).toMatchObject([
      { ok: true, pan: VISA.pan, expMmyy: '1230', ksn: 'FFFF9876543210E00014' },
      { ok: true, pan: '5454545454545454', expMmyy: '0631', ksn: 'FFFF9876543210E00015' },
    ]);
  });

  it('asks the cashier to swipe again, steadily, after a bad read', async () => {
    const simulator = new SwipeSimulator();
    const { readers } = await startReaders(simulator.backend);
    const error = nextEvent(readers, 'error');
    simulator.swipe(VISA, { badRead: true });
    expect(await error).toMatchObject({ code: 'bad-read', message: 'Swipe again, steadily.' });
  });

  it('reports a report of unexpected length as an error, not a crash', async () => {
    const simulator = new SwipeSimulator();
    const { readers, events } = await startReaders(simulator.backend);
    const error = nextEvent(readers, 'error');
    simulator.replay(new Uint8Array(64));
    expect(await error).toMatchObject({
      code: 'unexpected-report',
      message: READER_PROBLEMS['unexpected-report'],
      detail: 'a 64-byte report; MagTek readers send 337, 856 or 887 bytes',
    });
    simulator.swipe(VISA);
    expect(events.at(-1)?.event).toBe('swipe');
  });

  /** Reports a glitching reader could send: fields the report's layout allows, not in MagTek's form. */
  const malformed = (change: (bytes: Uint8Array) => void): Uint8Array => {
    const bytes = generateMagneSafeReport(VISA, { counter: 3 });
    change(bytes);
    return bytes;
  };
  it.each([
    [
      'an encrypted length that is no multiple of 8',
      (b: Uint8Array) => (b[MAGNESAFE_OFFSETS.encryptedLengths + 1] = 0x27),
    ],
    ['a NUL inside a masked track', (b: Uint8Array) => (b[MAGNESAFE_OFFSETS.maskedTracks[0] + 5] = 0x00)],
    ['a | inside a masked track', (b: Uint8Array) => (b[MAGNESAFE_OFFSETS.maskedTracks[1] + 3] = 0x7c)],
    ['a serial number that is not ASCII', (b: Uint8Array) => (b[MAGNESAFE_OFFSETS.serial] = 0xe9)],
  ])('reports a report with %s as an error, not a crash', async (_name, change) => {
    const simulator = new SwipeSimulator();
    const { readers, events } = await startReaders(simulator.backend);
    const error = nextEvent(readers, 'error');
    simulator.replay(malformed(change));
    expect(await error).toMatchObject({
      code: 'unexpected-report',
      detail: expect.stringMatching(/^a report whose fields do not have the MagTek form/),
    });
    // The reader stays open: the next swipe goes through.
    simulator.swipe(VISA);
    expect(events.at(-1)?.event).toBe('swipe');
  });

  it('refuses swipes from a reader whose keys are exhausted', async () => {
    const simulator = new SwipeSimulator();
    const { readers } = await startReaders(simulator.backend);
    const error = nextEvent(readers, 'error');
    simulator.swipe(VISA, { encryptionStatus: 0x0007 });
    expect(await error).toMatchObject({ code: 'keys-exhausted' });
  });

  it('refuses swipes from a MagneSafe reader with encryption off', async () => {
    const simulator = new SwipeSimulator();
    const { readers } = await startReaders(simulator.backend);
    const error = nextEvent(readers, 'error');
    simulator.swipe(VISA, { encryptionStatus: 0x0002 });
    expect(await error).toMatchObject({ code: 'encryption-off' });
  });

  it('refuses a non-encrypting SureSwipe reader for payments, on attach and on every swipe, without its tracks', async () => {
    const backend = new SimulatedHidBackend();
    const plugged = backend.plug({ productId: MAGTEK_PRODUCT_IDS.SURESWIPE });
    const { events } = await startReaders(backend);
    expect(events).toMatchObject([
      { event: 'attached', payload: { mode: 'sureswipe' } },
      { event: 'error', payload: { code: 'not-encrypting' } },
    ]);
    const report = generateSureSwipeReport(VISA);
    backend.device(plugged.path).sendReport(report);
    expect(events.at(-1)).toMatchObject({
      event: 'error',
      payload: { code: 'not-encrypting', message: READER_PROBLEMS['not-encrypting'] },
    });
    expect(JSON.stringify(events)).not.toContain('4111');
  });

  it('explains how to switch a reader in keyboard mode to HID, and does not open it', async () => {
    const backend = new SimulatedHidBackend();
    const plugged = backend.plug({
      productId: MAGTEK_PRODUCT_IDS.KEYBOARD_MODE,
      usagePage: 0x01,
      usage: 0x06,
    });
    backend.plug({
      productId: MAGTEK_PRODUCT_IDS.KEYBOARD_MODE,
      usagePage: 0x0c,
      usage: 0x01,
      serialNumber: plugged.serialNumber,
    });
    const { events } = await startReaders(backend);
    expect(events).toMatchObject([
      { event: 'attached', payload: { mode: 'keyboard' } },
      { event: 'error', payload: { code: 'keyboard-mode', message: expect.stringContaining('HID mode') } },
    ]);
    expect(backend.isOpen(plugged.path)).toBe(false);
  });

  it('ignores other vendors and the MagTek interfaces outside the vendor usage page', async () => {
    const backend = new SimulatedHidBackend();
    backend.plug({ vendorId: 0x046d });
    backend.plug({ usagePage: 0x01 });
    const { events } = await startReaders(backend);
    expect(events).toEqual([]);
  });

  it('follows unplug and plug', async () => {
    const backend = new SimulatedHidBackend();
    const { readers, events } = await startReaders(backend);
    const attached = nextEvent(readers, 'attached');
    const plugged = backend.plug();
    expect((await attached).id).toBe(plugged.path);
    const detached = nextEvent(readers, 'detached');
    backend.unplug(plugged.path);
    expect((await detached).id).toBe(plugged.path);
    await readers.rescan();
    expect(readers.readers).toEqual([]);
    expect(events.filter(({ event }) => event === 'detached')).toHaveLength(1);
  });

  it('reopens a reader after a read error and delivers swipes again', async () => {
    const backend = new SimulatedHidBackend();
    const plugged = backend.plug();
    const { readers } = await startReaders(backend);
    const first = backend.device(plugged.path);
    const error = nextEvent(readers, 'error');
    const reattached = nextEvent(readers, 'attached');
    first.fail(new Error('could not read from HID device'));
    expect(await error).toMatchObject({ code: 'device-error', detail: 'could not read from HID device' });
    await reattached;
    expect(first.closed).toBe(true);
    const second = backend.device(plugged.path);
    expect(second).not.toBe(first);
    const swipe = nextEvent(readers, 'swipe');
    second.sendReport(generateMagneSafeReport(VISA, { counter: 1 }));
    expect((await swipe).display.lastFour).toBe('1111');
  });

  it('says how to fix permissions when a reader cannot be opened on Linux, once, and retries', async () => {
    const backend = new SimulatedHidBackend();
    backend.failNextOpen(new Error('cannot open device with path /dev/hidraw3'));
    backend.failNextOpen(new Error('cannot open device with path /dev/hidraw3'));
    backend.plug();
    const readers = new MagtekReaders({ backend, reopenDelayMs: 0, pollIntervalMs: 0, platform: 'linux' });
    running.push(readers);
    const events = record(readers);
    const attached = nextEvent(readers, 'attached');
    await readers.start();
    await attached;
    expect(events.map(({ event }) => event)).toEqual(['error', 'attached']);
    expect(events[0]?.payload).toMatchObject({
      code: 'open-failed-linux',
      message: expect.stringContaining('resources/udev/99-tender-magtek.rules'),
    });
  });

  it('reports once that USB readers cannot be listed', async () => {
    const backend: HidBackend = {
      list: () => Promise.reject(new Error('libudev.so.1: cannot open shared object file')),
      open: () => Promise.reject(new Error('unreachable')),
    };
    const { readers, events } = await startReaders(backend);
    await readers.rescan();
    expect(events).toMatchObject([{ event: 'error', payload: { code: 'hid-unavailable' } }]);
  });

  it('keeps delivering events when a listener throws', async () => {
    const simulator = new SwipeSimulator();
    const failures: unknown[] = [];
    const readers = new MagtekReaders({
      backend: simulator.backend,
      pollIntervalMs: 0,
      onListenerError: (error) => failures.push(error),
    });
    running.push(readers);
    await readers.start();
    readers.on('swipe', () => {
      throw new Error('listener bug');
    });
    const swipes: string[] = [];
    readers.on('swipe', (event) => swipes.push(event.display.lastFour));
    simulator.swipe(VISA);
    simulator.swipe(VISA);
    expect(swipes).toEqual(['1111', '1111']);
    expect(failures).toHaveLength(2);
  });

  it('polls for readers when the backend cannot watch for plugging', async () => {
    vi.useFakeTimers();
    const simulated = new SimulatedHidBackend();
    const backend: HidBackend = {
      list: (vendor) => simulated.list(vendor),
      open: (device) => simulated.open(device),
    };
    const readers = new MagtekReaders({ backend, pollIntervalMs: 2000 });
    running.push(readers);
    const events = record(readers);
    await readers.start();
    simulated.plug();
    expect(events).toEqual([]);
    await vi.advanceTimersByTimeAsync(2000);
    expect(events.map(({ event }) => event)).toEqual(['attached']);
  });

  it('closes every reader on stop and emits nothing after', async () => {
    const simulator = new SwipeSimulator();
    const { readers, events } = await startReaders(simulator.backend);
    const path = readers.readers[0]?.id ?? '';
    await readers.stop();
    expect(simulator.backend.isOpen(path)).toBe(false);
    simulator.unplug();
    await readers.rescan();
    expect(events.map(({ event }) => event)).toEqual(['attached']);
  });
});
