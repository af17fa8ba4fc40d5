/** CAPTURE: finishes an authorization, with a tip when tips are on; the sale joins the open batch. */
import type { TransactionResponse } from '../../../shared/api/schemas';
import { formatMoney } from '../../../shared/money';
import { captureEffects } from '../domain/effects';
import { checkCapture, notFound } from '../domain/rules';
import type { LedgerTransaction } from '../store/transaction-rows';
import type { TransactionCommand } from '../validation';
import { copiedFrom, enforce, findChecked, type OperationRun } from './operation';
import { applyEffects, newRow, recordAudit, recordDecision } from './recording';

export async function capture(
  run: OperationRun,
  command: Extract<TransactionCommand, { type: 'CAPTURE' }>,
): Promise<TransactionResponse> {
  const { request, authId, amount, tip } = command;
  const check = async (auth: LedgerTransaction | undefined) =>
    enforce(
      auth
        ? checkCapture(auth, amount, { days: run.settings.get('auth_expiry_days'), now: run.now() })
        : notFound(authId),
      authId,
    );
  // Held from the first check to the write, across the processor's answer (see OperationRun).
  return run.holdOriginal(authId, async () => {
    const auth = await run.ledger.find(authId);
    await check(auth);
    const decision = await run.processor.followUp({
      kind: 'capture',
      amountCents: amount + tip,
      originalAuthorizationCode: auth?.authorizationCode ?? '',
    });
    return run.commit(async (ledger) => {
      const current = await findChecked(ledger, authId, check);
      const row = await newRow(run, ledger, 'CAPTURE', request, {
        ...copiedFrom(current, request),
        amount: amount + tip,
        tipAmount: tip,
        serverId: request.server_id ?? current.serverId,
        invoice: request.invoice ?? current.invoice,
        authorizationCode: current.authorizationCode,
      });
      const response = await recordDecision(ledger, row, decision, true, current.authorizationCode);
      if (decision.outcome === 'approved') await applyEffects(ledger, captureEffects(authId, row.id));
      await recordAudit(
        run,
        ledger,
        'capture',
        response,
        `of auth ${authId}: ${formatMoney(amount)} + tip ${formatMoney(tip)}`,
      );
      return response;
    });
  });
}
