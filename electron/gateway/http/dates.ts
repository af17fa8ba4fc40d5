/**
 * Timestamps on the wire. Responses carry ISO 8601 with the terminal's own UTC offset, because the
 * merchant reads these times against the clock on the wall; list queries take the date forms of the
 * interface spec (Java SimpleDateFormat letters) plus that same ISO form, so a client can page by feeding
 * a `created` value straight back.
 *
 * Wall times without a zone are in the terminal's local time zone. Where the clock jumps:
 * - a time inside a spring-forward gap (02:30 on the night New York goes from 02:00 EST to 03:00 EDT)
 *   never happened; it is read with the offset in force after the change (02:30-04:00, which is
 *   01:30 EST), and always that one, so a query is reproducible;
 * - a time inside a fall-back overlap (01:30 on the night New York goes back from 02:00 EDT to 01:00 EST)
 *   happened twice; the first occurrence is taken (01:30-04:00).
 */

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** Largest offset accepted in text, the bound java.time.ZoneOffset sets; real zones stay within ±14:00. */
const MAX_OFFSET_MS = 18 * HOUR_MS;
/** ECMAScript's time value range. */
const MAX_EPOCH_MS = 8.64e15;

/** The accepted query forms, for error messages; each example parses. */
export const ACCEPTED_DATE_FORMATS: readonly string[] = Object.freeze([
  'MM-dd-yyyy hh:mm a (e.g. 11-20-2026 02:05 PM)',
  'MM-dd-yy HH:mm (e.g. 11-20-26 14:05)',
  'MM-dd-yy HH:mm z (e.g. 11-20-26 14:05 EST)',
  'yyyy-MM-dd HH:mm (e.g. 2026-11-20 14:05)',
  'yyyy-MM-dd HH:mm z (e.g. 2026-11-20 14:05 UTC)',
  'ISO 8601 with an offset (e.g. 2026-11-20T14:05:09.042-05:00)',
]);

/**
 * Abbreviations read as the fixed offsets they name, whatever the season: a client that writes EST in
 * July means -05:00. Only these are accepted, because ICU would otherwise resolve ambiguous ones to an
 * arbitrary zone (IST to Kolkata, BST to Dhaka).
 */
const FIXED_ZONES: ReadonlyMap<string, number> = new Map([
  ['UTC', 0],
  ['GMT', 0],
  ['Z', 0],
  ['EST', -5 * HOUR_MS],
  ['EDT', -4 * HOUR_MS],
  ['CST', -6 * HOUR_MS],
  ['CDT', -5 * HOUR_MS],
  ['MST', -7 * HOUR_MS],
  ['MDT', -6 * HOUR_MS],
  ['PST', -8 * HOUR_MS],
  ['PDT', -7 * HOUR_MS],
  ['AKST', -9 * HOUR_MS],
  ['AKDT', -8 * HOUR_MS],
  ['HST', -10 * HOUR_MS],
]);

const TWELVE_HOUR_FORM = /^(\d{2})-(\d{2})-(\d{4}) (\d{2}):(\d{2}) ([AP]M)$/i;
const SHORT_YEAR_FORM = /^(\d{2})-(\d{2})-(\d{2}) (\d{2}):(\d{2})(?: (\S+))?$/;
const LONG_YEAR_FORM = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2})(?: (\S+))?$/;
const ISO_FORM = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2})$/i;

const PREFIXED_OFFSET = /^(?:GMT|UTC)([+-]\d{2}:\d{2})$/i;
const NUMERIC_OFFSET = /^([+-])(\d{2})(?::?(\d{2}))?$/;
/**
 * Area/Location names only: ICU also takes bare legacy IDs (IST, BST, AST) and maps them to zones a
 * client is unlikely to mean.
 */
const IANA_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)+$/;
const LONG_OFFSET = /^GMT(?:([+-])(\d{2}):(\d{2})(?::(\d{2}))?)?$/;

type Zone =
  | { readonly kind: 'fixed'; readonly offsetMs: number }
  | { readonly kind: 'rules'; readonly formatter: Intl.DateTimeFormat };

/** Keyed by lower-cased name: IANA names match case-insensitively, and only valid names get in, so it stays small. */
const formatters = new Map<string, Intl.DateTimeFormat>();

