/**
 * Which fields of POST /transactions each type requires, accepts and refuses. The engine's
 * validation enforces this table in the order it is written, and the OpenAPI description of the
 * route is written from it, so that the rules and their documentation cannot drift apart.
 */
import type { TransactionRequest } from './schemas';
import { TRANSACTION_TYPES, type TransactionType } from './transaction-types';

export type RequestField = keyof TransactionRequest;

/** The fields that carry a card, keyed or swiped; a type that takes no card refuses each of them. */
export const CARD_FIELDS = ['card', 'exp_date', 'csc', 'encrypted_track_data', 'track_format'] as const;

/**
 * Whether a type takes a card. A REFUND is the one type for which it depends on the request: with
 * an id it refunds an earlier transaction and takes no card, without one it refunds to a card.
 */
export type CardRule = 'required' | 'refused' | 'required without id';

export interface TypeFields {
  /** Refused when absent, in this order, before the card is looked at. */
  requires: readonly RequestField[];
  card: CardRule;
}

export const FIELDS_BY_TYPE = {
  SALE: { requires: ['amount'], card: 'required' },
  'FORCED SALE': { requires: ['amount', 'authorization_code'], card: 'required' },
  AUTH: { requires: ['amount'], card: 'required' },
  CAPTURE: { requires: ['id', 'amount'], card: 'refused' },
  REFUND: { requires: ['amount'], card: 'required without id' },
  VOID: { requires: ['id'], card: 'refused' },
} as const satisfies Record<TransactionType, TypeFields>;

/**
 * A field that only some types take. Any other type sending it is refused, with words that either
 * say it "does not apply to" that type (and why, when there is more to say) or list the types it
 * "applies to" only.
 */
export interface LimitedField {
  field: RequestField;
  /** In the order the refusal names them. */
  takenBy: readonly TransactionType[];
  refusal: { says: 'does not apply'; because?: string } | { says: 'applies only' };
  /** Taken only when this engine setting is on, even by the types above. */
  onlyWhenSetting?: 'tips_enabled';
  /**
   * Taken by a REFUND only when it takes a card, without id (unmatched): one with an id keeps what
   * its original had.
   */
  onRefund?: 'without id';
}

/** Checked in this order, after the required fields and the card. */
export const LIMITED_FIELDS = [
  {
    field: 'amount',
    takenBy: ['SALE', 'FORCED SALE', 'AUTH', 'CAPTURE', 'REFUND'],
    refusal: { says: 'does not apply', because: 'a void reverses the whole transaction' },
  },
  {
    field: 'id',
    takenBy: ['CAPTURE', 'REFUND', 'VOID'],
    refusal: { says: 'does not apply' },
  },
  {
    // The issuer or the engine gives every other type its code: one sent there would be lost silently.
    field: 'authorization_code',
    takenBy: ['FORCED SALE'],
    refusal: { says: 'applies only' },
  },
  {
    field: 'tip_amount',
    takenBy: ['CAPTURE', 'FORCED SALE'],
    refusal: { says: 'applies only' },
    onlyWhenSetting: 'tips_enabled',
  },
  {
    // Only a new charge is checked for duplicates.
    field: 'duplicate_override',
    takenBy: ['SALE', 'AUTH', 'FORCED SALE'],
    refusal: { says: 'applies only' },
  },
  {
    // A refund or a void keeps the server of what it refunds or voids; one sent there would be lost.
    field: 'server_id',
    takenBy: ['SALE', 'FORCED SALE', 'AUTH', 'CAPTURE'],
    refusal: { says: 'applies only' },
  },
  {
    // The cardholder of a follow-up is its original's; a card-taking request reads billing for AVS.
    field: 'billing',
    takenBy: ['SALE', 'FORCED SALE', 'AUTH', 'REFUND'],
    refusal: { says: 'does not apply' },
    onRefund: 'without id',
  },
  {
    field: 'shipping',
    takenBy: ['SALE', 'FORCED SALE', 'AUTH'],
    refusal: { says: 'applies only' },
  },
  {
    field: 'billing_is_shipping',
    takenBy: ['SALE', 'FORCED SALE', 'AUTH'],
    refusal: { says: 'applies only' },
  },
] as const satisfies readonly LimitedField[];

