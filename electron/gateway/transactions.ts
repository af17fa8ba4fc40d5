/**
 * POST /transactions: validates a request, applies the interface's rules, asks the processor, and
 * records the outcome in the ledger. An answer is returned only once its row has been committed.
 */
import type { TransactionRequest, TransactionResponse } from '../../shared/api/schemas';
import { TYPE_LABELS, type TransactionType } from '../../shared/api/transaction-types';
import { cardBrand, cscLength, passesLuhn } from '../../shared/cards';
import { formatMoney } from '../../shared/money';
import { batchContribution, negate } from './domain/batch';
import { ERROR_CODES, type ErrorCode } from './domain/codes';
import { checkExpiry } from './domain/expiry';
import { LOCAL_ADMINISTRATOR } from './keys';
import type { AuditAction, AuditLog } from './store/audit';
import { SWIPE_DISPLAY_MESSAGES } from './swipe/codes';
import type { SwipeDecoder } from './swipe/swipe-decoder';
import { checkCapture, checkRefund, checkVoid, notFound, type RuleCheck } from './domain/rules';
import type { CardDetails, Processor, ProcessorDecision } from './processor/processor';
import type { Settings } from './settings';
import type { Ledger } from './store/ledger';
import type { LedgerTransaction, NewTransaction } from './store/transaction-rows';
import { IDEMPOTENCY_RETENTION_MS, IdempotencyConflict, requestFingerprint } from './idempotency';
import { FIELD_VALIDATION, Rejection, safeDetail, validateTransactionRequest } from './validation';

/** Who is asking: the API key, for the record. */
export interface SubmitContext {
  apiKeyId: number | null;
  /** Who asks, for the audit log: the API key's name and id (the local administrator when unset). */
  actor?: string;
  /** Set when the request carried an Idempotency-Key: its answer is stored with the ledger write. */
  idempotency?: { key: string; fingerprint: string };
}

interface CardInput {
  details: CardDetails;
  row: Pick<
    NewTransaction,
    'cardBin' | 'cardLastFour' | 'cardLength' | 'cardBrand' | 'entryMode' | 'swipeKsn'
  >;
  names: { firstName?: string; lastName?: string };
}

export class TransactionService {
  /** Idempotency keys whose first request is still being answered. */
  private readonly inFlight = new Set<string>();
  private answersForgottenAt = 0;

