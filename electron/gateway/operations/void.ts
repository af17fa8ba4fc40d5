/** VOID: takes back a transaction of the open batch, whole; what that undoes is in domain/effects. */
import type { TransactionResponse } from '../../../shared/api/schemas';
import { formatMoney } from '../../../shared/money';
import { voidEffects } from '../domain/effects';
import { checkVoid, notFound } from '../domain/rules';
import type { LedgerTransaction } from '../store/transaction-rows';
import type { TransactionCommand } from '../validation';
import { copiedFrom, enforce, findChecked, isInOpenBatch, type OperationRun } from './operation';
import { applyEffects, newRow, recordAudit, recordDecision } from './recording';

export async function voidTransaction(
  run: OperationRun,
  command: Extract<TransactionCommand, { type: 'VOID' }>,
): Promise<TransactionResponse> {
  const { request, targetId } = command;
  const check = (target: LedgerTransaction | undefined) =>
    enforce(
      target ? checkVoid(target, isInOpenBatch(run.ledger, target.batchId)) : notFound(targetId),
      targetId,
    );
  const target = run.ledger.find(targetId);
  check(target);
  const decision = await run.processor.followUp({
    kind: 'void',
    amountCents: target?.amount ?? 0,
    originalAuthorizationCode: target?.authorizationCode ?? '',
  });
  return run.commit(() => {
    const current = findChecked(run.ledger, targetId, check);
    const row = newRow(run, 'VOID', request, {
      ...copiedFrom(current, request),
      amount: current.amount,
      tipAmount: current.tipAmount,
      batchId: current.batchId,
    });
    const response = recordDecision(run.ledger, row, decision, false);
    if (decision.outcome !== 'approved') return response;
    recordAudit(
      run,
      'void',
      response,
      `of ${current.type ?? 'transaction'} ${targetId}: ${formatMoney(current.amount ?? 0)}`,
    );
    applyEffects(run.ledger, voidEffects(current, row.id));
    return response;
  });
}
