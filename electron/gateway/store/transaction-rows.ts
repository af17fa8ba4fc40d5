/**
 * The transactions table, column by column. `TRANSACTION_COLUMNS` is the one place that says which
 * column holds each field of a ledger transaction and how SQLite holds it; the row a read returns,
 * the record made from it, and the INSERT a new transaction is written with (sql/ledger-sql.ts) all
 * follow from it, so a new column is one entry here (and a migration that adds it).
 */
import type { TransactionResult, TransactionTypeLabel } from '../../../shared/api/transaction-types';

/**
 * A transaction made offline: waiting to be forwarded, forwarded (the gateway approved it), declined
 * by the gateway once forwarded, or cancelled (voided before it was sent).
 */
export type ForwardState = 'waiting' | 'forwarded' | 'declined' | 'cancelled';

export interface LedgerTransaction {
  id: number;
  type: TransactionTypeLabel | null;
  result: TransactionResult;
  resultCode: string | null;
  errorCode: string | null;
  displayMessage: string;
  /** Total in cents, tip included; null on a rejected request that named no valid amount. */
  amount: number | null;
  tipAmount: number;
  authorizationCode: string | null;
  avsResultCode: string | null;
  cscResultCode: string | null;
  cardLastFour: string | null;
  cardLength: number | null;
  cardBrand: string | null;
  entryMode: string | null;
  invoice: string | null;
  orderNumber: string | null;
  purchaseOrder: string | null;
  customerId: string | null;
  email: string | null;
  clientIp: string | null;
  description: string | null;
  comments: string | null;
  serverId: string | null;
  firstName: string | null;
  lastName: string | null;
  billingIsShipping: boolean;
  billing: string | null;
  shipping: string | null;
  originalId: number | null;
  batchId: number | null;
  voidedBy: number | null;
  capturedBy: number | null;
  refundedAmount: number;
  apiKeyId: number | null;
  /** The KSN of the swipe that carried the card, when it was swiped. */
  swipeKsn: string | null;
  /** HMAC of the card number with the data dir's secret, for the duplicate check; never shown. */
  cardHash: string | null;
  /** Who made it: the staff member's name at the counter, the API key's name for another program. */
  cashier: string | null;
  createdAt: number;
  /** The merchant's gateway's id of it, when the gateway decided it (processor upstream). */
  upstreamId: string | null;
  /** The reference it went to the gateway with (order_number), which finds it again in the gateway's list. */
  upstreamReference: string | null;
  /** Made while the gateway could not be reached, to be forwarded when it is back. */
  offline: boolean;
  /** What became of a transaction made offline; null for every other. */
  forwardState: ForwardState | null;
  /**
   * The counter that made it, on a store server (read with lists; a single counter's ledger keeps
   * none, its items show LOCAL_LANE).
   */
  lane?: string;
}

/**
 * Where one field of a transaction is stored. A field SQLite cannot hold as it is gives both
 * directions of its conversion. `inserted: false` marks the fields a new row leaves to the column's
 * default: the effects of later operations (a void, a capture, a refund) set them.
 */
interface Column<Value> {
  readonly name: string;
  readonly inserted?: false;
  // Methods, not function properties, so that the whole map can be walked as `Column<unknown>`.
  toStored?(value: Value): unknown;
  fromStored?(stored: never): Value;
}

