import { describe, expect, it } from 'vitest';
import { batchContribution, negate } from '../../electron/gateway/domain/batch';
import { checkExpiry } from '../../electron/gateway/domain/expiry';
import {
  checkCapture,
  checkRefund,
  checkVoid,
  type ReferencedTransaction,
} from '../../electron/gateway/domain/rules';

const base: ReferencedTransaction = {
  id: 7,
  type: 'Sale',
  result: 'Approved',
  amount: 5000,
  voidedBy: null,
  capturedBy: null,
  refundedAmount: 0,
  createdAt: Date.UTC(2026, 10, 1),
};
const auth = { ...base, type: 'Auth' };
const fresh = { days: 7, now: Date.UTC(2026, 10, 2) };

const codeOf = (check: ReturnType<typeof checkCapture>) => (check.ok ? 'ok' : check.errorCode);

describe('expiry', () => {
  const now = new Date(2026, 10, 20);

  it('a card is good through the last day of its expiry month', () => {
    expect(checkExpiry('1126', now)).toEqual({ ok: true, expiry: { month: 11, year: 2026 } });
  });

  it('a card from last month has expired, and the message says when', () => {
    const check = checkExpiry('1026', now);
    expect(check).toEqual({ ok: false, message: 'card expired 10/26. Ask for another card.' });
  });

  it.each(['0027', '1327', '123', '12345', 'ab12'])('%j is not a valid MMYY', (text) => {
    expect(checkExpiry(text, now).ok).toBe(false);
  });
});

describe('capture', () => {
  it('captures up to the authorized amount', () => {
    expect(codeOf(checkCapture(auth, 5000, fresh))).toBe('ok');
    expect(codeOf(checkCapture(auth, 5001, fresh))).toBe('8012');
  });

  it('captures an authorization only once', () => {
    expect(codeOf(checkCapture({ ...auth, capturedBy: 9 }, 100, fresh))).toBe('8011');
  });

  it('refuses an authorization older than the expiry, and allows one just inside it', () => {
    const day = 86_400_000;
    expect(codeOf(checkCapture(auth, 100, { days: 7, now: auth.createdAt + 7 * day }))).toBe('ok');
    expect(codeOf(checkCapture(auth, 100, { days: 7, now: auth.createdAt + 7 * day + 1 }))).toBe('8030');
    expect(codeOf(checkCapture(auth, 100, { days: 30, now: auth.createdAt + 8 * day }))).toBe('ok');
  });

  it('refuses a sale, a declined or a voided authorization', () => {
    expect(codeOf(checkCapture(base, 100, fresh))).toBe('8011');
    expect(codeOf(checkCapture({ ...auth, result: 'Declined' }, 100, fresh))).toBe('8011');
    expect(codeOf(checkCapture({ ...auth, voidedBy: 9 }, 100, fresh))).toBe('8011');
  });
});

describe('refund', () => {
  it('refunds a settled sale up to what remains', () => {
    expect(codeOf(checkRefund({ ...base, refundedAmount: 3000 }, true, 2000))).toBe('ok');
    expect(codeOf(checkRefund({ ...base, refundedAmount: 3000 }, true, 2001))).toBe('8014');
  });

  it('sends an unsettled sale to void instead', () => {
    const check = checkRefund(base, false, 100);
    expect(codeOf(check)).toBe('8013');
    expect(check.ok || check.message).toMatch(/void it instead/);
  });

  it('refuses authorizations, refunds, voids and voided sales', () => {
    for (const type of ['Auth', 'Refund', 'Void'])
      expect(codeOf(checkRefund({ ...base, type }, true, 1))).toBe('8015');
    expect(codeOf(checkRefund({ ...base, voidedBy: 3 }, true, 1))).toBe('8015');
  });
});

describe('void', () => {
  it('voids an approved sale in the open batch, once', () => {
    expect(codeOf(checkVoid(base, true))).toBe('ok');
    expect(codeOf(checkVoid({ ...base, voidedBy: 8 }, true))).toBe('8017');
  });

  it('sends a settled sale to refund instead', () => {
    expect(codeOf(checkVoid(base, false))).toBe('8016');
  });

  it('voids an uncaptured authorization, which is in no batch', () => {
    expect(codeOf(checkVoid(auth, false))).toBe('ok');
    expect(codeOf(checkVoid({ ...auth, capturedBy: 12 }, false))).toBe('8017');
  });

  it('never voids a void or a declined transaction', () => {
    expect(codeOf(checkVoid({ ...base, type: 'Void' }, true))).toBe('8017');
    expect(codeOf(checkVoid({ ...base, result: 'Declined' }, true))).toBe('8017');
  });
});

describe('batch contribution', () => {
  it('counts sales with their tips, and refunds', () => {
    expect(batchContribution({ type: 'Capture', result: 'Approved', amount: 1200, tipAmount: 200 })).toEqual({
      salesCount: 1,
      salesTotal: 1200,
      refundCount: 0,
      refundTotal: 0,
      tipTotal: 200,
    });
    expect(
      batchContribution({ type: 'Refund', result: 'Approved', amount: 300, tipAmount: 0 }).refundTotal,
    ).toBe(300);
  });

  it('never counts declined transactions, authorizations or voids', () => {
    for (const t of [
      { type: 'Sale', result: 'Declined', amount: 100, tipAmount: 0 },
      { type: 'Auth', result: 'Approved', amount: 100, tipAmount: 0 },
      { type: 'Void', result: 'Approved', amount: 100, tipAmount: 0 },
    ]) {
      expect(Object.values(batchContribution(t)).every((value) => value === 0)).toBe(true);
    }
  });

  it('a void takes back exactly what the transaction added', () => {
    const delta = batchContribution({ type: 'Sale', result: 'Approved', amount: 999, tipAmount: 0 });
    expect(negate(delta).salesTotal).toBe(-999);
    expect(negate(delta).salesCount).toBe(-1);
  });
});
