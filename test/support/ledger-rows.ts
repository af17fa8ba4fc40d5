/** Ledger rows written straight through the store port, for the tests of the stores themselves. */
import { blankRow, type NewRow } from '../../electron/gateway/operations/recording';
import type { LedgerWrite } from '../../electron/gateway/store/ledger-store';

export const T0 = Date.UTC(2026, 10, 24, 9, 30);

/** An approved keyed SALE of 25.00 with this id, changed by `fields`. */
export function saleRow(id: number, fields: Partial<NewRow> = {}): NewRow {
  return {
    ...blankRow(id, null, T0 + id),
    type: 'Sale',
    displayMessage: 'Approved',
    resultCode: '0000',
    amount: 2500,
    cardLastFour: '1111',
    cardBin: '411111',
    cardLength: 16,
    cardBrand: 'Visa',
    entryMode: 'Keyed',
    ...fields,
  };
}

/**
 * Inside a write: adds a row with the next id; an approved SALE, CAPTURE or REFUND joins the open
 * batch (opening one when there is none) and adds to its counters.
 */
export async function addRow(ledger: LedgerWrite, fields: Partial<NewRow> = {}): Promise<NewRow> {
  const id = await ledger.nextTransactionId();
  const row = saleRow(id, fields);
  const settles =
    row.result === 'Approved' && (row.type === 'Sale' || row.type === 'Refund' || row.type === 'Capture');
  if (!settles) {
    await ledger.insert(row);
    return row;
  }
  const batch = await ledger.openBatchForWrite(row.createdAt);
  row.batchId = batch.id;
  await ledger.insert(row);
  const refund = row.type === 'Refund';
  await ledger.applyBatchDelta(batch.id, {
    salesCount: refund ? 0 : 1,
    salesTotal: refund ? 0 : (row.amount ?? 0),
    refundCount: refund ? 1 : 0,
    refundTotal: refund ? (row.amount ?? 0) : 0,
    tipTotal: refund ? 0 : row.tipAmount,
  });
  return row;
}
