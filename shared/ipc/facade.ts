/**
 * Builds the typed `window.tender` facade from the contract, over any transport that can carry a
 * request and deliver events: Electron IPC in the preload, a WebSocket in a browser. Both sides of a
 * transport validate, so a bad call fails here with a clear message before it leaves, and an answer
 * or event that does not match the contract never reaches the screens.
 */
import { z } from 'zod';
import {
  eventChannels,
  invokeChannels,
  invokeResultSchema,
  isEventName,
  isInvokeChannel,
  type BridgeErrorCode,
  type EventName,
  type InvokeChannel,
  type TenderBridge,
} from './contract';

export interface BridgeTransport {
  /** Sends a request; resolves with the host's answer envelope, not yet validated. */
  invoke(channel: InvokeChannel, input: unknown): Promise<unknown>;
  /** Delivers the raw payloads of one event; returns the unsubscribe function. */
  subscribe(event: EventName, listener: (payload: unknown) => void): () => void;
}

export class BridgeCallError extends Error {
  constructor(
    readonly code: BridgeErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'BridgeCallError';
  }
}

export interface BridgeOptions {
  /** Told about an event whose payload breaks the contract; the listener does not see it. */
  onInvalidEvent?: (event: EventName, problem: string) => void;
}

export function createBridge(
  transport: BridgeTransport,
  version: string,
  options: BridgeOptions = {},
): TenderBridge {
  async function invoke(channel: InvokeChannel, input?: unknown): Promise<unknown> {
    if (!isInvokeChannel(channel)) {
      throw new BridgeCallError('unknown-channel', `The bridge has no request named ${String(channel)}.`);
    }
    const contract = invokeChannels[channel];
    const parsedInput = contract.input.safeParse(input);
    if (!parsedInput.success) {
      throw new BridgeCallError(
        'invalid-input',
        `${channel} was called with ${z.prettifyError(parsedInput.error)}`,
      );
    }
    const answer = invokeResultSchema.parse(await transport.invoke(channel, parsedInput.data));
    if (!answer.ok) throw new BridgeCallError(answer.error.code, answer.error.message);
    return contract.output.parse(answer.value);
  }

  function on(event: EventName, listener: (payload: unknown) => void): () => void {
    if (!isEventName(event))
      throw new BridgeCallError('unknown-channel', `No event is named ${String(event)}.`);
    if (typeof listener !== 'function') throw new TypeError('An event listener must be a function.');
    const schema = eventChannels[event];
    return transport.subscribe(event, (payload) => {
      const parsed = schema.safeParse(payload);
      if (parsed.success) listener(parsed.data);
      else options.onInvalidEvent?.(event, z.prettifyError(parsed.error));
    });
  }

  // The generic signatures of TenderBridge are enforced by the contract checks above at run time.
  return Object.freeze({ version, invoke, on }) as TenderBridge;
}
