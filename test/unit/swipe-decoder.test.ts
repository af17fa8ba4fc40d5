import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ANSI_TEST_BDK, ksnCounter, tdesCbcEncrypt, tdesTrackKey } from '../../electron/gateway/crypto/dukpt';
import { ERROR_CODES } from '../../electron/gateway/domain/codes';
import {
  SWIPE_DISPLAY_MESSAGES,
  SWIPE_ERROR_CODE_MEANINGS,
  SWIPE_ERROR_CODES,
} from '../../electron/gateway/swipe/codes';
import { crc16CcittFalse, hexLowByteFirst } from '../../electron/gateway/swipe/crc';
import { MagtekSwipeDecoder, type SwipeDecodeResult } from '../../electron/gateway/swipe/decoder';
import { ENCRYPTION_STATUS, formatSwipeString, parseSwipeString } from '../../electron/gateway/swipe/format';
import { parseReport } from '../../electron/reader/reports';
import { buildSwipeString } from '../../electron/reader/swipe-string';
import { ksnForCounter, simulatedSwipeString, type TestCard } from '../../electron/reader/simulator';
import { readSampleReport, SAMPLE } from '../fixtures/magtek-sample';

const decoder = new MagtekSwipeDecoder(ANSI_TEST_BDK);
const VISA: TestCard = { pan: '4111111111111111', expMmyy: '1230', firstName: 'Ada', lastName: 'Lovelace' };
const CRC_FIELD = 10;

function sampleSwipeString(): string {
  const parsed = parseReport(readSampleReport());
  if (!parsed.ok || parsed.report.kind !== 'magnesafe') throw new Error('the sample report does not parse');
  return buildSwipeString(parsed.report);
}

/** Sets one field and writes the CRC that matches: what a forger (or a faulty reader) would send. */
function withField(swipe: string, index: number, value: string): string {
  const parts = swipe.split('|');
  parts[index] = value;
  parts[CRC_FIELD] = hexLowByteFirst(crc16CcittFalse(Buffer.from(`${parts.slice(0, CRC_FIELD).join('|')}|`)));
  return parts.join('|');
}

function field(swipe: string, index: number): string {
  return swipe.split('|')[index] ?? '';
}

/** Replaces the character at a position by another hex digit. */
function flipHexDigit(swipe: string, position: number): string {
  const old = swipe[position] ?? '';
  const replacement = old === 'A' ? 'B' : 'A';
  return swipe.slice(0, position) + replacement + swipe.slice(position + 1);
}

function refusal(result: SwipeDecodeResult): string {
  if (result.ok) throw new Error('the swipe was accepted');
  return result.errorCode;
}

describe('the swipe string CRC', () => {
  it('is CRC-16/CCITT-FALSE: check value 29B1 for "123456789"', () => {
    expect(crc16CcittFalse(Buffer.from('123456789'))).toBe(0x29b1);
  });

  it('is written low byte first', () => {
    expect(hexLowByteFirst(0x29b1)).toBe('B129');
    expect(hexLowByteFirst(0x0006)).toBe('0600');
  });

  it('covers everything up to and including the | before it', () => {
    const swipe = simulatedSwipeString(VISA, { counter: 1 });
    const covered = swipe.slice(0, swipe.split('|').slice(0, CRC_FIELD).join('|').length + 1);
    expect(field(swipe, CRC_FIELD)).toBe(hexLowByteFirst(crc16CcittFalse(Buffer.from(covered))));
  });
});

describe('the swipe string format', () => {
  it('writes the manual sample report as the 13 fields of section 5', () => {
    const swipe = sampleSwipeString();
    const fields = swipe.split('|');
    expect(fields).toHaveLength(13);
    expect(fields[0]).toBe(SAMPLE.maskedTracks.join(''));
    expect(fields[1]).toBe('0600');
    expect(fields.slice(2, 5)).toEqual(SAMPLE.encryptedTracks);
    expect(fields[5]).toBe('A1050000');
    expect(fields[6]).toBe('00'.repeat(0x38));
    expect(fields[7]).toBe('');
    expect(fields[8]).toBe(SAMPLE.encryptedSessionId);
    expect(fields[9]).toBe(SAMPLE.ksn);
    expect(fields[11]).toBe('');
    expect(fields[12]).toBe('0000');
  });

  it('reads back what it writes', () => {
    const parsed = parseSwipeString(simulatedSwipeString(VISA, { counter: 3 }));
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.fields.encryptionStatus).toBe(
      ENCRYPTION_STATUS.KEY_INJECTED | ENCRYPTION_STATUS.ENCRYPTION_ENABLED,
    );
    expect(parsed.fields.ksn.toString('hex').toUpperCase()).toBe('FFFF9876543210E00003');
    expect(formatSwipeString(parsed.fields)).toBe(simulatedSwipeString(VISA, { counter: 3 }));
  });

  it('accepts the CR a keyboard reader ends the string with', () => {
    expect(decoder.decode(`${simulatedSwipeString(VISA, { counter: 1 })}\r`).ok).toBe(true);
  });
});