/** Throws RangeError for a name Intl does not know. */
function formatterFor(timeZone: string | undefined): Intl.DateTimeFormat {
  // Resolved on every call rather than once, so a change of process.env.TZ is seen.
  const name = timeZone ?? new Intl.DateTimeFormat().resolvedOptions().timeZone;
  const key = name.toLowerCase();
  let formatter = formatters.get(key);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone: name, timeZoneName: 'longOffset' });
    formatters.set(key, formatter);
  }
  return formatter;
}

/** UTC offset at the instant; before standard time zones it has seconds (New York was -04:56:02). */
function offsetMsAt(epochMs: number, formatter: Intl.DateTimeFormat): number {
  const label = formatter.formatToParts(epochMs).find((part) => part.type === 'timeZoneName')?.value ?? '';
  const match = LONG_OFFSET.exec(label);
  if (match === null) throw new Error(`Unexpected offset label from Intl: "${label}"`);
  const [, sign, hours, minutes, seconds] = match;
  if (sign === undefined) return 0;
  const magnitude = Number(hours) * HOUR_MS + Number(minutes) * MINUTE_MS + Number(seconds ?? 0) * 1000;
  return sign === '-' ? -magnitude : magnitude;
}

/** Epoch ms of a wall time in a zone with rules, settling gaps and overlaps as the module header says. */
function wallTimeToEpoch(wallMs: number, formatter: Intl.DateTimeFormat): number {
  // A day either side brackets any instant this wall time can denote, so at most one change lies between.
  const before = offsetMsAt(wallMs - DAY_MS, formatter);
  const after = offsetMsAt(wallMs + DAY_MS, formatter);
  // In an overlap both readings hold and the one with the earlier offset is the first occurrence.
  const first = wallMs - before;
  if (offsetMsAt(first, formatter) === before) return first;
  return wallMs - after;
}

/**
 * ISO 8601 with milliseconds and the UTC offset at that instant in the terminal's zone (or `timeZone`,
 * an IANA name), e.g. `2026-11-20T14:05:09.042-05:00`. UTC is `+00:00`, never `Z`. An offset with seconds
 * (local mean time, before about 1900) is rounded to the minute and the wall time moved to match, so the
 * text still names the exact instant. Years outside 0000-9999 use the expanded form (`+012345`), as
 * Date.prototype.toISOString does. Fractions of a millisecond are dropped.
 *
 * @throws RangeError when epochMs is not a valid time value (or is so close to the edge of the range
 * that its wall time falls outside it), or timeZone is not a known zone.
 */
export function formatTimestamp(epochMs: number, timeZone?: string): string {
  if (!Number.isFinite(epochMs) || Math.abs(epochMs) > MAX_EPOCH_MS) {
    throw new RangeError(`Not a valid time value: ${epochMs}`);
  }
  const instant = Math.floor(epochMs);
  // The terminal's own zone is the hot path (every list item): the Date object knows its offset
  // without a trip through Intl, and follows a change of process.env.TZ all the same.
  const offsetMs =
    timeZone === undefined
      ? -Math.round(new Date(instant).getTimezoneOffset()) * MINUTE_MS
      : Math.round(offsetMsAt(instant, formatterFor(timeZone)) / MINUTE_MS) * MINUTE_MS;
  const wall = new Date(instant + offsetMs);
  if (Number.isNaN(wall.getTime())) throw new RangeError(`Not a valid time value: ${epochMs}`);

  const year = wall.getUTCFullYear();
  const yearText =
    year >= 0 && year <= 9999 ? pad(year, 4) : `${year < 0 ? '-' : '+'}${pad(Math.abs(year), 6)}`;
  const date = `${yearText}-${pad(wall.getUTCMonth() + 1, 2)}-${pad(wall.getUTCDate(), 2)}`;
  const time =
    `${pad(wall.getUTCHours(), 2)}:${pad(wall.getUTCMinutes(), 2)}:${pad(wall.getUTCSeconds(), 2)}` +
    `.${pad(wall.getUTCMilliseconds(), 3)}`;
  const offsetMinutes = Math.abs(offsetMs) / MINUTE_MS;
  const offset = `${offsetMs < 0 ? '-' : '+'}${pad(Math.floor(offsetMinutes / 60), 2)}:${pad(offsetMinutes % 60, 2)}`;
  return `${date}T${time}${offset}`;
}

