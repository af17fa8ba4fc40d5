/**
 * How an operation's outcome becomes ledger rows: the new row with what the request said, the
 * processor's decision recorded (approved rows that settle join the open batch), the effects on other
 * rows applied, and the audit entry of money moved back or a sale finished.
 */
import type { TransactionRequest, TransactionResponse } from '../../../shared/api/schemas';
import { TYPE_LABELS, type TransactionType } from '../../../shared/api/transaction-types';
import { joinsBatch, type LedgerEffect } from '../domain/effects';
import { assignedPurchaseOrder } from '../domain/purchase-order';
import { LOCAL_ADMINISTRATOR } from '../keys';
import { approvedAnswer, declinedAnswer, errorAnswer } from '../presenters';
import type { ProcessorDecision } from '../processor/processor';
import type { AuditAction } from '../store/audit';
import type { LedgerWrite } from '../store/ledger-store';
import type { NewTransaction } from '../store/transaction-rows';
import { Rejection } from '../validation';
import type { OperationRun } from './operation';

export type NewRow = NewTransaction & { id: number };

/** A row with this id and nothing else known yet: the callers fill in what they know. */
export function blankRow(
  id: number,
  apiKeyId: number | null,
  createdAt: number,
  cashier: string | null = null,
): NewRow {
  return {
    id,
    type: null,
    result: 'Approved',
    resultCode: null,
    errorCode: null,
    displayMessage: '',
    amount: null,
    tipAmount: 0,
    authorizationCode: null,
    avsResultCode: null,
    cscResultCode: null,
    cardLastFour: null,
    cardLength: null,
    cardBrand: null,
    entryMode: null,
    invoice: null,
    orderNumber: null,
    purchaseOrder: null,
    customerId: null,
    email: null,
    clientIp: null,
    description: null,
    comments: null,
    serverId: null,
    firstName: null,
    lastName: null,
    billingIsShipping: false,
    billing: null,
    shipping: null,
    originalId: null,
    batchId: null,
    apiKeyId,
    swipeKsn: null,
    cardHash: null,
    cashier,
    createdAt,
    upstreamId: null,
    upstreamReference: null,
    offline: false,
    forwardState: null,
  };
}

/** The next row of the ledger, with the request's own fields; call it inside the write. */
export async function newRow(
  run: OperationRun,
  ledger: LedgerWrite,
  type: TransactionType,
  request: TransactionRequest,
  fields: Partial<NewTransaction>,
): Promise<NewRow> {
  const id = await ledger.nextTransactionId();
  return {
    ...blankRow(id, run.context.apiKeyId, run.now(), run.context.cashier ?? null),
    type: TYPE_LABELS[type],
    invoice: request.invoice ?? null,
    orderNumber: request.order_number ?? null,
    purchaseOrder: request.purchase_order ?? assignedPurchaseOrder(id),
    customerId: request.customer_id ?? null,
    email: request.email ?? null,
    clientIp: request.client_ip ?? null,
    description: request.description ?? null,
    comments: request.comments ?? null,
    serverId: request.server_id ?? null,
    firstName: request.billing?.first_name ?? null,
    lastName: request.billing?.last_name ?? null,
    billingIsShipping: request.billing_is_shipping ?? false,
    billing: request.billing ? JSON.stringify(request.billing) : null,
    shipping: request.shipping ? JSON.stringify(request.shipping) : null,
    originalId: request.id ?? null,
    ...fields,
  };
}

/** Records the processor's answer; approved rows that settle join the open batch. */
export async function recordDecision(
  ledger: LedgerWrite,
  row: NewRow,
  decision: ProcessorDecision,
  settles: boolean,
  authorizationCode?: string | null,
): Promise<TransactionResponse> {
  switch (decision.outcome) {
    case 'approved':
      return insertApproved(
        ledger,
        {
          ...row,
          resultCode: decision.resultCode,
          authorizationCode: authorizationCode ?? decision.authorizationCode,
          avsResultCode: decision.avs ?? null,
          cscResultCode: decision.csc ?? null,
        },
        decision.message,
        settles,
      );
    case 'declined':
      await ledger.insert({
        ...row,
        result: 'Declined',
        resultCode: decision.resultCode,
        displayMessage: decision.message,
        avsResultCode: decision.avs ?? null,
        cscResultCode: decision.csc ?? null,
        batchId: null,
      });
      return declinedAnswer(row.id, decision);
    case 'error':
      await ledger.insert({
        ...row,
        result: 'Error',
        resultCode: decision.resultCode,
        errorCode: decision.errorCode,
        displayMessage: decision.message,
        batchId: null,
      });
      return errorAnswer(row.id, decision);
    case 'rejected':
      throw new Rejection(decision.errorCode, decision.message);
  }
}

export async function insertApproved(
  ledger: LedgerWrite,
  row: NewRow,
  message: string,
  settles: boolean,
): Promise<TransactionResponse> {
  const approved = {
    ...row,
    result: 'Approved' as const,
    resultCode: row.resultCode ?? '0000',
    displayMessage: message,
  };
  if (settles) {
    const batch = await ledger.openBatchForWrite(row.createdAt);
    approved.batchId = batch.id;
    await ledger.insert(approved);
    await applyEffects(ledger, joinsBatch(approved, batch.id));
  } else {
    await ledger.insert(approved);
  }
  return approvedAnswer(approved, message);
}

/** Applies what an approved operation does to other rows and to the batch counters, in order. */
export async function applyEffects(ledger: LedgerWrite, effects: readonly LedgerEffect[]): Promise<void> {
  for (const each of effects) {
    switch (each.effect) {
      case 'batch counts':
        await ledger.applyBatchDelta(each.batchId, each.delta);
        break;
      case 'captured':
        await ledger.markCaptured(each.authId, each.captureId);
        break;
      case 'uncaptured':
        await ledger.reopenCapture(each.authId, each.captureId);
        break;
      case 'refunded':
        await ledger.addRefunded(each.originalId, each.cents);
        break;
      case 'voided':
        await ledger.markVoided(each.targetId, each.voidId);
        break;
    }
  }
}

/** Records who moved money back or finished a sale; inside the write that did it. */
export async function recordAudit(
  run: OperationRun,
  ledger: LedgerWrite,
  action: AuditAction,
  response: TransactionResponse,
  detail: string,
): Promise<void> {
  if (response.result !== 'Approved') return;
  await ledger.appendAudit({
    at: run.now(),
    actor: run.context.actor ?? LOCAL_ADMINISTRATOR,
    action,
    subject: `transaction ${response.id ?? ''}`,
    detail,
  });
}
