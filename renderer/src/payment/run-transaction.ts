/**
 * Sending a transaction (a sale, a tab, a capture, a refund, a void) so that it is done at most once:
 * with an Idempotency-Key made for each attempt, one request at a time, and after no answer the same
 * request with the same key again, so the engine answers for that one request and never does it twice.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { TenderClient } from '../../../shared/api/client';
import type { TransactionRequestBody, TransactionResponse } from '../../../shared/api/schemas';
import { formatMoney, parseMoney } from '../../../shared/money';
import { needsManager } from '../../../shared/api/permissions';
import { parseTransactionType } from '../../../shared/api/transaction-types';
import { brandLabel, cardBrand } from '../../../shared/cards';
import type { Attempt } from '../../../shared/ipc/attempts-contract';
import type { TenderBridge } from '../../../shared/ipc/contract';
import type { Approval } from '../manager/manager-approval';
import { approvalRefusal, sendApproved } from '../staff/approved-send';
import { useTerminal } from '../terminal/terminal-context';
import { answeredByEngine, outcomeOfFailure, outcomeOfResponse, type SaleOutcome } from './outcome';

export type MoneyMove = 'sale' | 'tab' | 'capture' | 'refund' | 'void';

/** The outcome's own words are written for a sale; every other move rewords its next steps. */
type OtherMove = Exclude<MoneyMove, 'sale'>;

const NOTHING_DONE: Record<OtherMove, string> = {
  tab: 'No hold was placed on the card.',
  capture: 'The tab was not captured.',
  refund: 'Nothing was refunded.',
  void: 'Nothing was voided.',
};

const MAYBE_DONE: Record<OtherMove, string> = {
  tab: 'The card may or may not hold the amount now.',
  capture: 'The tab may or may not have been captured.',
  refund: 'The card may or may not have been refunded.',
  void: 'It may or may not have been voided.',
};

/** For a refusal of what was sent, when the engine's message names no next step. */
const AFTER_REFUSAL: Record<OtherMove, string> = {
  tab: 'Check the amount and the card, then try again.',
  capture: 'Go back to the tab: check the tip and try again.',
  refund: 'Go back to the transaction: it shows what can still be refunded.',
  void: 'Go back to the transaction: it shows what can still be done.',
};
const SALE_REFUSAL_STEP = 'Check what was entered, then charge again.';

/** A request and the key that makes sending it again safe. */
export interface PendingTransaction {
  request: TransactionRequestBody;
  idempotencyKey: string;
  /**
   * For a request only a manager may allow (a refund, a void, a charge past a possible duplicate):
   * the manager's PIN for it, or none when a manager is signed in.
   */
  approval?: Approval;
  /**
   * The public id of the screens' key it was last sent with. A restart of the engine issues the
   * screens a new key, and the engine keeps answers per key: sent again under the new key, the same
   * request would be done again.
   */
  sentWith?: string;
}

const RECONNECTING: SaleOutcome = {
  kind: 'unknown',
  reason: 'no-answer',
  message: 'Tender restarted, and these screens are reconnecting to it.',
  nextStep: 'Press Check again once the reader badge says the card reader is ready.',
};

/** A first sending refused for its key while the screens were reconnecting: Tender was restarting. */
const RESTARTING: SaleOutcome = {
  kind: 'unknown',
  reason: 'unreachable',
  message: 'Tender is restarting, and these screens are reconnecting to it. Nothing was done yet.',
  nextStep: 'Press Check again once the reader badge says the card reader is ready: it is sent then, once.',
};

/** What sendTransaction needs of the screens besides the request. */
export interface SendContext {
  /** The host, which journals each attempt and sends what needs a manager. */
  bridge?: TenderBridge;
  /**
   * Whether the screens are reconnecting to a restarted host: a key refused then is the key of the
   * run that stopped, not a revoked one.
   */
  reconnecting?: () => boolean;
}

export function prepareTransaction(request: TransactionRequestBody, approval?: Approval): PendingTransaction {
  return { request, idempotencyKey: crypto.randomUUID(), ...(approval && { approval }) };
}

/** The engine's answer as an outcome, with next steps in the words of what was being done. */
export function failureOutcome(error: unknown, move: MoneyMove): SaleOutcome {
  const outcome = outcomeOfFailure(error);
  if (move === 'sale') return outcome;
  if (outcome.kind === 'unknown') {
    return {
      ...outcome,
      nextStep: `${MAYBE_DONE[move]} Press Check again: the engine answers for this same request, and never does it twice.`,
    };
  }
  if (
    outcome.kind === 'refused' &&
    outcome.status !== 401 &&
    outcome.status !== 403 &&
    outcome.status !== 503
  ) {
    return {
      ...outcome,
      nextStep: `${NOTHING_DONE[move]} ${outcome.status >= 500 ? 'Try again.' : 'If this repeats, contact support.'}`,
    };
  }
  return outcome;
}

