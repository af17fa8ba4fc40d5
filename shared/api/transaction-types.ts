/** The six transaction types of the interface, as the wire spells them. */
export const TRANSACTION_TYPES = ['SALE', 'FORCED SALE', 'AUTH', 'CAPTURE', 'REFUND', 'VOID'] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

/** How lists write each type (mixed case). */
export const TYPE_LABELS = {
  SALE: 'Sale',
  'FORCED SALE': 'Forced Sale',
  AUTH: 'Auth',
  CAPTURE: 'Capture',
  REFUND: 'Refund',
  VOID: 'Void',
} as const satisfies Record<TransactionType, string>;
export type TransactionTypeLabel = (typeof TYPE_LABELS)[TransactionType];

/**
 * Reads a type as a client may write it: any letter case, and FORCED SALE with a space, an
 * underscore or a hyphen ("forced_sale", "Forced Sale").
 */
export function parseTransactionType(text: string): TransactionType | undefined {
  // Only ASCII letters: "ſale" upper-cases to "SALE" and must not pass for it.
  if (!/^[A-Za-z _-]+$/.test(text.trim())) return undefined;
  const canonical = text.trim().toUpperCase().replace(/[_-]/g, ' ').replace(/\s+/g, ' ');
  return (TRANSACTION_TYPES as readonly string[]).includes(canonical)
    ? (canonical as TransactionType)
    : undefined;
}

/** The outcome of a transaction, as answers and lists write it. */
export const RESULTS = ['Approved', 'Declined', 'Rejected', 'Error'] as const;
export type TransactionResult = (typeof RESULTS)[number];

export function parseResult(text: string): TransactionResult | undefined {
  const lower = text.trim().toLowerCase();
  return RESULTS.find((result) => result.toLowerCase() === lower);
}

/** Types that settle as sales in a batch. */
export const SALE_TYPES: readonly TransactionType[] = ['SALE', 'FORCED SALE', 'CAPTURE'];
/** The same, as the ledger and lists write them: what a batch counts as sales and a REFUND may undo. */
export const SALE_LABELS: ReadonlySet<string> = new Set(SALE_TYPES.map((type) => TYPE_LABELS[type]));
