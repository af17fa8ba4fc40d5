/**
 * Payment card tracks (ISO/IEC 7813), clear or masked: account number, cardholder name and expiry.
 * Readers return each track from start to end sentinel, without the LRC.
 */

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

function track1Pattern(pan: string): RegExp {
  return new RegExp(`^%B(${pan})\\^([^^?]{2,26})\\^(\\d{4})[^?]*\\?$`);
}
function track2Pattern(pan: string): RegExp {
  return new RegExp(`^;(${pan})=(\\d{4})[^?]*\\?$`);
}
const TRACK1 = { clear: track1Pattern(CLEAR_PAN), masked: track1Pattern(MASKED_PAN) };
const TRACK2 = { clear: track2Pattern(CLEAR_PAN), masked: track2Pattern(MASKED_PAN) };

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

/** "HOGAN/PAUL A.MR  " → last name HOGAN, first name PAUL A; a name without `/` is all last name. */
export function parseCardholderName(field: string): CardholderName {
  const slash = field.indexOf('/');
  const lastName = (slash < 0 ? field : field.slice(0, slash)).trim();
  // A title after the given name follows a full stop.
  const firstName = slash < 0 ? '' : (field.slice(slash + 1).split('.')[0] ?? '').trim();
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
