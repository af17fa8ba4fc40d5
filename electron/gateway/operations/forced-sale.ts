/**
 * FORCED SALE: a sale the issuer approved by voice, posted with the code it gave: recorded as
 * approved by the simulator, or sent to the merchant's gateway, which posts it.
 */
import type { TransactionResponse } from '../../../shared/api/schemas';
import type { TransactionCommand } from '../validation';
import { checkDuplicate, recordOverride, sameChargeKey } from './duplicates';
import { commitDecided, forwardingOf, recordGatewayDecision } from './forwarding';
import { namesOf, swipeOf, type OperationRun } from './operation';
import { newRow } from './recording';

export async function forcedSale(
  run: OperationRun,
  command: Extract<TransactionCommand, { type: 'FORCED SALE' }>,
): Promise<TransactionResponse> {
  const { request, tip } = command;
  const card = await run.cards.read(command.card);
  const amount = command.amount + tip;
  const charge = { card, amount, override: command.duplicateOverride };
  const authorizationCode = command.authorizationCode.toUpperCase();
  return run.oneAtATime(sameChargeKey(run, charge), async () => {
    await checkDuplicate(run, run.ledger, charge);
    const forwarding = forwardingOf(request);
    const decision = await run.processor.forcedSale({
      amountCents: amount,
      tipCents: tip,
      authorizationCode,
      card: card.details,
      forwarding,
    });
    return commitDecided(run, decision, async (ledger) => {
      await run.cards.rejectReplayedSwipe(ledger, card);
      const overridden = await checkDuplicate(run, ledger, charge);
      const row = await newRow(run, ledger, 'FORCED SALE', request, {
        amount,
        tipAmount: tip,
        ...card.row,
        ...namesOf(request, card),
        authorizationCode,
      });
      const { response } = await recordGatewayDecision(run, ledger, row, decision, {
        settles: true,
        forwarding,
        offline: {
          kind: 'charge',
          check: { type: 'FORCED SALE', entryMode: card.details.entryMode, amountCents: amount },
          upstream: {
            type: 'FORCED SALE',
            amountCents: command.amount,
            tipCents: tip,
            authorizationCode,
            card: card.details,
          },
          swipe: swipeOf(card.details),
        },
      });
      if (overridden && response.result === 'Approved') await recordOverride(run, ledger, row.id, overridden);
      return response;
    });
  });
}
