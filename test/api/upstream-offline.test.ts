/**
 * Store and forward against a real gateway behind the fault proxy: what is approved offline and what
 * is refused (and why), the queue forwarded in order, each entry exactly once, by itself once the
 * gateway answers again; a void that cancels what has not gone up; a decline after forwarding; the
 * batch close with a queue, with the gateway down, and with totals that differ.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { TransactionListItem } from '../../shared/api/schemas';
import { recentAudit, VISA } from '../support/gateway';
import { atGateway, postsSince, swipe, useRelayEachTest } from '../support/relay';
import { post } from '../support/transactions';
import { TRANSACTION_POSTS } from '../support/fault-proxy';
import { SENT_AGAIN_AFTER_MS } from '../../electron/gateway/forwarder';

/** One gateway for the file; a new engine for each test, whose clock a test pushes forward by hours. */
const { upstream, relay, item, clock } = useRelayEachTest({
  upstream: { tips: true },
  relay: { offline: true, tips: true },
});
beforeEach(async () => {
  // Each test starts with the gateway's batch as empty as the engine's.
  await upstream().gateway.client.closeOpenBatch();
});
/**
 * After an online request, the first request once the line goes down goes out on the kept connection
 * the gateway closed: it may have reached the gateway, so it is queued as sent and sent again only
 * once it could no longer arrive late. The engine's clock is taken past that.
 */
const pastLateArrival = () => {
  clock.offset += SENT_AGAIN_AFTER_MS;
};
/**
 * A sale voided twice: the first VOID reaches the gateway late, which voids the sale, and its answer
 * is lost (9004); the second, sent while the line was down, is approved offline and waits. The line
 * is up again, past the first one's late arrival; the engine forwards only in the rounds a test runs.
 * With `lostStillHeld`, the first has not reached the gateway yet: the line still holds it.
 */
async function lostVoidRetriedOffline({ lostStillHeld = false } = {}) {
  await relay().gateway.engine.forwarder.stop();
  const sale = await post(relay(), 'json', { type: 'SALE', amount: '13.00', ...VISA });
  upstream().proxy.fault({ kind: 'hold' }, { match: TRANSACTION_POSTS });
  expect(await post(relay(), 'json', { type: 'VOID', id: sale.id ?? '' })).toMatchObject({
    result: 'Error',
    error_code: '9004',
  });
  await upstream().proxy.line('refuse');
  const retried = await post(relay(), 'json', { type: 'VOID', id: sale.id ?? '' });
  expect(retried).toMatchObject({ result: 'Approved', offline: 'true' });
  if (!lostStillHeld) await upstream().proxy.releaseHeld();
  await upstream().proxy.line('up');
  pastLateArrival();
  return { sale, retried };
}
/** The gateway's approved void of the transaction it knows as this sale's upstream id. */
async function gatewaysVoidOf(sale: { id?: string }): Promise<TransactionListItem | undefined> {
  const saleAtGateway = (await item(sale.id)).upstream_id;
  return (await upstream().gateway.client.listTransactions({ type: 'void', result: 'approved' })).find(
    (each) => each.original_id === saleAtGateway,
  );
}
/** The gateway list's lookups of a request by its reference. */
const LOOKUPS = ({ method, path }: { method: string; path: string }) =>
  method === 'GET' && path.includes('order_id=');
const CARD = { pan: '4916338506082832', expMmyy: '1230', firstName: 'Kim', lastName: 'Ode' };
const offlineSale = (amount: string, card: { pan: string; expMmyy: string } = CARD) =>
  post(relay(), 'json', { type: 'SALE', amount, ...swipe(card) });

describe('the processor while sales made offline wait', () => {
  it('cannot leave the gateway, nor take a swipe key, until nothing waits; the refusal says how many and what to do', async () => {
    const { engine } = relay().gateway;
    const { settings } = engine;
    await upstream().proxy.line('refuse');
    expect((await offlineSale('3.00')).offline).toBe('true');
    expect((await offlineSale('4.00')).offline).toBe('true');
    const audited = (await engine.reads.recentAudit(100)).length;
    await expect(settings.setFromText('processor', 'simulator')).rejects.toThrow(
      /^processor cannot leave upstream while 2 transactions made offline still wait to be forwarded to the merchant's gateway: .*Leave processor upstream until nothing waits, then change it \(Tender sends them by itself once the gateway answers.*\)\. Nothing was changed\.$/,
    );
    await expect(
      settings.change([
        ['processor', 'simulator'],
        ['swipe_bdk', '00112233445566778899AABBCCDDEEFF'],
      ]),
    ).rejects.toThrow(/while 2 transactions made offline still wait to be forwarded/);
    expect(settings.get('processor')).toBe('upstream');
    expect(engine.admin.setting('swipe_bdk') ?? '').toBe('');
    expect((await engine.reads.recentAudit(100)).length).toBe(audited);

    await upstream().proxy.line('up');
    expect((await engine.forwarder.drain()).waiting).toBe(0);
    await settings.setFromText('processor', 'simulator');
    expect(settings.get('processor')).toBe('simulator');
  });
});