  constructor(
    private readonly ledger: Ledger,
    private readonly settings: Settings,
    private readonly processor: Processor,
    private readonly swipes: SwipeDecoder,
    /** The data dir's key for hashes of requests that may carry card data. */
    private readonly cardHashKey: Buffer,
    private readonly now: () => number = Date.now,
    private readonly audit?: AuditLog,
  ) {}

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
    const stored = this.ledger.findAnswer(context.apiKeyId, key);
    if (stored) {
      if (stored.fingerprint !== fingerprint) throw new IdempotencyConflict('different_request');
      return { response: JSON.parse(stored.response) as TransactionResponse, replayed: true };
    }
    this.inFlight.add(scope);
    try {
      const response = await this.submit(body, { ...context, idempotency: { key, fingerprint } });
      return { response, replayed: false };
    } finally {
      this.inFlight.delete(scope);
    }
  }

  async submit(body: unknown, context: SubmitContext): Promise<TransactionResponse> {
    try {
      const { request, type } = validateTransactionRequest(body, {
        tipsEnabled: this.settings.get('tips_enabled'),
      });
      const screened = this.processor.screen(
        request.client_ip === undefined ? {} : { clientIp: request.client_ip },
      );
      if (screened?.outcome === 'rejected')
        throw new Rejection(screened.errorCode as ErrorCode, screened.message);
      switch (type) {
        case 'SALE':
        case 'AUTH':
          return await this.authorize(type, request, context);
        case 'FORCED SALE':
          return await this.forcedSale(request, context);
        case 'CAPTURE':
          return await this.capture(request, context);
        case 'REFUND':
          return request.id === undefined
            ? await this.unmatchedRefund(request, context)
            : await this.matchedRefund(request, context);
        case 'VOID':
          return await this.void(request, context);
      }
    } catch (error) {
      if (!(error instanceof Rejection)) throw error;
      return await this.recordRejection(error, body, context);
    }
  }

  private readCard(request: TransactionRequest): CardInput {
    let pan: string;
    let expMmyy: string;
    let names: CardInput['names'] = {};
    let entryMode: CardDetails['entryMode'];
    let swipeKsn: string | null = null;
    if (request.card !== undefined && request.encrypted_track_data !== undefined) {
      throw new Rejection(
        ERROR_CODES.FIELD_NOT_APPLICABLE,
        `${FIELD_VALIDATION}send card or encrypted_track_data, not both`,
      );
    }
    if (request.encrypted_track_data !== undefined) {
      if (request.track_format?.toUpperCase() !== 'MAGTEK') {
        throw new Rejection(
          ERROR_CODES.UNSUPPORTED_TRACK_FORMAT,
          `${FIELD_VALIDATION}track_format must be MAGTEK with encrypted_track_data`,
        );
      }
      const swipe = this.swipes.decode(request.encrypted_track_data);
      if (!swipe.ok) throw new Rejection(swipe.errorCode, swipe.message);
      ({ pan, expMmyy } = swipe);
      swipeKsn = swipe.ksn;
      names = {
        ...(swipe.firstName && { firstName: swipe.firstName }),
        ...(swipe.lastName && { lastName: swipe.lastName }),
      };
      entryMode = 'swiped';
    } else {
      pan = request.card as string;
      if (request.exp_date === undefined)
        throw new Rejection(ERROR_CODES.MISSING_FIELD, `${FIELD_VALIDATION}exp_date is required with card`);
      expMmyy = request.exp_date;
      entryMode = 'keyed';
    }
    const brand = cardBrand(pan);
    const row = {
      cardBin: pan.slice(0, 6),
      cardLastFour: pan.slice(-4),
      cardLength: pan.length,
      cardBrand: brand,
      entryMode,
    };
    if (!passesLuhn(pan)) {
      throw new Rejection(
        ERROR_CODES.INVALID_CARD,
        `${FIELD_VALIDATION}card number is not valid (check digit). Check the number and key it again.`,
        {
          ...row,
          cardBin: null,
        },
      );
    }
    const expiry = checkExpiry(expMmyy, new Date(this.now()));
    if (!expiry.ok)
      throw new Rejection(ERROR_CODES.INVALID_EXPIRY, `${FIELD_VALIDATION}${expiry.message}`, row);
    if (request.csc !== undefined && request.csc.length !== cscLength(brand)) {
      throw new Rejection(
        ERROR_CODES.INVALID_CSC,
        `${FIELD_VALIDATION}csc must be ${cscLength(brand)} digits for this card`,
        row,
      );
    }
    const details: CardDetails = {
      pan,
      expiry: expiry.expiry,
      entryMode,
      ...(request.csc !== undefined && { csc: request.csc }),
      ...(request.billing?.street !== undefined && { billingStreet: request.billing.street }),
      ...(request.billing?.zip !== undefined && { billingZip: request.billing.zip }),
    };
    const card = { details, row: { ...row, swipeKsn }, names };
    this.rejectReplayedSwipe(card);
    return card;
  }

  /** A swipe's KSN is new every time; one the ledger has seen is a replay. Checked again in the write. */
  private rejectReplayedSwipe(card: CardInput): void {
    const { swipeKsn, ...masked } = card.row;
    if (swipeKsn !== null && this.ledger.isSwipeKsnUsed(swipeKsn)) {
      throw new Rejection(
        ERROR_CODES.SWIPE_REPLAYED,
        SWIPE_DISPLAY_MESSAGES[ERROR_CODES.SWIPE_REPLAYED],
        masked,
      );
    }
  }

  // -------------------------------------------------------------------------------------------
  // The six types

  private async authorize(type: 'SALE' | 'AUTH', request: TransactionRequest, context: SubmitContext) {
    const card = this.readCard(request);
    const amount = request.amount as number;
    const decision = await this.processor.authorize({
      kind: type === 'SALE' ? 'sale' : 'auth',
      amountCents: amount,
      card: card.details,
    });
    return this.commit(context, () => {
      this.rejectReplayedSwipe(card);
      const row = this.newRow(type, request, context, { amount, ...card.row, ...namesOf(request, card) });
      return this.recordDecision(row, decision, type === 'SALE');
    });
  }

  private forcedSale(request: TransactionRequest, context: SubmitContext) {
    const card = this.readCard(request);
    const tip = request.tip_amount ?? 0;
    const amount = (request.amount as number) + tip;
    return this.commit(context, () => {
      this.rejectReplayedSwipe(card);
      const row = this.newRow('FORCED SALE', request, context, {
        amount,
        tipAmount: tip,
        ...card.row,
        ...namesOf(request, card),
        authorizationCode: (request.authorization_code as string).toUpperCase(),
      });
      return this.insertApproved(row, 'Approved', true);
    });
  }

  private async capture(request: TransactionRequest, context: SubmitContext) {
    const authId = request.id as number;
    const amount = request.amount as number;
    const tip = request.tip_amount ?? 0;
    const check = (auth: LedgerTransaction | undefined) =>
      this.expect(
        auth
          ? checkCapture(auth, amount, { days: this.settings.get('auth_expiry_days'), now: this.now() })
          : notFound(authId),
        authId,
      );
    const auth = this.ledger.find(authId);
    check(auth);
    const decision = await this.processor.followUp({
      kind: 'capture',
      amountCents: amount + tip,
      originalAuthorizationCode: auth?.authorizationCode ?? '',
    });
    return this.commit(context, () => {
      const current = this.ledger.find(authId) as LedgerTransaction;
      check(current);
      const row = this.newRow('CAPTURE', request, context, {
        ...copiedFrom(current, request),
        amount: amount + tip,
        tipAmount: tip,
        serverId: request.server_id ?? current.serverId,
        invoice: request.invoice ?? current.invoice,
        authorizationCode: current.authorizationCode,
      });
      const response = this.recordDecision(row, decision, true, current.authorizationCode);
      if (decision.outcome === 'approved') this.ledger.markCaptured(authId, Number(response.id));
      this.recordAudit(
        context,
        'capture',
        response,
        `of auth ${authId}: ${formatMoney(amount)} + tip ${formatMoney(tip)}`,
      );
      return response;
    });
  }

  private async matchedRefund(request: TransactionRequest, context: SubmitContext) {
    const originalId = request.id as number;
    const amount = request.amount as number;
    const check = (original: LedgerTransaction | undefined) =>
      this.expect(
        original ? checkRefund(original, this.isSettled(original.batchId), amount) : notFound(originalId),
        originalId,
      );
    const original = this.ledger.find(originalId);
    check(original);
    const decision = await this.processor.followUp({
      kind: 'refund',
      amountCents: amount,
      originalAuthorizationCode: original?.authorizationCode ?? '',
    });
    return this.commit(context, () => {
      const current = this.ledger.find(originalId) as LedgerTransaction;
      check(current);
      const row = this.newRow('REFUND', request, context, { ...copiedFrom(current, request), amount });
      const response = this.recordDecision(row, decision, true);
      if (decision.outcome === 'approved') this.ledger.addRefunded(originalId, amount);
      this.recordAudit(context, 'refund', response, `of transaction ${originalId}: ${formatMoney(amount)}`);
      return response;
    });
  }

  private async unmatchedRefund(request: TransactionRequest, context: SubmitContext) {
    const card = this.readCard(request);
    const amount = request.amount as number;
    const decision = await this.processor.credit({ amountCents: amount, card: card.details });
    return this.commit(context, () => {
      this.rejectReplayedSwipe(card);
      const row = this.newRow('REFUND', request, context, { amount, ...card.row, ...namesOf(request, card) });
      const response = this.recordDecision(row, decision, true);
      this.recordAudit(
        context,
        'refund',
        response,
        `unmatched, to card ending ${card.row.cardLastFour ?? ''}: ${formatMoney(amount)}`,
      );
      return response;
    });
  }

  private async void(request: TransactionRequest, context: SubmitContext) {
    const targetId = request.id as number;
    const check = (target: LedgerTransaction | undefined) =>
      this.expect(
        target ? checkVoid(target, this.isInOpenBatch(target.batchId)) : notFound(targetId),
        targetId,
      );
    const target = this.ledger.find(targetId);
    check(target);
    const decision = await this.processor.followUp({
      kind: 'void',
      amountCents: target?.amount ?? 0,
      originalAuthorizationCode: target?.authorizationCode ?? '',
    });
    return this.commit(context, () => {
      const current = this.ledger.find(targetId) as LedgerTransaction;
      check(current);
      const row = this.newRow('VOID', request, context, {
        ...copiedFrom(current, request),
        amount: current.amount,
        tipAmount: current.tipAmount,
        batchId: current.batchId,
      });
      const response = this.recordDecision(row, decision, false);
      if (decision.outcome !== 'approved') return response;
      this.recordAudit(
        context,
        'void',
        response,
        `of ${current.type ?? 'transaction'} ${targetId}: ${formatMoney(current.amount ?? 0)}`,
      );
      const voidId = Number(response.id);
      this.ledger.markVoided(targetId, voidId);
      if (current.batchId !== null)
        this.ledger.applyBatchDelta(current.batchId, negate(batchContribution(current)));
      if (current.type === 'Refund' && current.originalId !== null && current.amount !== null) {
        this.ledger.addRefunded(current.originalId, -current.amount);
      }
      // Voiding a capture reverses the whole sale: the authorization's hold is released with it.
      if (current.type === 'Capture' && current.originalId !== null)
        this.ledger.markVoided(current.originalId, voidId);
      return response;
    });
  }

  // -------------------------------------------------------------------------------------------
  // Recording

  /** Records who moved money back or finished a sale; inside the write that did it. */
  private recordAudit(
    context: SubmitContext,
    action: AuditAction,
    response: TransactionResponse,
    detail: string,
  ): void {
    if (response.result !== 'Approved' || !this.audit) return;
    this.audit.append({
      at: this.now(),
      actor: context.actor ?? LOCAL_ADMINISTRATOR,
      action,
      subject: `transaction ${response.id ?? ''}`,
      detail,
    });
  }

  /** A ledger write whose answer, when the request carried an Idempotency-Key, is stored with it. */
  private commit(context: SubmitContext, work: () => TransactionResponse): Promise<TransactionResponse> {
    return this.ledger.write(() => {
      const response = work();
      const once = context.idempotency;
      if (once && context.apiKeyId !== null) {
        const now = this.now();
        this.ledger.rememberAnswer(
          context.apiKeyId,
          once.key,
          once.fingerprint,
          JSON.stringify(response),
          now,
        );
        if (now - this.answersForgottenAt > 60_000) {
          this.answersForgottenAt = now;
          this.ledger.forgetAnswers(now - IDEMPOTENCY_RETENTION_MS);
        }
      }
      return response;
    });
  }

  private expect(check: RuleCheck, originalId: number): void {
    if (!check.ok) {
      const exists = check.errorCode !== ERROR_CODES.ORIGINAL_NOT_FOUND;
      throw new Rejection(check.errorCode, check.message, exists ? { originalId } : {});
    }
  }

  private isSettled(batchId: number | null): boolean {
    return batchId !== null && this.ledger.findBatch(batchId)?.status === 'CLOSED';
  }

  private isInOpenBatch(batchId: number | null): boolean {
    return batchId !== null && this.ledger.findBatch(batchId)?.status === 'OPEN';
  }

  private newRow(
    type: TransactionType,
    request: TransactionRequest,
    context: SubmitContext,
    fields: Partial<NewTransaction>,
  ): NewTransaction & { id: number } {
    const id = this.ledger.nextTransactionId();
    return {
      ...this.blankRow(id, context),
      type: TYPE_LABELS[type],
      invoice: request.invoice ?? null,
      orderNumber: request.order_number ?? null,
      purchaseOrder: request.purchase_order ?? `PO${String(id).padStart(10, '0')}`,
      customerId: request.customer_id ?? null,
      email: request.email ?? null,
      clientIp: request.client_ip ?? null,
      description: request.description ?? null,
      comments: request.comments ?? null,
      serverId: request.server_id ?? null,
      firstName: request.billing?.first_name ?? null,
      lastName: request.billing?.last_name ?? null,
      billingIsShipping: request.billing_is_shipping ?? false,
      billing: request.billing ? JSON.stringify(request.billing) : null,
      shipping: request.shipping ? JSON.stringify(request.shipping) : null,
      originalId: request.id ?? null,
      ...fields,
    };
  }

  /** A row with this id and nothing else known yet: the callers fill in what they know. */
  private blankRow(id: number, context: SubmitContext): NewTransaction & { id: number } {
    return {
      id,
      type: null,
      result: 'Approved',
      resultCode: null,
      errorCode: null,
      displayMessage: '',
      amount: null,
      tipAmount: 0,
      authorizationCode: null,
      avsResultCode: null,
      cscResultCode: null,
      cardBin: null,
      cardLastFour: null,
      cardLength: null,
      cardBrand: null,
      entryMode: null,
      invoice: null,
      orderNumber: null,
      purchaseOrder: null,
      customerId: null,
      email: null,
      clientIp: null,
      description: null,
      comments: null,
      serverId: null,
      firstName: null,
      lastName: null,
      billingIsShipping: false,
      billing: null,
      shipping: null,
      originalId: null,
      batchId: null,
      apiKeyId: context.apiKeyId,
      swipeKsn: null,
      createdAt: this.now(),
    };
  }

  /** Records the processor's answer; approved rows that settle join the open batch. */
  private recordDecision(
    row: NewTransaction & { id: number },
    decision: ProcessorDecision,
    settles: boolean,
    authorizationCode?: string | null,
  ): TransactionResponse {
    switch (decision.outcome) {
      case 'approved':
        return this.insertApproved(
          {
            ...row,
            resultCode: decision.resultCode,
            authorizationCode: authorizationCode ?? decision.authorizationCode,
            avsResultCode: decision.avs ?? null,
            cscResultCode: decision.csc ?? null,
          },
          decision.message,
          settles,
        );
      case 'declined':
        this.ledger.insert({
          ...row,
          result: 'Declined',
          resultCode: decision.resultCode,
          displayMessage: decision.message,
          avsResultCode: decision.avs ?? null,
          cscResultCode: decision.csc ?? null,
          batchId: null,
        });
        return withCodes(
          {
            id: String(row.id),
            result: 'Declined',
            result_code: decision.resultCode,
            display_message: decision.message,
          },
          decision,
        );
      case 'error':
        this.ledger.insert({
          ...row,
          result: 'Error',
          resultCode: decision.resultCode,
          errorCode: decision.errorCode,
          displayMessage: decision.message,
          batchId: null,
        });
        return {
          id: String(row.id),
          result: 'Error',
          result_code: decision.resultCode,
          display_message: decision.message,
          error_code: decision.errorCode,
        };
      case 'rejected':
        throw new Rejection(decision.errorCode as ErrorCode, decision.message);
    }
  }

  private insertApproved(
    row: NewTransaction & { id: number },
    message: string,
    settles: boolean,
  ): TransactionResponse {
    const approved = {
      ...row,
      result: 'Approved' as const,
      resultCode: row.resultCode ?? '0000',
      displayMessage: message,
    };
    if (settles) {
      const batch = this.ledger.openBatchForWrite(row.createdAt);
      approved.batchId = batch.id;
      this.ledger.insert(approved);
      this.ledger.applyBatchDelta(batch.id, batchContribution(approved));
    } else {
      this.ledger.insert(approved);
    }
    return {
      id: String(row.id),
      result: 'Approved',
      result_code: approved.resultCode,
      display_message: message,
      authorization_code: approved.authorizationCode ?? '',
      ...(approved.avsResultCode && { avs_result_code: approved.avsResultCode }),
      ...(approved.cscResultCode && { csc_result_code: approved.cscResultCode }),
    };
  }

  /** Rejected answers carry no id, but the attempt is kept (masked) so that lists can show it. */
  private async recordRejection(
    rejection: Rejection,
    body: unknown,
    context: SubmitContext,
  ): Promise<TransactionResponse> {
    const safe = safeDetail(body);
    const response: TransactionResponse = {
      result: 'Rejected',
      display_message: rejection.message,
      error_code: rejection.errorCode,
    };
    return this.commit(context, () => {
      this.ledger.insert({
        ...this.blankRow(this.ledger.nextTransactionId(), context),
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

function namesOf(
  request: TransactionRequest,
  card: CardInput,
): Pick<NewTransaction, 'firstName' | 'lastName'> {
  return {
    firstName: request.billing?.first_name ?? card.names.firstName ?? null,
    lastName: request.billing?.last_name ?? card.names.lastName ?? null,
  };
}

/** The card and cardholder columns a follow-up (capture, refund, void) carries over from its original. */
function copiedFrom(original: LedgerTransaction, request: TransactionRequest): Partial<NewTransaction> {
  return {
    cardBin: original.cardBin,
    cardLastFour: original.cardLastFour,
    cardLength: original.cardLength,
    cardBrand: original.cardBrand,
    entryMode: original.entryMode,
    firstName: original.firstName,
    lastName: original.lastName,
    serverId: original.serverId,
    // A capture or refund belongs to its sale's purchase order unless the request names another.
    purchaseOrder: request.purchase_order ?? original.purchaseOrder,
    originalId: original.id,
  };
}

function withCodes(
  response: TransactionResponse,
  decision: { avs?: string; csc?: string },
): TransactionResponse {
  return {
    ...response,
    ...(decision.avs && { avs_result_code: decision.avs }),
    ...(decision.csc && { csc_result_code: decision.csc }),
  };
}
