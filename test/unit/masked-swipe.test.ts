/**
 * A swipe read without the reader's key, for a gateway that decrypts it: the card comes from the
 * masked tracks, the checks that need no key still refuse a bad swipe, and card intake sends the
 * swipe on untouched and keeps no more than the masked card.
 */
import { describe, expect, it } from 'vitest';
import { CardIntake } from '../../electron/gateway/card-intake';
import { ENCRYPTION_STATUS } from '../../electron/gateway/swipe/format';
import { MASKED_SWIPE_READER, readMaskedSwipe } from '../../electron/gateway/swipe/masked';
import { simulatedSwipeString, type TestCard } from '../../electron/reader/simulator';
import { parseReport } from '../../electron/reader/reports';
import { buildSwipeString } from '../../electron/reader/swipe-string';
import { readSampleReport, SAMPLE } from '../fixtures/magtek-sample';
import type { LedgerLookups } from '../../electron/gateway/store/ledger-store';
import { Rejection, type CardEntry } from '../../electron/gateway/validation';

const VISA: TestCard = { pan: '4111111111111111', expMmyy: '1230', firstName: 'Ada', lastName: 'Lovelace' };
const AMEX: TestCard = { pan: '371449635398431', expMmyy: '0931' };

describe('a swipe read without the key', () => {
  it('shows the masked card: first four and last four, length, expiry, name and KSN', () => {
    const read = readMaskedSwipe(simulatedSwipeString(VISA, { counter: 3 }));
    expect(read).toEqual({
      ok: true,
      masked: { leadingDigits: '4111', lastFour: '1111', length: 16 },
      expMmyy: '1230',
      firstName: 'ADA',
      lastName: 'LOVELACE',
      ksn: 'FFFF9876543210E00003',
    });
    expect(JSON.stringify(read)).not.toContain(VISA.pan);
  });

  it("reads the MagneSafe manual's sample swipe as its masked tracks show it", () => {
    const parsed = parseReport(readSampleReport());
    if (!parsed.ok || parsed.report.kind !== 'magnesafe') throw new Error('the sample report does not parse');
    const read = readMaskedSwipe(buildSwipeString(parsed.report));
    expect(read).toMatchObject({
      ok: true,
      masked: { leadingDigits: '5452', lastFour: SAMPLE.pan.slice(-4), length: 16 },
      expMmyy: SAMPLE.expMmyy,
      lastName: 'HOGAN',
      firstName: 'PAUL',
      ksn: SAMPLE.ksn,
    });
  });

  it('still refuses what can be told without the key: tampering, clear tracks, an exhausted reader', () => {
    const swipe = simulatedSwipeString(VISA, { counter: 4 });
    const tampered = swipe.replace('LOVELACE', 'LOVELACF');
    expect(readMaskedSwipe(tampered)).toMatchObject({ ok: false, errorCode: '8021' });
    expect(readMaskedSwipe('%B4111111111111111^LOVELACE/ADA^3012101?')).toMatchObject({
      ok: false,
      errorCode: '8023',
    });
    const exhausted = simulatedSwipeString(VISA, {
      counter: 5,
      encryptionStatus:
        ENCRYPTION_STATUS.KEY_INJECTED |
        ENCRYPTION_STATUS.ENCRYPTION_ENABLED |
        ENCRYPTION_STATUS.KEYS_EXHAUSTED,
    });
    expect(readMaskedSwipe(exhausted)).toMatchObject({ ok: false, errorCode: '8024' });
    expect(readMaskedSwipe(simulatedSwipeString(VISA, { counter: 6, badRead: true }))).toMatchObject({
      ok: false,
    });
  });
});

describe('card intake of a swipe for the gateway', () => {
  // Card intake asks the ledger only whether a KSN was used; none was.
  const noLedger: LedgerLookups = {
    isSwipeKsnUsed: async () => false,
  } as unknown as LedgerLookups;
  const intake = new CardIntake(
    noLedger,
    MASKED_SWIPE_READER,
    () => Date.UTC(2026, 0, 15),
    Buffer.alloc(32, 9),
  );
  const entry = (trackData: string, csc?: string): CardEntry => ({
    entry: 'swiped',
    trackData,
    trackFormat: 'MAGTEK',
    keyedToo: false,
    csc,
    billing: undefined,
  });

  it('sends the swipe on as it came and keeps only the masked card', async () => {
    const swipe = simulatedSwipeString(AMEX, { counter: 9 });
    const card = await intake.read(entry(swipe, '1234'));
    expect(card.details).toEqual({
      entryMode: 'swiped',
      encryptedSwipe: { trackData: swipe, trackFormat: 'MAGTEK' },
      expiry: { month: 9, year: 2031 },
      csc: '1234',
    });
    expect(card.row).toMatchObject({
      cardLastFour: '8431',
      cardLength: 15,
      cardBrand: 'amex',
      entryMode: 'swiped',
      swipeKsn: 'FFFF9876543210E00009',
    });
    expect(card.row.cardHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(card.row)).not.toContain(AMEX.pan);
  });

  it('checks the expiry and the security code length from what the masked tracks show', async () => {
    const expired = simulatedSwipeString({ ...VISA, expMmyy: '1225' }, { counter: 10 });
    await expect(intake.read(entry(expired))).rejects.toMatchObject({ errorCode: '8000' });
    const rejection = await intake
      .read(entry(simulatedSwipeString(VISA, { counter: 11 }), '1234'))
      .catch((error: unknown) => error);
    expect(rejection).toBeInstanceOf(Rejection);
    expect(rejection).toMatchObject({ errorCode: '8007' });
  });

  it('takes two swipes of one card for the same card, and of another card for another', async () => {
    const first = await intake.read(entry(simulatedSwipeString(VISA, { counter: 12 })));
    const again = await intake.read(entry(simulatedSwipeString(VISA, { counter: 13 })));
    const other = await intake.read(
      entry(simulatedSwipeString({ ...VISA, pan: '4012888888881881' }, { counter: 14 })),
    );
    expect(again.row.cardHash).toBe(first.row.cardHash);
    expect(other.row.cardHash).not.toBe(first.row.cardHash);
  });
});
