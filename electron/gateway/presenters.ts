/**
 * Ledger rows as the wire shows them (every value a string, cards masked, times with their offset),
 * and the answers to POST /transactions.
 */
import type {
  Batch,
  BatchLane,
  Receipt,
  TransactionListItem,
  TransactionResponse,
} from '../../shared/api/schemas';
import { SALE_LABELS } from '../../shared/api/transaction-types';
import { maskLastFour } from '../../shared/cards';
import { formatMoney } from '../../shared/money';
import { isCounterSaleWithTip } from '../../shared/tips';
import { formatTimestamp } from './http/dates';
import { ERROR_CODES } from './domain/codes';
import { authorizationExpiresAt } from '../../shared/authorization';
import { followUpsOf } from './domain/rules';
import type { BatchRecord, LaneTotals } from './store/batch-rows';
import { LOCAL_LANE } from './store/read-port';
import type { RenderedReceipt } from './receipts/receipt-service';
import type { StoreError } from './store/store-errors';
import type { LedgerTransaction } from './store/transaction-rows';

const text = (value: string | number | null | undefined): string =>
  value === null || value === undefined ? '' : String(value);
const money = (cents: number | null): string => (cents === null ? '' : formatMoney(cents));

/** What a list item's follow-ups depend on besides the row itself, as of the read. */
export interface PresentationContext {
  /** Authorizations expire this many days after they were approved (the auth_expiry_days setting). */
  authExpiryDays: number;
  /** Epoch ms. */
  now: number;
  /** Every other batch is closed: one batch at a time is open. */
  openBatchId: number | null;
}

const flag = (value: boolean): 'true' | 'false' => (value ? 'true' : 'false');

export function presentTransaction(t: LedgerTransaction, context: PresentationContext): TransactionListItem {
  const holding =
    t.type === 'Auth' && t.result === 'Approved' && t.capturedBy === null && t.voidedBy === null;
  const settles = SALE_LABELS.has(t.type ?? '');
  const inOpenBatch = t.batchId !== null && t.batchId === context.openBatchId;
  const followUps = followUpsOf(t, {
    inOpenBatch,
    settled: t.batchId !== null && !inOpenBatch,
    expiry: { days: context.authExpiryDays, now: context.now },
  });
  return {
    id: String(t.id),
    type: t.type ?? '',
    result: t.result,
    result_code: text(t.resultCode),
    ...(t.errorCode !== null && { error_code: t.errorCode }),
    display_message: t.displayMessage,
    amount: money(t.amount),
    tip_amount: money(t.tipAmount),
    authorization_code: text(t.authorizationCode),
    card: t.cardLastFour === null ? '' : maskLastFour(t.cardLastFour, t.cardLength ?? 16),
    card_brand: text(t.cardBrand),
    billing_is_shipping: String(t.billingIsShipping),
    created: formatTimestamp(t.createdAt),
    invoice: text(t.invoice),
    order_number: text(t.orderNumber),
    purchase_order: text(t.purchaseOrder),
    customer_id: text(t.customerId),
    first_name: text(t.firstName),
    last_name: text(t.lastName),
    server_id: text(t.serverId),
    cashier: text(t.cashier),
    lane: t.lane ?? LOCAL_LANE,
    batch_id: text(t.batchId),
    original_id: text(t.originalId),
    voided: String(t.voidedBy !== null),
    captured: String(t.capturedBy !== null),
    refunded_amount: settles ? formatMoney(t.refundedAmount) : '',
    expires: holding ? formatTimestamp(authorizationExpiresAt(t, context.authExpiryDays)) : '',
    voidable: flag(followUps.voidable),
    refundable_amount: formatMoney(followUps.refundable),
    capturable: flag(followUps.capturable),
    counter_sale: flag(isCounterSaleWithTip(t)),
    upstream_id: text(t.upstreamId),
    offline: flag(t.offline),
    forward_state: t.forwardState ?? '',
  };
}

/** A receipt as GET /transactions/{id}/receipt answers it in JSON and XML. */
export function presentReceipt({ document, lines }: RenderedReceipt, width: 32 | 42 | 48): Receipt {
  return {
    id: String(document.id),
    copy: document.copy,
    width: String(width) as Receipt['width'],
    merchant: {
      name: document.merchant.name,
      address_lines: document.merchant.addressLines,
      phone: document.merchant.phone,
    },
    title: document.title,
    fields: document.fields,
    amounts: document.amounts,
    result: document.result,
    ...(document.message !== undefined && { message: document.message }),
    signature: flag(document.signature),
    signed: flag(document.signed),
    copy_label: document.copyLabel,
    footer: document.footer,
    lines,
  };
}

