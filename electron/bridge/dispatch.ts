/**
 * The host side of every bridge request, whatever carried it: the channel must be in the contract,
 * the input must parse with its schema, and the answer is parsed with its schema too, so that nothing
 * beyond the contract (a stray field, a card number) can leave the host by mistake.
 */
import { z } from 'zod';
import {
  invokeChannels,
  isInvokeChannel,
  type BridgeErrorCode,
  type InvokeChannel,
  type InvokeOutput,
  type InvokeResult,
} from '../../shared/ipc/contract';
import { isStoreError, KeyRevokedError } from '../gateway/store/store-errors';

/**
 * What the screens are told when the key their host acts with was revoked (from another counter of
 * the store, or from the command line): nothing was done, and a start issues a new key.
 */
export const SCREENS_KEY_REVOKED_MESSAGE =
  "This counter's own API key was revoked, so nothing was done. Restart Tender to give the counter a new key.";

/** What the host does for each request, given its validated input. */
export type BridgeHandlers = {
  [C in InvokeChannel]: (
    input: z.output<(typeof invokeChannels)[C]['input']>,
  ) => InvokeOutput<C> | Promise<InvokeOutput<C>>;
};

/** A refusal whose message is meant for the screens. */
export class BridgeError extends Error {
  constructor(
    readonly code: BridgeErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'BridgeError';
  }
}

export function bridgeFailure(code: BridgeErrorCode, message: string): InvokeResult {
  return { ok: false, error: { code, message } };
}

export interface DispatchOptions {
  /** Where unexpected handler failures go (never shown to the screens as they are). */
  onUnexpectedError?: (channel: InvokeChannel, error: unknown) => void;
}

/**
 * Answers one request with the handler of its channel. A page given only some handlers (the
 * customer's screen) is refused every other channel, before its input is even read.
 */
export async function dispatchInvoke(
  handlers: Partial<BridgeHandlers>,
  channel: unknown,
  input: unknown,
  options: DispatchOptions = {},
): Promise<InvokeResult> {
  if (!isInvokeChannel(channel)) {
    return bridgeFailure(
      'unknown-channel',
      `The bridge has no request named ${String(channel).slice(0, 64)}.`,
    );
  }
  const handler = handlers[channel] as ((input: unknown) => unknown) | undefined;
  if (!handler) return bridgeFailure('forbidden', `This screen may not ask for ${channel}.`);
  const contract = invokeChannels[channel];
  const parsed = contract.input.safeParse(input);
  if (!parsed.success) {
    return bridgeFailure('invalid-input', `${channel} was called with ${z.prettifyError(parsed.error)}`);
  }
  try {
    const output = (contract.output as z.ZodType).parse(await handler(parsed.data));
    return { ok: true, value: output };
  } catch (error) {
    if (error instanceof BridgeError) return bridgeFailure(error.code, error.message);
    // The store server is down or busy: said as it is, since the counter resumes by itself.
    if (isStoreError(error)) return bridgeFailure('unavailable', error.message);
    if (error instanceof KeyRevokedError) return bridgeFailure('refused', SCREENS_KEY_REVOKED_MESSAGE);
    (options.onUnexpectedError ?? reportUnexpected)(channel, error);
    return bridgeFailure(
      'failed',
      `Tender could not complete ${channel}. Try again; if it keeps failing, restart Tender.`,
    );
  }
}

function reportUnexpected(channel: InvokeChannel, error: unknown): void {
  console.error(`tender: the bridge request ${channel} failed.`, error);
}
