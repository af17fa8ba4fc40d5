/** Store and forward's rules: what may be approved offline, within which limits, and the code it gets. */
import { describe, expect, it } from 'vitest';
import {
  isOfflineAuthorizationCode,
  offlineAuthorizationCode,
  offlineVerdict,
  type OfflineQueue,
} from '../../electron/gateway/domain/offline';

const LIMITS = { maxAmountCents: 5_000, maxTotalCents: 50_000, maxHours: 24 };
const EMPTY: OfflineQueue = { waitingTotalCents: 0, oldestWaitingAt: null };
const NOW = Date.UTC(2026, 5, 1, 12);
const HOUR = 3_600_000;
const sale = (amountCents: number, entryMode: 'keyed' | 'swiped' = 'swiped') =>
  ({ type: 'SALE', entryMode, amountCents }) as const;

describe('an offline approval', () => {
  it('is given to a swiped sale up to the per-sale limit, the limit itself included', () => {
    expect(offlineVerdict(sale(5_000), LIMITS, EMPTY, NOW)).toEqual({ ok: true });
    expect(offlineVerdict(sale(1), LIMITS, EMPTY, NOW)).toEqual({ ok: true });
  });

  it('is refused to a keyed card, whatever the amount', () => {
    expect(offlineVerdict(sale(100, 'keyed'), LIMITS, EMPTY, NOW)).toMatchObject({
      ok: false,
      errorCode: '9010',
      message: expect.stringMatching(/^The card network is down and a keyed card cannot be approved offline/),
    });
  });

  it('is refused to AUTH, FORCED SALE and an unmatched REFUND', () => {
    for (const type of ['AUTH', 'FORCED SALE', 'REFUND'] as const) {
      expect(
        offlineVerdict({ type, entryMode: 'swiped', amountCents: 100 }, LIMITS, EMPTY, NOW),
      ).toMatchObject({
        ok: false,
        errorCode: '9011',
      });
    }
  });

  it('is refused a cent above the per-sale limit, saying both amounts', () => {
    expect(offlineVerdict(sale(5_001), LIMITS, EMPTY, NOW)).toMatchObject({
      ok: false,
      errorCode: '9012',
      message: expect.stringContaining('50.01 is above the 50.00'),
    });
  });

  it('is refused when the sales waiting and this one would pass the total, given up to it exactly', () => {
    const waiting = { waitingTotalCents: 47_000, oldestWaitingAt: NOW - HOUR };
    expect(offlineVerdict(sale(3_000), LIMITS, waiting, NOW)).toEqual({ ok: true });
    expect(offlineVerdict(sale(3_001), LIMITS, waiting, NOW)).toMatchObject({
      ok: false,
      errorCode: '9013',
      message: expect.stringContaining('470.00 of the 500.00'),
    });
  });

  it('is refused once a sale has waited longer than the hours allowed', () => {
    expect(
      offlineVerdict(sale(100), LIMITS, { waitingTotalCents: 100, oldestWaitingAt: NOW - 24 * HOUR }, NOW),
    ).toEqual({ ok: true });
    expect(
      offlineVerdict(
        sale(100),
        LIMITS,
        { waitingTotalCents: 100, oldestWaitingAt: NOW - 24 * HOUR - 1 },
        NOW,
      ),
    ).toMatchObject({ ok: false, errorCode: '9014' });
  });

  it('carries an authorization code that says it is offline', () => {
    let next = 0;
    const codes = Array.from({ length: 50 }, () => offlineAuthorizationCode((below) => next++ % below));
    for (const code of codes) {
      expect(code).toMatch(/^OFL[A-Z0-9]{3}$/);
      expect(isOfflineAuthorizationCode(code)).toBe(true);
    }
    expect(isOfflineAuthorizationCode('K7M2QX')).toBe(false);
    expect(isOfflineAuthorizationCode(null)).toBe(false);
  });
});