describe('while the gateway cannot be reached', () => {
  it('a swiped sale within the limit is approved offline, says so, and waits to be forwarded', async () => {
    await upstream().proxy.line('refuse');
    const seen = upstream().proxy.seen.length;
    const answer = await offlineSale('12.00');
    expect(answer).toMatchObject({ result: 'Approved', result_code: '0000', offline: 'true' });
    expect(answer.authorization_code).toMatch(/^OFL[A-Z0-9]{3}$/);
    expect(answer.display_message).toMatch(/^Approved offline/);
    expect(await item(answer.id)).toMatchObject({
      offline: 'true',
      forward_state: 'waiting',
      upstream_id: '',
      card: '************2832',
      voidable: 'true',
    });
    const offlineOnly = await relay().client.listTransactions({ offline: 'true' });
    expect(offlineOnly.map((listed) => listed.id)).toEqual([answer.id]);
    expect(
      (await relay().client.listTransactions({ offline: 'false' })).map((listed) => listed.id),
    ).not.toContain(answer.id);
    expect((await relay().client.openBatch())?.sales_total).toBe('12.00');
    expect(upstream().proxy.seen.length).toBe(seen);
  });

  it('keyed cards, tabs, forced sales and refunds to a card are refused, in words a cashier acts on', async () => {
    await upstream().proxy.line('refuse');
    expect(await post(relay(), 'json', { type: 'SALE', amount: '5.00', ...VISA })).toMatchObject({
      result: 'Error',
      error_code: '9010',
      display_message: expect.stringMatching(
        /^The card network is down and a keyed card cannot be approved offline/,
      ),
    });
    expect(await post(relay(), 'json', { type: 'AUTH', amount: '5.00', ...swipe(CARD) })).toMatchObject({
      error_code: '9011',
    });
    expect(
      await post(relay(), 'json', {
        type: 'FORCED SALE',
        amount: '5.00',
        authorization_code: 'V1',
        ...swipe(CARD),
      }),
    ).toMatchObject({ error_code: '9011' });
    expect(await post(relay(), 'json', { type: 'REFUND', amount: '5.00', ...swipe(CARD) })).toMatchObject({
      error_code: '9011',
    });
  });

  it('a sale above the per-sale limit, past the total, or while one has waited too long is refused', async () => {
    await relay().gateway.engine.settings.change([
      ['offline_max_amount', '20.00'],
      ['offline_max_total', '30.00'],
      ['offline_max_hours', '2'],
    ]);
    await upstream().proxy.line('refuse');
    expect(await offlineSale('20.01')).toMatchObject({ result: 'Error', error_code: '9012' });
    expect((await offlineSale('20.00')).result).toBe('Approved');
    expect(await offlineSale('10.01')).toMatchObject({ result: 'Error', error_code: '9013' });
    expect((await offlineSale('10.00')).result).toBe('Approved');
    await relay().gateway.engine.settings.setFromText('offline_max_total', '100.00');
    clock.offset = 2 * 3_600_000 + 1_000;
    expect(await offlineSale('1.00')).toMatchObject({
      result: 'Error',
      error_code: '9014',
      display_message: expect.stringMatching(/waited more than 2 hours/),
    });
  });

  it('with store and forward off, nothing is approved: Error 9003', async () => {
    await relay().gateway.engine.settings.setFromText('offline_enabled', 'false');
    await upstream().proxy.line('refuse');
    expect(await offlineSale('5.00')).toMatchObject({
      result: 'Error',
      error_code: '9003',
      display_message: expect.stringMatching(/^The card network is down: .*Nothing was charged/),
    });
    expect((await relay().gateway.engine.ledger.forwards.summary()).count).toBe(0);
  });

  it('a sale whose answer was lost as the gateway went down is approved offline and looked up before it goes again', async () => {
    upstream().proxy.fault({ kind: 'cut', thenLine: 'refuse' }, { match: ({ method }) => method === 'POST' });
    const seen = upstream().proxy.seen.length;
    const answer = await offlineSale('9.99');
    // The gateway approved it, but its answer was lost and it could not be asked: offline, as sent.
    expect(answer).toMatchObject({ result: 'Approved', offline: 'true' });
    const [sent] = postsSince(upstream(), seen);
    expect(sent?.fate).toBe('cut');
    await upstream().proxy.line('up');
    await relay().gateway.engine.forwarder.drain();
    const listed = await item(answer.id);
    expect(listed.forward_state).toBe('forwarded');
    // Found by its reference: the gateway has the one charge it made, never a second.
    expect(postsSince(upstream(), seen)).toHaveLength(1);
    expect(
      await upstream().gateway.client.listTransactions({ order_id: String(sent?.body.order_number) }),
    ).toHaveLength(1);
    expect((await atGateway(upstream(), listed.upstream_id)).amount).toBe('9.99');
  });

  it('a void of an offline sale not yet forwarded cancels it: the gateway never sees it', async () => {
    await upstream().proxy.line('refuse');
    const sale = await offlineSale('7.00');
    const voided = await post(relay(), 'json', { type: 'VOID', id: sale.id ?? '' });
    expect(voided.result).toBe('Approved');
    expect(await item(sale.id)).toMatchObject({ voided: 'true', forward_state: 'cancelled' });
    await upstream().proxy.line('up');
    const seen = upstream().proxy.seen.length;
    await relay().gateway.engine.forwarder.drain();
    expect(postsSince(upstream(), seen)).toEqual([]);
    expect((await relay().client.openBatch())?.sales_total ?? '0.00').toBe('0.00');
  });
});

