/**
 * POST /transactions: validates a request into a command, lets the processor screen it, and hands it
 * to its operation (operations/). Idempotency and the record of refused requests wrap every operation
 * here. An answer is returned only once its row has been committed.
 */
import { transactionResponseSchema, type TransactionResponse } from '../../shared/api/schemas';
import { CardIntake } from './card-intake';
import { CloseGate } from './close-gate';
import { KeyedQueue } from './keyed-queue';
import {
  IDEMPOTENCY_RETENTION_MS,
  IdempotencyConflict,
  requestFingerprint,
  type RequestFingerprint,
} from './idempotency';
import { authorize } from './operations/authorize';
import { capture } from './operations/capture';
import { forcedSale } from './operations/forced-sale';
import { matchedRefund } from './operations/matched-refund';
import type { OperationRun, SubmitContext } from './operations/operation';
import { blankRow } from './operations/recording';
import { unmatchedRefund } from './operations/unmatched-refund';
import { voidTransaction } from './operations/void';
import { rejectedAnswer, storeErrorAnswer } from './presenters';
import type { ProcessorBySetting } from './processor/by-setting';
import type { Processor } from './processor/processor';
import type { Settings } from './settings';
import type { LedgerStore, LedgerWrite, StoredAnswer } from './store/ledger-store';
import { AnswerHeldElsewhereError, AnswerStoredMeanwhileError, isStoreError } from './store/store-errors';
import type { SwipeDecoder } from './swipe/swipe-decoder';
import { Rejection, safeDetail, validateTransactionRequest, type TransactionCommand } from './validation';

export class TransactionService {
  /** Idempotency keys whose first request is still being answered. */
  private readonly inFlight = new Set<string>();
  private answersForgottenAt = 0;
  /** Charges the duplicate check compares, one at a time per card and amount. */
  private readonly charges = new KeyedQueue();
  private readonly cards: CardIntake;
  /** Keeps transactions out of the way of a batch closing at the merchant's gateway. */
  readonly closeGate = new CloseGate();
  /** Called after a write that deleted a swipe kept to be forwarded (the forwarder erases its remnants). */
  onSwipesDeleted: () => void = () => undefined;
  /** Called after a write that queued a transaction made offline. */
  onQueuedOffline: () => void = () => undefined;

  constructor(
    private readonly ledger: LedgerStore,
    private readonly settings: Settings,
    private readonly processors: Pick<ProcessorBySetting, 'forRequest'>,
    swipes: SwipeDecoder,
    /** The data dir's (or the store's) key for hashes of requests that may carry card data. */
    private readonly cardHashKey: Buffer,
    private readonly now: () => number = Date.now,
  ) {
    this.cards = new CardIntake(ledger, swipes, now, cardHashKey);
  }

  /**
   * submit() for a request with an Idempotency-Key: the first request with a key is processed and
   * its answer stored in the same commit as its ledger rows; a retry with the same body gets that
   * answer again, changing nothing; the key with another body, or while the first is still being
   * answered, is refused.
   */
  async submitOnce(
    body: unknown,
    context: SubmitContext & { apiKeyId: number },
    key: string,
  ): Promise<{ response: TransactionResponse; replayed: boolean }> {
    const fingerprint = requestFingerprint(body, this.cardHashKey);
    const scope = `${context.apiKeyId}\u0000${key}`;
    if (this.inFlight.has(scope)) throw new IdempotencyConflict('in_flight');
    // Taken before the first wait for the ledger, so that a retry arriving during that wait finds it
    // taken rather than charging the card a second time.
    this.inFlight.add(scope);
    try {
      // Held across the processor's answer: the same key at another counter of the store meanwhile is
      // refused as in flight, as it is here, so the processor is asked once.
      return await this.ledger.holdAnswer(context.apiKeyId, key, async () => {
        let stored: StoredAnswer | undefined;
        try {
          stored = await this.ledger.findAnswer(context.apiKeyId, key);
        } catch (error) {
          if (!isStoreError(error)) throw error;
          return { response: storeErrorAnswer(error), replayed: false };
        }
        if (stored) return { response: this.replay(stored, fingerprint), replayed: true };
        return await this.answerOnce(body, context, key, fingerprint);
      });
    } catch (error) {
      if (error instanceof AnswerHeldElsewhereError) throw new IdempotencyConflict('in_flight');
      if (!isStoreError(error)) throw error;
      return { response: storeErrorAnswer(error), replayed: false };
    } finally {
      this.inFlight.delete(scope);
    }
  }

  /** Processes a request with a key no answer is stored for yet, or replays one stored meanwhile. */
  private async answerOnce(
    body: unknown,
    context: SubmitContext & { apiKeyId: number },
    key: string,
    fingerprint: RequestFingerprint,
  ): Promise<{ response: TransactionResponse; replayed: boolean }> {
    try {
      const response = await this.submit(body, {
        ...context,
        idempotency: { key, fingerprint: fingerprint.value },
      });
      return { response, replayed: false };
    } catch (error) {
      if (!(error instanceof AnswerStoredMeanwhileError)) throw error;
      // Another engine of the store answered the same key first; its answer stands.
      const meanwhile = await this.ledger.findAnswer(context.apiKeyId, key).catch((failed: unknown) => {
        if (isStoreError(failed)) return failed;
        throw failed;
      });
      if (meanwhile === undefined) throw error;
      if (isStoreError(meanwhile)) return { response: storeErrorAnswer(meanwhile), replayed: false };
      return { response: this.replay(meanwhile, fingerprint), replayed: true };
    }
  }

