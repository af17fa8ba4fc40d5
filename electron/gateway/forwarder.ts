/**
 * Store and forward, the forwarding half: while transactions made offline wait, the forwarder sends
 * them to the merchant's gateway by itself, oldest first, every few seconds until the gateway answers
 * again. Each goes exactly once: before a send it is marked as sent (in the ledger, so a crash
 * cannot forget it), and one that was sent before is looked up in the gateway's list by its reference
 * before it could be sent again, and sent again only once a late delivery of the first is past. A
 * send that never left, or that the gateway refused unread, takes its mark back. On a store server
 * one counter forwards for the store at a time.
 *
 * The same rounds look up again the requests whose outcome could not be learned (answered 9004): one
 * that turns up approved is voided at the gateway (a void, which cannot be, is recorded here as the
 * void it was), and the audit log says so.
 */
import { EventEmitter } from 'node:events';
import { formatMoney } from '../../shared/money';
import { ERROR_CODES, RESULT_CODES } from './domain/codes';
import { declinedForwardEffects } from './domain/effects';
import type { ProcessorDecision } from './processor/processor';
import { decisionOf, requestOf, reversalReference, type QueuedForm } from './processor/upstream-forms';
import type { UpstreamProcessor } from './processor/upstream';
import { applyEffects } from './operations/recording';
import { recordVoidLearnedLate, type LateVoid } from './operations/void';
import type { GatewayCheck, QueuedForward } from './store/forward-queue';
import type { LedgerStore } from './store/ledger-store';

/** How the audit log names what the forwarder does. */
export const FORWARDER = 'store and forward';

/** How often the forwarder tries while something waits. */
export const FORWARD_EVERY_MS = 3_000;
/** How long a request answered 9004 is looked up again before it is taken as never arrived. */
const CHECKS_FOR_MS = 24 * 3_600_000;
const ENTRIES_PER_ROUND = 50;
/**
 * How long after a send that brought no answer ended (its connection closed) the entry may be sent
 * again, if the gateway's list still does not show it: two minutes, TCP's longest a segment may live
 * in the network, so that a request delivered late is found by its reference rather than charged a
 * second time.
 */
export const SENT_AGAIN_AFTER_MS = 120_000;
/** The answers that say a request was not acted on: no connection was made, or the gateway refused it. */
const NOT_SENT: ReadonlySet<string> = new Set([ERROR_CODES.GATEWAY_UNREACHABLE, ERROR_CODES.GATEWAY_REFUSED]);
/** How long a drain (before a batch close) waits for another counter that is forwarding. */
const DRAIN_WAITS_FOR_MS = 60_000;
const OTHER_FORWARDER_PAUSE_MS = 200;

/** The result an entry's answer is kept with. */
const ANSWER_RESULTS: Record<ProcessorDecision['outcome'], string> = {
  approved: 'Approved',
  declined: 'Declined',
  error: 'Error',
  rejected: 'Rejected',
};

/** What a round found. */
export interface ForwardRound {
  /** Another counter of the store forwards now. */
  skipped: boolean;
  forwarded: number;
  declined: number;
  /** The round ended on a gateway that could not be reached, or did not answer. */
  stoppedBy?: string;
  /**
   * A request answered 9004 could not be looked up (why): whether it charged is not known, so
   * nothing of the queue was sent, and a batch close waits.
   */
  lostUnasked?: string;
}

export class Forwarder extends EventEmitter<{ changed: [] }> {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<ForwardRound> | undefined;
  /**
   * Whether what deleted swipes left in the store's files is still to be erased. Owed from the start:
   * an erasure a reader or a snapshot held off, or that the engine stopped before, is known only here
   * and would otherwise never be done once the queue is empty. Erasing with nothing left is cheap.
   */
  #eraseNeeded = true;
  #stopped = false;
  /** What waited when the queue was last read, or was queued since: a hint, never a rule. */
  #lastWaiting = 0;
  /** Voids waiting to be sent that a lost void turned up since settled: carried out by it. */
  readonly #carriedOut = new Set<number>();

  constructor(
    private readonly ledger: LedgerStore,
    private readonly upstream: UpstreamProcessor,
    private readonly now: () => number = Date.now,
    private readonly everyMs = FORWARD_EVERY_MS,
  ) {
    super();
    // The line coming back is the moment to forward, not the next tick.
    upstream.line.on('changed', (state) => {
      if (state === 'online') this.soon();
    });
  }

