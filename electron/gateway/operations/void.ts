/** VOID: takes back a transaction of the open batch, whole; what that undoes is in domain/effects. */
import type { TransactionResponse } from '../../../shared/api/schemas';
import { formatMoney } from '../../../shared/money';
import { voidEffects } from '../domain/effects';
import { checkVoid, notFound } from '../domain/rules';
import type { LedgerLookups } from '../store/ledger-store';
import type { LedgerTransaction } from '../store/transaction-rows';
import type { TransactionCommand } from '../validation';
import { copiedFrom, enforce, findChecked, isInOpenBatch, type OperationRun } from './operation';
import { applyEffects, newRow, recordAudit, recordDecision } from './recording';

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
  // Held from the first check to the write, across the processor's answer (see OperationRun).
  return run.holdOriginal(targetId, async () => {
    const target = await run.ledger.find(targetId);
    await check(run.ledger)(target);
    const decision = await run.processor.followUp({
      kind: 'void',
      amountCents: target?.amount ?? 0,
      originalAuthorizationCode: target?.authorizationCode ?? '',
    });
    return run.commit(async (ledger) => {
      const current = await findChecked(ledger, targetId, check(ledger));
      const row = await newRow(run, ledger, 'VOID', request, {
        ...copiedFrom(current, request),
        amount: current.amount,
        tipAmount: current.tipAmount,
        batchId: current.batchId,
      });
      const response = await recordDecision(ledger, row, decision, false);
      if (decision.outcome !== 'approved') return response;
      await recordAudit(
        run,
        ledger,
        'void',
        response,
        `of ${current.type ?? 'transaction'} ${targetId}: ${formatMoney(current.amount ?? 0)}`,
      );
      await applyEffects(ledger, voidEffects(current, row.id));
      return response;
    });
  });
}