describe('decoding swipes', () => {
  it('decodes the manual sample swipe to its card number, expiry (MMYY) and name', () => {
    expect(decoder.decode(sampleSwipeString())).toEqual({
      ok: true,
      pan: SAMPLE.pan,
      expMmyy: SAMPLE.expMmyy,
      firstName: 'PAUL',
      lastName: 'HOGAN',
      ksn: SAMPLE.ksn,
      keyVariant: 'pin',
      track: 1,
    });
  });

  it.each<TestCard>([
    VISA,
    { pan: '5454545454545454', expMmyy: '0631', firstName: 'Grace', lastName: 'Hopper' },
    { pan: '371449635398431', expMmyy: '0129', lastName: 'Turing' },
    { pan: '6011000995500000', expMmyy: '1128' },
    { pan: '4000000000000002', expMmyy: '0530', firstName: 'Decline', lastName: 'Test' },
  ])('decodes a simulated swipe of $pan back to the same card', (card) => {
    const result = decoder.decode(simulatedSwipeString(card, { counter: 7 }));
    expect(result).toMatchObject({
      ok: true,
      pan: card.pan,
      expMmyy: card.expMmyy,
      lastName: (card.lastName ?? 'TEST').toUpperCase(),
      firstName: (card.firstName ?? 'CARD').toUpperCase(),
      track: 1,
    });
  });

  it('uses the data variant of the key when status bit 11 says so', () => {
    const swipe = simulatedSwipeString(VISA, { counter: 12, variant: 'data' });
    expect(field(swipe, 1)).toBe('0608');
    expect(decoder.decode(swipe)).toMatchObject({ ok: true, pan: VISA.pan, keyVariant: 'data' });
  });

  it('does not decrypt a data-variant swipe whose status claims the PIN variant', () => {
    const swipe = withField(simulatedSwipeString(VISA, { counter: 12, variant: 'data' }), 1, '0600');
    expect(refusal(decoder.decode(swipe))).toBe(SWIPE_ERROR_CODES.SWIPE_UNDECRYPTABLE);
  });

  it('decodes an 856-byte (older firmware) simulated report too', () => {
    expect(decoder.decode(simulatedSwipeString(VISA, { counter: 2, length: 856 }))).toMatchObject({
      ok: true,
      pan: VISA.pan,
    });
  });

  it('reads track 2 when track 1 is absent, without names', () => {
    const swipe = withField(simulatedSwipeString(VISA, { counter: 4 }), 2, '');
    const result = decoder.decode(swipe);
    expect(result).toMatchObject({ ok: true, pan: VISA.pan, expMmyy: VISA.expMmyy, track: 2 });
    expect(result).not.toHaveProperty('firstName');
  });

  it('gives the KSN in upper case for the replay check, whatever case the string used', () => {
    const swipe = simulatedSwipeString(VISA, { counter: 5 });
    const lower = withField(swipe, 9, field(swipe, 9).toLowerCase());
    expect(decoder.decode(lower)).toMatchObject({ ok: true, ksn: 'FFFF9876543210E00005' });
  });

  it('gives every swipe of a reader a different KSN', () => {
    const ksns = [1, 2, 3].map((counter) => {
      const result = decoder.decode(simulatedSwipeString(VISA, { counter }));
      return result.ok ? result.ksn : '';
    });
    expect(new Set(ksns).size).toBe(3);
  });

  it('decodes swipes of readers keyed from another BDK when built with that BDK', () => {
    const bdk = 'FEDCBA98765432100123456789ABCDEF';
    const swipe = simulatedSwipeString(VISA, { counter: 1, bdk });
    expect(new MagtekSwipeDecoder(bdk).decode(swipe)).toMatchObject({ ok: true, pan: VISA.pan });
    expect(refusal(decoder.decode(swipe))).toBe(SWIPE_ERROR_CODES.SWIPE_UNDECRYPTABLE);
  });
});

