/** REFUND without id: money to a card presented now, with no earlier transaction to take it from. */
import type { TransactionResponse } from '../../../shared/api/schemas';
import { formatMoney } from '../../../shared/money';
import type { TransactionCommand } from '../validation';
import { commitDecided, forwardingOf, recordGatewayDecision } from './forwarding';
import { namesOf, swipeOf, type OperationRun } from './operation';
import { newRow, recordAudit } from './recording';

export async function unmatchedRefund(
  run: OperationRun,
  command: Extract<TransactionCommand, { refund: 'unmatched' }>,
): Promise<TransactionResponse> {
  const { request, amount } = command;
  const card = await run.cards.read(command.card);
  const forwarding = forwardingOf(request);
  const decision = await run.processor.credit({ amountCents: amount, card: card.details, forwarding });
  return commitDecided(run, decision, async (ledger) => {
    await run.cards.rejectReplayedSwipe(ledger, card);
    const row = await newRow(run, ledger, 'REFUND', request, {
      amount,
      ...card.row,
      ...namesOf(request, card),
    });
    const { response } = await recordGatewayDecision(run, ledger, row, decision, {
      settles: true,
      forwarding,
      offline: {
        kind: 'charge',
        check: { type: 'REFUND', entryMode: card.details.entryMode, amountCents: amount },
        upstream: { type: 'REFUND', amountCents: amount, card: card.details },
        swipe: swipeOf(card.details),
      },
    });
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
