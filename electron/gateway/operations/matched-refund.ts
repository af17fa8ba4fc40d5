/** REFUND of an earlier transaction (by id): back to the card it was paid with, at most what is left. */
import type { TransactionResponse } from '../../../shared/api/schemas';
import { formatMoney } from '../../../shared/money';
import { refundEffects } from '../domain/effects';
import { checkRefund, notFound } from '../domain/rules';
import type { LedgerTransaction } from '../store/transaction-rows';
import type { TransactionCommand } from '../validation';
import { copiedFrom, enforce, findChecked, isSettled, type OperationRun } from './operation';
import { applyEffects, newRow, recordAudit, recordDecision } from './recording';

export async function matchedRefund(
  run: OperationRun,
  command: Extract<TransactionCommand, { refund: 'matched' }>,
): Promise<TransactionResponse> {
  const { request, originalId, amount } = command;
  const check = (original: LedgerTransaction | undefined) =>
    enforce(
      original
        ? checkRefund(original, isSettled(run.ledger, original.batchId), amount)
        : notFound(originalId),
      originalId,
    );
  const original = run.ledger.find(originalId);
  check(original);
  const decision = await run.processor.followUp({
    kind: 'refund',
    amountCents: amount,
    originalAuthorizationCode: original?.authorizationCode ?? '',
  });
  return run.commit(() => {
    const current = findChecked(run.ledger, originalId, check);
    const row = newRow(run, 'REFUND', request, { ...copiedFrom(current, request), amount });
    const response = recordDecision(run.ledger, row, decision, true);
    if (decision.outcome === 'approved') applyEffects(run.ledger, refundEffects(originalId, amount));
    recordAudit(run, 'refund', response, `of transaction ${originalId}: ${formatMoney(amount)}`);
    return response;
  });
}