describe('refusing swipes', () => {
  const swipe = simulatedSwipeString(VISA, { counter: 1 });

  it('refuses a swipe with one hex digit of its ciphertext changed as tampered (CRC)', () => {
    const position = swipe.indexOf('|', swipe.indexOf('|') + 1) + 5;
    expect(refusal(decoder.decode(flipHexDigit(swipe, position)))).toBe(SWIPE_ERROR_CODES.SWIPE_TAMPERED);
  });

  it('refuses a swipe with one hex digit of its KSN changed as tampered (CRC)', () => {
    const position = swipe.indexOf(field(swipe, 9)) + 3;
    expect(refusal(decoder.decode(flipHexDigit(swipe, position)))).toBe(SWIPE_ERROR_CODES.SWIPE_TAMPERED);
  });

  it('refuses a swipe whose CRC field itself was changed as tampered', () => {
    const position = swipe.lastIndexOf(field(swipe, CRC_FIELD));
    expect(refusal(decoder.decode(flipHexDigit(swipe, position)))).toBe(SWIPE_ERROR_CODES.SWIPE_TAMPERED);
  });

  it("refuses another card's masked data paired with this ciphertext, even with a matching CRC", () => {
    const other = simulatedSwipeString({ pan: '5454545454545454', expMmyy: '0631' }, { counter: 1 });
    const forged = withField(swipe, 0, field(other, 0));
    expect(refusal(decoder.decode(forged))).toBe(SWIPE_ERROR_CODES.SWIPE_TAMPERED);
  });

  it.each([
    ['inside the KSN', (s: string) => s.slice(0, s.indexOf(field(s, 9)) + 7)],
    ['inside the track 2 ciphertext', (s: string) => s.slice(0, s.indexOf(field(s, 3)) + 11)],
    ['before the CRC', (s: string) => s.slice(0, s.lastIndexOf(field(s, CRC_FIELD)))],
    ['inside the format code', (s: string) => s.slice(0, -2)],
    ['after the encrypted CRC field', (s: string) => s.slice(0, s.lastIndexOf('|'))],
  ])('refuses a swipe cut %s as truncated', (_where, cut) => {
    expect(refusal(decoder.decode(cut(swipe)))).toBe(SWIPE_ERROR_CODES.SWIPE_TRUNCATED);
  });

  it.each([
    ['an empty string', ''],
    ['free text', 'hello world'],
    ['a bare card number', '4111111111111111'],
    ['JSON', '{"track1":"x","track2":"y"}'],
    ['fourteen fields', `${swipe}|0000`],
    ['a non-hex digit in a ciphertext', withField(swipe, 2, `${field(swipe, 2).slice(0, -1)}G`)],
    ['a ciphertext of 7-byte blocks', withField(swipe, 2, field(swipe, 2).slice(0, -2))],
    ['a short KSN', withField(swipe, 9, field(swipe, 9).slice(2))],
    ['a control character', swipe.replace('|', '\u0001|')],
    ['non-ASCII text', `é${swipe}`],
    ['an enormous string', `${swipe}${'0'.repeat(5000)}`],
  ])('refuses %s as not the MagTek format', (_what, text) => {
    expect(refusal(decoder.decode(text))).toBe(SWIPE_ERROR_CODES.SWIPE_MALFORMED);
  });

  it('refuses clear track data from a non-encrypting keyboard reader as not encrypted', () => {
    expect(
      refusal(
        decoder.decode('%B4111111111111111^LOVELACE/ADA^30121010000000000000?;4111111111111111=3012101000?'),
      ),
    ).toBe(SWIPE_ERROR_CODES.SWIPE_NOT_ENCRYPTED);
  });

  it('refuses a swipe with an all-zero KSN as not encrypted', () => {
    expect(refusal(decoder.decode(withField(swipe, 9, '0'.repeat(20))))).toBe(
      SWIPE_ERROR_CODES.SWIPE_NOT_ENCRYPTED,
    );
    expect(refusal(decoder.decode(withField(swipe, 9, '')))).toBe(SWIPE_ERROR_CODES.SWIPE_NOT_ENCRYPTED);
  });

  it('refuses a swipe whose status says encryption is off as not encrypted', () => {
    expect(refusal(decoder.decode(withField(swipe, 1, '0200')))).toBe(SWIPE_ERROR_CODES.SWIPE_NOT_ENCRYPTED);
    expect(refusal(decoder.decode(withField(swipe, 1, '0000')))).toBe(SWIPE_ERROR_CODES.SWIPE_NOT_ENCRYPTED);
  });

  it('refuses a swipe from a reader whose keys are exhausted', () => {
    expect(refusal(decoder.decode(withField(swipe, 1, '0700')))).toBe(SWIPE_ERROR_CODES.SWIPE_KEYS_EXHAUSTED);
  });

  it('refuses a KSN whose counter has more than ten 1-bits', () => {
    const forged = simulatedSwipeString(VISA, { counter: 0x7ff });
    expect(ksnCounter(ksnForCounter(0x7ff))).toBe(0x7ff);
    expect(refusal(decoder.decode(forged))).toBe(SWIPE_ERROR_CODES.SWIPE_INVALID_KSN);
  });

  it('refuses a swipe without track 1 or track 2 data as a bad read', () => {
    expect(refusal(decoder.decode(simulatedSwipeString(VISA, { counter: 1, badRead: true })))).toBe(
      SWIPE_ERROR_CODES.SWIPE_BAD_READ,
    );
  });

  it('refuses tracks that decrypt to something else than card tracks', () => {
    const garbage = withField(swipe, 2, 'AB'.repeat(48));
    const noTrack2 = withField(garbage, 3, '');
    expect(refusal(decoder.decode(noTrack2))).toBe(SWIPE_ERROR_CODES.SWIPE_UNDECRYPTABLE);
  });

  it('refuses a swipe whose track 1 and track 2 disagree on the expiry as a misread', () => {
    const other = simulatedSwipeString({ pan: '4111111111111111', expMmyy: '0131' }, { counter: 1 });
    expect(refusal(decoder.decode(withField(swipe, 3, field(other, 3))))).toBe(
      SWIPE_ERROR_CODES.SWIPE_MISREAD,
    );
  });

  it('refuses a swipe whose track 1 and track 2 disagree on the card number as a misread', () => {
    const other = simulatedSwipeString({ pan: '4012888888881881', expMmyy: '1230' }, { counter: 1 });
    expect(refusal(decoder.decode(withField(swipe, 3, field(other, 3))))).toBe(
      SWIPE_ERROR_CODES.SWIPE_MISREAD,
    );
  });

  it('refuses a well-read card that is not a payment card', () => {
    const ksn = ksnForCounter(1);
    const key = tdesTrackKey(Buffer.from(ANSI_TEST_BDK, 'hex'), ksn, 'pin');
    const licence = formatSwipeString({
      maskedTracks: '%CAANYTOWN^DOE$JOHN^123 MAIN ST^?',
      encryptionStatus: 0x0006,
      encryptedTracks: [
        tdesCbcEncrypt(key, Buffer.from('%CAANYTOWN^DOE$JOHN^123 MAIN ST^?')),
        Buffer.alloc(0),
        Buffer.alloc(0),
      ],
      magnePrintStatus: Buffer.alloc(4),
      encryptedMagnePrint: Buffer.alloc(0),
      deviceSerial: '',
      encryptedSessionId: Buffer.alloc(8),
      ksn,
      encryptedCrc: Buffer.alloc(0),
      formatCode: '0000',
    });
    expect(refusal(decoder.decode(licence))).toBe(SWIPE_ERROR_CODES.SWIPE_NOT_PAYMENT_CARD);
  });

  it('never puts card data in a refusal', () => {
    const refusals = [
      decoder.decode(flipHexDigit(swipe, 40)),
      decoder.decode(swipe.slice(0, 300)),
      decoder.decode('%B4111111111111111^LOVELACE/ADA^30121010000000000000?'),
      decoder.decode(withField(swipe, 1, '0700')),
      new MagtekSwipeDecoder('00'.repeat(16)).decode(swipe),
    ];
    for (const result of refusals) {
      expect(result.ok).toBe(false);
      expect(Object.keys(result).sort()).toEqual(['errorCode', 'message', 'ok']);
      if (result.ok) continue;
      expect(result.message).not.toMatch(/\d/);
      expect(JSON.stringify(result)).not.toMatch(/4111|LOVELACE|1230|3012/);
    }
  });
});

