/** How a transaction counts in its settlement batch. */
import { SALE_LABELS } from '../../../shared/api/transaction-types';

/** What one transaction adds to (or, voided, takes from) its batch's counts and totals. */
export interface BatchDelta {
  salesCount: number;
  salesTotal: number;
  refundCount: number;
  refundTotal: number;
  tipTotal: number;
}

/**
 * What an approved transaction adds to its batch. Sales (SALE, FORCED SALE, CAPTURE) and refunds
 * count; AUTH and VOID rows never do, and a voided transaction takes back what it added.
 */
export function batchContribution(t: {
  type: string | null;
  result: string;
  amount: number | null;
  tipAmount: number;
}): BatchDelta {
  const none: BatchDelta = { salesCount: 0, salesTotal: 0, refundCount: 0, refundTotal: 0, tipTotal: 0 };
  if (t.result !== 'Approved' || t.amount === null) return none;
  if (SALE_LABELS.has(t.type ?? ''))
    return { ...none, salesCount: 1, salesTotal: t.amount, tipTotal: t.tipAmount };
  if (t.type === 'Refund') return { ...none, refundCount: 1, refundTotal: t.amount };
  return none;
}

/** What a closer saw of the open batch; either may be left out. */
export interface ExpectedBatch {
  totalCount?: number;
  /** Cents, sales minus refunds. */
  netAmount?: number;
}

/** True when the batch no longer has a figure the closer expected. */
export function differsFromExpected(
  batch: { salesCount: number; refundCount: number; salesTotal: number; refundTotal: number },
  expected: ExpectedBatch,
): boolean {
  return (
    (expected.totalCount !== undefined && expected.totalCount !== batch.salesCount + batch.refundCount) ||
    (expected.netAmount !== undefined && expected.netAmount !== batch.salesTotal - batch.refundTotal)
  );
}

export function negate(delta: BatchDelta): BatchDelta {
  return {
    salesCount: -delta.salesCount,
    salesTotal: -delta.salesTotal,
    refundCount: -delta.refundCount,
    refundTotal: -delta.refundTotal,
    tipTotal: -delta.tipTotal,
  };
}
