/** REFUND of an earlier transaction (by id): back to the card it was paid with, at most what is left. */
import type { TransactionResponse } from '../../../shared/api/schemas';
import { formatMoney } from '../../../shared/money';
import { refundEffects } from '../domain/effects';
import { checkRefund, notFound } from '../domain/rules';
import type { LedgerLookups } from '../store/ledger-store';
import type { LedgerTransaction } from '../store/transaction-rows';
import type { TransactionCommand } from '../validation';
import { copiedFrom, enforce, findChecked, isSettled, type OperationRun } from './operation';
import { applyEffects, newRow, recordAudit, recordDecision } from './recording';

export async function matchedRefund(
  run: OperationRun,
  command: Extract<TransactionCommand, { refund: 'matched' }>,
): Promise<TransactionResponse> {
  const { request, originalId, amount } = command;
  const check = (ledger: LedgerLookups) => async (original: LedgerTransaction | undefined) =>
    enforce(
      original
        ? checkRefund(original, await isSettled(ledger, original.batchId), amount)
        : notFound(originalId),
      originalId,
    );
  // Held from the first check to the write, across the processor's answer (see OperationRun).
  return run.holdOriginal(originalId, async () => {
    const original = await run.ledger.find(originalId);
    await check(run.ledger)(original);
    const decision = await run.processor.followUp({
      kind: 'refund',
      amountCents: amount,
      originalAuthorizationCode: original?.authorizationCode ?? '',
    });
    return run.commit(async (ledger) => {
      const current = await findChecked(ledger, originalId, check(ledger));
      const row = await newRow(run, ledger, 'REFUND', request, { ...copiedFrom(current, request), amount });
      const response = await recordDecision(ledger, row, decision, true);
      if (decision.outcome === 'approved') await applyEffects(ledger, refundEffects(originalId, amount));
      await recordAudit(
        run,
        ledger,
        'refund',
        response,
        `of transaction ${originalId}: ${formatMoney(amount)}`,
      );
      return response;
    });
  });
}
