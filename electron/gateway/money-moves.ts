/**
 * The one way in for a money move: a transaction, and the close of the open batch. The routes of the
 * API (http/api-routes.ts) and the requests a manager approves at the counter (bridge/counter-staff.ts)
 * both come through here, saying who asks and, at the counter, which manager approved; who makes the
 * move, what the key may do, how an Idempotency-Key is honoured and what the answer holds are decided
 * here once, so the answer is the same whichever way the request came.
 */
import type { Batch, TransactionResponse } from '../../shared/api/schemas';
import {
  asksDuplicateOverride,
  lacksPermission,
  mayRun,
  needsManager,
  type Permission,
} from '../../shared/api/permissions';
import { parseTransactionType } from '../../shared/api/transaction-types';
import type { BatchService } from './batches';
import type { ExpectedBatch } from './domain/batch';
import { IdempotencyConflict } from './idempotency';
import type { SubmitContext } from './operations/operation';
import { presentBatch } from './presenters';
import { approvedActor, staffActor } from './staff/actors';
import { type CounterKeyFacts, type StaffMember, type StaffService } from './staff/staff';
import type { BatchRecord } from './store/batch-rows';
import type { LedgerReadPort } from './store/read-port';
import { ReadTimeoutError } from './store/store-errors';
import type { TransactionService } from './transactions';
import { cardNumberInText } from './validation';
import { holdsCardNumber } from './card-number-search';
import { normalizeFields } from './request-fields';

/** Who asks for a money move. */
export interface Requester {
  /** The API key the request came with: another program's, or the counter screens' own. */
  key: CounterKeyFacts & { id: string; name: string; permissions: readonly Permission[] };
  /**
   * The manager who allowed this one request at the counter (by PIN, or signed in), in place of a
   * power the counter's key does not hold: a refund, a void, a charge past a possible duplicate, the
   * batch close.
   */
  approvedBy?: StaffMember;
}

export type MoneyMoveRefusal =
  /** A counter's key with no one signed in at the counter. */
  | 'counter_locked'
  /** The key lacks the permission the request needs, and no manager approved it. */
  | 'forbidden'
  /** The Idempotency-Key's first request is still being answered. */
  | 'idempotency_key_in_flight'
  /** The Idempotency-Key was used for a different request. */
  | 'idempotency_key_reused';

/** A money move refused before anything was recorded, with a stable code and what to do. */
export class MoneyMoveRefused extends Error {
  constructor(
    readonly code: MoneyMoveRefusal,
    message: string,
  ) {
    super(message);
  }
}

export type BatchClose =
  | { outcome: 'closed'; batch: Batch }
  | { outcome: 'none open' }
  /** The open batch no longer has what the closer expected: nothing was closed. */
  | { outcome: 'changed'; batch: Batch }
  /** The merchant's gateway could not close its batch (or what waits could not reach it): nothing was closed. */
  | { outcome: 'gateway refused'; message: string };

/** A money move asked for after the engine began to stop: nothing was recorded. */
export class EngineStopping extends Error {
  constructor() {
    super('The payment engine is stopping; nothing was recorded. Ask again once it is back.');
  }
}

export class MoneyMoves {
  /** Moves begun and not yet ended: the engine's stop waits for each, so none loses its write. */
  private readonly underWay = new Set<Promise<unknown>>();
  private stopping = false;

  constructor(
    private readonly transactions: TransactionService,
    private readonly batches: BatchService,
    private readonly staff: StaffService,
    private readonly reads: LedgerReadPort,
  ) {}

  /**
   * Runs a POST /transactions body for `requester`; with an Idempotency-Key, once (a retry gets the
   * first answer again, `replayed`). Answers once the row is durable. A refusal (MoneyMoveRefused)
   * records nothing.
   */
  transaction(
    body: Record<string, unknown>,
    requester: Requester,
    idempotencyKey?: string,
  ): Promise<{ response: TransactionResponse; replayed: boolean }> {
    // Both callers read the body in this form before they call (for its permissions, or whether it
    // needs a manager); made so here as well, so that no caller's body is read in another form.
    return this.track(() => this.transactionNow(normalizeFields(body), requester, idempotencyKey));
  }

  /**
   * Closes the open batch for `requester`, only when it still has what the closer expected; the batch
   * is answered with each lane's share.
   */
  closeBatch(requester: Requester, expected: ExpectedBatch = {}): Promise<BatchClose> {
    return this.track(() => this.closeBatchNow(requester, expected));
  }

  /**
   * Takes no new move, and settles once every move under way has ended, whatever its outcome: a sale
   * the merchant's gateway approves while the engine stops is recorded before its ledger closes. Each
   * move is bounded by its own limits (the gateway's time limit, the store's).
   */
  async drain(): Promise<void> {
    this.stopping = true;
    await Promise.allSettled([...this.underWay]);
  }