  private replay(stored: StoredAnswer, fingerprint: RequestFingerprint): TransactionResponse {
    if (!fingerprint.matches(stored.fingerprint)) throw new IdempotencyConflict('different_request');
    return transactionResponseSchema.parse(JSON.parse(stored.response));
  }

  /**
   * Processes a request and answers once its row is committed. When the store server cannot be
   * reached or keeps the write waiting too long, nothing is recorded and the answer is an Error with
   * the store's code: the same request may be sent again.
   */
  async submit(body: unknown, context: SubmitContext): Promise<TransactionResponse> {
    try {
      const { viaGateway, processor } = this.processors.forRequest();
      return await this.besideCloses(viaGateway, async () => {
        const leave = await this.closeGate.enter();
        try {
          return await this.submitToLedger(body, context, processor);
        } finally {
          leave();
        }
      });
    } catch (error) {
      if (!isStoreError(error)) throw error;
      return storeErrorAnswer(error);
    }
  }

  /**
   * With the merchant's gateway, a request and a close with it at any counter of the store take turns
   * (the store's lock first, then this counter's gate, in the order a close takes them); with the
   * simulator, a close goes straight into its write, which orders it among the others.
   */
  private besideCloses<T>(viaGateway: boolean, work: () => Promise<T>): Promise<T> {
    return viaGateway ? this.ledger.shareClose(work) : work();
  }

  /**
   * Answers a request refused for what came with it rather than in it (a header): Rejected, the
   * attempt kept as any rejected one is, and no answer stored under its Idempotency-Key.
   */
  async refuse(body: unknown, context: SubmitContext, rejection: Rejection): Promise<TransactionResponse> {
    try {
      return await this.recordRejection(rejection, body, context);
    } catch (error) {
      if (!isStoreError(error)) throw error;
      return storeErrorAnswer(error);
    }
  }

  private async submitToLedger(
    body: unknown,
    context: SubmitContext,
    processor: Processor,
  ): Promise<TransactionResponse> {
    try {
      const command = validateTransactionRequest(body, {
        tipsEnabled: this.settings.get('tips_enabled'),
      });
      const clientIp = command.request.client_ip;
      const screened = processor.screen(clientIp === undefined ? {} : { clientIp });
      if (screened?.outcome === 'rejected') throw new Rejection(screened.errorCode, screened.message);
      return await this.perform(command, this.operationRun(context, processor));
    } catch (error) {
      if (!(error instanceof Rejection)) throw error;
      return await this.recordRejection(error, body, context);
    }
  }

  private perform(command: TransactionCommand, run: OperationRun): Promise<TransactionResponse> {
    switch (command.type) {
      case 'SALE':
      case 'AUTH':
        return authorize(run, command);
      case 'FORCED SALE':
        return forcedSale(run, command);
      case 'CAPTURE':
        return capture(run, command);
      case 'REFUND':
        return command.refund === 'matched' ? matchedRefund(run, command) : unmatchedRefund(run, command);
      case 'VOID':
        return voidTransaction(run, command);
    }
  }

  private operationRun(context: SubmitContext, processor: Processor): OperationRun {
    // What a write did to the queue is told once it is committed, not while it may still be undone.
    let deletedSwipes = false;
    let queued = false;
    return {
      ledger: this.ledger,
      settings: this.settings,
      processor,
      cards: this.cards,
      now: this.now,
      context,
      commit: async (work) => {
        const response = await this.commit(context, work);
        if (deletedSwipes) this.onSwipesDeleted();
        if (queued) this.onQueuedOffline();
        deletedSwipes = queued = false;
        return response;
      },
      oneAtATime: (key, work) => this.charges.run(key, work),
      swipesDeleted: () => (deletedSwipes = true),
      queuedOffline: () => (queued = true),
      holdOriginal: (originalId, work) => this.ledger.holdOriginal(originalId, work),
    };
  }

  /** A ledger write whose answer, when the request carried an Idempotency-Key, is stored with it. */
  private commit(
    context: SubmitContext,
    work: (ledger: LedgerWrite) => Promise<TransactionResponse>,
  ): Promise<TransactionResponse> {
    return this.ledger.write(async (ledger) => {
      if (context.apiKeyId !== null) await ledger.requireLiveKey(context.apiKeyId);
      const response = await work(ledger);
      const once = context.idempotency;
      if (once && context.apiKeyId !== null) {
        const now = this.now();
        await ledger.rememberAnswer(
          context.apiKeyId,
          once.key,
          { fingerprint: once.fingerprint, response: JSON.stringify(response) },
          now,
        );
        if (now - this.answersForgottenAt > 60_000) {
          this.answersForgottenAt = now;
          await ledger.forgetAnswers(now - IDEMPOTENCY_RETENTION_MS);
        }
      }
      return response;
    });
  }

  /** Rejected answers carry no id, but the attempt is kept (masked) so that lists can show it. */
  private async recordRejection(
    rejection: Rejection,
    body: unknown,
    context: SubmitContext,
  ): Promise<TransactionResponse> {
    const safe = safeDetail(body);
    const response = rejectedAnswer(rejection);
    return this.commit(context, async (ledger) => {
      await ledger.insert({
        ...blankRow(await ledger.nextTransactionId(), context.apiKeyId, this.now(), context.cashier ?? null),
        type: safe.type,
        result: 'Rejected',
        errorCode: rejection.errorCode,
        displayMessage: rejection.message,
        amount: safe.amount,
        cardLastFour: safe.cardLastFour,
        cardLength: safe.cardLength,
        invoice: safe.invoice,
        ...rejection.detail,
      });
      return response;
    });
  }
}