  /** Forwards by itself, every few seconds, until stopped. */
  start(): void {
    this.#stopped = false;
    this.#schedule(0);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running?.catch(() => undefined);
  }

  /** A transaction was queued here to be forwarded. */
  queued(): void {
    this.#lastWaiting += 1;
    this.emit('changed');
  }

  /**
   * Whether anything waited when the queue was last read (at each round, every few seconds), or was
   * queued here since.
   */
  mayHaveWaiting(): boolean {
    return this.#lastWaiting > 0;
  }

  /** A swipe kept to be forwarded was deleted: what is left of it in the files is erased next. */
  swipesDeleted(): void {
    this.#eraseNeeded = true;
    this.soon();
  }

  /** A round at the next turn of the event loop, rather than at the next tick. */
  soon(): void {
    if (this.#stopped || this.#timer === undefined) return;
    this.#schedule(0);
  }

  /** One round now (or the one already running): what it forwarded and where it stopped. */
  round(): Promise<ForwardRound> {
    this.#running ??= this.#round().finally(() => (this.#running = undefined));
    return this.#running;
  }

  /**
   * Rounds until nothing waits or a round makes no progress: before a batch closes with the gateway.
   * Answers what still waits.
   */
  async drain(): Promise<{ waiting: number; stoppedBy?: string; lostUnasked?: string }> {
    const giveUpAt = this.now() + DRAIN_WAITS_FOR_MS;
    // A round under way began before this was asked, perhaps before the gateway answered again: it
    // finishes first, and what it could not send is tried once more below.
    await this.#running?.catch(() => undefined);
    for (;;) {
      const round = await this.round();
      const summary = await this.ledger.forwards.summary();
      this.#lastWaiting = summary.count;
      if (summary.count === 0)
        return round.lostUnasked === undefined
          ? { waiting: 0 }
          : { waiting: 0, lostUnasked: round.lostUnasked };
      // Another counter of the store is forwarding: its round is waited for, then this one tries.
      if (round.skipped && this.now() < giveUpAt) {
        await new Promise((resolve) => setTimeout(resolve, OTHER_FORWARDER_PAUSE_MS));
        continue;
      }
      if (round.skipped || (round.forwarded === 0 && round.declined === 0))
        return {
          waiting: summary.count,
          stoppedBy: round.stoppedBy ?? (round.skipped ? 'another counter is forwarding them' : undefined),
          ...(round.lostUnasked !== undefined && { lostUnasked: round.lostUnasked }),
        };
    }
  }

  #schedule(delay: number): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      void this.round()
        .catch((error: unknown) => {
          console.error(`Store and forward: ${(error as Error).message}`);
        })
        .finally(() => {
          if (!this.#stopped) this.#schedule(this.everyMs);
        });
    }, delay);
    this.#timer.unref();
  }

  async #round(): Promise<ForwardRound> {
    const { forwards } = this.ledger;
    // Nothing waits and nothing is left to look up or erase: no lock taken, nothing asked. The first
    // round of an engine erases, whatever waits.
    const waiting = (await forwards.summary()).count;
    this.#lastWaiting = waiting;
    if (!this.#eraseNeeded && waiting === 0 && (await forwards.pendingChecks(1)).length === 0)
      return { skipped: false, forwarded: 0, declined: 0 };
    const result = await this.ledger.forwards.asOnlyForwarder(async (): Promise<ForwardRound> => {
      const round: ForwardRound = { skipped: false, forwarded: 0, declined: 0 };
      this.#carriedOut.clear();
      // Lost answers first: a void that turns up settles a retry of it still waiting to be sent. One
      // that cannot be asked about may be what an entry follows up, or repeats: nothing is sent.
      const unasked = await this.#checkLostAnswers();
      if (unasked !== undefined) {
        round.lostUnasked = unasked;
        round.stoppedBy = `a request whose answer was lost could not be looked up: ${unasked}`;
      }
      const entries = unasked === undefined ? await this.ledger.forwards.waiting(ENTRIES_PER_ROUND) : [];
      for (const entry of entries) {
        const decided = await this.#decide(entry, JSON.parse(entry.form) as QueuedForm);
        // Cancelled by a void since the queue was read: nothing was sent.
        if (decided === undefined) continue;
        const { decision, final } = decided;
        if (decision.outcome === 'error' && !final) {
          // Not reached, or no answer learned: the entry waits, and so do the ones after it, which
          // may follow it up.
          round.stoppedBy = decision.message;
          break;
        }
        if (await this.#carriedOutMeanwhile(entry, decision)) {
          round.forwarded += 1;
          this.emit('changed');
          continue;
        }
        const declined = await this.#settle(entry.transactionId, decision);
        if (declined) round.declined += 1;
        else round.forwarded += 1;
        if (entry.swipe !== null) this.#eraseNeeded = true;
        this.emit('changed');
      }
      if (this.#eraseNeeded) this.#eraseNeeded = !(await this.ledger.forwards.eraseSwipeRemnants());
      return round;
    });
    return result ?? { skipped: true, forwarded: 0, declined: 0 };
  }

  /**
   * What the gateway decided of an entry: found by its reference if it was sent before, else sent now;
   * undefined when it no longer waits (a void cancelled it), and then nothing is sent. `final` when
   * the entry is settled by it: whatever the gateway answered, even its own Error.
   */
  async #decide(
    entry: QueuedForward,
    form: QueuedForm,
  ): Promise<{ decision: ProcessorDecision; final: boolean } | undefined> {
    const { transactionId, attempts } = entry;
    if (attempts > 0) {
      const account = this.upstream.account();
      const lookup = await account.findByReference(form.reference);
      if (lookup.kind !== 'answered')
        return {
          decision: {
            outcome: 'error',
            resultCode: RESULT_CODES.SYSTEM_MALFUNCTION,
            errorCode: ERROR_CODES.GATEWAY_UNREACHABLE,
            message: `the gateway could not be asked about transaction ${transactionId}: ${lookup.detail}`,
          },
          final: false,
        };
      const found = lookup.value.found && decisionOf(lookup.value.found, form.reference);
      if (found) return { decision: found, final: true };
      // Not there yet: the last send may still arrive, so it is sent again only once it cannot.
      const sentUntil = entry.lastAttemptAt ?? entry.queuedAt;
      if (this.now() - sentUntil < SENT_AGAIN_AFTER_MS)
        return {
          decision: {
            outcome: 'error',
            resultCode: RESULT_CODES.SYSTEM_MALFUNCTION,
            errorCode: ERROR_CODES.GATEWAY_OUTCOME_UNKNOWN,
            message:
              `transaction ${transactionId} was sent to the gateway without an answer and has not shown ` +
              `there yet; it is sent again ${SENT_AGAIN_AFTER_MS / 60_000} minutes after that send ended, ` +
              'once it can no longer arrive late',
          },
          final: false,
        };
    }
    // Until it is known to have ended, the send may go on until the gateway's time limit.
    const endsBy = this.now() + this.upstream.account().client.timeoutMs;
    const marked = await this.ledger.write((ledger) => ledger.forwards.noteAttempt(transactionId, endsBy));
    if (!marked) return undefined;
    const decision = await this.upstream.forward(requestOf(form, entry.swipe), {
      request: form.caller,
      reference: form.reference,
    });
    // The gateway's own Error charged nothing: the entry is settled as refused, as a decline is,
    // rather than sent again (a swipe sent twice is a replay) or left to hold up the queue.
    const final = decision.outcome !== 'error' || decision.answeredByGateway === true;
    if (decision.outcome === 'error' && !final) {
      // It never left, or the gateway refused it unread: the entry is as it was before this send.
      // Otherwise it may still arrive, for as long as a late delivery can, counted from now.
      const notSent = NOT_SENT.has(decision.errorCode);
      await this.ledger.write((ledger) =>
        notSent
          ? ledger.forwards.noteNotSent(transactionId, entry.lastAttemptAt)
          : ledger.forwards.noteSendEnded(transactionId, this.now()),
      );
    }
    return { decision, final };
  }

  /**
   * Whether a void the gateway refused was settled meanwhile as carried out by a lost void of the
   * same sale: that one may have reached the gateway after this round looked it up and before this
   * one arrived, and is the reason for the refusal. The lost answers are looked up again to know.
   */
  async #carriedOutMeanwhile(entry: QueuedForward, decision: ProcessorDecision): Promise<boolean> {
    const form = JSON.parse(entry.form) as QueuedForm;
    if (decision.outcome === 'approved' || form.request.type !== 'VOID') return false;
    if ((await this.ledger.forwards.pendingChecks(1)).length === 0) return false;
    await this.#checkLostAnswers();
    return this.#carriedOut.delete(entry.transactionId);
  }

  /**
   * Records the gateway's answer to a forwarded entry; true when it refused it. An approval is audited
   * with the gateway's own authorization code, which the answer keeps too: the transaction keeps the
   * code given offline (on the customer's receipt), and a dispute is answered with the gateway's.
   */
  async #settle(transactionId: number, decision: ProcessorDecision): Promise<boolean> {
    const declined = decision.outcome !== 'approved';
    const gatewayCode = decision.outcome === 'approved' ? decision.authorizationCode : undefined;
    const answer = JSON.stringify({
      result: ANSWER_RESULTS[decision.outcome],
      ...('resultCode' in decision && { result_code: decision.resultCode }),
      ...('errorCode' in decision && { error_code: decision.errorCode }),
      ...(gatewayCode !== undefined && { authorization_code: gatewayCode }),
      display_message: decision.message,
    });
    await this.ledger.write(async (ledger) => {
      const row = await ledger.find(transactionId);
      if (!row) throw new Error(`transaction ${transactionId} is not in the ledger`);
      await ledger.forwards.settle(transactionId, {
        state: declined ? 'declined' : 'forwarded',
        upstreamId: decision.upstreamId ?? null,
        answer,
        at: this.now(),
      });
      if (!declined) {
        await ledger.appendAudit({
          at: this.now(),
          actor: FORWARDER,
          action: 'offline_forwarded',
          subject: `transaction ${transactionId}`,
          detail:
            `${row.type ?? 'transaction'} approved offline (authorization code ${row.authorizationCode || 'none'}), ` +
            `${formatMoney(row.amount ?? 0)} on card ending ${row.cardLastFour ?? ''}, approved by the gateway ` +
            `when forwarded: its transaction ${decision.upstreamId ?? 'not named'}, authorization code ` +
            `${gatewayCode || 'none given'}`,
        });
        return;
      }
      await applyEffects(ledger, declinedForwardEffects(row));
      await ledger.appendAudit({
        at: this.now(),
        actor: FORWARDER,
        action: 'offline_declined',
        subject: `transaction ${transactionId}`,
        detail:
          `${row.type ?? 'transaction'} approved offline, ${formatMoney(row.amount ?? 0)} on card ending ` +
          `${row.cardLastFour ?? ''}, refused by the gateway when forwarded: ${decision.message}` +
          (row.type === 'Void' ? ' What it voided still stands at the gateway.' : ' It left the batch.'),
      });
    });
    return declined;
  }

  /**
   * A VOID answered 9004 that shows at the gateway approved: recorded here as the void it was, in
   * the write that resolves its lookup. When what it voided is voided here already by a void still
   * waiting to be forwarded (the cashier's retry while the gateway was down), that one is settled as
   * carried out by it and never sent; when it cannot be recorded, it is audited as a difference the
   * batch close shows.
   */
  async #recordLateVoid(check: GatewayCheck, upstreamId: string, turnedUp: string): Promise<void> {
    const lost = await this.ledger.find(check.transactionId);
    const record = () =>
      this.ledger.write(async (ledger) => {
        const at = this.now();
        const late: LateVoid = lost
          ? await recordVoidLearnedLate(ledger, lost, upstreamId, at, FORWARDER)
          : { notRecorded: `transaction ${check.transactionId} is not in the ledger` };
        // What stands in its way may be a follow-up still waiting to be sent (a capture the gateway
        // will refuse, since it voided the original): asked again once the queue has gone.
        if ('notRecorded' in late && (await ledger.forwards.summary()).count > 0) return;
        let detail: string;
        if ('recorded' in late) {
          detail = `${turnedUp}: recorded here as the void it was, transaction ${late.recorded}`;
        } else if ('voidedHereBy' in late) {
          const other = late.voidedHereBy;
          const waits = other.type === 'Void' && other.forwardState === 'waiting';
          if (waits) {
            await ledger.forwards.settle(other.id, {
              state: 'forwarded',
              upstreamId,
              answer: JSON.stringify({
                result: 'Approved',
                display_message: `Carried out at the gateway by the void of transaction ${check.transactionId}.`,
              }),
              at,
            });
            this.#carriedOut.add(other.id);
          }
          detail =
            `${turnedUp}: what it voided is voided here too, by transaction ${other.id}` +
            (waits ? ', which is not sent: the gateway has this void already' : '; nothing differs');
        } else {
          detail = `${turnedUp}: not recorded here (${late.notRecorded}); the batch close shows the difference`;
        }
        await ledger.forwards.resolveCheck(
          check.reference,
          at,
          'recorded' in late ? `recorded as transaction ${late.recorded}` : 'carried out at the gateway',
        );
        await ledger.appendAudit({
          at,
          actor: FORWARDER,
          action: 'gateway_void',
          subject: `transaction ${check.transactionId}`,
          detail,
        });
      });
    const originalId = lost?.originalId;
    // Held as a void of it at the counter holds it, so that the two are never decided at once.
    await (originalId === null || originalId === undefined
      ? record()
      : this.ledger.holdOriginal(originalId, record));
  }

  /**
   * The requests answered 9004: one that shows at the gateway approved is voided there (a void is
   * recorded here instead), with an audit entry; one that shows refused, or that has not shown within
   * a day, is done with.
   */
  async #checkLostAnswers(): Promise<string | undefined> {
    const checks = await this.ledger.forwards.pendingChecks(20);
    if (checks.length === 0) return undefined;
    const account = this.upstream.account();
    for (const check of checks) {
      const lookup = await account.findByReference(check.reference);
      if (lookup.kind !== 'answered') return lookup.detail;
      const found = lookup.value.found;
      let outcome: string | undefined;
      let detail: string | undefined;
      if (found && found.result === 'Approved') {
        const turnedUp =
          `the request of transaction ${check.transactionId} (answered 9004, outcome unknown) turned up at ` +
          `the gateway approved as its transaction ${found.id}, ${found.type ?? ''} ${found.amount ?? ''}`;
        if (found.type?.toLowerCase() === 'void') {
          // A void cannot be voided: it is recorded here as the void it was.
          await this.#recordLateVoid(check, found.id, turnedUp);
          this.emit('changed');
          continue;
        }
        // Sent once: a void sent before whose answer was lost is found by its reference.
        const reference = reversalReference(check.reference);
        const sentBefore = await account.findByReference(reference);
        if (sentBefore.kind !== 'answered') return sentBefore.detail;
        const voided = sentBefore.value.found
          ? decisionOf(sentBefore.value.found, reference)
          : await this.upstream.followUp({
              kind: 'void',
              amountCents: 0,
              originalAuthorizationCode: found.authorization_code ?? '',
              originalUpstreamId: found.id,
              forwarding: { request: { type: 'VOID' }, reference },
            });
        // Not reached, or no answer learned: tried again at the next round.
        if (voided.outcome === 'error' && !voided.answeredByGateway) continue;
        outcome = voided.outcome === 'approved' ? 'voided' : `could not be voided (${voided.message})`;
        detail =
          voided.outcome === 'approved'
            ? `${turnedUp}: voided there (its void ${voided.upstreamId ?? ''})`
            : `${turnedUp}: the gateway refused to void it (${voided.message}); the batch close shows the difference`;
      } else if (found) {
        outcome = `not charged (${found.result})`;
      } else if (this.now() - check.since > CHECKS_FOR_MS) {
        outcome = 'never arrived';
      }
      if (outcome === undefined) continue;
      const resolved = outcome;
      await this.ledger.write(async (ledger) => {
        await ledger.forwards.resolveCheck(check.reference, this.now(), resolved);
        if (detail !== undefined)
          await ledger.appendAudit({
            at: this.now(),
            actor: FORWARDER,
            action: 'gateway_void',
            subject: `transaction ${check.transactionId}`,
            detail,
          });
      });
      this.emit('changed');
    }
    return undefined;
  }
}
