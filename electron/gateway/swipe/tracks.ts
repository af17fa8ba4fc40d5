/**
 * Payment card tracks (ISO/IEC 7813), clear or masked: account number, cardholder name and expiry.
 * Readers return each track from start to end sentinel, without the LRC.
 */
import { holdsCardNumber } from '../card-number-search';

export interface TrackCard {
  /** Digits; in a masked track the hidden ones are the reader's masking characters. */
  pan: string;
  /** YYMM, as the stripe holds it. */
  expYymm: string;
  /** Track 1 only. */
  name?: CardholderName;
}

export interface CardholderName {
  firstName?: string;
  lastName?: string;
}

export interface SplitTracks {
  track1?: string;
  track2?: string;
  track3?: string;
}

const CLEAR_PAN = '\\d{12,19}';
/** MagTek masks with `0` by default; other configurations use `*` or letters. */
const MASKED_PAN = '[0-9A-Z*#]{12,19}';

/**
 * What a stripe can hold between the sentinels (ISO/IEC 7811-2): track 1 is six-bit alphanumeric
 * (space to underscore, upper case only), tracks 2 and 3 five-bit numeric (digits and `: < = >`).
 * The sentinels themselves never appear inside a track.
 */
const ALPHANUMERIC = '[\\x20-\\x24\\x26-\\x3E\\x40-\\x5F]';
const NUMERIC = '[0-9:<=>]';
/** A track 1 name field: alphanumeric, without the `^` that separates fields. */
const NAME = '[\\x20-\\x24\\x26-\\x3E\\x40-\\x5D\\x5F]';

/** Clear payment tracks (ISO/IEC 7813), digits wherever the format puts digits. */
const CLEAR_TRACK1 = new RegExp(`^%B(${CLEAR_PAN})\\^(${NAME}{2,26})\\^(\\d{4})\\d{3}${ALPHANUMERIC}*\\?$`);
const CLEAR_TRACK2 = new RegExp(`^;(${CLEAR_PAN})=(\\d{4})\\d{3}\\d*\\?$`);
/** Masked tracks keep only what the masking leaves readable: the expiry and the name. */
const MASKED_TRACK1 = new RegExp(`^%B(${MASKED_PAN})\\^([^^?]{2,26})\\^(\\d{4})[^?]*\\?$`);
const MASKED_TRACK2 = new RegExp(`^;(${MASKED_PAN})=(\\d{4})[^?]*\\?$`);
const TRACK1 = { clear: CLEAR_TRACK1, masked: MASKED_TRACK1 };
const TRACK2 = { clear: CLEAR_TRACK2, masked: MASKED_TRACK2 };

/**
 * Any well-formed track of its number, payment card or not. Track 3 comes with `;` or, from some
 * readers, `+`; an ID card's alphanumeric track 3 starts with `%`.
 */
const WELL_FORMED_TRACKS: Record<TrackNumber, RegExp> = {
  1: new RegExp(`^%${ALPHANUMERIC}*\\?$`),
  2: new RegExp(`^;${NUMERIC}*\\?$`),
  3: new RegExp(`^(?:[;+]${NUMERIC}*|%${ALPHANUMERIC}*)\\?$`),
};

export type TrackNumber = 1 | 2 | 3;

/** A decrypted track: a payment card's, another card's, or not track data at all. */
export type ClearTrackRead = { kind: 'card'; card: TrackCard } | { kind: 'other' } | { kind: 'malformed' };

/**
 * Reads a decrypted track, start sentinel to end sentinel. Track 1's format code B promises a
 * payment card, so a `%B` track that does not parse as one is malformed; other well-formed tracks
 * belong to cards that are not payment cards.
 */
export function readClearTrack(track: string, number: TrackNumber): ClearTrackRead {
  if (!WELL_FORMED_TRACKS[number].test(track)) return { kind: 'malformed' };
  if (number === 3) return { kind: 'other' };
  const card = number === 1 ? parseTrack1(track) : parseTrack2(track);
  if (card) return { kind: 'card', card };
  return number === 1 && track.startsWith('%B') ? { kind: 'malformed' } : { kind: 'other' };
}

export interface TrackOptions {
  masked?: boolean;
}

