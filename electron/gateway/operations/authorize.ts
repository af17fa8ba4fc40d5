/** SALE and AUTH: the card read, the issuer asked; an approved SALE joins the open batch, an AUTH holds. */
import type { TransactionResponse } from '../../../shared/api/schemas';
import type { TransactionCommand } from '../validation';
import { namesOf, type OperationRun } from './operation';
import { newRow, recordDecision } from './recording';

export async function authorize(
  run: OperationRun,
  command: Extract<TransactionCommand, { type: 'SALE' | 'AUTH' }>,
): Promise<TransactionResponse> {
  const { type, request, amount } = command;
  const card = await run.cards.read(command.card);
  const decision = await run.processor.authorize({
    kind: type === 'SALE' ? 'sale' : 'auth',
    amountCents: amount,
    card: card.details,
  });
  return run.commit(async (ledger) => {
    await run.cards.rejectReplayedSwipe(ledger, card);
    const row = await newRow(run, ledger, type, request, { amount, ...card.row, ...namesOf(request, card) });
    return recordDecision(ledger, row, decision, type === 'SALE');
  });
}
