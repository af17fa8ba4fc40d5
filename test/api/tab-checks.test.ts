/**
 * A check is what the guest writes the tip on before the tab is captured, so GET
 * /transactions/{id}/receipt?copy=check answers one only for an open tab. A sale tipped at the
 * counter opened no tab, and its amount already has the tip; a captured tab has its tip. A check of
 * either would ask the customer for a second tip, so both are refused with 409 not_a_tab, saying why.
 */
import { describe, expect, it } from 'vitest';
import { sendTransaction, type PendingTransaction } from '../../renderer/src/payment/run-transaction';
import { firstRequest, settleTipped } from '../../renderer/src/payment/tipped-charge';
import { COUNTER_SALE_WITH_TIP } from '../../shared/tips';
import { useTestGateway, VISA } from '../support/gateway';

const api = useTestGateway({ tips: true });
const send = (next: PendingTransaction) => sendTransaction(api.client, next, 'sale');

const receipt = (id: string, query: string, accept = 'application/json') =>
  api.request(`transactions/${id}/receipt${query}`, { headers: { api_key: api.key, accept } });

/** A $40.00 sale with an $8.00 tip, as the counter's screens charge it: the AUTH of $48.00, then its capture. */
async function tippedCounterSale(): Promise<{ authId: string; captureId: string }> {
  const { request, tipped } = firstRequest({ amountCents: 4000, tipCents: 800 }, { ...VISA });
  const first = await send({ request, idempotencyKey: crypto.randomUUID() });
  const outcome = tipped ? await settleTipped(tipped, first, send) : first;
  expect(outcome.kind).toBe('approved');
  if (outcome.kind !== 'approved' || tipped?.authId === undefined)
    throw new Error('the sale was not approved');
  return { authId: tipped.authId, captureId: outcome.transactionId };
}

describe('the check of a tab', () => {
  it('is refused for the AUTH of a sale tipped at the counter, which opened no tab', async () => {
    const { authId, captureId } = await tippedCounterSale();
    const json = await receipt(authId, '?copy=check');
    expect(json.status).toBe(409);
    expect(json.json()).toMatchObject({
      error: 'not_a_tab',
      message: `Transaction ${authId} is a sale tipped at the counter, not a tab: its amount already has the tip, so it has no check.`,
    });
    const text = await receipt(authId, '?copy=check&width=32', 'text/plain');
    expect(text.status).toBe(409);
    expect(text.body).toMatch(/^409 not_a_tab: /);
    expect(text.body).not.toMatch(/^TIP\b|suggested|Tab #/im);
    // Its capture, the SALE, has no check either; the copies of both still print.
    expect((await receipt(captureId, '?copy=check')).status).toBe(409);
    for (const id of [authId, captureId]) {
      for (const copy of ['customer', 'merchant']) {
        const copyText = await receipt(id, `?copy=${copy}&width=32`, 'text/plain');
        expect(copyText.status).toBe(200);
        expect(copyText.body).not.toContain('TAB');
      }
    }
  });

  it('is refused for a counter sale’s AUTH whose capture did not go through, though it holds the card', async () => {
    const auth = await api.client.createTransaction({
      type: 'AUTH',
      amount: '48.00',
      ...VISA,
      description: COUNTER_SALE_WITH_TIP,
    });
    expect(auth.result).toBe('Approved');
    const check = await receipt(auth.id ?? '', '?copy=check');
    expect(check.status).toBe(409);
    expect(check.json()).toMatchObject({ error: 'not_a_tab' });
  });

  it('is there while a tab is open, refused once it is captured with its tip, and back if the capture is voided', async () => {
    const tab = await api.client.createTransaction({ type: 'AUTH', amount: '30.00', ...VISA });
    const tabId = tab.id ?? '';
    const open = await receipt(tabId, '?copy=check&width=32', 'text/plain');
    expect(open.status).toBe(200);
    expect(open.body).toMatch(/^TIP\s+_+$/m);
    expect(open.body).toContain('CHECK');

    const capture = await api.client.createTransaction({
      type: 'CAPTURE',
      id: tabId,
      amount: '30.00',
      tip_amount: '6.00',
    });
    expect(capture.result).toBe('Approved');
    // A tab and its capture are listed as such, not as a sale tipped at the counter.
    for (const id of [tabId, capture.id ?? '']) {
      const [listed] = await api.client.listTransactions({ id });
      expect(listed?.counter_sale).toBe('false');
    }
    const captured = await receipt(tabId, '?copy=check');
    expect(captured.status).toBe(409);
    expect(captured.json()).toMatchObject({
      error: 'not_a_tab',
      message: `Tab #${tabId} is already captured with its tip by transaction ${capture.id}: a check is for writing the tip before the capture. Print the receipt of transaction ${capture.id} instead.`,
    });
    const text = await receipt(tabId, '?copy=check&width=32', 'text/plain');
    expect(text.status).toBe(409);
    expect(text.body).not.toMatch(/^TIP\s+_+$/m);
    // The tab's own copies and the capture's, with the tip, still print.
    expect((await receipt(tabId, '?copy=customer')).status).toBe(200);
    const paid = await receipt(capture.id ?? '', '?copy=merchant&width=32', 'text/plain');
    expect(paid.status).toBe(200);
    expect(paid.body).toMatch(/^TIP\s+\$6\.00$/m);

    // Voiding the capture opens the tab again, to be captured with the right tip: its check is back.
    const voided = await api.client.createTransaction({ type: 'VOID', id: capture.id ?? '' });
    expect(voided.result).toBe('Approved');
    const reopened = await receipt(tabId, '?copy=check&width=32', 'text/plain');
    expect(reopened.status).toBe(200);
    expect(reopened.body).toMatch(/^TIP\s+_+$/m);
  });
});