function presentLane(share: LaneTotals): BatchLane {
  return {
    lane: share.lane,
    sales_count: String(share.salesCount),
    sales_total: formatMoney(share.salesTotal),
    refund_count: String(share.refundCount),
    refund_total: formatMoney(share.refundTotal),
    total_count: String(share.salesCount + share.refundCount),
    net_amount: formatMoney(share.salesTotal - share.refundTotal),
    tip_total: formatMoney(share.tipTotal),
  };
}

/** A batch with each lane's share of it beside its own counts and totals. */
export function presentBatch(b: BatchRecord, lanes: readonly LaneTotals[] = []): Batch {
  return {
    id: String(b.id),
    status: b.status,
    sales_count: String(b.salesCount),
    sales_total: formatMoney(b.salesTotal),
    refund_count: String(b.refundCount),
    refund_total: formatMoney(b.refundTotal),
    total_count: String(b.salesCount + b.refundCount),
    net_amount: formatMoney(b.salesTotal - b.refundTotal),
    tip_total: formatMoney(b.tipTotal),
    opened: formatTimestamp(b.openedAt),
    ...(b.settledAt !== null && { settled: formatTimestamp(b.settledAt) }),
    ...(b.confirmationCode !== null && { confirmation_code: b.confirmationCode }),
    ...(b.upstream && {
      upstream_batch_id: b.upstream.batchId,
      upstream_sales_count: String(b.upstream.salesCount),
      upstream_sales_total: formatMoney(b.upstream.salesTotal),
      upstream_refund_count: String(b.upstream.refundCount),
      upstream_refund_total: formatMoney(b.upstream.refundTotal),
      upstream_total_count: String(b.upstream.totalCount),
      upstream_net_amount: formatMoney(b.upstream.netAmount),
      reconciled: flag(b.upstream.reconciled),
    }),
    lanes: lanes.map(presentLane),
  };
}

/** The answer to an approved request. */
export function approvedAnswer(
  row: {
    id: number;
    resultCode: string;
    authorizationCode: string | null;
    avsResultCode: string | null;
    cscResultCode: string | null;
  },
  message: string,
): TransactionResponse {
  return {
    id: String(row.id),
    result: 'Approved',
    result_code: row.resultCode,
    display_message: message,
    authorization_code: row.authorizationCode ?? '',
    ...(row.avsResultCode && { avs_result_code: row.avsResultCode }),
    ...(row.cscResultCode && { csc_result_code: row.cscResultCode }),
  };
}

/** The answer to a request the issuer declined, with its address and card code checks. */
export function declinedAnswer(
  id: number,
  decision: { resultCode: string; message: string; avs?: string; csc?: string },
): TransactionResponse {
  return {
    id: String(id),
    result: 'Declined',
    result_code: decision.resultCode,
    display_message: decision.message,
    ...(decision.avs && { avs_result_code: decision.avs }),
    ...(decision.csc && { csc_result_code: decision.csc }),
  };
}

/** The answer to a request the processor could not complete. */
export function errorAnswer(
  id: number,
  decision: { resultCode: string; errorCode: string; message: string },
): TransactionResponse {
  return {
    id: String(id),
    result: 'Error',
    result_code: decision.resultCode,
    display_message: decision.message,
    error_code: decision.errorCode,
  };
}

/**
 * The answer when the store server could not take the write: result Error, no id, nothing recorded.
 * The message says what the cashier and the integrator can do.
 */
export function storeErrorAnswer(error: StoreError): TransactionResponse {
  return error.code === 'store_unreachable'
    ? {
        result: 'Error',
        display_message:
          'The store server cannot be reached: nothing was recorded. Try again once it is back.',
        error_code: ERROR_CODES.STORE_UNREACHABLE,
      }
    : {
        result: 'Error',
        display_message: 'The store server is busy: nothing was recorded. Try again in a moment.',
        error_code: ERROR_CODES.STORE_BUSY,
      };
}

/** A refused request's answer: no id, the error code and the words that say what to change. */
export function rejectedAnswer(rejection: {
  errorCode: string;
  message: string;
  detail: { originalId?: number | null };
}): TransactionResponse {
  const duplicateOf =
    rejection.errorCode === ERROR_CODES.POSSIBLE_DUPLICATE ? rejection.detail.originalId : null;
  return {
    result: 'Rejected',
    display_message: rejection.message,
    error_code: rejection.errorCode,
    ...(duplicateOf !== null && duplicateOf !== undefined && { duplicate_of: String(duplicateOf) }),
  };
}