describe('tracks that do not read cleanly', () => {
  const counter = 21;
  const swipe = simulatedSwipeString(VISA, { counter });
  const TRACK1 = '%B4111111111111111^LOVELACE/ADA^30121010000000000000?';
  const TRACK2 = ';4111111111111111=30121010000000000?';

  /** Hex ciphertext of this text under the swipe's own key: what only a reader with the key can write. */
  function encrypted(clear: string | Buffer): string {
    const key = tdesTrackKey(Buffer.from(ANSI_TEST_BDK, 'hex'), ksnForCounter(counter), 'pin');
    return tdesCbcEncrypt(key, Buffer.isBuffer(clear) ? clear : Buffer.from(clear, 'latin1'))
      .toString('hex')
      .toUpperCase();
  }

  /** One hex digit of a track's ciphertext changed, `from` digits from its start. */
  function altered(trackField: number, from: number): string {
    const hex = field(swipe, trackField);
    return withField(swipe, trackField, flipHexDigit(hex, from));
  }

  it('decodes the swipe these cases start from', () => {
    expect(decoder.decode(swipe)).toMatchObject({ ok: true, pan: VISA.pan, track: 1 });
    expect(decoder.decode(withField(swipe, 2, encrypted(TRACK1)))).toMatchObject({ ok: true, track: 1 });
    expect(decoder.decode(withField(swipe, 3, encrypted(TRACK2)))).toMatchObject({ ok: true, track: 1 });
  });

  it.each([
    ['track 2, first block', 3, 2],
    ['track 2, middle block', 3, 20],
    ['track 2, last block', 3, -3],
    ['track 1, first block', 2, 5],
    ['track 1, last block', 2, -1],
  ])(
    'refuses a swipe with its ciphertext altered in %s and the CRC recomputed as a misread',
    (_where, trackField, from) => {
      const length = field(swipe, trackField).length;
      const forged = altered(trackField, from < 0 ? length + from : from);
      expect(parseSwipeString(forged).ok).toBe(true);
      expect(refusal(decoder.decode(forged))).toBe(SWIPE_ERROR_CODES.SWIPE_MISREAD);
    },
  );

  it.each([
    ['track 2 with a letter in the card number', 3, ';41111111111111O1=30121010000000000?'],
    ['track 2 with a letter in the expiry', 3, ';4111111111111111=3O121010000000000?'],
    ['track 2 with a letter in the service code', 3, ';4111111111111111=3012A010000000000?'],
    ['track 2 with a letter in its discretionary data', 3, ';4111111111111111=301210100000X0000?'],
    ['track 2 without its end sentinel', 3, ';4111111111111111=30121010000000000'],
    ['track 2 with text after its end sentinel', 3, `${TRACK2}ABC`],
    ['track 2 with two end sentinels', 3, `${TRACK2}?`],
    ['track 2 without its start sentinel', 3, '4111111111111111=30121010000000000?'],
    ['track 2 with a lower-case letter', 3, ';4111111111111111=30121010000000000a?'],
    ['track 1 without a field separator', 2, '%B4111111111111111LOVELACE/ADA^30121010000000000000?'],
    ['track 1 with a letter in the card number', 2, '%B41111111111111I1^LOVELACE/ADA^30121010000000000000?'],
    ['track 1 with a letter in the expiry', 2, '%B4111111111111111^LOVELACE/ADA^3O121010000000000000?'],
    ['track 1 with a letter in the service code', 2, '%B4111111111111111^LOVELACE/ADA^3012X010000000000000?'],
    ['track 1 without its end sentinel', 2, '%B4111111111111111^LOVELACE/ADA^30121010000000000000'],
    [
      'track 1 with lower-case letters, which a stripe cannot hold',
      2,
      '%B4111111111111111^lovelace/ada^30121010000000000000?',
    ],
    ['track 1 with a control character', 2, '%B4111111111111111^LOVELACE/ADA\u0007^30121010000000000000?'],
  ])('refuses a swipe with %s, encrypted with the right key, as a misread', (_what, trackField, clear) => {
    expect(refusal(decoder.decode(withField(swipe, trackField, encrypted(clear))))).toBe(
      SWIPE_ERROR_CODES.SWIPE_MISREAD,
    );
  });

  it('refuses padding other than zero bytes after the end sentinel as a misread', () => {
    const padded = Buffer.concat([Buffer.from(TRACK2, 'latin1'), Buffer.from([0, 1])]);
    expect(refusal(decoder.decode(withField(swipe, 3, encrypted(padded))))).toBe(
      SWIPE_ERROR_CODES.SWIPE_MISREAD,
    );
    const block = Buffer.concat([Buffer.from(TRACK2, 'latin1'), Buffer.alloc(11)]);
    expect(refusal(decoder.decode(withField(swipe, 3, encrypted(block))))).toBe(
      SWIPE_ERROR_CODES.SWIPE_MISREAD,
    );
  });

  it('refuses a track 2 that reads well but holds no card number beside a card on track 1', () => {
    expect(refusal(decoder.decode(withField(swipe, 3, encrypted(';1234567890?'))))).toBe(
      SWIPE_ERROR_CODES.SWIPE_MISREAD,
    );
  });

  it('reads a well-formed track 3 beside the card, and refuses a damaged one as a misread', () => {
    for (const track3 of [';5163499080020445=000000000000?', '+5163499080020445=000000000000?']) {
      expect(decoder.decode(withField(swipe, 4, encrypted(track3)))).toMatchObject({
        ok: true,
        pan: VISA.pan,
      });
    }
    expect(refusal(decoder.decode(withField(swipe, 4, 'AB'.repeat(16))))).toBe(
      SWIPE_ERROR_CODES.SWIPE_MISREAD,
    );
    expect(refusal(decoder.decode(withField(swipe, 4, encrypted(';51634990800204X5=0000?'))))).toBe(
      SWIPE_ERROR_CODES.SWIPE_MISREAD,
    );
  });

  it('refuses a swipe whose only readable track is track 3 as a misread, not a key problem', () => {
    const tracks1And2Damaged = withField(
      withField(withField(swipe, 2, 'CD'.repeat(56)), 3, 'EF'.repeat(40)),
      4,
      encrypted(';5163499080020445=000000000000?'),
    );
    expect(refusal(decoder.decode(tracks1And2Damaged))).toBe(SWIPE_ERROR_CODES.SWIPE_MISREAD);
  });

  it('still calls a swipe whose every track fails to decrypt a key problem', () => {
    const bothDamaged = withField(withField(swipe, 2, 'CD'.repeat(56)), 3, 'EF'.repeat(40));
    expect(refusal(decoder.decode(bothDamaged))).toBe(SWIPE_ERROR_CODES.SWIPE_UNDECRYPTABLE);
  });

  it('tells the cashier to swipe again, with no card data in the refusal', () => {
    const result = decoder.decode(altered(3, 2));
    expect(result).toEqual({
      ok: false,
      errorCode: SWIPE_ERROR_CODES.SWIPE_MISREAD,
      message: expect.stringContaining('Swipe again') as string,
    });
    expect(JSON.stringify(result)).not.toMatch(/4111|LOVELACE|1230|3012/);
  });
});