/**
 * How the attempt journal names a request: its type and amount, and the card as brand and last four
 * (or what it follows up), never the card number or the swipe.
 */
export function attemptOf(pending: PendingTransaction): Attempt {
  const { request } = pending;
  const type = parseTransactionType(request.type) ?? 'SALE';
  const card =
    request.card !== undefined
      ? `${brandLabel(cardBrand(request.card))} •••• ${request.card.slice(-4)}`
      : request.encrypted_track_data !== undefined
        ? 'Swiped card'
        : request.id !== undefined
          ? `Transaction #${String(request.id)}`
          : 'No card';
  const tip = request.tip_amount === undefined ? 0 : parseCents(request.tip_amount);
  const amount = request.amount === undefined ? undefined : formatMoney(parseCents(request.amount) + tip);
  return { idempotencyKey: pending.idempotencyKey, type, card, ...(amount !== undefined && { amount }) };
}

function parseCents(text: string): number {
  const parsed = parseMoney(text, { allowZero: true });
  return parsed.ok ? parsed.cents : 0;
}

/** The journal keeps each attempt until its answer is known; a journal that fails does not hold up a payment. */
async function journal(step: () => Promise<unknown>): Promise<void> {
  try {
    await step();
  } catch (error) {
    console.error('Tender: the attempt journal could not be written.', error);
  }
}

/**
 * Sends `pending` with the key of the screens' client, after the journal has it. A request last sent
 * with the key of an earlier run goes again only when the engine never received it; otherwise its
 * answer under that key is the outcome. `client` may be read again after the journal: the screens
 * take a restarted engine's new key meanwhile.
 */
export async function sendTransaction(
  client: TenderClient | (() => TenderClient),
  pending: PendingTransaction,
  move: MoneyMove,
  context: SendContext = {},
): Promise<SaleOutcome> {
  const { bridge } = context;
  const currentClient = typeof client === 'function' ? client : () => client;
  const sentBefore = pending.sentWith !== undefined;
  if (bridge && sentBefore && pending.sentWith !== currentClient().keyId) {
    const earlier = await earlierAnswer(bridge, pending, move);
    if (earlier !== 'never-reached') {
      if (earlier.kind !== 'unknown') await resolveAttempt(bridge, pending);
      return earlier;
    }
  }
  if (bridge) await journal(() => bridge.invoke('attempts:begin', attemptOf(pending)));
  const sender = currentClient();
  pending.sentWith = sender.keyId;
  const outcome = await sendOnce(sender, pending, move, bridge);
  if (outcome.kind === 'refused' && outcome.status === 401) {
    // A resend refused for its key was not done, but the first sending may have been: still unknown.
    if (sentBefore) return RECONNECTING;
    // Refused for the key of a run that has stopped: nothing was done, and Check again sends it
    // under the new key.
    if (context.reconnecting?.()) return RESTARTING;
  }
  if (bridge && outcome.kind !== 'unknown') await resolveAttempt(bridge, pending);
  return outcome;
}

async function earlierAnswer(
  bridge: TenderBridge,
  pending: PendingTransaction,
  move: MoneyMove,
): Promise<SaleOutcome | 'never-reached'> {
  try {
    const earlier = await bridge.invoke('attempts:earlier-answer', {
      idempotencyKey: pending.idempotencyKey,
      keyId: pending.sentWith ?? '',
    });
    return earlier.state === 'answered' ? outcomeInWords(earlier.response, move) : 'never-reached';
  } catch (error) {
    console.error('Tender: the answer under the earlier key could not be read.', error);
    return RECONNECTING;
  }
}

function resolveAttempt(bridge: TenderBridge, pending: PendingTransaction): Promise<void> {
  return journal(() => bridge.invoke('attempts:resolve', { idempotencyKey: pending.idempotencyKey }));
}

/** The engine's answer as an outcome, its next step in the words of what was being done. */
function outcomeInWords(response: TransactionResponse, move: MoneyMove): SaleOutcome {
  const outcome = outcomeOfResponse(response);
  return move !== 'sale' && outcome.kind === 'rejected' && outcome.nextStep === SALE_REFUSAL_STEP
    ? { ...outcome, nextStep: AFTER_REFUSAL[move] }
    : outcome;
}

