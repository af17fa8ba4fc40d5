/**
 * Where the desktop app puts the customer's screen: on a display that is not the cashier's, opened
 * when one is plugged in, moved or closed as displays come and go, and never while the switch in
 * Settings is off. Electron's runtime cannot run here; the window is a fake with the same calls.
 */
import { describe, expect, it } from 'vitest';
import {
  customerDisplayOf,
  CustomerWindows,
  planCustomerWindow,
  type CustomerWindow,
  type DisplayArea,
} from '../../electron/main/customer-window';

const LAPTOP: DisplayArea = { id: 1, bounds: { x: 0, y: 0, width: 1366, height: 768 }, internal: true };
const COUNTER: DisplayArea = { id: 2, bounds: { x: 1366, y: 0, width: 1280, height: 800 }, internal: false };
const POLE: DisplayArea = { id: 3, bounds: { x: 2646, y: 0, width: 800, height: 480 }, internal: false };

describe('choosing the customer’s display', () => {
  it('is any display but the cashier’s, an external one before a built-in panel', () => {
    expect(customerDisplayOf([LAPTOP], 1)).toBeUndefined();
    expect(customerDisplayOf([LAPTOP, COUNTER], 1)).toEqual(COUNTER);
    expect(customerDisplayOf([LAPTOP, COUNTER], 2)).toEqual(LAPTOP);
    expect(customerDisplayOf([POLE, LAPTOP, COUNTER], 1)).toEqual(COUNTER);
    expect(customerDisplayOf([LAPTOP, POLE, COUNTER], 2)).toEqual(POLE);
  });

  it('plans to open, move, close or keep the window', () => {
    const base = { enabled: true, displays: [LAPTOP, COUNTER], cashierDisplayId: 1 };
    expect(planCustomerWindow({ ...base, openOn: undefined })).toEqual({ action: 'open', display: COUNTER });
    expect(planCustomerWindow({ ...base, openOn: 2 })).toEqual({ action: 'keep' });
    expect(planCustomerWindow({ ...base, displays: [LAPTOP, POLE], openOn: 2 })).toEqual({
      action: 'move',
      display: POLE,
    });
    expect(planCustomerWindow({ ...base, displays: [LAPTOP], openOn: 2 })).toEqual({ action: 'close' });
    expect(planCustomerWindow({ ...base, displays: [LAPTOP], openOn: undefined })).toEqual({
      action: 'keep',
    });
    expect(planCustomerWindow({ ...base, enabled: false, openOn: 2 })).toEqual({ action: 'close' });
    expect(planCustomerWindow({ ...base, enabled: false, openOn: undefined })).toEqual({ action: 'keep' });
  });
});

describe('the customer’s window as displays come and go', () => {
  function counter() {
    const state = { displays: [LAPTOP], enabled: true, cashier: 1 as number | undefined };
    const opened: { on: DisplayArea[]; closed: boolean; closeListeners: (() => void)[] }[] = [];
    const windows = new CustomerWindows({
      displays: () => state.displays,
      cashierDisplayId: () => state.cashier,
      enabled: () => state.enabled,
      open: () => {
        const record = { on: [] as DisplayArea[], closed: false, closeListeners: [] as (() => void)[] };
        opened.push(record);
        const window: CustomerWindow = {
          placeOn: (display) => record.on.push(display),
          close: () => {
            record.closed = true;
            for (const listener of record.closeListeners) listener();
          },
          onClosed: (listener) => record.closeListeners.push(listener),
        };
        return window;
      },
    });
    return { state, opened, windows };
  }

  it('is not opened on a computer with one display', () => {
    const { opened, windows } = counter();
    windows.update();
    expect(opened).toEqual([]);
    expect(windows.openOn).toBeUndefined();
  });

  it('opens full on a display plugged in, follows it to another, and closes when it is unplugged', () => {
    const { state, opened, windows } = counter();
    state.displays = [LAPTOP, COUNTER];
    windows.update();
    expect(opened).toHaveLength(1);
    expect(opened[0]?.on).toEqual([COUNTER]);
    windows.update();
    expect(opened).toHaveLength(1);

    state.displays = [LAPTOP, POLE];
    windows.update();
    expect(opened[0]?.on).toEqual([COUNTER, POLE]);
    expect(windows.openOn).toBe(3);

    state.displays = [LAPTOP];
    windows.update();
    expect(opened[0]?.closed).toBe(true);
    expect(windows.openOn).toBeUndefined();

    state.displays = [LAPTOP, COUNTER];
    windows.update();
    expect(opened).toHaveLength(2);
  });

  it('closes when the switch is turned off, and opens again when it is turned on', () => {
    const { state, opened, windows } = counter();
    state.displays = [LAPTOP, COUNTER];
    windows.update();
    state.enabled = false;
    windows.update();
    expect(opened[0]?.closed).toBe(true);
    state.enabled = true;
    windows.update();
    expect(opened).toHaveLength(2);
  });

  it('moves off the display the cashier’s window was moved to', () => {
    const { state, opened, windows } = counter();
    state.displays = [LAPTOP, COUNTER];
    windows.update();
    state.cashier = 2;
    windows.update();
    expect(opened[0]?.on).toEqual([COUNTER, LAPTOP]);
  });

  it('forgets a window closed from outside, and opens a new one at the next change', () => {
    const { state, opened, windows } = counter();
    state.displays = [LAPTOP, COUNTER];
    windows.update();
    opened[0]?.closeListeners.forEach((listener) => listener());
    expect(windows.openOn).toBeUndefined();
    windows.update();
    expect(opened).toHaveLength(2);
  });
});
