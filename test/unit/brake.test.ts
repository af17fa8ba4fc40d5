import { describe, expect, it } from 'vitest';
import { FailedKeyBrake } from '../../electron/gateway/http/brake';

/** A brake on a clock the test moves. */
function brakeAt(limit: number, windowMs: number) {
  const clock = { now: 1_000_000 };
  return { clock, brake: new FailedKeyBrake(limit, windowMs, () => clock.now) };
}

describe('the failed-key brake', () => {
  it('lets the allowed wrong keys through, then asks to wait until the oldest leaves the window', () => {
    const { clock, brake } = brakeAt(5, 60_000);
    const waits: (number | undefined)[] = [];
    for (let i = 0; i < 7; i++) {
      waits.push(brake.recordFailure());
      clock.now += 1000;
    }
    expect(waits).toEqual([undefined, undefined, undefined, undefined, undefined, 55, 55]);
  });

  it('counts wrong keys afresh once the window has passed', () => {
    const { clock, brake } = brakeAt(3, 10_000);
    for (let i = 0; i < 4; i++) brake.recordFailure();
    expect(brake.recordFailure()).toBe(10);
    clock.now += 10_000;
    expect([brake.recordFailure(), brake.recordFailure(), brake.recordFailure()]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    expect(brake.recordFailure()).toBeGreaterThan(0);
  });

  it('stays on while wrong keys keep coming, and asks for at least a second', () => {
    const { clock, brake } = brakeAt(2, 1000);
    brake.recordFailure();
    brake.recordFailure();
    for (let i = 0; i < 50; i++) {
      clock.now += 400;
      expect(brake.recordFailure()).toBe(1);
    }
  });

  it('refuses every wrong key when none is allowed', () => {
    const { brake } = brakeAt(0, 60_000);
    expect(brake.recordFailure()).toBe(60);
  });

  it('costs the same for every wrong key, however many came within the window', () => {
    const { clock, brake } = brakeAt(20, 60_000);
    // CPU time, not the clock, so a busy machine does not count against the brake: keeping every
    // time in the window, 20,000 wrong keys would cost 200 million steps; the ring costs 20,000.
    const before = process.cpuUsage();
    // Twenty seconds of brute force at a thousand wrong keys a second, all within one window.
    for (let i = 0; i < 20_000; i++) {
      clock.now += 1;
      brake.recordFailure();
    }
    const spent = process.cpuUsage(before);
    expect((spent.user + spent.system) / 1000).toBeLessThan(250);
  });
});