async function sendOnce(
  client: TenderClient,
  pending: PendingTransaction,
  move: MoneyMove,
  bridge?: TenderBridge,
): Promise<SaleOutcome> {
  try {
    // What only a manager may allow goes through the host, which checks the manager for this request.
    const response =
      bridge && needsManager(pending.request)
        ? await sendApproved(bridge, pending.request, pending.idempotencyKey, pending.approval?.pin)
        : await client.createTransaction(pending.request, { idempotencyKey: pending.idempotencyKey });
    return outcomeInWords(response, move);
  } catch (error) {
    const refused = approvalRefusal(error);
    if (refused) return refused;
    // An answer of the engine is shown as it is; anything else is kept for whoever investigates.
    if (!answeredByEngine(error)) console.error(`Tender: the ${move} request failed.`, error);
    return failureOutcome(error, move);
  }
}

/**
 * The gate every attempt passes, for a screen that sends several items (the tabs of one bulk
 * capture): one request in flight across all of them, and for each item the request whose answer is
 * unknown kept with its key, so Check again for that item sends exactly that request. It holds the
 * card data only until an answer is known, then drops it.
 */
export function useKeyedIdempotentSender(move: MoneyMove) {
  const { client, bridge, link } = useTerminal();
  const kept = useRef(new Map<string, PendingTransaction>());
  const inFlight = useRef(false);
  // A request waits for the journal; by the time it leaves, a restarted engine may have given the
  // screens a new key, which it must carry.
  const latest = useRef({ client, link });
  useEffect(() => {
    latest.current = { client, link };
  }, [client, link]);

  /**
   * Sends `next` for `item`, or without it the request of `item` still awaiting an answer, with its
   * key. Returns nothing, and sends nothing, while another request is in flight or when there is none
   * to send: a second tap or a second swipe finds the gate closed.
   */
  const send = useCallback(
    (item: string, next?: PendingTransaction): Promise<SaleOutcome> | undefined => {
      if (inFlight.current) return undefined;
      if (next) kept.current.set(item, next);
      const current = kept.current.get(item);
      if (!current) return undefined;
      inFlight.current = true;
      return sendTransaction(() => latest.current.client, current, move, {
        bridge,
        reconnecting: () => latest.current.link !== 'up',
      }).then((outcome) => {
        if (outcome.kind !== 'unknown') kept.current.delete(item);
        inFlight.current = false;
        return outcome;
      });
    },
    [bridge, move],
  );

  /** Whether a request of `item` awaits an answer: it must go again as it was, with its key. */
  const awaitsAnswer = useCallback((item: string): boolean => kept.current.has(item), []);

  /** Drops the request of `item` kept for Check again, unless one is in flight; says whether it did. */
  const forget = useCallback((item: string): boolean => {
    if (inFlight.current) return false;
    kept.current.delete(item);
    return true;
  }, []);

  return { send, awaitsAnswer, forget };
}

/** The one item of a screen that sends a single transaction at a time. */
const THE_TRANSACTION = 'transaction';

/** The same gate for a screen that keeps its own state and sends one transaction at a time. */
export function useIdempotentSender(move: MoneyMove) {
  const { send: sendItem, forget: forgetItem } = useKeyedIdempotentSender(move);

  /** Sends `next`, or without it the request still awaiting an answer, with its key. */
  const send = useCallback((next?: PendingTransaction) => sendItem(THE_TRANSACTION, next), [sendItem]);
  /** Drops the request kept for Check again, unless it is in flight; says whether it did. */
  const forget = useCallback(() => forgetItem(THE_TRANSACTION), [forgetItem]);

  return { send, forget };
}

export type RunState = { phase: 'idle' } | { phase: 'sending' } | { phase: 'done'; outcome: SaleOutcome };

/** One transaction at a time, its state, and Check again after no answer. */
export function useTransactionRunner(move: MoneyMove) {
  const { send, forget } = useIdempotentSender(move);
  const [state, setState] = useState<RunState>({ phase: 'idle' });

  const run = useCallback(
    async (next?: PendingTransaction): Promise<SaleOutcome | undefined> => {
      const answer = send(next);
      if (!answer) return undefined;
      setState({ phase: 'sending' });
      const outcome = await answer;
      setState({ phase: 'done', outcome });
      return outcome;
    },
    [send],
  );

  /** Sends a new request, with a new key (and the manager's approval, for what needs one). */
  const start = useCallback(
    (request: TransactionRequestBody, approval?: Approval) => run(prepareTransaction(request, approval)),
    [run],
  );
  /** Sends the last request again with its key, after no answer. */
  const checkAgain = useCallback(() => run(), [run]);
  const reset = useCallback(() => {
    if (forget()) setState({ phase: 'idle' });
  }, [forget]);

  return { state, start, checkAgain, reset };
}
