/**
 * The processor that forwards each request to the merchant's hosted gateway and answers what the
 * gateway decided. A request that went out without an answer coming back is never sent again: it
 * is looked up in the gateway's list by its reference until the gateway's time limit has passed, and
 * only then answered as an outcome that could not be learned.
 */
import { readFileSync, statSync } from 'node:fs';
import type { TransactionRequest } from '../../../shared/api/schemas';
import { ERROR_CODES, RESULT_CODES } from '../domain/codes';
import { GatewayAccount, type GatewayFailure } from './gateway-account';
import { GatewayLine } from './gateway-line';
import { noteDecided, noteSent } from './gateway-timing';
import type { CardDetails, Forwarding, Processor, ProcessorDecision } from './processor';
import type { UpstreamEndpoint } from './upstream-client';
import { decisionOf, newReference, upstreamForm, type UpstreamRequest } from './upstream-forms';

/** The gateway as the settings name it, read for each request so that a change applies at once. */
export interface UpstreamSettings {
  url: string;
  apiKey: string;
  /** A PEM file of certificates to trust besides the default ones; empty for none. */
  caFile: string;
  timeoutSeconds: number;
}

/** How long to wait between lookups of a lost answer: soon at first, then every two seconds. */
const LOOKUP_PAUSES_MS = [0, 250, 500, 1000, 2000];
/**
 * Lookups in a row that could not connect at all after which the gateway is taken as down: there is
 * nothing to wait for within its time limit, and the request is looked up again once it is back.
 */
const UNREACHABLE_LOOKUPS = 3;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** What a forwarded request without forwarding details still sends: nothing of the caller's. */
const NO_CALLER_FIELDS: TransactionRequest = { type: '' };

export class UpstreamProcessor implements Processor {
  #account: { key: string; account: GatewayAccount } | undefined;

  constructor(
    private readonly settings: () => UpstreamSettings,
    private readonly now: () => number = Date.now,
    /** Told of each exchange's reach, so that the screens and the forwarder know the line's state. */
    readonly line: GatewayLine = new GatewayLine(),
  ) {}

  /** The gateway account of the current settings, made again when they (or the CA file) change. */
  account(): GatewayAccount {
    const settings = this.settings();
    const key = JSON.stringify([
      settings.url,
      settings.apiKey,
      settings.timeoutSeconds,
      caFileVersion(settings.caFile),
    ]);
    if (this.#account?.key !== key) {
      this.#account?.account.close();
      // The CA file is read here only, when something changed, not at every request.
      this.#account = { key, account: new GatewayAccount(endpointOf(settings)) };
    }
    return this.#account.account;
  }

  /** The gateway screens where requests come from itself. */
  screen(): ProcessorDecision | undefined {
    return undefined;
  }

  authorize(request: {
    kind: 'sale' | 'auth';
    amountCents: number;
    card: CardDetails;
    forwarding?: Forwarding;
  }) {
    return this.forward(
      {
        type: request.kind === 'sale' ? 'SALE' : 'AUTH',
        amountCents: request.amountCents,
        card: request.card,
      },
      request.forwarding,
    );
  }

  forcedSale(request: {
    amountCents: number;
    tipCents: number;
    authorizationCode: string;
    card: CardDetails;
    forwarding?: Forwarding;
  }) {
    return this.forward(
      {
        type: 'FORCED SALE',
        amountCents: request.amountCents - request.tipCents,
        tipCents: request.tipCents,
        authorizationCode: request.authorizationCode,
        card: request.card,
      },
      request.forwarding,
    );
  }

  credit(request: { amountCents: number; card: CardDetails; forwarding?: Forwarding }) {
    return this.forward(
      { type: 'REFUND', amountCents: request.amountCents, card: request.card },
      request.forwarding,
    );
  }

  async followUp(request: {
    kind: 'capture' | 'refund' | 'void';
    amountCents: number;
    tipCents?: number;
    originalAuthorizationCode: string;
    originalUpstreamId?: string | null;
    forwarding?: Forwarding;
  }): Promise<ProcessorDecision> {
    const original = request.originalUpstreamId;
    if (original === undefined || original === null || original === '') {
      return {
        outcome: 'rejected',
        errorCode: ERROR_CODES.ORIGINAL_NOT_FOUND,
        message:
          'The original transaction was not made through the payment gateway, so the gateway cannot ' +
          `${request.kind} it.`,
      };
    }
    const tipCents = request.tipCents ?? 0;
    const upstream: UpstreamRequest =
      request.kind === 'capture'
        ? {
            type: 'CAPTURE',
            amountCents: request.amountCents - tipCents,
            tipCents,
            originalUpstreamId: original,
          }
        : request.kind === 'refund'
          ? { type: 'REFUND', amountCents: request.amountCents, originalUpstreamId: original }
          : { type: 'VOID', originalUpstreamId: original };
    return this.forward(upstream, request.forwarding);
  }

