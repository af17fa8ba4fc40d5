import { describe, expect, it } from 'vitest';
import { capturesQuery, earlierChargeOf } from '../../renderer/src/payment/earlier-charge';
import { listItem } from '../support/list-items';

const hold = listItem({
  id: '2',
  type: 'Auth',
  amount: '48.00',
  counter_sale: 'true',
  captured: 'true',
  batch_id: '',
  created: '2026-11-20T14:05:09.042-05:00',
});
const capture = listItem({
  id: '3',
  type: 'Capture',
  amount: '48.00',
  tip_amount: '8.00',
  counter_sale: 'true',
  original_id: '2',
  created: '2026-11-20T14:05:09.310-05:00',
});

describe('the earlier charge a possible duplicate names', () => {
  it('a sale tipped at the counter is named by its capture, the number its approval showed', () => {
    expect(earlierChargeOf(hold, [capture])).toEqual({
      id: '3',
      kind: 'sale',
      created: capture.created,
      amount: '48.00',
    });
  });

  it('the capture that stands is named when an earlier one was voided', () => {
    const voided = listItem({ ...capture, voided: 'true' });
    const standing = listItem({ ...capture, id: '5' });
    expect(earlierChargeOf(hold, [voided, standing]).id).toBe('5');
  });

  it("another tab's capture on the same card is never taken for the sale", () => {
    const other = listItem({ ...capture, id: '4', original_id: '1', counter_sale: 'false' });
    expect(earlierChargeOf(hold, [other])).toMatchObject({ id: '2', kind: 'sale hold' });
  });

  it('a tipped sale whose capture did not go through is named by its hold', () => {
    const held = listItem({ ...hold, captured: 'false' });
    expect(earlierChargeOf(held, [])).toMatchObject({ id: '2', kind: 'sale hold' });
  });

  it('a sale, a forced sale and a tab are named as they are', () => {
    expect(earlierChargeOf(listItem({ id: '7' }))).toMatchObject({ id: '7', kind: 'sale' });
    expect(earlierChargeOf(listItem({ type: 'Forced Sale' })).kind).toBe('forced sale');
    expect(earlierChargeOf(listItem({ type: 'Auth', batch_id: '' })).kind).toBe('tab');
  });

  it("the captures looked up are the card's, from the hold's time on, oldest first", () => {
    expect(capturesQuery(hold)).toMatchObject({
      type: 'capture',
      start_date: hold.created,
      last_four: '1111',
      order_by: 'id',
      descending: false,
    });
  });
});