describe('a void of an offline sale the gateway may already have', () => {
  it('is refused while the sale is on its way, and voids it at the gateway once it has arrived', async () => {
    await upstream().proxy.line('refuse');
    const sale = await offlineSale('7.00');
    await upstream().proxy.line('up');
    const seen = upstream().proxy.seen.length;
    upstream().proxy.fault({ kind: 'hold' }, { match: TRANSACTION_POSTS });
    const round = relay().gateway.engine.forwarder.round();
    await upstream().proxy.waitFor((request) => request.fate === 'hold', seen);
    const early = await post(relay(), 'json', { type: 'VOID', id: sale.id ?? '' });
    expect(early).toMatchObject({ result: 'Rejected', error_code: '8017' });
    expect(early.display_message).toMatch(/being sent to the card network/);
    expect(await item(sale.id)).toMatchObject({ voided: 'false', forward_state: 'waiting' });
    await upstream().proxy.releaseHeld();
    await round;
    await relay().gateway.engine.forwarder.drain();
    const forwarded = await item(sale.id);
    expect(forwarded.forward_state).toBe('forwarded');
    const voided = await post(relay(), 'json', { type: 'VOID', id: sale.id ?? '' });
    expect(voided.result).toBe('Approved');
    expect((await atGateway(upstream(), forwarded.upstream_id)).voided).toBe('true');
  });

  it('is refused while a sale whose answer was lost waits, not cancelled under a charge', async () => {
    upstream().proxy.fault({ kind: 'cut', thenLine: 'refuse' }, { match: ({ method }) => method === 'POST' });
    const seen = upstream().proxy.seen.length;
    const sale = await offlineSale('9.98');
    expect(sale).toMatchObject({ result: 'Approved', offline: 'true' });
    const [sent] = postsSince(upstream(), seen);
    // The gateway approved it; the engine could not learn that, so it may not cancel it.
    const early = await post(relay(), 'json', { type: 'VOID', id: sale.id ?? '' });
    expect(early).toMatchObject({ result: 'Rejected', error_code: '8017' });
    await upstream().proxy.line('up');
    await relay().gateway.engine.forwarder.drain();
    expect((await item(sale.id)).forward_state).toBe('forwarded');
    expect(await post(relay(), 'json', { type: 'VOID', id: sale.id ?? '' })).toMatchObject({
      result: 'Approved',
    });
    const atTheGateway = await upstream().gateway.client.listTransactions({
      order_id: String(sent?.body.order_number),
    });
    expect(atTheGateway.map((each) => [each.result, each.voided])).toEqual([['Approved', 'true']]);
    const closed = await relay().client.closeOpenBatch();
    expect(closed).toMatchObject({ sales_total: '0.00', reconciled: 'true' });
  });
});

