/** Which processor decides: the one the setting names for a new transaction, the original's for a follow-up. */
import { describe, expect, it } from 'vitest';
import { ProcessorBySetting } from '../../electron/gateway/processor/by-setting';
import type { Processor, ProcessorDecision } from '../../electron/gateway/processor/processor';
import type { ProcessorChoice } from '../../electron/gateway/settings';

/** A processor that approves everything with its own name as the code, so the test sees who decided. */
function named(name: string): Processor {
  const approve = async (): Promise<ProcessorDecision> => ({
    outcome: 'approved',
    authorizationCode: name,
    resultCode: '0000',
    message: 'Approved',
  });
  return {
    screen: () => undefined,
    authorize: approve,
    forcedSale: approve,
    credit: approve,
    followUp: approve,
  };
}

const card = { pan: '4111111111111111', expiry: { month: 12, year: 2030 }, entryMode: 'keyed' as const };
const codeOf = (decision: ProcessorDecision) =>
  decision.outcome === 'approved' ? decision.authorizationCode : '';

describe('the processor by setting', () => {
  it('sends new transactions to the processor the setting names at that moment', async () => {
    let choice: ProcessorChoice = 'simulator';
    const processor = new ProcessorBySetting(named('SIM'), named('GATEWAY'), () => choice);
    expect(codeOf(await processor.authorize({ kind: 'sale', amountCents: 100, card }))).toBe('SIM');
    choice = 'upstream';
    expect(codeOf(await processor.authorize({ kind: 'sale', amountCents: 100, card }))).toBe('GATEWAY');
    expect(
      codeOf(await processor.forcedSale({ amountCents: 100, tipCents: 0, authorizationCode: 'V1', card })),
    ).toBe('GATEWAY');
    expect(codeOf(await processor.credit({ amountCents: 100, card }))).toBe('GATEWAY');
  });

  it('keeps a request with the processor the setting named when it began, and says whether that is the gateway', async () => {
    let choice: ProcessorChoice = 'simulator';
    const processors = new ProcessorBySetting(named('SIM'), named('GATEWAY'), () => choice);
    const underWay = processors.forRequest();
    expect(underWay.viaGateway).toBe(false);
    // The gateway is chosen while the request waits (its card's turn, the counter's close): it
    // holds nothing for the gateway, so it must not go there.
    choice = 'upstream';
    expect(codeOf(await underWay.processor.authorize({ kind: 'sale', amountCents: 100, card }))).toBe('SIM');
    expect(codeOf(await underWay.processor.credit({ amountCents: 100, card }))).toBe('SIM');
    const next = processors.forRequest();
    expect(next.viaGateway).toBe(true);
    expect(codeOf(await next.processor.authorize({ kind: 'sale', amountCents: 100, card }))).toBe('GATEWAY');
  });

  it('sends a follow-up to whichever decided its original, whatever the setting says now', async () => {
    for (const choice of ['simulator', 'upstream'] as const) {
      const processor = new ProcessorBySetting(named('SIM'), named('GATEWAY'), () => choice);
      const followUp = (originalUpstreamId: string | null) =>
        processor.followUp({
          kind: 'void',
          amountCents: 100,
          originalAuthorizationCode: 'X',
          originalUpstreamId,
        });
      expect(codeOf(await followUp('4711'))).toBe('GATEWAY');
      expect(codeOf(await followUp(null))).toBe('SIM');
    }
  });
});
