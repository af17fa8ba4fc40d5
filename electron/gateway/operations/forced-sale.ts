/**
 * FORCED SALE: a sale the issuer approved by voice, recorded with the code it gave; the processor is
 * not asked again.
 */
import type { TransactionResponse } from '../../../shared/api/schemas';
import type { TransactionCommand } from '../validation';
import { namesOf, type OperationRun } from './operation';
import { insertApproved, newRow } from './recording';

export function forcedSale(
  run: OperationRun,
  command: Extract<TransactionCommand, { type: 'FORCED SALE' }>,
): Promise<TransactionResponse> {
  const { request, tip } = command;
  const card = run.cards.read(command.card);
  const amount = command.amount + tip;
  return run.commit(() => {
    run.cards.rejectReplayedSwipe(card);
    const row = newRow(run, 'FORCED SALE', request, {
      amount,
      tipAmount: tip,
      ...card.row,
      ...namesOf(request, card),
      authorizationCode: command.authorizationCode.toUpperCase(),
    });
    return insertApproved(run.ledger, row, 'Approved', true);
  });
}
