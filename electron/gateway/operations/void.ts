/**
 * VOID: takes back a transaction of the open batch, whole; what that undoes is in domain/effects. A
 * transaction still waiting to be forwarded is cancelled instead of sent: the gateway never sees it,
 * and an offline sale's swipe is deleted with it.
 */
import type { TransactionResponse } from '../../../shared/api/schemas';
import { formatMoney } from '../../../shared/money';
import { ERROR_CODES } from '../domain/codes';
import { voidEffects } from '../domain/effects';
import { checkVoid, notFound } from '../domain/rules';
import type { LedgerLookups, LedgerWrite } from '../store/ledger-store';
import type { LedgerTransaction } from '../store/transaction-rows';
import { Rejection, type TransactionCommand } from '../validation';
import { cancelledDecision, commitDecided, forwardingOf, recordGatewayDecision } from './forwarding';
import { copiedFrom, enforce, findChecked, isInOpenBatch, type OperationRun } from './operation';
import { applyEffects, blankRow, insertApproved, newRow, recordAudit } from './recording';

export async function voidTransaction(
  run: OperationRun,
  command: Extract<TransactionCommand, { type: 'VOID' }>,
): Promise<TransactionResponse> {
  const { request, targetId } = command;
  const check = (ledger: LedgerLookups) => async (target: LedgerTransaction | undefined) =>
    enforce(
      target ? checkVoid(target, await isInOpenBatch(ledger, target.batchId)) : notFound(targetId),
      targetId,
    );
  // Held from the first check to the write, across the processor's answer.
  return run.holdOriginal(targetId, async () => {
    const target = await run.ledger.find(targetId);
    await check(run.ledger)(target);
    const forwarding = forwardingOf(request);
    const waiting = target?.forwardState === 'waiting';
    const originalUpstreamId = target?.upstreamId ?? null;
    const decision = waiting
      ? cancelledDecision(target.authorizationCode)
      : await run.processor.followUp({
          kind: 'void',
          amountCents: target?.amount ?? 0,
          originalAuthorizationCode: target?.authorizationCode ?? '',
          originalUpstreamId,
          forwarding,
        });
    return commitDecided(run, decision, async (ledger) => {
      const current = await findChecked(ledger, targetId, check(ledger));
      const row = await newRow(run, ledger, 'VOID', request, {
        ...copiedFrom(current, request),
        amount: current.amount,
        tipAmount: current.tipAmount,
        batchId: current.batchId,
      });
      const cancels = current.forwardState === 'waiting';
      if (cancels !== waiting) throw beingForwarded(current, targetId);
      const { response } = await recordGatewayDecision(run, ledger, row, decision, {
        settles: false,
        forwarding,
        ...(originalUpstreamId !== null &&
          !cancels && {
            offline: { kind: 'follow-up', upstream: { type: 'VOID', originalUpstreamId } },
          }),
      });
      if (response.result !== 'Approved') return response;
      if (cancels) {
        // Only what was never sent: the forwarder marks an entry as sent in a write of its own before
        // sending it, so one of the two writes finds the other's.
        const cancelled = await ledger.forwards.cancelUnsent(targetId, {
          state: 'cancelled',
          upstreamId: null,
          answer: JSON.stringify({ cancelled_by: String(row.id) }),
          at: run.now(),
        });
        if (!cancelled) throw beingForwarded(current, targetId);
        run.swipesDeleted();
      }
      await recordAudit(
        run,
        ledger,
        'void',
        response,
        `of ${current.type ?? 'transaction'} ${targetId}: ${formatMoney(current.amount ?? 0)}${cancels ? ', cancelled before it was forwarded' : ''}`,
      );
      await applyEffects(ledger, voidEffects(current, row.id));
      return response;
    });
  });
}

/**
 * A transaction sent to the gateway, or on its way there, while the void was decided: the gateway
 * may have it, so it cannot be cancelled here, and the void is refused until its answer is known.
 */
function beingForwarded(target: LedgerTransaction, targetId: number): Rejection {
  return new Rejection(
    ERROR_CODES.NOT_VOIDABLE,
    `${target.type ?? 'Transaction'} ${targetId} is being sent to the card network, or may have reached ` +
      'it: it can be voided once its answer is known. Try again in a moment.',
    { originalId: targetId },
  );
}

/** What became of a VOID whose answer was lost and that the gateway shows approved. */
export type LateVoid =
  | { recorded: number }
  /** What it voided is voided here already, by this void: the ledger and the gateway agree. */
  | { voidedHereBy: LedgerTransaction }
  /** It cannot be recorded here: why. The batch close shows the difference. */
  | { notRecorded: string };

/**
 * A VOID answered 9004 (its answer lost) that the gateway shows approved later: recorded here as the
 * void it was, in a row of its own with the gateway's id, when what it voided can still be voided
 * here (in the open batch, not voided or captured since). Runs inside the write that resolves the
 * lookup, holding the original.
 */
export async function recordVoidLearnedLate(
  ledger: LedgerWrite,
  lost: LedgerTransaction,
  upstreamId: string,
  at: number,
  actor: string,
): Promise<LateVoid> {
  if (lost.type !== 'Void' || lost.originalId === null)
    return { notRecorded: `transaction ${lost.id} is ${lost.type ?? 'a request'} here, not a void` };
  const target = await ledger.find(lost.originalId);
  if (!target) return { notRecorded: `transaction ${lost.originalId} is not in the ledger` };
  if (target.voidedBy !== null) {
    const voidedBy = await ledger.find(target.voidedBy);
    if (voidedBy) return { voidedHereBy: voidedBy };
  }
  const voidable = checkVoid(target, await isInOpenBatch(ledger, target.batchId));
  if (!voidable.ok) return { notRecorded: voidable.message };
  const id = await ledger.nextTransactionId();
  const response = await insertApproved(
    ledger,
    {
      ...blankRow(id, lost.apiKeyId, at, lost.cashier),
      ...copiedFrom(target, { type: 'VOID' }),
      type: 'Void',
      amount: target.amount,
      tipAmount: target.tipAmount,
      batchId: target.batchId,
      authorizationCode: target.authorizationCode,
      invoice: lost.invoice,
      orderNumber: lost.orderNumber,
      purchaseOrder: lost.purchaseOrder,
      customerId: lost.customerId,
      email: lost.email,
      clientIp: lost.clientIp,
      description: lost.description,
      comments: lost.comments,
      billingIsShipping: lost.billingIsShipping,
      billing: lost.billing,
      shipping: lost.shipping,
      // The reference stays with the row of the request that went with it.
      upstreamId,
    },
    `Approved by the card network (its transaction ${upstreamId}) for the void of transaction ` +
      `${lost.id}, whose answer was lost and learned later.`,
    false,
  );
  await ledger.appendAudit({
    at,
    actor,
    action: 'void',
    subject: `transaction ${response.id ?? id}`,
    detail:
      `of ${target.type ?? 'transaction'} ${target.id}: ${formatMoney(target.amount ?? 0)}, ` +
      `the void of transaction ${lost.id}, approved at the gateway after its answer was lost`,
  });
  await applyEffects(ledger, voidEffects(target, id));
  return { recorded: id };
}
