/**
 * Tip adjust before the close: a VOID of a CAPTURE puts its AUTH back among the open tabs, so it can be
 * captured again with another tip; the AUTH never has two captures that are not voided, however the
 * requests race.
 */
import { describe, expect, it } from 'vitest';
import { useGatewayPerTest, VISA, type TestGateway } from '../support/gateway';
import { listItem, post, type Answer, type Format } from '../support/transactions';

const startGatewayForTest = useGatewayPerTest();

const approved = (answer: Answer): string => {
  expect(answer.result, answer.display_message).toBe('Approved');
  return answer.id ?? '';
};

async function liveCaptures(t: TestGateway, authId: string): Promise<string[]> {
  const captures = await t.client.listTransactions({ type: 'Capture', page_size: 100 });
  return captures
    .filter((row) => row.original_id === authId && row.result === 'Approved' && row.voided === 'false')
    .map((row) => row.id);
}

describe('tip adjust', () => {
  for (const format of ['json', 'xml'] as Format[]) {
    it(`void the capture, capture again with the new tip: both rows stay, the batch counts the new one (${format})`, async () => {
      const t = await startGatewayForTest({ tips: true });
      const auth = approved(await post(t, format, { type: 'AUTH', amount: '62.00', ...VISA }));
      const first = approved(
        await post(t, format, { type: 'CAPTURE', id: auth, amount: '62.00', tip_amount: '136.45' }),
      );
      approved(await post(t, format, { type: 'VOID', id: first }));
      const second = approved(
        await post(t, format, { type: 'CAPTURE', id: auth, amount: '62.00', tip_amount: '9.30' }),
      );
      expect(await listItem(t, first)).toMatchObject({ voided: 'true', amount: '198.45' });
      expect(await listItem(t, second)).toMatchObject({
        voided: 'false',
        amount: '71.30',
        tip_amount: '9.30',
      });
      expect(await listItem(t, auth)).toMatchObject({
        captured: 'true',
        voided: 'false',
        capturable: 'false',
      });
      expect(await t.client.openBatch()).toMatchObject({
        sales_count: '1',
        sales_total: '71.30',
        tip_total: '9.30',
      });
      expect(await liveCaptures(t, auth)).toEqual([second]);
    });
  }

  it('two captures racing after a void of the first capture: exactly one wins', async () => {
    const t = await startGatewayForTest({ tips: true });
    for (let round = 0; round < 5; round++) {
      const auth = approved(await post(t, 'json', { type: 'AUTH', amount: '40.00', ...VISA }));
      const first = approved(await post(t, 'json', { type: 'CAPTURE', id: auth, amount: '40.00' }));
      approved(await post(t, 'json', { type: 'VOID', id: first }));
      const answers = await Promise.all(
        ['1.00', '2.00', '3.00', '4.00'].map((tip, i) =>
          post(t, i % 2 === 0 ? 'json' : 'xml', {
            type: 'CAPTURE',
            id: auth,
            amount: '40.00',
            tip_amount: tip,
          }),
        ),
      );
      const winners = answers.filter((answer) => answer.result === 'Approved');
      expect(winners).toHaveLength(1);
      for (const loser of answers.filter((answer) => answer.result !== 'Approved'))
        expect(loser).toMatchObject({ result: 'Rejected', error_code: '8011' });
      expect(await liveCaptures(t, auth)).toEqual([winners[0]?.id]);
    }
  });

  it('a void of the capture racing a void of the AUTH never leaves a voided AUTH with a live capture', async () => {
    const t = await startGatewayForTest();
    for (let round = 0; round < 5; round++) {
      const auth = approved(await post(t, 'json', { type: 'AUTH', amount: '15.00', ...VISA }));
      const capture = approved(await post(t, 'json', { type: 'CAPTURE', id: auth, amount: '15.00' }));
      const [voidCapture, voidAuth] = await Promise.all([
        post(t, 'json', { type: 'VOID', id: capture }),
        post(t, 'xml', { type: 'VOID', id: auth }),
      ]);
      approved(voidCapture);
      const row = await listItem(t, auth);
      if (voidAuth.result === 'Approved') {
        // The capture's void came first: the AUTH was open again, and its void released the hold.
        expect(row).toMatchObject({ voided: 'true', captured: 'false', capturable: 'false' });
      } else {
        expect(voidAuth).toMatchObject({ result: 'Rejected', error_code: '8017' });
        expect(row).toMatchObject({ voided: 'false', captured: 'false', capturable: 'true' });
      }
      expect(await liveCaptures(t, auth)).toEqual([]);
    }
  });

  it('an expired AUTH whose capture is voided cannot be captured again: its hold is gone', async () => {
    const clock = { now: Date.parse('2026-11-01T12:00:00Z') };
    const t = await startGatewayForTest({ engine: { now: () => clock.now } });
    const auth = approved(await post(t, 'json', { type: 'AUTH', amount: '30.00', ...VISA }));
    const capture = approved(await post(t, 'json', { type: 'CAPTURE', id: auth, amount: '30.00' }));
    clock.now += 8 * 86_400_000;
    approved(await post(t, 'json', { type: 'VOID', id: capture }));
    expect(await post(t, 'json', { type: 'CAPTURE', id: auth, amount: '30.00' })).toMatchObject({
      result: 'Rejected',
      error_code: '8030',
    });
    expect(await listItem(t, auth)).toMatchObject({ capturable: 'false', voidable: 'true' });
  });
});

describe('a tip that brings the total past the most an amount may be', () => {
  for (const format of ['json', 'xml'] as Format[]) {
    it(`is refused with 8003 on CAPTURE and FORCED SALE, changing nothing, and a total of exactly the most passes (${format})`, async () => {
      const t = await startGatewayForTest({ tips: true });
      const auth = approved(await post(t, format, { type: 'AUTH', amount: '70.00', ...VISA }));
      const tooMuch = await post(t, format, {
        type: 'CAPTURE',
        id: auth,
        amount: '70.00',
        tip_amount: '999999.99',
      });
      expect(tooMuch).toMatchObject({ result: 'Rejected', error_code: '8003' });
      expect(tooMuch.display_message).toBe(
        'Field Validation: tip_amount brings the total to 1000069.99, and amount and tip_amount together must be at most 999999.99',
      );
      expect(await liveCaptures(t, auth)).toEqual([]);
      expect(await listItem(t, auth)).toMatchObject({ captured: 'false', capturable: 'true' });

      const forced = { type: 'FORCED SALE', ...VISA, authorization_code: 'BIG1' };
      const forcedTooMuch = await post(t, format, { ...forced, amount: '999999.99', tip_amount: '0.01' });
      expect(forcedTooMuch).toMatchObject({ result: 'Rejected', error_code: '8003' });
      const atTheMost = approved(
        await post(t, format, { ...forced, amount: '999999.00', tip_amount: '0.99' }),
      );
      expect(await listItem(t, atTheMost)).toMatchObject({ amount: '999999.99', tip_amount: '0.99' });
      const [found] = await t.client.listTransactions({ amount: '999999.99' });
      expect(found?.id).toBe(atTheMost);
    });
  }
});