describe('forwarding', () => {
  it('sends the queue oldest first, each once, by itself once the gateway answers again', async () => {
    await upstream().proxy.line('refuse');
    const sales = [await offlineSale('1.11'), await offlineSale('2.22'), await offlineSale('3.33')];
    const seen = upstream().proxy.seen.length;
    await upstream().proxy.line('up');
    // No call here: the engine forwards by itself, within a few seconds.
    await expect
      .poll(async () =>
        (await Promise.all(sales.map((sale) => item(sale.id)))).map((listed) => listed.forward_state),
      )
      .toEqual(['forwarded', 'forwarded', 'forwarded']);
    const sent = postsSince(upstream(), seen);
    expect(sent.map((request) => request.body.amount)).toEqual(['1.11', '2.22', '3.33']);
    const listed = await Promise.all(sales.map((sale) => item(sale.id)));
    const atTheGateway = await Promise.all(listed.map((each) => atGateway(upstream(), each.upstream_id)));
    expect(atTheGateway.map((each) => each.amount)).toEqual(['1.11', '2.22', '3.33']);
    expect(atTheGateway.map((each) => Number(each.id))).toEqual(
      [...atTheGateway.map((each) => Number(each.id))].sort((a, b) => a - b),
    );
    for (const each of atTheGateway)
      expect(await upstream().gateway.client.listTransactions({ order_id: each.order_number })).toHaveLength(
        1,
      );
  });

  it('an entry whose answer was lost is looked up, not sent again', async () => {
    await upstream().proxy.line('refuse');
    const sale = await offlineSale('4.44');
    await upstream().proxy.line('up');
    upstream().proxy.fault({ kind: 'hang' }, { match: ({ method }) => method === 'POST' });
    // The first try goes out and hangs; it is marked as sent before it went.
    await relay().gateway.engine.forwarder.round();
    upstream().proxy.fault({ kind: 'cut' }, { match: ({ method }) => method === 'POST' });
    // ... the request that hung never reached the gateway, but might still: the next round looks it
    // up, finds nothing, and waits.
    const early = await relay().gateway.engine.forwarder.drain();
    expect(early).toMatchObject({ waiting: 1, stoppedBy: expect.stringMatching(/has not shown there yet/) });
    // Once it can no longer arrive, it is sent, and this time its answer is lost after the gateway
    // approved it: found by its reference.
    pastLateArrival();
    await relay().gateway.engine.forwarder.drain();
    expect((await item(sale.id)).forward_state).toBe('forwarded');
    const reference = (await atGateway(upstream(), (await item(sale.id)).upstream_id)).order_number;
    expect(await upstream().gateway.client.listTransactions({ order_id: reference })).toHaveLength(1);
  });

  it('an entry whose send arrives late is found by its reference, never sent and charged twice', async () => {
    await upstream().proxy.line('refuse');
    const sale = await offlineSale('5.55');
    await upstream().proxy.line('up');
    const seen = upstream().proxy.seen.length;
    upstream().proxy.fault({ kind: 'hold' }, { match: TRANSACTION_POSTS });
    // The send is held on the way: no answer, and the gateway's list does not show it.
    const first = await relay().gateway.engine.forwarder.round();
    expect(first.stoppedBy).toMatch(/outcome could not be learned/);
    const second = await relay().gateway.engine.forwarder.round();
    expect(second).toMatchObject({
      forwarded: 0,
      stoppedBy: expect.stringMatching(/has not shown there yet/),
    });
    expect(postsSince(upstream(), seen)).toHaveLength(1);
    // It reaches the gateway late, which charges the card.
    await upstream().proxy.releaseHeld();
    await relay().gateway.engine.forwarder.drain();
    const listed = await item(sale.id);
    expect(listed.forward_state).toBe('forwarded');
    expect(postsSince(upstream(), seen)).toHaveLength(1);
    const reference = (await atGateway(upstream(), listed.upstream_id)).order_number;
    expect(await upstream().gateway.client.listTransactions({ order_id: reference })).toHaveLength(1);
  });

  it('a send that could not connect is not taken as sent: a void still cancels it, the rest go at once', async () => {
    await upstream().proxy.line('refuse');
    const cancelled = await offlineSale('6.10');
    const kept = await offlineSale('6.20');
    const seen = upstream().proxy.seen.length;
    const down = await relay().gateway.engine.forwarder.round();
    expect(down).toMatchObject({ forwarded: 0, stoppedBy: expect.stringMatching(/card network is down/) });
    const voided = await post(relay(), 'json', { type: 'VOID', id: cancelled.id ?? '' });
    expect(voided.result).toBe('Approved');
    expect(await item(cancelled.id)).toMatchObject({ voided: 'true', forward_state: 'cancelled' });
    await upstream().proxy.line('up');
    expect(await relay().gateway.engine.forwarder.drain()).toEqual({ waiting: 0 });
    expect((await item(kept.id)).forward_state).toBe('forwarded');
    expect(postsSince(upstream(), seen).map((request) => request.body.amount)).toEqual(['6.20']);
  });

  it('a send under way counts as lasting its whole time limit, so a crash during it cannot shorten the wait', async () => {
    await upstream().proxy.line('refuse');
    await offlineSale('6.20');
    await upstream().proxy.line('up');
    const seen = upstream().proxy.seen.length;
    upstream().proxy.fault({ kind: 'hang' }, { match: TRANSACTION_POSTS });
    const sentAfter = Date.now() + clock.offset;
    const round = relay().gateway.engine.forwarder.round();
    await upstream().proxy.waitFor((request) => request.fate === 'hang', seen);
    // What a restart after a crash at this moment would read: the send may go on for its 2 s limit.
    const [during] = await relay().gateway.engine.ledger.forwards.waiting(1);
    expect(during?.attempts).toBe(1);
    expect(during?.lastAttemptAt).toBeGreaterThanOrEqual(sentAfter + 2_000);
    await round;
  });

  it('a send the gateway turns away unread is not taken as sent: a void still cancels it', async () => {
    await upstream().proxy.line('refuse');
    const sale = await offlineSale('6.30');
    // Only the rounds this test runs: one of the engine's own would send the entry in between.
    await relay().gateway.engine.forwarder.stop();
    await upstream().proxy.line('up');
    const seen = upstream().proxy.seen.length;
    upstream().proxy.fault({ kind: 'status', status: 429 }, { match: TRANSACTION_POSTS });
    const turnedAway = await relay().gateway.engine.forwarder.round();
    expect(turnedAway).toMatchObject({ forwarded: 0, stoppedBy: expect.stringMatching(/slow down \(429\)/) });
    expect(postsSince(upstream(), seen).map((request) => request.fate)).toEqual(['status']);
    const voided = await post(relay(), 'json', { type: 'VOID', id: sale.id ?? '' });
    expect(voided.result).toBe('Approved');
    expect(await item(sale.id)).toMatchObject({ voided: 'true', forward_state: 'cancelled' });
  });

  it('a send turned away after one that may have arrived keeps the entry as sent, and adds no wait', async () => {
    await upstream().proxy.line('refuse');
    const sale = await offlineSale('6.40');
    await relay().gateway.engine.forwarder.stop();
    await upstream().proxy.line('up');
    const seen = upstream().proxy.seen.length;
    // The first send is taken and never answered: it may still reach the gateway.
    upstream().proxy.fault({ kind: 'hang' }, { match: TRANSACTION_POSTS });
    await relay().gateway.engine.forwarder.round();
    pastLateArrival();
    // Once it can no longer arrive, the entry goes again, and the gateway turns it away unread.
    upstream().proxy.fault({ kind: 'status', status: 429 }, { match: TRANSACTION_POSTS });
    expect((await relay().gateway.engine.forwarder.round()).stoppedBy).toMatch(/429/);
    // The first send still counts: a void cannot cancel what the gateway may have.
    const early = await post(relay(), 'json', { type: 'VOID', id: sale.id ?? '' });
    expect(early).toMatchObject({ result: 'Rejected', error_code: '8017' });
    // The send turned away started no new wait: the next round sends it.
    expect(await relay().gateway.engine.forwarder.drain()).toEqual({ waiting: 0 });
    expect((await item(sale.id)).forward_state).toBe('forwarded');
    expect(postsSince(upstream(), seen).map((request) => request.fate)).toEqual([
      'hang',
      'status',
      'forwarded',
    ]);
  });

  it('an entry the gateway answers with an Error of its own is refused, and the queue goes on', async () => {
    await upstream().proxy.line('refuse');
    const failing = await offlineSale('3.00', { pan: '4000000000000119', expMmyy: '1230' });
    const next = await offlineSale('4.00');
    await upstream().proxy.line('up');
    const seen = upstream().proxy.seen.length;
    await expect
      .poll(async () => {
        await relay().gateway.engine.forwarder.drain();
        return (await item(next.id)).forward_state;
      })
      .toBe('forwarded');
    expect(await item(failing.id)).toMatchObject({ forward_state: 'declined', voided: 'false' });
    const sent = postsSince(upstream(), seen).map((request) => request.body.amount);
    expect(sent.filter((amount) => amount === '3.00')).toHaveLength(1);
    expect(sent.filter((amount) => amount === '4.00')).toHaveLength(1);
    const declined = await relay().gateway.engine.ledger.forwards.declined();
    expect(declined.map((each) => [each.transactionId, JSON.parse(each.answer).result])).toEqual([
      [Number(failing.id), 'Error'],
    ]);
    expect((await relay().client.closeOpenBatch())?.sales_total).toBe('4.00');
  });

  it('a void whose answer was lost and that the gateway carried out late is recorded here once, not sent again', async () => {
    const sale = await post(relay(), 'json', { type: 'SALE', amount: '12.00', ...VISA });
    await post(relay(), 'json', { type: 'SALE', amount: '2.50', ...VISA });
    upstream().proxy.fault({ kind: 'hold' }, { match: TRANSACTION_POSTS });
    const voided = await post(relay(), 'json', { type: 'VOID', id: sale.id ?? '' });
    expect(voided).toMatchObject({ result: 'Error', error_code: '9004' });
    expect(await item(sale.id)).toMatchObject({ voided: 'false' });
    await upstream().proxy.releaseHeld();
    const seen = upstream().proxy.seen.length;
    await relay().gateway.engine.forwarder.round();
    await relay().gateway.engine.forwarder.round();
    expect(postsSince(upstream(), seen)).toEqual([]);
    expect(await relay().gateway.engine.ledger.forwards.pendingChecks(5)).toEqual([]);
    // The sale is voided here as it is at the gateway, by a void row of its own with the gateway's id.
    const [recorded] = await relay().client.listTransactions({ type: 'void', result: 'approved' });
    expect(recorded).toMatchObject({
      original_id: sale.id,
      amount: '12.00',
      card: expect.stringMatching(/1111$/),
    });
    expect((await atGateway(upstream(), recorded?.upstream_id ?? '')).type).toBe('Void');
    expect(await item(sale.id)).toMatchObject({ voided: 'true' });
    const audit = await recentAudit(relay(), 5);
    expect(audit.filter((entry) => entry.action === 'gateway_void')).toMatchObject([
      { detail: expect.stringMatching(`recorded here as the void it was, transaction ${recorded?.id}$`) },
    ]);
    expect(audit.find((entry) => entry.action === 'void')).toMatchObject({
      actor: 'store and forward',
      subject: `transaction ${recorded?.id}`,
    });
    // Nothing is left to tell apart at the close.
    expect(await relay().client.closeOpenBatch()).toMatchObject({
      sales_total: '2.50',
      reconciled: 'true',
    });
  });

  it('a void retried while the gateway was down is not sent once the lost one turns up approved', async () => {
    const { sale, retried } = await lostVoidRetriedOffline();
    const seen = upstream().proxy.seen.length;
    expect(await relay().gateway.engine.forwarder.drain()).toEqual({ waiting: 0 });
    expect(postsSince(upstream(), seen)).toEqual([]);
    const gatewaysVoid = await gatewaysVoidOf(sale);
    expect(gatewaysVoid).toBeDefined();
    expect(await item(retried.id)).toMatchObject({
      forward_state: 'forwarded',
      upstream_id: gatewaysVoid?.id,
    });
    expect(await relay().gateway.engine.ledger.forwards.declined()).toEqual([]);
    const audit = await recentAudit(relay(), 5);
    expect(audit.find((entry) => entry.action === 'gateway_void')?.detail).toMatch(
      `voided here too, by transaction ${retried.id}, which is not sent`,
    );
    expect(await relay().client.closeOpenBatch()).toMatchObject({ sales_total: '0.00', reconciled: 'true' });
  });

  it('a void retried offline that the gateway refuses because the lost one reached it just before is settled as carried out by it', async () => {
    const { sale, retried } = await lostVoidRetriedOffline({ lostStillHeld: true });
    // The round looks the lost one up and does not find it; it reaches the gateway just before the retry.
    const seen = upstream().proxy.seen.length;
    upstream().proxy.fault({ kind: 'hold', answer: true }, { match: TRANSACTION_POSTS });
    const round = relay().gateway.engine.forwarder.round();
    await upstream().proxy.waitFor((request) => request.fate === 'hold', seen);
    await upstream().proxy.releaseHeld();
    await round;
    const gatewaysVoid = await gatewaysVoidOf(sale);
    expect(gatewaysVoid).toBeDefined();
    expect(await item(retried.id)).toMatchObject({
      forward_state: 'forwarded',
      upstream_id: gatewaysVoid?.id,
    });
    expect(await relay().gateway.engine.ledger.forwards.declined()).toEqual([]);
    expect(await relay().gateway.engine.ledger.forwards.pendingChecks(5)).toEqual([]);
    expect(await relay().client.closeOpenBatch()).toMatchObject({ sales_total: '0.00', reconciled: 'true' });
  });

  it('the void of a lost sale that turned up, whose own answer is lost, is found rather than sent again', async () => {
    await relay().gateway.engine.forwarder.stop();
    upstream().proxy.fault({ kind: 'hold' }, { match: TRANSACTION_POSTS });
    expect(await post(relay(), 'json', { type: 'SALE', amount: '31.00', ...VISA })).toMatchObject({
      error_code: '9004',
    });
    await upstream().proxy.releaseHeld();
    const seen = upstream().proxy.seen.length;
    // The gateway charged it; Tender voids it there, and that void's answer is lost too.
    upstream().proxy.fault({ kind: 'hold' }, { match: TRANSACTION_POSTS });
    await relay().gateway.engine.forwarder.round();
    await upstream().proxy.releaseHeld();
    await relay().gateway.engine.forwarder.round();
    expect(postsSince(upstream(), seen).map((request) => request.body.type)).toEqual(['VOID']);
    expect(await relay().gateway.engine.ledger.forwards.pendingChecks(5)).toEqual([]);
    const [audited] = (await recentAudit(relay(), 5)).filter((entry) => entry.action === 'gateway_void');
    expect(audited?.detail).toMatch(/: voided there \(its void \d+\)$/);
    const [sale] = await upstream().gateway.client.listTransactions({ type: 'sale', amount: '31.00' });
    expect(sale?.voided).toBe('true');
  });

  it('a void retried offline is not sent while the lost one cannot be looked up', async () => {
    const { retried } = await lostVoidRetriedOffline();
    const seen = upstream().proxy.seen.length;
    upstream().proxy.fault({ kind: 'status', status: 429 }, { match: LOOKUPS });
    const unasked = await relay().gateway.engine.forwarder.round();
    expect(unasked.lostUnasked).toMatch(/429/);
    expect(postsSince(upstream(), seen)).toEqual([]);
    await relay().gateway.engine.forwarder.round();
    expect(postsSince(upstream(), seen)).toEqual([]);
    expect((await item(retried.id)).forward_state).toBe('forwarded');
    expect(await relay().gateway.engine.ledger.forwards.declined()).toEqual([]);
  });

  it('a lost void of a tab the cashier then captured offline is recorded once the capture is refused', async () => {
    // The engine forwards only in the rounds the test runs: one of its own could find the late void
    // before the tab is captured.
    await relay().gateway.engine.forwarder.stop();
    const auth = await post(relay(), 'json', { type: 'AUTH', amount: '20.00', ...VISA });
    upstream().proxy.fault({ kind: 'hold' }, { match: TRANSACTION_POSTS });
    expect(await post(relay(), 'json', { type: 'VOID', id: auth.id ?? '' })).toMatchObject({
      error_code: '9004',
    });
    // The void reaches the gateway late; meanwhile the line is down and the tab is captured offline.
    await upstream().proxy.releaseHeld();
    await upstream().proxy.line('refuse');
    const capture = await post(relay(), 'json', { type: 'CAPTURE', id: auth.id ?? '', amount: '20.00' });
    expect(capture).toMatchObject({ result: 'Approved', offline: 'true' });
    await upstream().proxy.line('up');
    pastLateArrival();
    expect(await relay().gateway.engine.forwarder.drain()).toEqual({ waiting: 0 });
    await relay().gateway.engine.forwarder.round();
    // The gateway refused the capture of a voided AUTH; the ledger now says what the gateway does.
    expect((await item(capture.id)).forward_state).toBe('declined');
    const tab = await item(auth.id);
    expect(tab).toMatchObject({ voided: 'true', captured: 'false' });
    expect((await atGateway(upstream(), tab.upstream_id)).voided).toBe('true');
    expect(await relay().gateway.engine.ledger.forwards.pendingChecks(5)).toEqual([]);
  });

  it('a capture, refund or void of an online transaction is queued offline and forwarded in order', async () => {
    const auth = await post(relay(), 'json', { type: 'AUTH', amount: '20.00', ...VISA });
    const sale = await post(relay(), 'json', { type: 'SALE', amount: '9.00', ...VISA });
    await upstream().proxy.line('refuse');
    const capture = await post(relay(), 'json', {
      type: 'CAPTURE',
      id: auth.id ?? '',
      amount: '20.00',
      tip_amount: '3.00',
    });
    expect(capture).toMatchObject({
      result: 'Approved',
      offline: 'true',
      authorization_code: auth.authorization_code,
    });
    const voided = await post(relay(), 'json', { type: 'VOID', id: sale.id ?? '' });
    expect(voided).toMatchObject({ result: 'Approved', offline: 'true' });
    await upstream().proxy.line('up');
    pastLateArrival();
    await relay().gateway.engine.forwarder.drain();
    const authAtGateway = (await item(auth.id)).upstream_id;
    expect(await atGateway(upstream(), (await item(capture.id)).upstream_id)).toMatchObject({
      type: 'Capture',
      amount: '23.00',
      original_id: authAtGateway,
    });
    expect((await atGateway(upstream(), (await item(sale.id)).upstream_id)).voided).toBe('true');
  });

  it('an offline sale the gateway declines leaves the batch, is audited, and waits for a manager', async () => {
    await upstream().proxy.line('refuse');
    const kept = await offlineSale('6.00');
    const declined = await offlineSale('8.00', { pan: '4000000000000002', expMmyy: '1230' });
    expect(declined.result).toBe('Approved');
    expect((await relay().client.openBatch())?.sales_total).toBe('14.00');
    await upstream().proxy.line('up');
    await relay().gateway.engine.forwarder.drain();
    expect(await item(declined.id)).toMatchObject({
      result: 'Approved',
      offline: 'true',
      forward_state: 'declined',
      refundable_amount: '0.00',
    });
    expect((await item(kept.id)).forward_state).toBe('forwarded');
    expect((await relay().client.openBatch())?.sales_total).toBe('6.00');
    const alerts = await relay().gateway.engine.ledger.forwards.declined();
    expect(alerts).toMatchObject([{ transactionId: Number(declined.id), amount: 800, lastFour: '0002' }]);
    expect(JSON.parse(alerts[0]?.answer ?? '{}')).toMatchObject({ result: 'Declined', result_code: '0005' });
    const audit = await recentAudit(relay(), 10);
    expect(audit.find((entry) => entry.action === 'offline_declined')).toMatchObject({
      subject: `transaction ${declined.id}`,
      detail: expect.stringContaining('8.00 on card ending 0002, refused by the gateway when forwarded'),
    });
    const acknowledged = await relay().gateway.engine.ledger.write((ledger) =>
      ledger.forwards.acknowledge(Number(declined.id), Date.now(), 'Olga'),
    );
    expect(acknowledged).toBe(true);
    expect(await relay().gateway.engine.ledger.forwards.declined()).toEqual([]);
  });
});

