/** REFUND without id: money to a card presented now, with no earlier transaction to take it from. */
import type { TransactionResponse } from '../../../shared/api/schemas';
import { formatMoney } from '../../../shared/money';
import type { TransactionCommand } from '../validation';
import { namesOf, type OperationRun } from './operation';
import { newRow, recordAudit, recordDecision } from './recording';

export async function unmatchedRefund(
  run: OperationRun,
  command: Extract<TransactionCommand, { refund: 'unmatched' }>,
): Promise<TransactionResponse> {
  const { request, amount } = command;
  const card = await run.cards.read(command.card);
  const decision = await run.processor.credit({ amountCents: amount, card: card.details });
  return run.commit(async (ledger) => {
    await run.cards.rejectReplayedSwipe(ledger, card);
    const row = await newRow(run, ledger, 'REFUND', request, {
      amount,
      ...card.row,
      ...namesOf(request, card),
    });
    const response = await recordDecision(ledger, row, decision, true);
    await recordAudit(
      run,
      ledger,
      'refund',
      response,
      `unmatched, to card ending ${card.row.cardLastFour ?? ''}: ${formatMoney(amount)}`,
    );
    return response;
  });
}
