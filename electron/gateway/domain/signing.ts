/**
 * Which transactions a customer may sign for: an approved charge that still stands (a SALE, a
 * FORCED SALE, or the CAPTURE that finished a tab), signed once. Pure, like the other rules.
 */
export interface SignableTransaction {
  id: number;
  type: string | null;
  result: string;
  voidedBy: number | null;
}

const CHARGES = new Set(['Sale', 'Forced Sale', 'Capture']);

/** Why the transaction cannot take a signature, in words for whoever asked; undefined when it can. */
export function signatureRefusal(
  transaction: SignableTransaction | undefined,
  id: number,
): string | undefined {
  if (!transaction) return `No transaction has id ${id}.`;
  if (!CHARGES.has(transaction.type ?? '')) {
    return `Transaction ${id} is a ${transaction.type ?? 'request'}; only a sale or a capture is signed for.`;
  }
  if (transaction.result !== 'Approved')
    return `Transaction ${id} was not approved: there is nothing to sign for.`;
  if (transaction.voidedBy !== null) return `Transaction ${id} was voided: there is nothing to sign for.`;
  return undefined;
}