export const TRANSACTION_COLUMNS = {
  id: { name: 'id' },
  type: { name: 'type' },
  result: { name: 'result' },
  resultCode: { name: 'result_code' },
  errorCode: { name: 'error_code' },
  displayMessage: { name: 'display_message' },
  amount: { name: 'amount' },
  tipAmount: { name: 'tip_amount' },
  authorizationCode: { name: 'authorization_code' },
  avsResultCode: { name: 'avs_result_code' },
  cscResultCode: { name: 'csc_result_code' },
  cardLastFour: { name: 'card_last_four' },
  cardLength: { name: 'card_length' },
  cardBrand: { name: 'card_brand' },
  entryMode: { name: 'entry_mode' },
  invoice: { name: 'invoice' },
  orderNumber: { name: 'order_number' },
  purchaseOrder: { name: 'purchase_order' },
  customerId: { name: 'customer_id' },
  email: { name: 'email' },
  clientIp: { name: 'client_ip' },
  description: { name: 'description' },
  comments: { name: 'comments' },
  serverId: { name: 'server_id' },
  firstName: { name: 'first_name' },
  lastName: { name: 'last_name' },
  // STRICT tables have no boolean: 1 or 0.
  billingIsShipping: {
    name: 'billing_is_shipping',
    toStored: (value: boolean): number => (value ? 1 : 0),
    fromStored: (stored: number): boolean => stored === 1,
  },
  billing: { name: 'billing' },
  shipping: { name: 'shipping' },
  originalId: { name: 'original_id' },
  batchId: { name: 'batch_id' },
  voidedBy: { name: 'voided_by', inserted: false },
  capturedBy: { name: 'captured_by', inserted: false },
  refundedAmount: { name: 'refunded_amount', inserted: false },
  apiKeyId: { name: 'api_key_id' },
  swipeKsn: { name: 'swipe_ksn' },
  cardHash: { name: 'card_hash' },
  cashier: { name: 'cashier' },
  createdAt: { name: 'created_at' },
  upstreamId: { name: 'upstream_id' },
  upstreamReference: { name: 'upstream_reference' },
  offline: {
    name: 'offline',
    toStored: (value: boolean): number => (value ? 1 : 0),
    fromStored: (stored: number): boolean => stored === 1,
  },
  forwardState: { name: 'forward_state' },
} as const satisfies { readonly [Field in keyof LedgerTransaction]: Column<LedgerTransaction[Field]> };

type Columns = typeof TRANSACTION_COLUMNS;

type StoredForm<Field extends keyof Columns> = Columns[Field] extends {
  fromStored: (stored: infer Stored) => unknown;
}
  ? Stored
  : LedgerTransaction[Field];

/** A transactions row as a read returns it (`SELECT *`), keyed by column name. */
export type TransactionRowShape = {
  -readonly [Field in keyof Columns as Columns[Field]['name']]: StoredForm<Field>;
};

type SetAfterInsert = {
  [Field in keyof Columns]: Columns[Field] extends { inserted: false } ? Field : never;
}[keyof Columns];

/** A transaction as the engine hands it to the ledger; the ledger gives it its id. */
export type NewTransaction = Omit<LedgerTransaction, 'id' | SetAfterInsert>;

/** The form names are compared in: Unicode case folding, so "élodie" finds "Élodie". */
export function nameKey(name: string): string {
  return name.normalize('NFKC').toLowerCase();
}

/**
 * Columns written with each row and never read back: the names in their compared form, for the
 * list filters, since COLLATE NOCASE folds only A-Z, not "É" or "Ü".
 */
export const NAME_KEY_COLUMNS = { firstName: 'first_name_key', lastName: 'last_name_key' } as const;

/** The map without its types, for the loops below: each field with its column and conversions. */
interface ColumnEntry {
  field: string;
  name: string;
  inserted: boolean;
  toStored: ((value: unknown) => unknown) | undefined;
  fromStored: ((stored: unknown) => unknown) | undefined;
}

const COLUMN_ENTRIES: readonly ColumnEntry[] = Object.entries(TRANSACTION_COLUMNS).map(
  ([field, column]: [string, Column<unknown>]) => ({
    field,
    name: column.name,
    inserted: column.inserted !== false,
    toStored: column.toStored,
    fromStored: column.fromStored as ((stored: unknown) => unknown) | undefined,
  }),
);

const INSERTED_ENTRIES = COLUMN_ENTRIES.filter((entry) => entry.inserted);

const NAME_KEY_ENTRIES = Object.entries(NAME_KEY_COLUMNS) as ['firstName' | 'lastName', string][];

export function toTransaction(row: TransactionRowShape): LedgerTransaction {
  const stored: Readonly<Record<string, unknown>> = row;
  const transaction: Record<string, unknown> = {};
  for (const { field, name, fromStored } of COLUMN_ENTRIES) {
    const value = stored[name];
    transaction[field] = fromStored ? fromStored(value) : value;
  }
  // Complete: the map has an entry for every field of the record, as its `satisfies` requires.
  return transaction as unknown as LedgerTransaction;
}

/**
 * The values of the INSERT of one new transaction, as the ledger holds them: every column of the map
 * a new row sets, in the map's order, then the name keys.
 */
export function insertParams(transaction: NewTransaction & { id: number }): unknown[] {
  const record: Readonly<Record<string, unknown>> = transaction;
  const params = INSERTED_ENTRIES.map(({ field, toStored }) => {
    const value = record[field];
    return toStored ? toStored(value) : value;
  });
  for (const [field] of NAME_KEY_ENTRIES) {
    const name = transaction[field];
    params.push(name === null ? null : nameKey(name));
  }
  return params;
}
