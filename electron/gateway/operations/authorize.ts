/** SALE and AUTH: the card read, the issuer asked; an approved SALE joins the open batch, an AUTH holds. */
import type { TransactionResponse } from '../../../shared/api/schemas';
import type { TransactionCommand } from '../validation';
import { checkDuplicate, recordOverride, sameChargeKey } from './duplicates';
import { commitDecided, forwardingOf, recordGatewayDecision } from './forwarding';
import { namesOf, swipeOf, type OperationRun } from './operation';
import { newRow } from './recording';

export async function authorize(
  run: OperationRun,
  command: Extract<TransactionCommand, { type: 'SALE' | 'AUTH' }>,
): Promise<TransactionResponse> {
  const { type, request, amount } = command;
  const card = await run.cards.read(command.card);
  const charge = { card, amount, override: command.duplicateOverride };
  return run.oneAtATime(sameChargeKey(run, charge), async () => {
    await checkDuplicate(run, run.ledger, charge);
    const forwarding = forwardingOf(request);
    const decision = await run.processor.authorize({
      kind: type === 'SALE' ? 'sale' : 'auth',
      amountCents: amount,
      card: card.details,
      forwarding,
    });
    return commitDecided(run, decision, async (ledger) => {
      await run.cards.rejectReplayedSwipe(ledger, card);
      const overridden = await checkDuplicate(run, ledger, charge);
      const row = await newRow(run, ledger, type, request, {
        amount,
        ...card.row,
        ...namesOf(request, card),
      });
      const { response } = await recordGatewayDecision(run, ledger, row, decision, {
        settles: type === 'SALE',
        forwarding,
        offline: {
          kind: 'charge',
          check: { type, entryMode: card.details.entryMode, amountCents: amount },
          upstream: { type, amountCents: amount, card: card.details },
          swipe: swipeOf(card.details),
        },
      });
      if (overridden && response.result === 'Approved') await recordOverride(run, ledger, row.id, overridden);
      return response;
    });
  });
}
