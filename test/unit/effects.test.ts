import { describe, expect, it } from 'vitest';
import { negate } from '../../electron/gateway/domain/batch';
import {
  captureEffects,
  joinsBatch,
  refundEffects,
  voidEffects,
} from '../../electron/gateway/domain/effects';

const sale = {
  id: 7,
  type: 'Sale',
  result: 'Approved',
  amount: 5000,
  tipAmount: 0,
  batchId: 3,
  originalId: null,
};
const counts = { salesCount: 0, salesTotal: 0, refundCount: 0, refundTotal: 0, tipTotal: 0 };

describe('what an approved operation does to other rows and to the batch', () => {
  it('a capture with a tip counts as a sale with its tip, and finishes its authorization', () => {
    expect(joinsBatch({ type: 'Capture', result: 'Approved', amount: 5500, tipAmount: 500 }, 3)).toEqual([
      {
        effect: 'batch counts',
        batchId: 3,
        delta: { ...counts, salesCount: 1, salesTotal: 5500, tipTotal: 500 },
      },
    ]);
    expect(captureEffects(4, 9)).toEqual([{ effect: 'captured', authId: 4, captureId: 9 }]);
  });

  it('a refund counts as a refund and lowers what is left to refund of its original', () => {
    expect(joinsBatch({ type: 'Refund', result: 'Approved', amount: 1200, tipAmount: 0 }, 3)).toEqual([
      { effect: 'batch counts', batchId: 3, delta: { ...counts, refundCount: 1, refundTotal: 1200 } },
    ]);
    expect(refundEffects(7, 1200)).toEqual([{ effect: 'refunded', originalId: 7, cents: 1200 }]);
  });

  it('a void of a sale takes back what the sale added to its batch', () => {
    expect(voidEffects(sale, 12)).toEqual([
      { effect: 'voided', targetId: 7, voidId: 12 },
      { effect: 'batch counts', batchId: 3, delta: negate({ ...counts, salesCount: 1, salesTotal: 5000 }) },
    ]);
  });

  it('a void of a refund gives its amount back to its original', () => {
    const refund = { ...sale, id: 8, type: 'Refund', amount: 1200, originalId: 7 };
    expect(voidEffects(refund, 12)).toEqual([
      { effect: 'voided', targetId: 8, voidId: 12 },
      { effect: 'batch counts', batchId: 3, delta: negate({ ...counts, refundCount: 1, refundTotal: 1200 }) },
      { effect: 'refunded', originalId: 7, cents: -1200 },
    ]);
  });

  it('a void of a capture puts its authorization back, capturable again, without voiding it', () => {
    const capture = { ...sale, id: 9, type: 'Capture', amount: 5500, tipAmount: 500, originalId: 4 };
    expect(voidEffects(capture, 12)).toEqual([
      { effect: 'voided', targetId: 9, voidId: 12 },
      {
        effect: 'batch counts',
        batchId: 3,
        delta: negate({ ...counts, salesCount: 1, salesTotal: 5500, tipTotal: 500 }),
      },
      { effect: 'uncaptured', authId: 4, captureId: 9 },
    ]);
  });
});
