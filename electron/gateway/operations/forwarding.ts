/**
 * What an operation records when the merchant's gateway decided (processor upstream), beside what it
 * records of any decision: the gateway's id and the reference the request went with; a request whose
 * outcome could not be learned, kept to be looked up again (and voided at the gateway should it turn
 * up); and, when the gateway could not be reached at all and store and forward is on, the offline
 * approval and its entry in the queue, written in the same commit as the answer.
 */
import { randomInt } from 'node:crypto';
import type { TransactionRequest, TransactionResponse } from '../../../shared/api/schemas';
import { ERROR_CODES, RESULT_CODES } from '../domain/codes';
import { offlineAuthorizationCode, offlineVerdict, type OfflineRequest } from '../domain/offline';
import type { Forwarding, ProcessorDecision } from '../processor/processor';
import { newReference, queuedForm, type UpstreamRequest } from '../processor/upstream-forms';
import { storedValue, type SettingName } from '../settings';
import type { LedgerWrite } from '../store/ledger-store';
import { gatewayDuplicate } from './duplicates';
import type { OperationRun } from './operation';
import { insertApproved, recordDecision, type NewRow } from './recording';

/** A new reference for the request, and its own fields, for a processor that forwards it. */
export function forwardingOf(request: TransactionRequest): Forwarding {
  return { request, reference: newReference() };
}

/**
 * What may be approved offline if the gateway cannot be reached: a new charge within the offline
 * rules (domain/offline.ts), or a capture, refund or void of a transaction the gateway decided,
 * accepted and forwarded in order when the gateway is back.
 */
export type OfflineIntent =
  | { kind: 'charge'; check: OfflineRequest; upstream: UpstreamRequest; swipe: string | null }
  | { kind: 'follow-up'; upstream: UpstreamRequest };

const OFFLINE_APPROVED = 'Approved offline: the card network is down. Sent to it when it is back.';

/**
 * Records `decision` on `row` inside the write: as recordDecision does, with the gateway's marks,
 * and with the two outcomes only a gateway has. Answers what the caller is told.
 */
export async function recordGatewayDecision(
  run: OperationRun,
  ledger: LedgerWrite,
  row: NewRow,
  decision: ProcessorDecision,
  options: {
    settles: boolean;
    forwarding: Forwarding;
    offline?: OfflineIntent;
    /** A follow-up keeps its original's authorization code. */
    authorizationCode?: string | null;
  },
): Promise<{ response: TransactionResponse; approvedOffline: boolean }> {
  const marked: NewRow = {
    ...row,
    upstreamId: decision.upstreamId ?? null,
    upstreamReference: decision.reference ?? null,
  };
  if (decision.outcome === 'error' && decision.line === 'unreachable' && options.offline) {
    if (run.settings.get('offline_enabled')) {
      const offline = await approveOffline(run, ledger, marked, options.offline, options, {
        refusalStands: true,
      });
      if (offline) return { response: offline, approvedOffline: true };
    }
  }
  // Sent, and the gateway went out of reach before it could be asked what it did: offline as if it
  // had not been reached, but queued as sent, so it is looked up before it could be sent again.
  if (
    decision.outcome === 'error' &&
    decision.line === 'unknown' &&
    decision.lookupUnreachable &&
    options.offline &&
    run.settings.get('offline_enabled')
  ) {
    const offline = await approveOffline(run, ledger, marked, options.offline, options, {
      refusalStands: false,
    });
    if (offline) return { response: offline, approvedOffline: true };
  }
  if (decision.outcome === 'rejected' && decision.errorCode === ERROR_CODES.POSSIBLE_DUPLICATE)
    throw await gatewayDuplicate(ledger, row, decision);
  if (decision.outcome === 'error' && decision.line === 'unknown' && decision.reference !== undefined) {
    const response = await recordDecision(ledger, marked, decision, options.settles);
    await ledger.forwards.addCheck({
      reference: decision.reference,
      transactionId: row.id,
      since: run.now(),
    });
    return { response, approvedOffline: false };
  }
  return {
    response: await recordDecision(ledger, marked, decision, options.settles, options.authorizationCode),
    approvedOffline: false,
  };
}

/**
 * The offline approval of `row`, with its queue entry, or the Error that says why it cannot be
 * given (recorded, and answered through the thrown decision's words): undefined only when nothing
 * was written and the plain unreachable Error stands.
 */
