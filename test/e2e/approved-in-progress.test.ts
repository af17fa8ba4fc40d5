/**
 * A void whose answer was lost while the card gateway still had it, in Debian's Chromium against a
 * real engine: Check again before the first try is answered says it is still processing, as the API's
 * 409 does, never that nothing was done; once answered, Check again shows it voided, once.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ATTEMPT_JOURNAL_FILE } from '../../electron/bridge/terminal';
import { startCounter, type Counter } from './counter-page';

let counter: Counter;
/** Lets go of a request the engine holds, should a test stop before it does. */
let releaseHeld = (): void => undefined;

beforeAll(async () => {
  counter = await startCounter();
});
afterEach(async () => {
  releaseHeld();
  vi.restoreAllMocks();
  await counter?.closePages();
});
afterAll(() => counter?.close());

describe('Check again while a void is still with the engine', () => {
  it('says it is still processing and keeps Check again, then shows it voided once', async () => {
    const sale = await counter.screens.client.createTransaction({
      type: 'SALE',
      amount: '12.40',
      card: '4111111111111111',
      exp_date: '1230',
    });
    const id = sale.id ?? '';
    const cashier = await counter.open('approved-in-progress');
    const { page } = cashier;

    // The engine holds the void, as a card gateway that has not answered yet holds it.
    const ledger = counter.screens.running.gateway.engine.ledger;
    const findAnswer = ledger.findAnswer.bind(ledger);
    let inside!: () => void;
    const held = new Promise<void>((resolve) => (inside = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    releaseHeld = release;
    vi.spyOn(ledger, 'findAnswer').mockImplementationOnce(async (...args) => {
      inside();
      await released;
      return findAnswer(...args);
    });
    // The void reaches the host; the bridge drops while the engine still holds it.
    let voids = 0;
    await page.routeWebSocket(/\/bridge/, (socket) => {
      const host = socket.connectToServer();
      socket.onMessage((message) => {
        host.send(message);
        const sent = JSON.parse(String(message)) as { channel?: string };
        if (sent.channel !== 'counter:approved-transaction') return;
        voids += 1;
        if (voids === 1) void held.then(() => socket.close());
      });
      host.onMessage((message) => socket.send(message));
    });
    await page.reload();
    await cashier.goTo('Refund & void');
    await page.getByTestId(`transaction-${id}`).click();
    const details = page.getByTestId('transaction-details');
    await details.getByRole('button', { name: `Void sale #${id}` }).click();
    await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Void it' }).click();

    const outcome = page.getByTestId('outcome');
    const checkAgain = outcome.getByRole('button', { name: 'Check again' });
    await outcome.and(page.locator('[data-outcome="unknown"]')).waitFor();
    await checkAgain.click();
    await expect.poll(() => voids).toBe(2);
    await outcome.getByRole('heading', { name: 'Still processing' }).waitFor();
    expect(await outcome.textContent()).not.toContain('Nothing was done');
    expect(await checkAgain.count()).toBe(1);
    // The journal still has it: were Tender to stop now, it would be shown with its outcome at the next start.
    expect(readFileSync(join(counter.screens.dataDir, ATTEMPT_JOURNAL_FILE), 'utf8')).toContain(
      `Transaction #${id}`,
    );
    cashier.problems.splice(0);
    await cashier.check('01-still-processing');

    release();
    await checkAgain.click();
    await outcome.and(page.locator('[data-outcome="approved"]')).waitFor();
    const voided = await counter.screens.client.listTransactions({ type: 'void', page_size: 5 });
    expect(voided.filter((item) => item.original_id === id)).toHaveLength(1);
  });
});
