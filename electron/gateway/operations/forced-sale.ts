/**
 * FORCED SALE: a sale the issuer approved by voice, recorded with the code it gave; the processor is
 * not asked again.
 */
import type { TransactionResponse } from '../../../shared/api/schemas';
import type { TransactionCommand } from '../validation';
import { checkDuplicate, recordOverride, sameChargeKey } from './duplicates';
import { namesOf, type OperationRun } from './operation';
import { insertApproved, newRow } from './recording';

export async function forcedSale(
  run: OperationRun,
  command: Extract<TransactionCommand, { type: 'FORCED SALE' }>,
): Promise<TransactionResponse> {
  const { request, tip } = command;
  const card = await run.cards.read(command.card);
  const amount = command.amount + tip;
  const charge = { card, amount, override: command.duplicateOverride };
  return run.oneAtATime(sameChargeKey(charge), () =>
    run.commit(async (ledger) => {
      await run.cards.rejectReplayedSwipe(ledger, card);
      const overridden = await checkDuplicate(run, ledger, charge);
      const row = await newRow(run, ledger, 'FORCED SALE', request, {
        amount,
        tipAmount: tip,
        ...card.row,
        ...namesOf(request, card),
        authorizationCode: command.authorizationCode.toUpperCase(),
      });
      const response = await insertApproved(ledger, row, 'Approved', true);
      if (overridden) await recordOverride(run, ledger, row.id, overridden);
      return response;
    }),
  );
}
