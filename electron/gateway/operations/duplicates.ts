/**
 * The duplicate check of a new charge (SALE, AUTH, FORCED SALE): the same card, by its keyed hash,
 * for the same amount as an approved, unvoided charge within `duplicate_window_minutes` is refused
 * unless the request says `duplicate_override`. A cashier retrying after a lost answer, or an app
 * resubmitting without an Idempotency-Key, then cannot charge a card twice by accident.
 */
import { formatMoney } from '../../../shared/money';
import { ERROR_CODES } from '../domain/codes';
import { formatTimestamp } from '../http/dates';
import { LOCAL_ADMINISTRATOR } from '../keys';
import type { LedgerLookups, LedgerWrite } from '../store/ledger-store';
import type { ProcessorDecision } from '../processor/processor';
import type { LedgerTransaction, NewTransaction } from '../store/transaction-rows';
import { Rejection } from '../validation';
import type { CardInput } from '../card-intake';
import type { OperationRun } from './operation';

const MINUTE_MS = 60_000;

/** A new charge as the check sees it. */
export interface Charge {
  card: CardInput;
  /** Cents, tip included. */
  amount: number;
  override: boolean;
}

/**
 * Charges that the check could find duplicating each other are run one after the other, the
 * processor's answer included; with the check off (duplicate_window_minutes 0) none are held up,
 * since a charge that waits for a gateway's answer would hold up every other with the same card and
 * amount.
 */
export function sameChargeKey(run: OperationRun, { card, amount }: Charge): string | undefined {
  if (run.settings.get('duplicate_window_minutes') === 0) return undefined;
  return card.row.cardHash === null ? undefined : `${card.row.cardHash}:${amount}`;
}

/**
 * Throws the Rejection of a possible duplicate; when the request overrides the check, answers the
 * earlier charge it went past (for the audit log), else undefined.
 */
export async function checkDuplicate(
  run: OperationRun,
  ledger: LedgerLookups,
  { card, amount, override }: Charge,
): Promise<LedgerTransaction | undefined> {
  const minutes = run.settings.get('duplicate_window_minutes');
  const cardHash = card.row.cardHash;
  if (minutes === 0 || cardHash === null) return undefined;
  const earlier = await ledger.findSameCardCharge({
    cardHash,
    amount,
    since: run.now() - minutes * MINUTE_MS,
  });
  if (!earlier || override) return earlier;
  const { cardHash: _hash, swipeKsn: _ksn, ...masked } = card.row;
  throw new Rejection(
    ERROR_CODES.POSSIBLE_DUPLICATE,
    `Possible duplicate of transaction ${earlier.id}: ${describeCharge(earlier)}, the same card and amount ` +
      `within ${minutes} minute${minutes === 1 ? '' : 's'}. To charge again, send duplicate_override true.`,
    { ...masked, originalId: earlier.id },
  );
}

/**
 * The Rejection of a charge the merchant's gateway refused as a possible duplicate (its own check,
 * with a window of its own). When the earlier charge it names is Tender's newest of the same card and
 * amount, the answer names that one by Tender's id, as Tender's own check would, so that the caller's
 * override goes by Tender's transaction; otherwise the gateway's words stand, which name its
 * transaction as the gateway's.
 */
export async function gatewayDuplicate(
  ledger: LedgerLookups,
  row: NewTransaction,
  decision: Extract<ProcessorDecision, { outcome: 'rejected' }>,
): Promise<Rejection> {
  const { cardLastFour, cardLength, cardBrand, entryMode, cardHash, amount } = row;
  const masked = { cardLastFour, cardLength, cardBrand, entryMode };
  const named = decision.gatewayDuplicateOf;
  const earlier =
    named === undefined || cardHash === null || amount === null
      ? undefined
      : await ledger.findSameCardCharge({ cardHash, amount, since: 0 });
  if (earlier === undefined || earlier.upstreamId !== named)
    return new Rejection(decision.errorCode, decision.message, masked);
  return new Rejection(
    ERROR_CODES.POSSIBLE_DUPLICATE,
    `Possible duplicate of transaction ${earlier.id}: ${describeCharge(earlier)}, the same card and amount ` +
      "within the payment gateway's duplicate window. To charge again, send duplicate_override true.",
    { ...masked, originalId: earlier.id },
  );
}

function describeCharge(charge: LedgerTransaction): string {
  const card = [charge.cardBrand, charge.cardLastFour && `ending ${charge.cardLastFour}`]
    .filter(Boolean)
    .join(' ');
  return `${(charge.type ?? 'charge').toUpperCase()} of ${formatMoney(charge.amount ?? 0)} on ${card || 'the card'} at ${formatTimestamp(charge.createdAt)}`;
}

/** The audit entry of a charge that went past the duplicate check; inside its write. */
export async function recordOverride(
  run: OperationRun,
  ledger: LedgerWrite,
  chargeId: number,
  earlier: LedgerTransaction,
): Promise<void> {
  await ledger.appendAudit({
    at: run.now(),
    actor: run.context.actor ?? LOCAL_ADMINISTRATOR,
    action: 'duplicate_override',
    subject: `transaction ${chargeId}`,
    detail: `charged again past possible duplicate ${earlier.id} (${describeCharge(earlier)})`,
  });
}
