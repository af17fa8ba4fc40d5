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
import type { LedgerLookups } from '../store/ledger-store';
import type { LedgerTransaction } from '../store/transaction-rows';
import { Rejection, type TransactionCommand } from '../validation';
import { cancelledDecision, commitDecided, forwardingOf, recordGatewayDecision } from './forwarding';
import { copiedFrom, enforce, findChecked, isInOpenBatch, type OperationRun } from './operation';
import { applyEffects, newRow, recordAudit } from './recording';

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