/** `%B` PAN `^` SURNAME/GIVEN `^` YYMM service code, discretionary data `?`. */
export function parseTrack1(track: string, options: TrackOptions = {}): TrackCard | undefined {
  const match = (options.masked ? TRACK1.masked : TRACK1.clear).exec(track);
  if (!match) return undefined;
  const [, pan = '', name = '', expYymm = ''] = match;
  return { pan, expYymm, name: parseCardholderName(name) };
}

/** `;` PAN `=` YYMM service code, discretionary data `?`. */
export function parseTrack2(track: string, options: TrackOptions = {}): TrackCard | undefined {
  const match = (options.masked ? TRACK2.masked : TRACK2.clear).exec(track);
  if (!match) return undefined;
  const [, pan = '', expYymm = ''] = match;
  return { pan, expYymm };
}

/**
 * "HOGAN/PAUL A.MR  " → last name HOGAN, first name PAUL A; a name without `/` is all last name.
 * A field that is no name by keptCardholderName's rule gives none.
 */
export function parseCardholderName(field: string): CardholderName {
  // Checked whole, title included: digits cut into surname, given name and title still spell a card
  // number, and a byte a stripe cannot hold makes the field a misread, whichever part it is in.
  if (!STRIPE_NAME.test(field) || holdsCardNumberAnyhow(field)) return {};
  const slash = field.indexOf('/');
  const lastName = (slash < 0 ? field : field.slice(0, slash)).trim();
  // A title after the given name follows a full stop.
  const firstName = slash < 0 ? '' : (field.slice(slash + 1).split('.')[0] ?? '').trim();
  return keptCardholderName({ ...(firstName && { firstName }), ...(lastName && { lastName }) });
}

const STRIPE_NAME = new RegExp(`^${NAME}*$`);

/** The card number check text fields are refused by, with any character but a letter between digits. */
function holdsCardNumberAnyhow(text: string): boolean {
  return holdsCardNumber(text.replace(/[^0-9A-Za-z]/g, ' '));
}

/**
 * The cardholder name a swipe gives, as Tender keeps, lists and prints it, or none. Whoever wrote the
 * stripe wrote the name: a name holding a card number (by the rule a billing name is refused by,
 * whatever stands between the digits, read in either order) or a character no stripe name can hold
 * (a control character, a byte outside track 1's character set, which only a masked track can bring)
 * is not a name. It is dropped whole, never trimmed into one, and the sale goes on without a name, as
 * it does for a track 2 swipe: an odd stripe does not stop the cashier.
 */
export function keptCardholderName(name: CardholderName): CardholderName {
  const { firstName = '', lastName = '' } = name;
  if (!STRIPE_NAME.test(firstName) || !STRIPE_NAME.test(lastName)) return {};
  if (holdsCardNumberAnyhow(`${firstName} ${lastName}`) || holdsCardNumberAnyhow(`${lastName} ${firstName}`))
    return {};
  return { ...(firstName && { firstName }), ...(lastName && { lastName }) };
}

/** "PAUL HOGAN", for a screen. */
export function displayName(name: CardholderName | undefined): string | undefined {
  const shown = [name?.firstName, name?.lastName].filter(Boolean).join(' ');
  return shown || undefined;
}

/**
 * Splits the masked-track field of a swipe string: tracks follow each other, each from a start
 * sentinel (`%` track 1, `;` track 2 or 3, `+` track 3) to its `?`. A track the reader could not
 * read comes as its sentinel, `E`, `?`.
 */
export function splitTracks(concatenated: string): SplitTracks {
  const tracks: SplitTracks = {};
  let at = 0;
  while (at < concatenated.length) {
    const sentinel = concatenated[at];
    const end = concatenated.indexOf('?', at);
    if (end < 0) break;
    const track = concatenated.slice(at, end + 1);
    if (sentinel === '%' && tracks.track1 === undefined && tracks.track2 === undefined) tracks.track1 = track;
    else if (sentinel === ';' && tracks.track2 === undefined && tracks.track3 === undefined)
      tracks.track2 = track;
    else if ((sentinel === ';' || sentinel === '+') && tracks.track3 === undefined) tracks.track3 = track;
    else break;
    at = end + 1;
  }
  return tracks;
}

/** Stripe expiry YYMM → the gateway's exp_date MMYY. */
export function yymmToMmyy(yymm: string): string {
  return yymm.slice(2, 4) + yymm.slice(0, 2);
}
