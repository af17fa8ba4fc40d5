/**
 * The duplicate prompt for a charge the counter has no record of, in Debian's Chromium against a real
 * engine relaying to a real gateway behind the fault proxy: the gateway refuses a sale as a possible
 * duplicate (8033) of a charge made on its account elsewhere, and the cashier is still asked, with
 * Don't charge as Enter's answer and Charge again sending the sale past the gateway's check.
 * Screenshots are saved as test-results/gateway-duplicates-*.png and checked with axe.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { relaySettings } from '../support/relay';
import { startUpstreamGateway, type UpstreamGateway } from '../support/upstream-gateway';
import { startCounter, type Counter, type CounterPage } from './counter-page';

let counter: Counter;
let upstream: UpstreamGateway;

beforeAll(async () => {
  upstream = await startUpstreamGateway({ duplicateWindowMinutes: 2 });
  counter = await startCounter();
  await counter.screens.running.gateway.engine.settings.change(relaySettings(upstream));
}, 180_000);
afterAll(async () => {
  await counter?.close();
  await upstream?.close();
});

const VISA = { card: '4111111111111111', exp_date: '1230' };

async function keyedSale(cashier: CounterPage, digits: string): Promise<void> {
  await cashier.tapAmount(digits);
  await cashier.chargeAndKeyIn();
  await cashier.fillCard({ number: VISA.card, expiry: VISA.exp_date });
  await cashier.submitCard();
}

describe('a possible duplicate the merchant’s gateway finds', () => {
  it('asks the cashier though the earlier charge was made elsewhere, and charges again only once confirmed', async () => {
    // A charge on the gateway's account that this counter never saw.
    const elsewhere = await upstream.gateway.client.createTransaction({
      type: 'SALE',
      amount: '21.00',
      ...VISA,
    });
    expect(elsewhere.result).toBe('Approved');

    const cashier = await counter.open('gateway-duplicates');
    const { page } = cashier;
    await keyedSale(cashier, '2100');
    const dialog = page.getByTestId('confirm-dialog');
    await dialog.waitFor();
    await expect
      .poll(() => page.getByTestId('duplicate-question').textContent())
      .toBe('Possible duplicate: $21.00 on Visa 1111. Charge again?');
    expect(await dialog.textContent()).toContain('a charge this counter has no record of');
    await cashier.check('01-prompt');
    // Enter, from a cashier who has not read the question, charges nothing.
    await cashier.stepSettled();
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    expect(await cashier.outcome()).toBe('rejected');
    expect(await page.getByTestId('result-message').textContent()).toBe(
      "The merchant's gateway says Visa 1111 already paid this amount moments ago, so this charge was not sent again.",
    );
    const [refused] = await counter.screens.client.listTransactions({ page_size: 1 });
    expect(refused).toMatchObject({ result: 'Rejected', error_code: '8033', amount: '21.00' });
    await cashier.check('02-not-charged');

    await page.getByRole('button', { name: 'New sale' }).click();
    await keyedSale(cashier, '2100');
    await dialog.waitFor();
    await cashier.stepSettled();
    await dialog.getByRole('button', { name: 'Charge again' }).click();
    await dialog.waitFor({ state: 'detached' });
    await cashier.expectApproved();
    const [charged] = await counter.screens.client.listTransactions({ page_size: 1 });
    expect(charged).toMatchObject({ result: 'Approved', amount: '21.00', card: '************1111' });
    expect(charged?.upstream_id).not.toBe('');
    // The gateway has both charges: the one made elsewhere and the one the cashier confirmed.
    const atGateway = await upstream.gateway.client.listTransactions({ type: 'Sale', result: 'Approved' });
    expect(atGateway.map((item) => item.id).sort()).toEqual([elsewhere.id, charged?.upstream_id].sort());
  });
});
