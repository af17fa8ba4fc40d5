/**
 * The cardholder name of a swipe is kept only when it is a name: one that holds a card number, or a
 * character no stripe name can, gives none, on every path a swipe is read by (decrypted here, read
 * from its masked tracks for the merchant's gateway, shown on the counter's screen), and the swipe
 * still reads.
 */
import { describe, expect, it } from 'vitest';
import { CardIntake } from '../../electron/gateway/card-intake';
import { ANSI_TEST_BDK } from '../../electron/gateway/crypto/dukpt';
import type { LedgerLookups } from '../../electron/gateway/store/ledger-store';
import { MagtekSwipeDecoder } from '../../electron/gateway/swipe/decoder';
import { readMaskedSwipe } from '../../electron/gateway/swipe/masked';
import type { SwipeDecoder } from '../../electron/gateway/swipe/swipe-decoder';
import { parseCardholderName, parseTrack1 } from '../../electron/gateway/swipe/tracks';
import { parseReport } from '../../electron/reader/reports';
import {
  generateMagneSafeReport,
  simulatedSwipeString,
  type TestCard,
} from '../../electron/reader/simulator';
import { swipeDisplay } from '../../electron/reader/swipe-string';

const decoder = new MagtekSwipeDecoder(ANSI_TEST_BDK);
/** The card charged; the numbers written as its name are others, so that a find is the name's. */
const PAN = '4556737586899855';
const NAME_NUMBER = '4012888888881881';

/** Name fields (SURNAME/GIVEN) that spell NAME_NUMBER, however its digits are cut. */
const NUMBER_NAMES: { lastName: string; firstName: string }[] = [
  { lastName: NAME_NUMBER, firstName: 'X' },
  { lastName: 'X', firstName: NAME_NUMBER },
  { lastName: '4012 8888 8888 1881', firstName: 'X' },
  { lastName: '4012-8888-8888-1881', firstName: 'X' },
  // Across the field separator: surname then given name, and the given name then surname (as a
  // receipt prints them).
  { lastName: '4012 8888', firstName: '8888 1881' },
  { lastName: '8888 1881', firstName: '4012 8888' },
];

const card = (name: { lastName: string; firstName: string }): TestCard => ({
  pan: PAN,
  expMmyy: '1230',
  ...name,
});

describe('a name field that holds a card number', () => {
  it.each(NUMBER_NAMES)(
    'gives no name when decrypted, and the card still reads: $lastName/$firstName',
    (name) => {
      const read = decoder.decode(simulatedSwipeString(card(name), { counter: 40 }));
      expect(read).toMatchObject({ ok: true, pan: PAN, expMmyy: '1230' });
      expect(read).not.toHaveProperty('firstName');
      expect(read).not.toHaveProperty('lastName');
    },
  );

  it.each(NUMBER_NAMES)(
    'gives no name from the masked tracks, nor on the screen: $lastName/$firstName',
    (name) => {
      const read = readMaskedSwipe(simulatedSwipeString(card(name), { counter: 41 }));
      expect(read).toMatchObject({ ok: true, masked: { lastFour: '9855' }, expMmyy: '1230' });
      expect(read).not.toHaveProperty('firstName');
      expect(read).not.toHaveProperty('lastName');

      const parsed = parseReport(generateMagneSafeReport(card(name), { counter: 42 }));
      if (!parsed.ok || parsed.report.kind !== 'magnesafe') throw new Error('the report does not parse');
      const shown = swipeDisplay(parsed.report);
      expect(shown).toMatchObject({ lastFour: '9855' });
      expect(shown).not.toHaveProperty('cardholderName');
      expect(shown).not.toHaveProperty('firstName');
      expect(shown).not.toHaveProperty('lastName');
    },
  );

  it('is a name when its digits are too few to be a card number, or are broken by letters', () => {
    expect(parseCardholderName('SMITH 3RD/JO')).toEqual({ lastName: 'SMITH 3RD', firstName: 'JO' });
    // 16 digits that fail the Luhn check, and begin as no card brand's numbers do.
    expect(parseCardholderName('9012888888881882/X')).toEqual({
      lastName: '9012888888881882',
      firstName: 'X',
    });
    expect(parseCardholderName('4012 8888 A 8888 1881/X')).toMatchObject({ firstName: 'X' });
  });
});

describe('a name field with a character no stripe name holds', () => {
  it.each([
    'LOVE\u0007LACE/ADA',
    'LOVELACE/ADA\u0000',
    'LOVELACE/ADA\t\u000B.MS',
    'LOVE\u0085LACE/ADA',
    'Lovelace/Ada',
  ])('gives no name from a masked track: %j', (name) => {
    expect(parseTrack1(`%B4556000000009855^${name}^3012000000000000000?`, { masked: true })).toEqual({
      pan: '4556000000009855',
      expYymm: '3012',
      name: {},
    });
  });

  it("gives no name on the counter's screen, which reads the reader's masked tracks as they came", () => {
    const parsed = parseReport(
      generateMagneSafeReport(
        { pan: PAN, expMmyy: '1230', lastName: 'LOVE\u0007LACE', firstName: 'ADA' },
        { counter: 43 },
      ),
    );
    if (!parsed.ok || parsed.report.kind !== 'magnesafe') throw new Error('the report does not parse');
    const shown = swipeDisplay(parsed.report);
    expect(shown).toMatchObject({ lastFour: '9855', expMmyy: '1230' });
    expect(shown).not.toHaveProperty('cardholderName');
  });

  it('leaves a stripe name as it is otherwise', () => {
    expect(
      parseTrack1("%B4556000000009855^O'BRIEN-SMITH/MARY J.DR^3012000000000000000?", { masked: true }),
    ).toMatchObject({ name: { lastName: "O'BRIEN-SMITH", firstName: 'MARY J' } });
  });
});

describe('card intake', () => {
  const noLedger = { isSwipeKsnUsed: async () => false } as unknown as LedgerLookups;
  /** A reader of swipes that hands the name on as it came, as any SwipeDecoder might. */
  const naive = (firstName: string, lastName: string): SwipeDecoder => ({
    decode: () => ({ ok: true, pan: PAN, expMmyy: '1230', firstName, lastName, ksn: 'FFFF9876543210E00044' }),
  });
  const read = (swipes: SwipeDecoder) =>
    new CardIntake(noLedger, swipes, () => Date.UTC(2026, 0, 15), Buffer.alloc(32, 9)).read({
      entry: 'swiped',
      trackData: 'a swipe',
      trackFormat: 'MAGTEK',
      keyedToo: false,
      csc: undefined,
      billing: undefined,
    });

  it('keeps no name that holds a card number or a control character, whichever decoder read it', async () => {
    expect((await read(naive('X', `${NAME_NUMBER.slice(0, 8)} ${NAME_NUMBER.slice(8)}`))).names).toEqual({});
    expect((await read(naive('8888 1881', '4012 8888'))).names).toEqual({});
    expect((await read(naive('ADA', 'LOVE\nLACE'))).names).toEqual({});
    expect((await read(naive('ADA', 'LOVELACE'))).names).toEqual({ firstName: 'ADA', lastName: 'LOVELACE' });
  });
});
