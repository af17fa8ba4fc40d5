/**
 * The duplicate check over real HTTPS: the same card for the same amount (tip included) as an
 * approved, unvoided SALE, AUTH or FORCED SALE within duplicate_window_minutes is Rejected with 8033
 * naming the earlier one, unless the request sends duplicate_override true.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { simulatedSwipeString, type TestCard } from '../../electron/reader/simulator';
import {
  DECLINED_CARD,
  MASTERCARD,
  recentAudit,
  startTestGateway,
  VISA,
  type TestGateway,
  type TestGatewayOptions,
} from '../support/gateway';
import { listItem, post, postJson, postXml, type Answer, type Format } from '../support/transactions';
import { queryLedger } from '../support/ledger-rows';

const FORMATS: Format[] = ['json', 'xml'];
const MINUTE = 60_000;

const running: TestGateway[] = [];
afterEach(async () => {
  for (const t of running.splice(0)) await t.close();
});

/** A gateway with the duplicate check at its default window, and a clock the test moves. */
async function gateway(options: TestGatewayOptions = {}) {
  const clock = { now: Date.parse('2026-11-24T12:00:00Z') };
  const t = await startTestGateway({
    duplicateWindowMinutes: 2,
    tips: true,
    engine: { now: () => clock.now },
    ...options,
  });
  running.push(t);
  return { t, clock };
}

const approvedId = (answer: Answer): string => {
  expect(answer.result, answer.display_message).toBe('Approved');
  return answer.id ?? '';
};

function expectDuplicateOf(answer: Answer, earlierId: string): void {
  expect(answer).toMatchObject({ result: 'Rejected', error_code: '8033', duplicate_of: earlierId });
  expect(answer.id).toBeUndefined();
  expect(answer.display_message).toContain(`transaction ${earlierId}`);
  expect(answer.display_message).toMatch(/at 2026-11-24T\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d/);
  expect(answer.display_message).toContain('duplicate_override');
}

