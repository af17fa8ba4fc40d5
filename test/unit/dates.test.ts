import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  ACCEPTED_DATE_FORMATS,
  formatTimestamp,
  parseQueryDateTime,
} from '../../electron/gateway/http/dates';

const NEW_YORK = 'America/New_York';
const KOLKATA = 'Asia/Kolkata';
const ST_JOHNS = 'America/St_Johns';
const terminalZone = new Intl.DateTimeFormat().resolvedOptions().timeZone;

const utc = (year: number, month: number, day: number, hour = 0, minute = 0, second = 0, ms = 0): number =>
  Date.UTC(year, month - 1, day, hour, minute, second, ms);

describe('formatTimestamp', () => {
  it('writes New York winter time with the standard offset', () => {
    expect(formatTimestamp(utc(2026, 11, 20, 19, 5, 9, 42), NEW_YORK)).toBe('2026-11-20T14:05:09.042-05:00');
  });

  it('writes New York summer time with the daylight offset', () => {
    expect(formatTimestamp(utc(2026, 7, 4, 16, 0, 0, 0), NEW_YORK)).toBe('2026-07-04T12:00:00.000-04:00');
  });

  it('writes a half-hour offset east of UTC', () => {
    expect(formatTimestamp(utc(2026, 11, 20, 8, 35, 9, 42), KOLKATA)).toBe('2026-11-20T14:05:09.042+05:30');
  });

  it('writes a half-hour offset west of UTC with the sign on the whole offset', () => {
    expect(formatTimestamp(utc(2026, 1, 15, 15, 30), ST_JOHNS)).toBe('2026-01-15T12:00:00.000-03:30');
  });

  it('writes UTC as +00:00, never Z', () => {
    expect(formatTimestamp(utc(2026, 11, 20, 14, 5, 9, 42), 'UTC')).toBe('2026-11-20T14:05:09.042+00:00');
  });

  it('uses the offset in force at the instant on either side of spring-forward', () => {
    expect(formatTimestamp(utc(2026, 3, 8, 6, 59, 59, 999), NEW_YORK)).toBe('2026-03-08T01:59:59.999-05:00');
    expect(formatTimestamp(utc(2026, 3, 8, 7), NEW_YORK)).toBe('2026-03-08T03:00:00.000-04:00');
  });

  it('tells the two occurrences of a fall-back hour apart by their offsets', () => {
    expect(formatTimestamp(utc(2026, 11, 1, 5, 30), NEW_YORK)).toBe('2026-11-01T01:30:00.000-04:00');
    expect(formatTimestamp(utc(2026, 11, 1, 6, 30), NEW_YORK)).toBe('2026-11-01T01:30:00.000-05:00');
  });

  it('keeps milliseconds right before 1970', () => {
    expect(formatTimestamp(utc(1969, 12, 31, 23, 59, 59, 999), 'UTC')).toBe('1969-12-31T23:59:59.999+00:00');
  });

  it('rounds a local-mean-time offset to the minute and still names the same instant', () => {
    // New York kept -04:56:02 until 1883.
    const instant = utc(1850, 1, 1, 12);
    const text = formatTimestamp(instant, NEW_YORK);
    expect(text).toBe('1850-01-01T07:04:00.000-04:56');
    expect(parseQueryDateTime(text)).toBe(instant);
  });

  it('rounds a local-mean-time offset to the nearest minute, not towards zero', () => {
    // Chicago kept -05:50:36 until 1883.
    const instant = utc(1880, 1, 1, 12);
    const text = formatTimestamp(instant, 'America/Chicago');
    expect(text).toBe('1880-01-01T06:09:00.000-05:51');
    expect(parseQueryDateTime(text)).toBe(instant);
  });

  it('drops fractions of a millisecond by rounding down to the millisecond holding the instant', () => {
    expect(formatTimestamp(1.7, 'UTC')).toBe('1970-01-01T00:00:00.001+00:00');
    expect(formatTimestamp(-0.5, 'UTC')).toBe('1969-12-31T23:59:59.999+00:00');
  });

  it('writes years outside 0000-9999 in the expanded form, as toISOString does', () => {
    expect(formatTimestamp(8.64e15, 'UTC')).toBe('+275760-09-13T00:00:00.000+00:00');
    expect(formatTimestamp(utc(-3, 11, 27), 'UTC')).toBe('-000003-11-27T00:00:00.000+00:00');
  });

  it("uses the terminal's zone when none is given", () => {
    const instant = utc(2026, 7, 4, 16);
    expect(formatTimestamp(instant)).toBe(formatTimestamp(instant, terminalZone));
  });

  it('rejects a value that is not a time', () => {
    expect(() => formatTimestamp(Number.NaN, 'UTC')).toThrow(RangeError);
    expect(() => formatTimestamp(Number.POSITIVE_INFINITY, 'UTC')).toThrow(RangeError);
    expect(() => formatTimestamp(8.64e15 + 1, 'UTC')).toThrow(RangeError);
  });

  it('rejects an unknown zone', () => {
    expect(() => formatTimestamp(0, 'Mars/Olympus_Mons')).toThrow(RangeError);
  });
});

