/**
 * The customer's answers to the step on screen, sent to the host with the step's sequence number:
 * each resolves with nothing once the host has taken it (its new view is shown at once), or with
 * what to tell the customer when it did not.
 */
import type { ReceiptChoice, CustomerView } from '../../../shared/ipc/customer-contract';
import type { TenderBridge } from '../../../shared/ipc/contract';

export interface CustomerAnswers {
  chooseTip(tipCents: number, confirmed: boolean): Promise<string | undefined>;
  sign(strokes: number[][]): Promise<string | undefined>;
  chooseReceipt(choice: ReceiptChoice, email?: string): Promise<string | undefined>;
  /** The customer is typing or signing: the step's time limit starts again (said now and then). */
  stillHere(): void;
}

const NOT_TAKEN = 'That did not go through. Please try again, or ask the cashier.';
/** How often a customer at work on a step says so, at most: well within the step's time limit. */
const STILL_HERE_EVERY_MS = 15_000;

export function customerAnswers(
  bridge: TenderBridge,
  sequence: number,
  show: (view: CustomerView) => void,
): CustomerAnswers {
  const send = async (request: () => Promise<CustomerView>): Promise<string | undefined> => {
    try {
      show(await request());
      return undefined;
    } catch (error) {
      // The host's refusals are written for the customer (an address to check, a tip to confirm).
      return error instanceof Error && error.message ? error.message : NOT_TAKEN;
    }
  };
  let saidAt = Number.NEGATIVE_INFINITY;
  return {
    stillHere: () => {
      if (Date.now() - saidAt < STILL_HERE_EVERY_MS) return;
      saidAt = Date.now();
      // Nothing to tell the customer: a step that has gone is shown by its own event.
      bridge.invoke('customer:still-here', { sequence }).catch(() => undefined);
    },
    chooseTip: (tipCents, confirmed) =>
      send(() => bridge.invoke('customer:choose-tip', { sequence, tipCents, confirmed })),
    sign: (strokes) => send(() => bridge.invoke('customer:sign', { sequence, strokes })),
    chooseReceipt: (choice, email) =>
      send(() =>
        bridge.invoke('customer:choose-receipt', { sequence, choice, ...(email !== undefined && { email }) }),
      ),
  };
}