describe('an offline sale the gateway declined when it was sent', () => {
  it('can be neither voided nor refunded, with the gateway up or down: nothing was charged', async () => {
    await upstream().proxy.line('refuse');
    await offlineSale('6.50');
    const declined = await offlineSale('8.00', { pan: '4000000000000002', expMmyy: '1230' });
    await upstream().proxy.line('up');
    await relay().gateway.engine.forwarder.drain();
    expect(await item(declined.id)).toMatchObject({ forward_state: 'declined', voidable: 'false' });
    const seen = upstream().proxy.seen.length;
    expect(await post(relay(), 'json', { type: 'VOID', id: declined.id ?? '' })).toMatchObject({
      result: 'Rejected',
      error_code: '8017',
    });

    expect((await relay().client.closeOpenBatch())?.status).toBe('CLOSED');
    expect(await item(declined.id)).toMatchObject({ refundable_amount: '0.00', voidable: 'false' });
    const refund = { type: 'REFUND', id: declined.id ?? '', amount: '8.00' };
    const refusedUp = await post(relay(), 'json', refund);
    expect(refusedUp).toMatchObject({ result: 'Rejected', error_code: '8015' });
    expect(refusedUp.display_message).toMatch(
      /declined by the gateway when it was sent, so nothing was charged/,
    );
    await upstream().proxy.line('refuse');
    expect(await post(relay(), 'json', refund)).toMatchObject({ result: 'Rejected', error_code: '8015' });
    await upstream().proxy.line('up');
    expect(postsSince(upstream(), seen)).toEqual([]);
  });
});