  private async track<T>(move: () => Promise<T>): Promise<T> {
    if (this.stopping) throw new EngineStopping();
    const running = move();
    this.underWay.add(running);
    try {
      return await running;
    } finally {
      this.underWay.delete(running);
    }
  }

  private async transactionNow(
    body: Record<string, unknown>,
    requester: Requester,
    idempotencyKey?: string,
  ): Promise<{ response: TransactionResponse; replayed: boolean }> {
    this.requirePermission(requester, body);
    const context = this.contextOf(requester);
    // The key is stored with its answer: one that holds a card number is refused before it is kept.
    if (idempotencyKey !== undefined && holdsCardNumber(idempotencyKey))
      return {
        response: await this.transactions.refuse(body, context, cardNumberInText('Idempotency-Key')),
        replayed: false,
      };
    if (idempotencyKey === undefined)
      return { response: await this.transactions.submit(body, context), replayed: false };
    try {
      return await this.transactions.submitOnce(body, context, idempotencyKey);
    } catch (error) {
      if (!(error instanceof IdempotencyConflict)) throw error;
      throw new MoneyMoveRefused(
        error.reason === 'in_flight' ? 'idempotency_key_in_flight' : 'idempotency_key_reused',
        error.message,
      );
    }
  }

  private async closeBatchNow(requester: Requester, expected: ExpectedBatch): Promise<BatchClose> {
    if (!requester.key.permissions.includes('batches:close') && !this.approvedByManager(requester))
      throw new MoneyMoveRefused(
        'forbidden',
        `${lacksPermission(['batches:close'], 'closing the batch')} Nothing was closed.`,
      );
    const close = await this.batches.closeOpen(
      this.contextOf(requester).actor,
      expected,
      requester.key.recordId,
    );
    switch (close.outcome) {
      case 'closed':
        return { outcome: 'closed', batch: await this.closedBatch(close.closed) };
      case 'none open':
      case 'gateway refused':
        return close;
      case 'changed':
        return { outcome: 'changed', batch: await this.withLanes(close.open) };
    }
  }

  /**
   * Who makes the move: at a counter, the staff member signed in there (refused while it is locked),
   * with the manager who approved; for another program, its key.
   */
  private contextOf({ key, approvedBy }: Requester): SubmitContext & { apiKeyId: number; actor: string } {
    const acting = this.staff.actingFor(key);
    if (!acting)
      return { apiKeyId: key.recordId, actor: `API key ${key.id} "${key.name}"`, cashier: key.name };
    if ('refusal' in acting) throw new MoneyMoveRefused('counter_locked', acting.refusal);
    const { member } = acting;
    return {
      apiKeyId: key.recordId,
      actor: approvedBy ? approvedActor(member.name, approvedBy.name, key) : staffActor(member.name, key),
      cashier: member.name,
    };
  }

  /**
   * The body's type and duplicate_override, when they can be read: what the key, or a manager, must
   * allow. An XML element given twice arrives as a list: the key must allow every type it names, so a
   * request it could not send is refused here, with nothing recorded, rather than as a malformed body.
   */
  private requirePermission(requester: Requester, body: Record<string, unknown>): void {
    if (this.approvedByManager(requester) && needsManager(body)) return;
    const sent = (value: unknown) => (Array.isArray(value) ? (value as unknown[]) : [value]);
    const override = sent(body.duplicate_override).some(asksDuplicateOverride);
    for (const given of sent(body.type)) {
      const type = typeof given === 'string' ? parseTransactionType(given) : undefined;
      if (type === undefined) continue;
      const allowed = mayRun(requester.key.permissions, type, override);
      if (allowed.ok) continue;
      throw new MoneyMoveRefused(
        'forbidden',
        override
          ? `${lacksPermission(allowed.accepted, 'duplicate_override')} Nothing was charged.`
          : `${lacksPermission(allowed.accepted, type)} Nothing was recorded.`,
      );
    }
  }

  private approvedByManager({ approvedBy }: Requester): boolean {
    return approvedBy?.role === 'manager' && approvedBy.retired === null;
  }

  private async withLanes(batch: BatchRecord): Promise<Batch> {
    const { batch: asRead, lanes } = await this.reads.batchWithLanes(batch);
    return presentBatch(asRead, lanes);
  }

  /**
   * The batch a close closed, with each lane's share. The close is done: should reading the shares
   * run past the read time limit, the answer is the closed batch without them, not a failure that
   * would have the caller close again (and so close the batch opened since).
   */
  private async closedBatch(batch: BatchRecord): Promise<Batch> {
    try {
      return await this.withLanes(batch);
    } catch (error) {
      if (!(error instanceof ReadTimeoutError)) throw error;
      const { lanes: _unread, ...closed } = presentBatch(batch);
      return closed;
    }
  }
}