/**
 * Epoch ms of a list query's start_date or end_date, or undefined when the text is not one of
 * ACCEPTED_DATE_FORMATS exactly (no surrounding space, single spaces between parts) or names no real
 * date or time. A wall time without a zone is in the terminal's zone (or `timeZone`, an IANA name); a
 * zone in the text wins over both. Two-digit years are 2000-2099. ISO text needs an offset or Z; its
 * fraction may have up to nine digits, cut to milliseconds.
 *
 * @throws RangeError when timeZone is given and is not a known zone (the text is never the cause).
 */
export function parseQueryDateTime(text: string, timeZone?: string): number | undefined {
  // Query parsers hand over an array when a parameter is repeated.
  if (typeof text !== 'string') return undefined;

  let match = TWELVE_HOUR_FORM.exec(text);
  if (match !== null) {
    const [, month, day, year, hour, minute, meridiem] = match;
    const clockHour = Number(hour);
    if (clockHour < 1 || clockHour > 12) return undefined;
    const pm = meridiem?.toUpperCase() === 'PM';
    return resolve(
      { year: Number(year), month, day, hour: (clockHour % 12) + (pm ? 12 : 0), minute },
      undefined,
      timeZone,
    );
  }

  match = SHORT_YEAR_FORM.exec(text);
  if (match !== null) {
    const [, month, day, year, hour, minute, zone] = match;
    return resolve({ year: 2000 + Number(year), month, day, hour: Number(hour), minute }, zone, timeZone);
  }

  match = LONG_YEAR_FORM.exec(text);
  if (match !== null) {
    const [, year, month, day, hour, minute, zone] = match;
    return resolve({ year: Number(year), month, day, hour: Number(hour), minute }, zone, timeZone);
  }

  match = ISO_FORM.exec(text);
  if (match !== null) {
    const [, year, month, day, hour, minute, second, fraction, zone] = match;
    const millisecond = fraction === undefined ? 0 : Number(fraction.padEnd(3, '0').slice(0, 3));
    const fields = { year: Number(year), month, day, hour: Number(hour), minute, second, millisecond };
    return resolve(fields, zone, timeZone);
  }

  return undefined;
}

interface Fields {
  readonly year: number;
  readonly month: string | undefined;
  readonly day: string | undefined;
  readonly hour: number;
  readonly minute: string | undefined;
  readonly second?: string | undefined;
  readonly millisecond?: number;
}

function resolve(
  fields: Fields,
  zoneText: string | undefined,
  timeZone: string | undefined,
): number | undefined {
  const wallMs = wallTimeAsUtc(fields);
  if (wallMs === undefined) return undefined;
  if (zoneText === undefined) return wallTimeToEpoch(wallMs, formatterFor(timeZone));
  const zone = zoneFromText(zoneText);
  if (zone === undefined) return undefined;
  return zone.kind === 'fixed' ? wallMs - zone.offsetMs : wallTimeToEpoch(wallMs, zone.formatter);
}

/** The wall time read as if it were UTC, or undefined when it is not on the calendar or the clock. */
function wallTimeAsUtc(fields: Fields): number | undefined {
  const { year, hour } = fields;
  const month = Number(fields.month);
  const day = Number(fields.day);
  const minute = Number(fields.minute);
  const second = Number(fields.second ?? 0);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  // setUTCFullYear, because Date.UTC would read years 0-99 as 1900-1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, fields.millisecond ?? 0);
  return date.getTime();
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

function zoneFromText(text: string): Zone | undefined {
  const fixed = FIXED_ZONES.get(text.toUpperCase());
  if (fixed !== undefined) return { kind: 'fixed', offsetMs: fixed };

  const offsetText = PREFIXED_OFFSET.exec(text)?.[1] ?? text;
  const numeric = NUMERIC_OFFSET.exec(offsetText);
  if (numeric !== null) {
    const [, sign, hours, minutes] = numeric;
    if (Number(minutes ?? 0) > 59) return undefined;
    const magnitude = Number(hours) * HOUR_MS + Number(minutes ?? 0) * MINUTE_MS;
    if (magnitude > MAX_OFFSET_MS) return undefined;
    return { kind: 'fixed', offsetMs: sign === '-' ? -magnitude : magnitude };
  }

  if (!IANA_NAME.test(text)) return undefined;
  try {
    return { kind: 'rules', formatter: formatterFor(text) };
  } catch (error) {
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}
