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
  const check = (auth: LedgerTransaction | undefined) =>
    enforce(
      auth
        ? checkCapture(auth, amount, { days: run.settings.get('auth_expiry_days'), now: run.now() })
        : notFound(authId),
      authId,
    );
  const auth = run.ledger.find(authId);
  check(auth);
  const decision = await run.processor.followUp({
    kind: 'capture',
    amountCents: amount + tip,
    originalAuthorizationCode: auth?.authorizationCode ?? '',
  });
  return run.commit(() => {
    const current = findChecked(run.ledger, authId, check);
    const row = newRow(run, 'CAPTURE', request, {
      ...copiedFrom(current, request),
      amount: amount + tip,
      tipAmount: tip,
      serverId: request.server_id ?? current.serverId,
      invoice: request.invoice ?? current.invoice,
      authorizationCode: current.authorizationCode,
    });
    const response = recordDecision(run.ledger, row, decision, true, current.authorizationCode);
    if (decision.outcome === 'approved') applyEffects(run.ledger, captureEffects(authId, row.id));
    recordAudit(
      run,
      'capture',
      response,
      `of auth ${authId}: ${formatMoney(amount)} + tip ${formatMoney(tip)}`,
    );
    return response;
  });
}