describe('the decoder and its BDK', () => {
  it('refuses a BDK that is not 32 hex digits, without repeating it', () => {
    const bad = '0123456789ABCDEFFEDCBA98765432';
    expect(() => new MagtekSwipeDecoder(bad)).toThrow(RangeError);
    try {
      new MagtekSwipeDecoder(bad);
    } catch (error) {
      expect((error as Error).message).not.toContain(bad);
    }
  });

  it('keeps the BDK out of inspect and JSON', () => {
    const secret = new MagtekSwipeDecoder(ANSI_TEST_BDK);
    expect(inspect(secret, { showHidden: true, depth: 5 })).not.toMatch(/0123456789/i);
    expect(JSON.stringify(secret)).not.toMatch(/0123456789/i);
  });
});

describe('swipe error codes', () => {
  const codes = Object.values(SWIPE_ERROR_CODES);

  it('are eleven distinct codes: 8020 to 8029, and 8031 (8030 was already taken)', () => {
    expect([...codes].sort()).toEqual([
      '8020',
      '8021',
      '8022',
      '8023',
      '8024',
      '8025',
      '8026',
      '8027',
      '8028',
      '8029',
      '8031',
    ]);
  });

  it('are published in the engine catalogue, and no other engine code shares their values', () => {
    const swipeNames = new Set(Object.keys(SWIPE_ERROR_CODES));
    const others = Object.entries(ERROR_CODES).filter(([name]) => !swipeNames.has(name));
    for (const code of codes) {
      expect(Object.values(ERROR_CODES)).toContain(code);
      expect(others.map(([, value]) => value)).not.toContain(code);
    }
  });

  it('each have a meaning and a display message that carry no digits of a card', () => {
    for (const code of codes) {
      expect(SWIPE_ERROR_CODE_MEANINGS[code].length).toBeGreaterThan(10);
      expect(SWIPE_DISPLAY_MESSAGES[code]).toMatch(/\.$/);
      expect(SWIPE_DISPLAY_MESSAGES[code]).not.toMatch(/\d/);
    }
  });
});
