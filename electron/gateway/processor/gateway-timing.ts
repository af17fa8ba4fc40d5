/**
 * How long a request spent at the merchant's gateway, and how long the engine took after the
 * gateway's answer, for the Server-Timing header of POST /transactions: `upstream` from the first
 * byte sent to the decision (lookups of a lost answer included), `relay` from the decision to the
 * engine's own answer (its checks again, the commit, the answer written).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';

interface GatewayTiming {
  sentAt?: number;
  decidedAt?: number;
}

const current = new AsyncLocalStorage<GatewayTiming>();

/**
 * Starts timing the request being handled (the rest of the calling function and all it awaits): the
 * function returned gives its Server-Timing value once the answer is ready, undefined when the
 * gateway was not asked.
 */
export function trackGatewayTiming(): () => string | undefined {
  const timing: GatewayTiming = {};
  current.enterWith(timing);
  return () => {
    if (timing.sentAt === undefined || timing.decidedAt === undefined) return undefined;
    const upstream = timing.decidedAt - timing.sentAt;
    const relay = performance.now() - timing.decidedAt;
    return `upstream;dur=${upstream.toFixed(2)}, relay;dur=${relay.toFixed(2)}`;
  };
}

/** The gateway was asked (the first request of a decision); called by the processor that forwards. */
export function noteSent(): void {
  const timing = current.getStore();
  if (timing && timing.sentAt === undefined) timing.sentAt = performance.now();
}

/** The gateway's decision is in: the last one counts, so a follow-up request's time is the whole. */
export function noteDecided(): void {
  const timing = current.getStore();
  if (timing) timing.decidedAt = performance.now();
}