/** A REFUND with an id refunds an earlier transaction, as a refusal names it. */
export const MATCHED_REFUND_IN_WORDS = 'a REFUND of an earlier transaction (id)';

/** Whether a request of `type`, with an id or without, takes the field. */
export function takesField(limited: LimitedField, type: TransactionType, hasId: boolean): boolean {
  if (!limited.takenBy.includes(type)) return false;
  return !(type === 'REFUND' && limited.onRefund === 'without id' && hasId);
}

/** The words after the field's name when `type` sends a field it does not take. */
export function refusalWords(limited: LimitedField, type: TransactionType, hasId = false): string {
  if (limited.refusal.says === 'applies only') return `applies to ${limited.takenBy.join(' and ')} only`;
  const because = limited.refusal.because === undefined ? '' : `: ${limited.refusal.because}`;
  const which = type === 'REFUND' && hasId ? MATCHED_REFUND_IN_WORDS : type;
  return `does not apply to ${which}${because}`;
}

function inWords(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1) ?? ''}`;
}

const CARD_IN_WORDS = 'a card';

function typeInWords(type: TransactionType): string {
  const { requires, card }: TypeFields = FIELDS_BY_TYPE[type];
  const limited: readonly LimitedField[] = LIMITED_FIELDS;
  // A REFUND's id is described with its card rule, since it decides between the two refunds.
  const describedWithCard: readonly RequestField[] = card === 'required without id' ? ['id'] : [];
  // Fields a REFUND takes only without id are described with its card rule too.
  const unmatchedOnly = limited
    .filter((each) => card === 'required without id' && each.onRefund === 'without id')
    .map(({ field }) => field);
  const accepts = limited
    .filter(
      ({ field, takenBy }) =>
        takenBy.includes(type) &&
        !requires.includes(field) &&
        !describedWithCard.includes(field) &&
        !unmatchedOnly.includes(field),
    )
    .map(({ field }) => field);
  const refuses = limited
    .filter(({ takenBy }) => !takenBy.includes(type))
    .map((each) =>
      each.refusal.says === 'does not apply' && each.refusal.because !== undefined
        ? `${each.field} (${each.refusal.because})`
        : each.field,
    );
  const required = card === 'required' ? [...requires, CARD_IN_WORDS] : [...requires];
  if (card === 'refused') refuses.unshift('card data');
  const parts = [`requires ${inWords(required)}`];
  if (card === 'required without id') {
    const refused = inWords(['card data', ...unmatchedOnly]);
    const accepted = unmatchedOnly.length > 0 ? ` and accepts ${inWords(unmatchedOnly)}` : '';
    parts.push(`with id (matched) refuses ${refused}, without id (unmatched) requires a card${accepted}`);
  }
  if (accepts.length > 0) parts.push(`accepts ${inWords(accepts)}`);
  if (refuses.length > 0) parts.push(`refuses ${inWords(refuses)}`);
  return `${type} ${parts.join('; ')}.`;
}

/** The rules above in words, for the OpenAPI description of POST /transactions. */
export function transactionFieldsInWords(): string {
  const settingBound = LIMITED_FIELDS.filter(
    (limited: LimitedField) => limited.onlyWhenSetting !== undefined,
  ).map(
    (limited: LimitedField) =>
      `${limited.field} is taken only when the engine setting ${limited.onlyWhenSetting} is on.`,
  );
  return [
    `Fields by type, where ${CARD_IN_WORDS} means card and exp_date, or encrypted_track_data with ` +
      `track_format MAGTEK, and card data means any of ${inWords(CARD_FIELDS)}.`,
    ...TRANSACTION_TYPES.map(typeInWords),
    ...settingBound,
  ].join(' ');
}