describe('parseQueryDateTime', () => {
  describe('MM-dd-yyyy hh:mm a', () => {
    it('reads a PM time in the given zone', () => {
      expect(parseQueryDateTime('11-20-2026 02:05 PM', NEW_YORK)).toBe(utc(2026, 11, 20, 19, 5));
    });

    it('reads AM and PM in any letter case', () => {
      const expected = utc(2026, 11, 20, 14, 5);
      for (const meridiem of ['PM', 'pm', 'Pm', 'pM']) {
        expect(parseQueryDateTime(`11-20-2026 02:05 ${meridiem}`, 'UTC')).toBe(expected);
      }
      expect(parseQueryDateTime('11-20-2026 02:05 am', 'UTC')).toBe(utc(2026, 11, 20, 2, 5));
    });

    it('reads 12 AM as midnight and 12 PM as noon', () => {
      expect(parseQueryDateTime('11-20-2026 12:00 AM', 'UTC')).toBe(utc(2026, 11, 20, 0, 0));
      expect(parseQueryDateTime('11-20-2026 12:30 AM', 'UTC')).toBe(utc(2026, 11, 20, 0, 30));
      expect(parseQueryDateTime('11-20-2026 12:00 PM', 'UTC')).toBe(utc(2026, 11, 20, 12, 0));
      expect(parseQueryDateTime('11-20-2026 12:30 PM', 'UTC')).toBe(utc(2026, 11, 20, 12, 30));
      expect(parseQueryDateTime('11-20-2026 11:59 PM', 'UTC')).toBe(utc(2026, 11, 20, 23, 59));
    });

    it('rejects hours outside 01-12', () => {
      expect(parseQueryDateTime('11-20-2026 00:30 AM', 'UTC')).toBeUndefined();
      expect(parseQueryDateTime('11-20-2026 13:00 PM', 'UTC')).toBeUndefined();
    });

    it('takes no zone', () => {
      expect(parseQueryDateTime('11-20-2026 02:05 PM EST', 'UTC')).toBeUndefined();
    });
  });

  describe('MM-dd-yy HH:mm [z]', () => {
    it('reads a wall time in the given zone', () => {
      expect(parseQueryDateTime('11-20-26 14:05', NEW_YORK)).toBe(utc(2026, 11, 20, 19, 5));
    });

    it('puts a two-digit year in 2000-2099', () => {
      expect(parseQueryDateTime('01-02-00 10:00', 'UTC')).toBe(utc(2000, 1, 2, 10));
      expect(parseQueryDateTime('01-02-99 10:00', 'UTC')).toBe(utc(2099, 1, 2, 10));
    });

    it('reads a zone abbreviation as its fixed offset', () => {
      expect(parseQueryDateTime('11-20-26 14:05 EST', 'UTC')).toBe(utc(2026, 11, 20, 19, 5));
    });

    it('lets the zone in the text win over the given zone', () => {
      expect(parseQueryDateTime('11-20-26 14:05 UTC', NEW_YORK)).toBe(utc(2026, 11, 20, 14, 5));
    });
  });

  describe('yyyy-MM-dd HH:mm [z]', () => {
    it('reads a wall time in the given zone', () => {
      expect(parseQueryDateTime('2026-11-20 14:05', NEW_YORK)).toBe(utc(2026, 11, 20, 19, 5));
      expect(parseQueryDateTime('2026-07-04 12:00', NEW_YORK)).toBe(utc(2026, 7, 4, 16, 0));
      expect(parseQueryDateTime('2026-11-20 14:05', KOLKATA)).toBe(utc(2026, 11, 20, 8, 35));
    });

    it('reads midnight and the last minute of the day', () => {
      expect(parseQueryDateTime('2026-11-20 00:00', 'UTC')).toBe(utc(2026, 11, 20, 0, 0));
      expect(parseQueryDateTime('2026-11-20 23:59', 'UTC')).toBe(utc(2026, 11, 20, 23, 59));
    });

    it('reads a zone in the text', () => {
      expect(parseQueryDateTime('2026-11-20 14:05 UTC', NEW_YORK)).toBe(utc(2026, 11, 20, 14, 5));
    });
  });

  describe('zones', () => {
    const wall = '2026-07-04 12:00';
    const noonAt = (offsetHours: number, offsetMinutes = 0): number =>
      utc(2026, 7, 4, 12) - (offsetHours * 60 + offsetMinutes) * 60_000;

    it.each([
      ['UTC', 0],
      ['GMT', 0],
      ['Z', 0],
      ['EST', -5],
      ['EDT', -4],
      ['CST', -6],
      ['CDT', -5],
      ['MST', -7],
      ['MDT', -6],
      ['PST', -8],
      ['PDT', -7],
      ['AKST', -9],
      ['AKDT', -8],
      ['HST', -10],
    ])('reads %s as a fixed offset of %i hours in any season', (zone, hours) => {
      expect(parseQueryDateTime(`${wall} ${zone}`, KOLKATA)).toBe(noonAt(hours));
      expect(parseQueryDateTime(`2026-01-15 12:00 ${zone}`, KOLKATA)).toBe(
        utc(2026, 1, 15, 12) - hours * 3_600_000,
      );
    });

    it('reads zone letters in any case', () => {
      expect(parseQueryDateTime(`${wall} est`, 'UTC')).toBe(noonAt(-5));
      expect(parseQueryDateTime(`${wall} Utc`, NEW_YORK)).toBe(noonAt(0));
      expect(parseQueryDateTime(`${wall} z`, NEW_YORK)).toBe(noonAt(0));
      expect(parseQueryDateTime(`${wall} gmt+05:30`, 'UTC')).toBe(noonAt(5, 30));
      expect(parseQueryDateTime(`${wall} america/new_york`, 'UTC')).toBe(noonAt(-4));
    });

    it.each([
      ['GMT+05:30', 5, 30],
      ['GMT-03:00', -3, 0],
      ['UTC+05:30', 5, 30],
      ['UTC-09:30', -9, -30],
      ['+05:30', 5, 30],
      ['-05:00', -5, 0],
      ['-0500', -5, 0],
      ['+0545', 5, 45],
      ['+05', 5, 0],
      ['-03', -3, 0],
      ['+00:00', 0, 0],
      ['-00:00', 0, 0],
    ])('reads the offset %s', (zone, hours, minutes) => {
      expect(parseQueryDateTime(`${wall} ${zone}`, NEW_YORK)).toBe(noonAt(hours, minutes));
    });

    it('applies the daylight-saving rules of an IANA zone in the text', () => {
      expect(parseQueryDateTime(`${wall} America/New_York`, 'UTC')).toBe(noonAt(-4));
      expect(parseQueryDateTime('2026-01-15 12:00 America/New_York', 'UTC')).toBe(utc(2026, 1, 15, 17));
      expect(parseQueryDateTime(`${wall} Asia/Kolkata`, 'UTC')).toBe(noonAt(5, 30));
      expect(parseQueryDateTime('11-20-26 14:05 America/Los_Angeles', 'UTC')).toBe(utc(2026, 11, 20, 22, 5));
    });

    it.each([
      ['an unknown abbreviation', 'XYZ'],
      ['an ambiguous abbreviation ICU would still resolve', 'IST'],
      ['another ambiguous abbreviation', 'BST'],
      ['an unknown IANA name', 'Mars/Olympus_Mons'],
      ['an IANA name without its area', 'New_York'],
      ['a prefixed offset without minutes', 'GMT+5'],
      ['a prefixed offset without its colon', 'GMT+0530'],
      ['a one-digit offset', '+5'],
      ['an offset with a dangling colon', '+05:'],
      ['an offset with minute 60', '+05:60'],
      ['an offset beyond 18 hours', '+19:00'],
      ['an unsigned offset', '05:00'],
    ])('rejects %s (%s)', (_what, zone) => {
      expect(parseQueryDateTime(`${wall} ${zone}`, 'UTC')).toBeUndefined();
    });
  });

  describe('ISO 8601', () => {
    it('reads the form formatTimestamp writes', () => {
      expect(parseQueryDateTime('2026-11-20T14:05:09.042-05:00')).toBe(utc(2026, 11, 20, 19, 5, 9, 42));
      expect(parseQueryDateTime('2026-11-20T14:05:09.042+00:00')).toBe(utc(2026, 11, 20, 14, 5, 9, 42));
      expect(parseQueryDateTime('2026-11-20T19:35:09.042+05:30')).toBe(utc(2026, 11, 20, 14, 5, 9, 42));
    });

    it('reads Z, and times without seconds or fraction', () => {
      expect(parseQueryDateTime('2026-11-20T19:05Z')).toBe(utc(2026, 11, 20, 19, 5));
      expect(parseQueryDateTime('2026-11-20T19:05:30Z')).toBe(utc(2026, 11, 20, 19, 5, 30));
      expect(parseQueryDateTime('2026-11-20t19:05z')).toBe(utc(2026, 11, 20, 19, 5));
    });

    it('cuts a longer fraction to milliseconds and pads a shorter one', () => {
      expect(parseQueryDateTime('2026-11-20T19:05:09.042999Z')).toBe(utc(2026, 11, 20, 19, 5, 9, 42));
      expect(parseQueryDateTime('2026-11-20T19:05:09.5Z')).toBe(utc(2026, 11, 20, 19, 5, 9, 500));
    });

    it('ignores the given zone, since the offset is in the text', () => {
      expect(parseQueryDateTime('2026-11-20T19:05Z', KOLKATA)).toBe(utc(2026, 11, 20, 19, 5));
    });

    it.each([
      ['no offset', '2026-11-20T14:05:09.042'],
      ['a compact offset', '2026-11-20T14:05:09.042-0500'],
      ['a space for T', '2026-11-20 14:05:09.042-05:00'],
      ['second 60', '2026-11-20T14:05:60Z'],
      ['an empty fraction', '2026-11-20T14:05:09.Z'],
      ['a fraction without seconds', '2026-11-20T14:05.042Z'],
      ['a zone abbreviation', '2026-11-20T14:05:09EST'],
      ['a minute-60 offset', '2026-11-20T14:05:09+05:60'],
    ])('rejects %s', (_what, text) => {
      expect(parseQueryDateTime(text)).toBeUndefined();
    });
  });

  describe('daylight-saving changes in America/New_York', () => {
    it('a spring-forward gap time resolves to the later offset', () => {
      // 02:00-02:59 on 2026-03-08 never happened; read at -04:00, the offset after the change.
      expect(parseQueryDateTime('03-08-26 02:30', NEW_YORK)).toBe(utc(2026, 3, 8, 6, 30));
      expect(parseQueryDateTime('03-08-2026 02:30 AM', NEW_YORK)).toBe(utc(2026, 3, 8, 6, 30));
      expect(parseQueryDateTime('2026-03-08 02:00', NEW_YORK)).toBe(utc(2026, 3, 8, 6, 0));
      expect(parseQueryDateTime('2026-03-08 02:59', NEW_YORK)).toBe(utc(2026, 3, 8, 6, 59));
      expect(parseQueryDateTime('2026-03-08 02:30 America/New_York', 'UTC')).toBe(utc(2026, 3, 8, 6, 30));
    });

    it('the minutes around a spring-forward gap keep their own offsets', () => {
      expect(parseQueryDateTime('2026-03-08 01:59', NEW_YORK)).toBe(utc(2026, 3, 8, 6, 59));
      expect(parseQueryDateTime('2026-03-08 03:00', NEW_YORK)).toBe(utc(2026, 3, 8, 7, 0));
    });

    it('an ambiguous fall-back time resolves to its first occurrence', () => {
      // 01:00-01:59 on 2026-11-01 happened at -04:00 and again at -05:00.
      expect(parseQueryDateTime('11-01-26 01:30', NEW_YORK)).toBe(utc(2026, 11, 1, 5, 30));
      expect(parseQueryDateTime('11-01-2026 01:30 AM', NEW_YORK)).toBe(utc(2026, 11, 1, 5, 30));
      expect(parseQueryDateTime('2026-11-01 01:00', NEW_YORK)).toBe(utc(2026, 11, 1, 5, 0));
      expect(parseQueryDateTime('2026-11-01 01:30 America/New_York', 'UTC')).toBe(utc(2026, 11, 1, 5, 30));
    });

    it('the minutes around a fall-back overlap keep their own offsets', () => {
      expect(parseQueryDateTime('2026-11-01 00:59', NEW_YORK)).toBe(utc(2026, 11, 1, 4, 59));
      expect(parseQueryDateTime('2026-11-01 02:00', NEW_YORK)).toBe(utc(2026, 11, 1, 7, 0));
    });

    it('an explicit offset picks the second occurrence of an ambiguous time', () => {
      expect(parseQueryDateTime('2026-11-01 01:30 EST', NEW_YORK)).toBe(utc(2026, 11, 1, 6, 30));
      expect(parseQueryDateTime('2026-11-01T01:30:00.000-05:00')).toBe(utc(2026, 11, 1, 6, 30));
    });
  });

  describe('calendar and clock', () => {
    it('accepts 29 February only in a leap year', () => {
      expect(parseQueryDateTime('2028-02-29 10:00', 'UTC')).toBe(utc(2028, 2, 29, 10));
      expect(parseQueryDateTime('02-29-2000 10:00 AM', 'UTC')).toBe(utc(2000, 2, 29, 10));
      expect(parseQueryDateTime('2026-02-29 10:00', 'UTC')).toBeUndefined();
      expect(parseQueryDateTime('02-29-2100 10:00 AM', 'UTC')).toBeUndefined();
    });

    it.each([
      ['month 13', '2026-13-01 10:00'],
      ['month 00', '2026-00-01 10:00'],
      ['13-01-2026 with AM/PM', '13-01-2026 10:00 AM'],
      ['30 February', '02-30-2026 10:00 AM'],
      ['31 April', '04-31-26 10:00'],
      ['day 00', '2026-11-00 10:00'],
      ['hour 24', '2026-11-20 24:00'],
      ['minute 60', '2026-11-20 10:60'],
      ['minute 60 with AM/PM', '11-20-2026 10:60 AM'],
    ])('rejects %s', (_what, text) => {
      expect(parseQueryDateTime(text, 'UTC')).toBeUndefined();
    });
  });

  describe('garbage and near misses', () => {
    it.each([
      ['empty text', ''],
      ['a space', ' '],
      ['a date without a time', '2026-11-20'],
      ['an unknown zone', '2026-11-20 10:00 XYZ'],
      ['trailing text after the zone', '2026-11-20 10:00 UTC extra'],
      ['trailing text after AM/PM', '11-20-2026 10:00 AM later'],
      ['a trailing space', '2026-11-20 10:00 '],
      ['a leading space', ' 2026-11-20 10:00'],
      ['a trailing newline', '2026-11-20 10:00\n'],
      ['two spaces', '2026-11-20  10:00'],
      ['a tab', '2026-11-20\t10:00'],
      ['seconds', '2026-11-20 10:00:00'],
      ['a one-digit month', '1-20-2026 10:00 AM'],
      ['a one-digit day', '2026-11-2 10:00'],
      ['a one-digit hour', '2026-11-20 9:05'],
      ['a four-digit year without AM/PM', '11-20-2026 14:05'],
      ['a two-digit year with AM/PM', '11-20-26 02:05 PM'],
      ['AM/PM without its space', '11-20-2026 02:05PM'],
      ['slashes', '2026/11/20 10:00'],
      ['a three-digit year', '11-20-202 10:00'],
      ['a five-digit year', '20260-11-20 10:00'],
      ['an epoch number', '1795697109042'],
      ['a word', 'yesterday'],
      ['non-ASCII digits', '٢٠٢٦-١١-٢٠ ١٠:٠٠'],
    ])('rejects %s', (_what, text) => {
      expect(parseQueryDateTime(text, 'UTC')).toBeUndefined();
    });

    it('rejects a value that is not a string, as a repeated query parameter would give', () => {
      expect(parseQueryDateTime(['2026-11-20 10:00'] as unknown as string, 'UTC')).toBeUndefined();
    });
  });

  it("reads a wall time without a zone in the terminal's zone when none is given", () => {
    for (const text of ['2026-07-04 12:00', '11-20-26 14:05', '11-20-2026 02:05 PM', '2026-03-08 02:30']) {
      expect(parseQueryDateTime(text)).toBe(parseQueryDateTime(text, terminalZone));
    }
  });

  it('throws when the given zone is unknown, since that is a programming error and not bad input', () => {
    expect(() => parseQueryDateTime('2026-11-20 10:00', 'Mars/Olympus_Mons')).toThrow(RangeError);
  });
});

