/**
 * What every operation is given: the ledger store, the processor and the card intake, who is asking,
 * and the one ledger write that also keeps the answer of an idempotent request. And the checks that
 * the follow-ups (capture, refund, void) share.
 */
import type { TransactionRequest, TransactionResponse } from '../../../shared/api/schemas';
import type { CardIntake, CardInput } from '../card-intake';
import { ERROR_CODES } from '../domain/codes';
import type { RuleCheck } from '../domain/rules';
import type { CardDetails, Processor } from '../processor/processor';
import type { Settings } from '../settings';
import type { LedgerLookups, LedgerStore, LedgerWrite } from '../store/ledger-store';
import type { LedgerTransaction, NewTransaction } from '../store/transaction-rows';
import { Rejection } from '../validation';

/** Who is asking: the API key, for the record. */
export interface SubmitContext {
  apiKeyId: number | null;
  /**
   * Who asks, for the audit log: the API key's name and id, or at the counter the staff member and
   * the manager who approved (the local administrator when unset).
   */
  actor?: string;
  /** Who makes the transaction, as lists show it: the staff member at the counter, or the key's name. */
  cashier?: string;
  /** Set when the request carried an Idempotency-Key: its answer is stored with the ledger write. */
  idempotency?: { key: string; fingerprint: string };
}

/** One request being carried out. */
export interface OperationRun {
  readonly ledger: LedgerStore;
  readonly settings: Settings;
  readonly processor: Processor;
  readonly cards: CardIntake;
  readonly now: () => number;
  readonly context: SubmitContext;
  /**
   * Runs `work` in one ledger write; when the request carried an Idempotency-Key, its answer is
   * stored in the same commit. Settles once the commit is on disk.
   */
  commit(work: (ledger: LedgerWrite) => Promise<TransactionResponse>): Promise<TransactionResponse>;
  /** Tells the forwarder that a swipe kept to be forwarded was deleted, so it erases what is left of it. */
  swipesDeleted(): void;
  /** Tells whoever shows the queue that a transaction was queued to be forwarded. */
  queuedOffline(): void;
  /**
   * Runs `work` holding the original a follow-up names, across the processor's answer, so that no
   * other request for it runs meanwhile: one request per decision reaches the gateway.
   */
  holdOriginal(originalId: number, work: () => Promise<TransactionResponse>): Promise<TransactionResponse>;
  /** Runs `work` after any other work under the same key has finished (see KeyedQueue). */
  oneAtATime(key: string | undefined, work: () => Promise<TransactionResponse>): Promise<TransactionResponse>;
}

/** Throws the rule's Rejection; a refusal about an existing transaction is recorded against it. */
export function enforce(check: RuleCheck, originalId: number): void {
  if (!check.ok) {
    const exists = check.errorCode !== ERROR_CODES.ORIGINAL_NOT_FOUND;
    throw new Rejection(check.errorCode, check.message, exists ? { originalId } : {});
  }
}

/**
 * The transaction a follow-up names, as the write finds it. Checked again inside the write, after the
 * check before asking the processor, so it is there.
 */
export async function findChecked(
  ledger: LedgerWrite,
  id: number,
  check: (found: LedgerTransaction | undefined) => Promise<void>,
): Promise<LedgerTransaction> {
  const found = await ledger.find(id);
  await check(found);
  if (!found) throw new Error(`transaction ${id} passed its check but is not in the ledger`);
  return found;
}

export async function isSettled(ledger: LedgerLookups, batchId: number | null): Promise<boolean> {
  return batchId !== null && (await ledger.findBatch(batchId))?.status === 'CLOSED';
}

export async function isInOpenBatch(ledger: LedgerLookups, batchId: number | null): Promise<boolean> {
  return batchId !== null && (await ledger.findBatch(batchId))?.status === 'OPEN';
}

/** The reader's encrypted swipe, when the card goes to a gateway that decrypts it itself. */
export function swipeOf(card: CardDetails): string | null {
  return card.pan === undefined ? card.encryptedSwipe.trackData : null;
}

/** The cardholder's name: as billing gives it, else as the swipe read it. */
export function namesOf(
  request: TransactionRequest,
  card: CardInput,
): Pick<NewTransaction, 'firstName' | 'lastName'> {
  return {
    firstName: request.billing?.first_name ?? card.names.firstName ?? null,
    lastName: request.billing?.last_name ?? card.names.lastName ?? null,
  };
}

/** The card and cardholder columns a follow-up (capture, refund, void) carries over from its original. */
export function copiedFrom(
  original: LedgerTransaction,
  request: TransactionRequest,
): Partial<NewTransaction> {
  return {
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
