/**
 * Card intake: a keyed or swiped card entry read into the card details the processor is asked with
 * and the card columns the ledger keeps (never the number: its last four, length and brand).
 */
import { cardBrand, cscLength, passesLuhn } from '../../shared/cards';
import { cardNumberHash } from './crypto/card-hash-key';
import { ERROR_CODES } from './domain/codes';
import { checkExpiry } from './domain/expiry';
import type { CardDetails } from './processor/processor';
import type { LedgerLookups } from './store/ledger-store';
import type { NewTransaction } from './store/transaction-rows';
import { SWIPE_DISPLAY_MESSAGES } from './swipe/codes';
import type { MaskedCard, SwipeDecoder } from './swipe/swipe-decoder';
import { keptCardholderName } from './swipe/tracks';
import { FIELD_VALIDATION, Rejection, type CardEntry } from './validation';

/** A card read and checked: what the processor needs, and what the ledger keeps of it. */
export interface CardInput {
  details: CardDetails;
  row: Pick<
    NewTransaction,
    'cardLastFour' | 'cardLength' | 'cardBrand' | 'entryMode' | 'swipeKsn' | 'cardHash'
  >;
  /** The cardholder's name as the swipe's track gave it, for when billing names none. */
  names: { firstName?: string; lastName?: string };
}

export class CardIntake {
  constructor(
    private readonly ledger: LedgerLookups,
    private readonly swipes: SwipeDecoder,
    private readonly now: () => number,
    /** The data dir's secret for the card number's keyed hash. */
    private readonly cardHashKey: Buffer,
  ) {}

  /** Reads the entry, or throws the Rejection that says what is wrong with the card. */
  async read(entry: CardEntry): Promise<CardInput> {
    /** The whole number (keyed, or decrypted here), or a swipe left encrypted and its masked card. */
    let card: { pan: string } | { masked: MaskedCard; trackData: string };
    let expMmyy: string;
    let names: CardInput['names'] = {};
    let swipeKsn: string | null = null;
    if (entry.entry === 'swiped') {
      if (entry.keyedToo) {
        throw new Rejection(
          ERROR_CODES.FIELD_NOT_APPLICABLE,
          `${FIELD_VALIDATION}send card or encrypted_track_data, not both`,
        );
      }
      if (entry.trackFormat?.toUpperCase() !== 'MAGTEK') {
        throw new Rejection(
          ERROR_CODES.UNSUPPORTED_TRACK_FORMAT,
          `${FIELD_VALIDATION}track_format must be MAGTEK with encrypted_track_data`,
        );
      }
      const swipe = this.swipes.decode(entry.trackData);
      if (!swipe.ok) throw new Rejection(swipe.errorCode, swipe.message);
      card =
        swipe.pan === undefined ? { masked: swipe.masked, trackData: entry.trackData } : { pan: swipe.pan };
      expMmyy = swipe.expMmyy;
      swipeKsn = swipe.ksn;
      // Whichever reader read it, a swipe's name is kept only if it is one (keptCardholderName).
      names = keptCardholderName({
        ...(swipe.firstName && { firstName: swipe.firstName }),
        ...(swipe.lastName && { lastName: swipe.lastName }),
      });
    } else {
      card = { pan: entry.pan };
      if (entry.expDate === undefined)
        throw new Rejection(ERROR_CODES.MISSING_FIELD, `${FIELD_VALIDATION}exp_date is required with card`);
      expMmyy = entry.expDate;
    }
    const entryMode = entry.entry;
    const brand = cardBrand('pan' in card ? card.pan : card.masked.leadingDigits);
    // The brand comes from the first four digits, which masking leaves.
    const row = {
      cardLastFour: 'pan' in card ? card.pan.slice(-4) : card.masked.lastFour,
      cardLength: 'pan' in card ? card.pan.length : card.masked.length,
      cardBrand: brand,
      entryMode,
    };
    if ('pan' in card && !passesLuhn(card.pan)) {
      throw new Rejection(
        ERROR_CODES.INVALID_CARD,
        `${FIELD_VALIDATION}card number is not valid (check digit). Check the number and key it again.`,
        row,
      );
    }
    const expiry = checkExpiry(expMmyy, new Date(this.now()));
    if (!expiry.ok)
      throw new Rejection(ERROR_CODES.INVALID_EXPIRY, `${FIELD_VALIDATION}${expiry.message}`, row);
    if (entry.csc !== undefined && entry.csc.length !== cscLength(brand)) {
      throw new Rejection(
        ERROR_CODES.INVALID_CSC,
        `${FIELD_VALIDATION}csc must be ${cscLength(brand)} digits for this card`,
        row,
      );
    }
    const facts = {
      expiry: expiry.expiry,
      ...(entry.csc !== undefined && { csc: entry.csc }),
      ...(entry.billing?.street !== undefined && { billingStreet: entry.billing.street }),
      ...(entry.billing?.zip !== undefined && { billingZip: entry.billing.zip }),
    };
    const details: CardDetails =
      'pan' in card
        ? { ...facts, pan: card.pan, entryMode }
        : {
            ...facts,
            entryMode: 'swiped',
            encryptedSwipe: { trackData: card.trackData, trackFormat: 'MAGTEK' },
          };
    const input = {
      details,
      row: {
        ...row,
        swipeKsn,
        cardHash:
          'pan' in card
            ? cardNumberHash(card.pan, this.cardHashKey)
            : cardNumberHash(maskedCardIdentity(card.masked, expMmyy, names), this.cardHashKey),
      },
      names,
    };
    await this.rejectReplayedSwipe(this.ledger, input);
    return input;
  }

  /** A swipe's KSN is new every time; one the ledger has seen is a replay. Checked again in the write. */
  async rejectReplayedSwipe(ledger: LedgerLookups, card: CardInput): Promise<void> {
    const { swipeKsn, cardHash: _hash, ...masked } = card.row;
    if (swipeKsn !== null && (await ledger.isSwipeKsnUsed(swipeKsn))) {
      throw new Rejection(
        ERROR_CODES.SWIPE_REPLAYED,
        SWIPE_DISPLAY_MESSAGES[ERROR_CODES.SWIPE_REPLAYED],
        masked,
      );
    }
  }
}

/**
 * What stands for a swipe's card in the duplicate check when the engine does not decrypt it: the
 * digits its masked tracks show, its length, expiry and name. Two cards that agree on all of these
 * are taken for the same one; a keyed entry of the same card is not matched with its swipe.
 */
function maskedCardIdentity(masked: MaskedCard, expMmyy: string, names: CardInput['names']): string {
  return [
    'masked swipe',
    masked.leadingDigits,
    masked.lastFour,
    masked.length,
    expMmyy,
    names.lastName ?? '',
    names.firstName ?? '',
  ].join('|');
}
