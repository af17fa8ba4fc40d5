/**
 * A counter sale with a tip, as the cashier's screens send it: an AUTH of the total captured at once
 * with the tip as tip_amount, through the screens' idempotent sender, against a real engine. The
 * customer is charged the total once, the tip counts wherever tips are counted, and a SALE still
 * refuses tip_amount. On both stores.
 */
import { describe, expect, it } from 'vitest';
import type { TransactionListItem } from '../../shared/api/schemas';
import { summarize } from '../../renderer/src/batch/batch-summary';
import { byCashier } from '../../renderer/src/batch/cashier-summary';
import { sendTransaction, type PendingTransaction } from '../../renderer/src/payment/run-transaction';
import { firstRequest, holdsCard, settleTipped } from '../../renderer/src/payment/tipped-charge';
import { useTestGateway, VISA } from '../support/gateway';

const api = useTestGateway({ tips: true });

const send = (next: PendingTransaction) => sendTransaction(api.client, next, 'sale');

async function tippedSale(amountCents: number, tipCents: number, serverId?: string) {
  const { request, tipped } = firstRequest(
    { amountCents, tipCents, invoice: 'INV-7', ...(serverId && { serverId }) },
    { ...VISA },
  );
  const first = await send({ request, idempotencyKey: crypto.randomUUID() });
  const outcome = tipped ? await settleTipped(tipped, first, send) : first;
  return { request, tipped, outcome };
}

const byId = async (id: string): Promise<TransactionListItem> => {
  const [item] = await api.client.listTransactions({ id });
  if (!item) throw new Error(`no transaction ${id}`);
  return item;
};

describe('a tipped counter sale', () => {
  it('is an AUTH of the total captured at once with the tip: one charge, the tip counted as a tip', async () => {
    const before = await api.client.openBatch();
    const { request, tipped, outcome } = await tippedSale(4000, 800);
    expect(request).toMatchObject({ type: 'AUTH', amount: '48.00', invoice: 'INV-7' });
    expect(outcome.kind).toBe('approved');
    if (outcome.kind !== 'approved' || !tipped?.authId) throw new Error('not approved');

    // Both requests are listed as the counter sale they are, not as a tab.
    const capture = await byId(outcome.transactionId);
    expect(capture).toMatchObject({
      type: 'Capture',
      amount: '48.00',
      tip_amount: '8.00',
      invoice: 'INV-7',
      counter_sale: 'true',
    });
    const auth = await byId(tipped.authId);
    expect(auth).toMatchObject({ type: 'Auth', amount: '48.00', capturable: 'false', counter_sale: 'true' });
    // The customer's card was charged once: one settling row of the total in the batch.
    const after = await api.client.openBatch();
    expect(Number(after?.sales_count) - Number(before?.sales_count ?? 0)).toBe(1);
    expect(Number(after?.sales_total) - Number(before?.sales_total ?? 0)).toBeCloseTo(48, 2);
    expect(Number(after?.tip_total) - Number(before?.tip_total ?? 0)).toBeCloseTo(8, 2);
    // Not left among the open tabs.
    const tabs = await api.client.listTransactions({ type: 'Auth' });
    expect(tabs.filter((tab) => tab.capturable === 'true').map((tab) => tab.id)).not.toContain(tipped.authId);
  });

  it('counts its tip for the server signed in, for the cashier, and at the end of the day', async () => {
    const { outcome } = await tippedSale(2500, 500, '07');
    if (outcome.kind !== 'approved') throw new Error('not approved');
    const capture = await byId(outcome.transactionId);
    expect(capture).toMatchObject({ server_id: '07', tip_amount: '5.00' });
    // The end-of-day report's lines, made from the open batch's transactions as the screen makes them.
    const batch = await api.client.openBatch();
    const items = await api.client.listTransactions({ batch_id: batch?.id ?? '', page_size: 100 });
    const summary = summarize(items);
    const server = summary.servers.find((line) => line.server === '07');
    expect(server).toMatchObject({ count: 1, salesCents: 3000, tipCents: 500 });
    // A sale, not a captured tab: no tab was captured in this batch.
    expect(summary.types.find((line) => line.type === 'Capture')?.count).toBe(0);
    expect(summary.types.find((line) => line.type === 'Sale')?.tipCents).toBe(summary.tipCents);
    expect(summary.tipCents).toBe(Math.round(Number(batch?.tip_total) * 100));
    const cashier = byCashier(items).find((line) => line.cashier === capture.cashier);
    expect(cashier?.tipCents).toBeGreaterThanOrEqual(500);
    expect(byCashier(items).reduce((sum, line) => sum + line.tipCents, 0)).toBe(summary.tipCents);
  });

  it('prints as the SALE the customer made, with its tip, never as a tab', async () => {
    const { outcome } = await tippedSale(1850, 350);
    if (outcome.kind !== 'approved') throw new Error('not approved');
    const receipt = await api.client.receipt(outcome.transactionId);
    expect(receipt.title).toBe('SALE');
    expect(receipt.lines.join('\n')).not.toMatch(/TAB|CAPTURE|^Tab /m);
    expect(receipt.amounts).toEqual([
      { label: 'AMOUNT', value: '$18.50' },
      { label: 'TIP', value: '$3.50' },
      { label: 'TOTAL', value: '$22.00' },
    ]);
  });

  it('without a tip is a SALE, as always, and a SALE still refuses tip_amount', async () => {
    const { request, tipped, outcome } = await tippedSale(1250, 0);
    expect(request).toMatchObject({ type: 'SALE', amount: '12.50' });
    expect(tipped).toBeUndefined();
    expect(outcome.kind).toBe('approved');
    const refused = await api.client.createTransaction({
      type: 'SALE',
      amount: '12.50',
      tip_amount: '2.00',
      ...VISA,
    });
    expect(refused.result).toBe('Rejected');
  });

  it('a capture refused after its AUTH says the card holds the total as a tab, which stays open to finish', async () => {
    const { request, tipped } = firstRequest({ amountCents: 2000, tipCents: 300 }, { ...VISA });
    const authorized = await send({ request, idempotencyKey: crypto.randomUUID() });
    // Tips turned off between the two: the capture's tip_amount is refused.
    await api.gateway.engine.settings.setFromText('tips_enabled', 'false');
    try {
      if (!tipped) throw new Error('no tip');
      const outcome = await settleTipped(tipped, authorized, send);
      expect(outcome).toMatchObject({
        kind: 'error',
        message: expect.stringContaining(`The card holds $23.00 as tab #${tipped.authId}`),
        nextStep: expect.stringContaining('Do not take another card'),
      });
      expect(holdsCard(tipped)).toBe(true);
      expect(await byId(tipped.authId ?? '')).toMatchObject({ type: 'Auth', capturable: 'true' });
    } finally {
      await api.gateway.engine.settings.setFromText('tips_enabled', 'true');
    }
  });

  it('a declined AUTH is the sale’s answer, and nothing is captured', async () => {
    const { request, tipped } = firstRequest(
      { amountCents: 2000, tipCents: 300 },
      { card: '4000000000000002', exp_date: '1230' },
    );
    const declined = await send({ request, idempotencyKey: crypto.randomUUID() });
    if (!tipped) throw new Error('no tip');
    const outcome = await settleTipped(tipped, declined, send);
    expect(outcome.kind).toBe('declined');
    expect(holdsCard(tipped)).toBe(false);
  });
});