describe('round trip', () => {
  it('parses back every instant formatTimestamp writes, in any zone', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: utc(1800, 1, 1), max: utc(2200, 1, 1) }),
        fc.constantFrom(NEW_YORK, KOLKATA, ST_JOHNS, 'UTC', 'Australia/Lord_Howe', 'Pacific/Kiritimati'),
        (instant, zone) => {
          expect(parseQueryDateTime(formatTimestamp(instant, zone))).toBe(instant);
        },
      ),
    );
  });

  it('parses back instants at the New York clock changes', () => {
    for (const instant of [
      utc(2026, 3, 8, 6, 59, 59, 999),
      utc(2026, 3, 8, 7),
      utc(2026, 11, 1, 5, 30),
      utc(2026, 11, 1, 6, 30),
    ]) {
      expect(parseQueryDateTime(formatTimestamp(instant, NEW_YORK))).toBe(instant);
    }
  });
});

describe('ACCEPTED_DATE_FORMATS', () => {
  it('gives an example for each form that parses', () => {
    expect(ACCEPTED_DATE_FORMATS).toHaveLength(6);
    for (const description of ACCEPTED_DATE_FORMATS) {
      const example = /\(e\.g\. (.+)\)$/.exec(description)?.[1];
      expect(example, description).toBeDefined();
      expect(parseQueryDateTime(example ?? '', NEW_YORK), description).toBeDefined();
    }
  });

  it('cannot be changed by a caller', () => {
    expect(Object.isFrozen(ACCEPTED_DATE_FORMATS)).toBe(true);
  });
});