describe('the batch close', () => {
  it('refused for figures an offline sale declined on the way changed, leaves the gateway’s batch open too', async () => {
    await post(relay(), 'json', { type: 'SALE', amount: '10.00', ...VISA });
    await upstream().proxy.line('refuse');
    await offlineSale('5.00');
    await offlineSale('8.00', { pan: '4000000000000002', expMmyy: '1230' });
    const seen = await relay().client.openBatch();
    expect(seen).toMatchObject({ total_count: '3', net_amount: '23.00' });
    await upstream().proxy.line('up');
    pastLateArrival();
    const refused = await relay().request(
      `batches/open?expected_total_count=${seen?.total_count}&expected_net_amount=${seen?.net_amount}`,
      { method: 'PUT', headers: { api_key: relay().key, accept: 'application/json' } },
    );
    expect(refused.status, refused.body).toBe(409);
    expect(refused.json()).toMatchObject({
      error: 'batch_changed',
      batch: { status: 'OPEN', total_count: '2', net_amount: '15.00' },
    });
    expect((await upstream().gateway.client.openBatch())?.status).toBe('OPEN');

    const closed = await relay().client.closeOpenBatch({
      expected_total_count: '2',
      expected_net_amount: '15.00',
    });
    expect(closed).toMatchObject({ status: 'CLOSED', reconciled: 'true', upstream_net_amount: '15.00' });
    const [atTheGateway] = await upstream().gateway.client.listBatches({
      id: closed?.upstream_batch_id ?? '',
    });
    expect(atTheGateway).toMatchObject({ status: 'CLOSED', confirmation_code: closed?.confirmation_code });
  });

  it('forwards the queue first, then closes at the gateway and here, with both sets of figures', async () => {
    await post(relay(), 'json', { type: 'SALE', amount: '10.00', ...VISA });
    await upstream().proxy.line('refuse');
    await offlineSale('5.00');
    await upstream().proxy.line('up');
    pastLateArrival();
    const closed = await relay().client.closeOpenBatch();
    expect(closed).toMatchObject({
      status: 'CLOSED',
      sales_count: '2',
      sales_total: '15.00',
      upstream_sales_count: '2',
      upstream_sales_total: '15.00',
      upstream_net_amount: '15.00',
      reconciled: 'true',
    });
    const [atTheGateway] = await upstream().gateway.client.listBatches({
      id: closed?.upstream_batch_id ?? '',
    });
    expect(atTheGateway).toMatchObject({ status: 'CLOSED', confirmation_code: closed?.confirmation_code });
    expect(await upstream().gateway.client.openBatch()).toBeUndefined();
  });

  it('closes nothing while a request whose answer was lost cannot be looked up, then voids it first', async () => {
    upstream().proxy.fault({ kind: 'status', status: 503 }, { match: LOOKUPS, times: Infinity });
    upstream().proxy.fault({ kind: 'hold' }, { match: TRANSACTION_POSTS });
    expect(await post(relay(), 'json', { type: 'SALE', amount: '41.00', ...VISA })).toMatchObject({
      error_code: '9004',
    });
    // The lost sale reaches the gateway late and is charged; the cashier charges the card again.
    await upstream().proxy.releaseHeld();
    expect((await post(relay(), 'json', { type: 'SALE', amount: '41.00', ...VISA })).result).toBe('Approved');
    const refused = await relay().request('batches/open', {
      method: 'PUT',
      headers: { api_key: relay().key, accept: 'application/json' },
    });
    expect(refused.status, refused.body).toBe(502);
    expect(refused.json()).toMatchObject({
      error: 'gateway_unreachable',
      message: expect.stringMatching(/answer was lost could not be looked up .*503/),
    });
    expect((await upstream().gateway.client.openBatch())?.sales_total).toBe('82.00');
    upstream().proxy.clearFaults();
    const closed = await relay().client.closeOpenBatch();
    expect(closed).toMatchObject({ sales_total: '41.00', upstream_sales_total: '41.00', reconciled: 'true' });
  });

  it('closes nothing while the gateway cannot be reached, and says why', async () => {
    await post(relay(), 'json', { type: 'SALE', amount: '10.00', ...VISA });
    await upstream().proxy.line('refuse');
    const refused = await relay().request('batches/open', {
      method: 'PUT',
      headers: { api_key: relay().key },
    });
    expect(refused.status).toBe(502);
    expect(refused.json()).toMatchObject({ error: 'gateway_unreachable' });
    expect(String(refused.json().message)).toMatch(/Nothing was closed/);
    expect((await relay().client.openBatch())?.status).toBe('OPEN');
    await upstream().proxy.line('up');
    expect((await upstream().gateway.client.openBatch())?.status).toBe('OPEN');
  });

  it('with a transaction only the gateway has: not reconciled, both sides kept and audited', async () => {
    await post(relay(), 'json', { type: 'SALE', amount: '10.00', ...VISA });
    await upstream().gateway.client.createTransaction({ type: 'SALE', amount: '2.50', ...VISA });
    const closed = await relay().client.closeOpenBatch();
    expect(closed).toMatchObject({
      sales_count: '1',
      sales_total: '10.00',
      upstream_sales_count: '2',
      upstream_sales_total: '12.50',
      reconciled: 'false',
    });
    const audit = await recentAudit(relay(), 5);
    expect(audit.find((entry) => entry.action === 'batch_unreconciled')?.detail).toMatch(
      /^Tender: 1 sales 10\.00, 0 refunds 0\.00; the gateway's batch \d+: 2 sales 12\.50, 0 refunds 0\.00$/,
    );
  });
});