  /**
   * Sends the request once and answers what the gateway decided. Without an answer, looks the
   * request up by its reference until the gateway's time limit (upstream_timeout_seconds) has passed.
   */
  async forward(request: UpstreamRequest, forwarding?: Forwarding): Promise<ProcessorDecision> {
    const reference = forwarding?.reference ?? newReference();
    const account = this.account();
    noteSent();
    const sent = await account.postTransaction(
      upstreamForm(request, forwarding?.request ?? NO_CALLER_FIELDS, reference),
    );
    this.#noteReach(sent.kind);
    const decision =
      sent.kind === 'answered'
        ? decisionOf(sent.value, reference)
        : sent.kind === 'no answer'
          ? await this.lookUp(account, reference)
          : failureDecision(sent, reference);
    noteDecided();
    return decision;
  }

  /**
   * What the gateway did with a request whose answer was lost: its list is read until the request
   * shows, or until the gateway's time limit has passed since the loss was noticed.
   */
  async lookUp(account: GatewayAccount, reference: string): Promise<ProcessorDecision> {
    const limitMs = account.client.timeoutMs;
    const deadline = this.now() + limitMs;
    let unreachableInARow = 0;
    for (let attempt = 0; unreachableInARow < UNREACHABLE_LOOKUPS; attempt++) {
      const wait = LOOKUP_PAUSES_MS[Math.min(attempt, LOOKUP_PAUSES_MS.length - 1)] ?? 0;
      await pause(Math.min(wait, Math.max(0, deadline - this.now())));
      const left = deadline - this.now();
      if (left <= 0) break;
      const lookup = await account.findByReference(reference, { timeoutMs: left });
      this.#noteReach(lookup.kind);
      if (lookup.kind === 'answered' && lookup.value.found) return decisionOf(lookup.value.found, reference);
      unreachableInARow = lookup.kind === 'unreachable' ? unreachableInARow + 1 : 0;
    }
    return {
      reference,
      outcome: 'error',
      resultCode: RESULT_CODES.SYSTEM_MALFUNCTION,
      errorCode: ERROR_CODES.GATEWAY_OUTCOME_UNKNOWN,
      line: 'unknown',
      ...(unreachableInARow >= UNREACHABLE_LOOKUPS && { lookupUnreachable: true as const }),
      message:
        'The payment gateway did not answer and its outcome could not be learned. Nothing was recorded as ' +
        'charged: if the gateway shows it later, Tender voids it there. Try again, or take another form of payment.',
    };
  }

  #noteReach(kind: 'answered' | GatewayFailure['kind']): void {
    if (kind === 'unreachable') this.line.unreachable();
    else if (kind === 'answered' || kind === 'refused') this.line.reached();
  }

  close(): void {
    this.#account?.account.close();
    this.#account = undefined;
  }
}

/** The gateway as the client reaches it, from the settings. */
export function endpointOf(settings: UpstreamSettings): UpstreamEndpoint {
  return {
    url: settings.url,
    apiKey: settings.apiKey,
    timeoutMs: settings.timeoutSeconds * 1000,
    ...(settings.caFile !== '' && { extraCaPem: readCaFile(settings.caFile) }),
  };
}

/**
 * The CA file's text; empty when it cannot be read now, so that the gateway's certificate is then
 * verified against the default CAs alone and, for a private gateway, fails as not trusted.
 */
function readCaFile(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** Changes when the CA file is replaced, so that the next request trusts its new certificates. */
function caFileVersion(path: string): string {
  if (path === '') return '';
  try {
    const { mtimeMs, size, ino } = statSync(path);
    return `${path}:${ino}:${size}:${mtimeMs}`;
  } catch {
    return `${path}:missing`;
  }
}

/** A request that was not sent, or that the gateway refused before acting on it: nothing was charged. */
function failureDecision(
  failure: Exclude<GatewayFailure, { kind: 'no answer' }>,
  reference: string,
): ProcessorDecision {
  if (failure.kind === 'unreachable') {
    return {
      reference,
      outcome: 'error',
      resultCode: RESULT_CODES.SYSTEM_MALFUNCTION,
      errorCode: ERROR_CODES.GATEWAY_UNREACHABLE,
      line: 'unreachable',
      message:
        `The card network is down: ${failure.detail}. Nothing was charged. ` +
        'Try again, or take another form of payment.',
    };
  }
  return {
    reference,
    outcome: 'error',
    resultCode: RESULT_CODES.SYSTEM_MALFUNCTION,
    errorCode: ERROR_CODES.GATEWAY_REFUSED,
    message:
      `The payment gateway refused the request: ${failure.detail}. Nothing was charged. ` +
      'A manager checks the gateway key under Settings, Payment processor.',
  };
}