async function approveOffline(
  run: OperationRun,
  ledger: LedgerWrite,
  row: NewRow,
  intent: OfflineIntent,
  options: { settles: boolean; forwarding: Forwarding; authorizationCode?: string | null },
  /**
   * refusalStands: a request that was never sent is refused in the offline rules' words; one that
   * may have reached the gateway is left to the caller (its outcome is unknown, not refused).
   */
  { refusalStands }: { refusalStands: boolean },
): Promise<TransactionResponse | undefined> {
  const now = run.now();
  // Read under the lock a change of processor counts what waits under (store-wide on a store
  // server), with the settings as stored, not as this counter last heard them: a change that
  // committed first took the processor from the gateway (then nothing may wait for it), or changed
  // the limits, which hold from then on.
  const waiting = await ledger.forwards.summary();
  const stored = async <K extends SettingName>(name: K) =>
    storedValue(name, await ledger.forwards.storedSetting(name));
  if ((await stored('processor')) !== 'upstream' || !(await stored('offline_enabled'))) return undefined;
  if (intent.kind === 'charge') {
    const verdict = offlineVerdict(
      intent.check,
      {
        maxAmountCents: await stored('offline_max_amount'),
        maxTotalCents: await stored('offline_max_total'),
        maxHours: await stored('offline_max_hours'),
      },
      { waitingTotalCents: waiting.offlineSalesCents, oldestWaitingAt: waiting.oldestAt },
      now,
    );
    if (!verdict.ok) {
      if (!refusalStands) return undefined;
      return recordDecision(
        ledger,
        row,
        {
          outcome: 'error',
          resultCode: RESULT_CODES.SYSTEM_MALFUNCTION,
          errorCode: verdict.errorCode,
          message: verdict.message,
        },
        options.settles,
      );
    }
  }
  const approved: NewRow = {
    ...row,
    upstreamId: null,
    offline: true,
    forwardState: 'waiting',
    resultCode: RESULT_CODES.APPROVED,
    authorizationCode:
      options.authorizationCode ?? (intent.kind === 'charge' ? offlineAuthorizationCode(randomInt) : null),
  };
  const response = await insertApproved(ledger, approved, OFFLINE_APPROVED, options.settles);
  await ledger.forwards.queue({
    transactionId: row.id,
    queuedAt: now,
    form: JSON.stringify(
      queuedForm(intent.upstream, options.forwarding.request, options.forwarding.reference),
    ),
    swipe: intent.kind === 'charge' ? intent.swipe : null,
    attempts: refusalStands ? 0 : 1,
  });
  run.queuedOffline();
  return { ...response, offline: 'true' };
}

/** The answer to a VOID of a transaction still waiting to be forwarded: cancelled, never sent. */
export function cancelledDecision(authorizationCode: string | null): ProcessorDecision {
  return {
    outcome: 'approved',
    authorizationCode: authorizationCode ?? '',
    resultCode: RESULT_CODES.APPROVED,
    message: 'Approved: voided before it was sent to the card network, which never saw it.',
  };
}

/**
 * Commits what the gateway decided. Should the write fail after the gateway approved (the store
 * cannot be reached, or a rule checked again inside the write refuses it), the gateway's approval is
 * voided there at once, so that it never holds a charge the ledger does not.
 */
export async function commitDecided(
  run: OperationRun,
  decision: ProcessorDecision,
  work: (ledger: LedgerWrite) => Promise<TransactionResponse>,
): Promise<TransactionResponse> {
  try {
    return await run.commit(work);
  } catch (error) {
    if (decision.outcome === 'approved' && decision.upstreamId !== undefined)
      void reverseAtGateway(run, decision.upstreamId);
    throw error;
  }
}

async function reverseAtGateway(run: OperationRun, upstreamId: string): Promise<void> {
  const voided = await run.processor
    .followUp({ kind: 'void', amountCents: 0, originalAuthorizationCode: '', originalUpstreamId: upstreamId })
    .catch((error: unknown) => ({ outcome: 'error' as const, message: String(error) }));
  if (voided.outcome !== 'approved') {
    console.error(
      `Tender could not record the gateway's approval ${upstreamId} nor void it there (${voided.message}); ` +
        'the batch close will show it as not reconciled.',
    );
  }
}