describe('the duplicate check', () => {
  for (const format of FORMATS) {
    it(`refuses the same card and amount within the window, naming the earlier one (${format})`, async () => {
      const { t, clock } = await gateway();
      const first = approvedId(await post(t, format, { type: 'SALE', amount: '25.00', ...VISA }));
      clock.now += 90_000;
      const again = await post(t, format, { type: 'SALE', amount: '25.00', ...VISA });
      expectDuplicateOf(again, first);
      expect(again.display_message).toContain('25.00');
      expect(again.display_message).toContain('1111');
      // The refused attempt is kept, masked, and points at the charge it would have repeated.
      const [newest] = await t.client.listTransactions({ page_size: 1 });
      expect(newest).toMatchObject({
        result: 'Rejected',
        error_code: '8033',
        card: '************1111',
        original_id: first,
      });
    });
  }

  it('an AUTH or a FORCED SALE repeating a SALE is a duplicate too; the tip counts in the amount', async () => {
    const { t } = await gateway();
    const sale = approvedId(await postJson(t, { type: 'SALE', amount: '30.00', ...VISA }));
    expectDuplicateOf(await postJson(t, { type: 'AUTH', amount: '30.00', ...VISA }), sale);
    expectDuplicateOf(
      await postJson(t, {
        type: 'FORCED SALE',
        amount: '25.00',
        tip_amount: '5.00',
        authorization_code: 'VOICE1',
        ...VISA,
      }),
      sale,
    );
    // 25.00 without the tip is another amount.
    approvedId(
      await postJson(t, { type: 'FORCED SALE', amount: '25.00', authorization_code: 'V2', ...VISA }),
    );
  });

  it('another amount or another card is no duplicate, and neither is a capture of the AUTH', async () => {
    const { t } = await gateway();
    const auth = approvedId(await postJson(t, { type: 'AUTH', amount: '40.00', ...VISA }));
    approvedId(await postJson(t, { type: 'SALE', amount: '40.01', ...VISA }));
    approvedId(await postJson(t, { type: 'SALE', amount: '40.00', ...MASTERCARD }));
    approvedId(await postJson(t, { type: 'CAPTURE', id: auth, amount: '40.00' }));
  });

  it('past the window the same charge goes through; at its edge it is still refused', async () => {
    const { t, clock } = await gateway();
    const first = approvedId(await postJson(t, { type: 'SALE', amount: '12.00', ...VISA }));
    clock.now += 2 * MINUTE;
    expectDuplicateOf(await postJson(t, { type: 'SALE', amount: '12.00', ...VISA }), first);
    clock.now += 1;
    approvedId(await postJson(t, { type: 'SALE', amount: '12.00', ...VISA }));
  });

  it('follows duplicate_window_minutes: 10 widens it, 0 turns the check off', async () => {
    const { t, clock } = await gateway();
    await t.gateway.engine.settings.setFromText('duplicate_window_minutes', '10');
    const first = approvedId(await postJson(t, { type: 'SALE', amount: '8.00', ...VISA }));
    clock.now += 9 * MINUTE;
    expectDuplicateOf(await postJson(t, { type: 'SALE', amount: '8.00', ...VISA }), first);
    await t.gateway.engine.settings.setFromText('duplicate_window_minutes', '0');
    approvedId(await postJson(t, { type: 'SALE', amount: '8.00', ...VISA }));
    approvedId(await postJson(t, { type: 'SALE', amount: '8.00', ...VISA }));
  });

  it('declined, rejected and voided charges never count as the first of a duplicate', async () => {
    const { t } = await gateway();
    const declined = await postJson(t, { type: 'SALE', amount: '9.00', ...DECLINED_CARD });
    expect(declined.result).toBe('Declined');
    expect((await postJson(t, { type: 'SALE', amount: '9.00', ...DECLINED_CARD })).result).toBe('Declined');
    // Rejected (an expired card date): nothing was charged.
    expect(
      (await postJson(t, { type: 'SALE', amount: '9.00', card: VISA.card, exp_date: '0120' })).result,
    ).toBe('Rejected');
    const sale = approvedId(await postJson(t, { type: 'SALE', amount: '9.00', ...VISA }));
    approvedId(await postJson(t, { type: 'VOID', id: sale }));
    approvedId(await postJson(t, { type: 'SALE', amount: '9.00', ...VISA }));
  });

  for (const [how, value] of [
    ['a JSON boolean', true],
    ['the string "true"', 'true'],
  ] as const) {
    it(`duplicate_override as ${how} charges again, and the audit log records it`, async () => {
      const { t } = await gateway();
      const first = approvedId(await postJson(t, { type: 'SALE', amount: '15.00', ...VISA }));
      const again = approvedId(
        await postJson(t, { type: 'SALE', amount: '15.00', ...VISA, duplicate_override: value }),
      );
      const [entry] = await recentAudit(t, 1);
      expect(entry).toMatchObject({ action: 'duplicate_override', subject: `transaction ${again}` });
      expect(entry?.detail).toContain(`possible duplicate ${first}`);
      expect(entry?.actor).toMatch(/^API key [0-9a-f]+ "test suite"$/);
    });
  }

  it('duplicate_override in XML, and false, which changes nothing', async () => {
    const { t } = await gateway();
    const first = approvedId(await postXml(t, { type: 'AUTH', amount: '22.00', ...VISA }));
    expectDuplicateOf(
      await postXml(t, { type: 'AUTH', amount: '22.00', ...VISA, duplicate_override: 'false' }),
      first,
    );
    approvedId(await postXml(t, { type: 'AUTH', amount: '22.00', ...VISA, duplicate_override: 'true' }));
    expect((await recentAudit(t, 1))[0]?.action).toBe('duplicate_override');
  });

  it('an override with no duplicate to go past leaves no audit entry', async () => {
    const { t } = await gateway();
    approvedId(await postJson(t, { type: 'SALE', amount: '3.00', ...VISA, duplicate_override: true }));
    expect((await recentAudit(t, 5)).map((entry) => entry.action)).not.toContain('duplicate_override');
  });

  it('duplicate_override on a follow-up is refused (8009); a malformed one is refused (8004)', async () => {
    const { t } = await gateway();
    const sale = approvedId(await postJson(t, { type: 'SALE', amount: '6.00', ...VISA }));
    const onVoid = await postJson(t, { type: 'VOID', id: sale, duplicate_override: true });
    expect(onVoid).toMatchObject({ result: 'Rejected', error_code: '8009' });
    expect(onVoid.display_message).toMatch(
      /duplicate_override applies to SALE and AUTH and FORCED SALE only/,
    );
    const malformed = await postJson(t, { type: 'SALE', amount: '6.00', ...VISA, duplicate_override: 'yes' });
    expect(malformed).toMatchObject({ result: 'Rejected', error_code: '8004' });
    expect((await listItem(t, sale)).voided).toBe('false');
  });

  it('a keyed card and the same card swiped are the same card', async () => {
    const { t } = await gateway();
    const card: TestCard = { pan: VISA.card, expMmyy: '1230', firstName: 'PAT', lastName: 'MORGAN' };
    const keyed = approvedId(await postJson(t, { type: 'SALE', amount: '18.40', ...VISA }));
    const swiped = await postJson(t, {
      type: 'SALE',
      amount: '18.40',
      encrypted_track_data: simulatedSwipeString(card, { counter: 7 }),
      track_format: 'MAGTEK',
    });
    expectDuplicateOf(swiped, keyed);
  });

  it('identical charges sent at once: one is approved, every other one is refused as its duplicate', async () => {
    const { t } = await gateway();
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        post(t, i % 2 === 0 ? 'json' : 'xml', { type: 'SALE', amount: '50.00', ...VISA }),
      ),
    );
    const approved = answers.filter((answer) => answer.result === 'Approved');
    expect(approved).toHaveLength(1);
    for (const answer of answers.filter((each) => each.result !== 'Approved'))
      expectDuplicateOf(answer, approved[0]?.id ?? '');
    const open = await t.client.openBatch();
    expect(open).toMatchObject({ sales_count: '1', sales_total: '50.00' });
  });

  it('keeps a keyed hash of the card, never the number, and not a hash anyone could recompute', async () => {
    const { t } = await gateway();
    approvedId(await postJson(t, { type: 'SALE', amount: '2.00', ...VISA }));
    await t.gateway.close();
    const rows = await queryLedger(t, 'SELECT * FROM transactions');
    const hashes = rows.map((row) => row.card_hash);
    expect(hashes.every((hash) => typeof hash === 'string' && /^[0-9a-f]{64}$/.test(hash))).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(VISA.card);
    const { createHash } = await import('node:crypto');
    expect(hashes).not.toContain(createHash('sha256').update(VISA.card).digest('hex'));
  });
});
