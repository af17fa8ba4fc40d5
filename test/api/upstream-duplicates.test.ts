/**
 * The duplicate check when the merchant's gateway has one of its own: Tender checks each charge
 * itself, so a charge confirmed past its check (the caller's override) or checked when it was made
 * (an offline sale, forwarded later) must not be refused again by the gateway's; a gateway's own
 * 8033 names Tender's transaction where Tender has it; and an offline sale the gateway declined once
 * forwarded charged nothing, so it never counts as a duplicate.
 */
import { describe, expect, it } from 'vitest';
import { VISA } from '../support/gateway';
import { atGateway, postsSince, swipe, useRelayEachTest } from '../support/relay';
import { post, postJson } from '../support/transactions';

/** The duplicate window of both sides, Tender's default and Authorize.Net's. */
const WINDOW_MINUTES = 2;

/**
 * One gateway for the file; a new engine for each test, whose clock a test pushes forward when it
 * needs time to pass here only.
 */
const { upstream, relay, item, clock } = useRelayEachTest({
  upstream: { tips: true, duplicateWindowMinutes: WINDOW_MINUTES },
  relay: { offline: true, tips: true, duplicateWindowMinutes: WINDOW_MINUTES },
});

/**
 * The gateway's window is real time and outlives each test's engine: every test charges amounts of
 * its own, so that no test meets another's charges there.
 */
let cents = 31_00;
const fresh = () => {
  cents += 17;
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
};

const KIM = { pan: '4916338506082832', expMmyy: '1230', firstName: 'Kim', lastName: 'Ode' };
const DECLINED = { pan: '4000000000000002', expMmyy: '1230', firstName: 'Kim', lastName: 'Ode' };

describe('offline sales forwarded later', () => {
  it('two sales of one card and amount an hour apart both stand, though forwarded seconds apart', async () => {
    const amount = fresh();
    await relay().gateway.engine.forwarder.stop();
    await upstream().proxy.line('refuse');
    const first = await post(relay(), 'json', { type: 'SALE', amount, ...swipe(KIM) });
    clock.offset += 60 * 60_000;
    // An hour later here: past Tender's window, so the customer's second purchase is no duplicate.
    const second = await post(relay(), 'json', { type: 'SALE', amount, ...swipe(KIM) });
    expect([first, second]).toMatchObject([
      { result: 'Approved', offline: 'true' },
      { result: 'Approved', offline: 'true' },
    ]);

    await upstream().proxy.line('up');
    const seen = upstream().proxy.seen.length;
    expect(await relay().gateway.engine.forwarder.drain()).toMatchObject({ waiting: 0 });

    for (const answer of [first, second]) {
      const listed = await item(answer.id);
      expect(listed).toMatchObject({ result: 'Approved', forward_state: 'forwarded' });
      expect(await atGateway(upstream(), listed.upstream_id)).toMatchObject({ result: 'Approved', amount });
    }
    expect(await relay().gateway.engine.ledger.forwards.declined()).toEqual([]);
    // Tender checked each when it was made; the gateway, seeing both within its window now, is told so.
    expect(postsSince(upstream(), seen).map(({ body }) => body)).toMatchObject([
      { type: 'SALE', amount, duplicate_override: true },
      { type: 'SALE', amount, duplicate_override: true },
    ]);
  });

  it('a sale the gateway declined once forwarded charged nothing: the same card and amount is no duplicate', async () => {
    const amount = fresh();
    await relay().gateway.engine.forwarder.stop();
    await upstream().proxy.line('refuse');
    const declined = await post(relay(), 'json', { type: 'SALE', amount, ...swipe(DECLINED) });
    expect(declined).toMatchObject({ result: 'Approved', offline: 'true' });
    await upstream().proxy.line('up');
    expect(await relay().gateway.engine.forwarder.drain()).toMatchObject({ waiting: 0 });
    expect(await item(declined.id)).toMatchObject({ forward_state: 'declined' });

    // The customer pays again at once, within Tender's window: the gateway decides, as for any card.
    const seen = upstream().proxy.seen.length;
    const again = await post(relay(), 'json', { type: 'SALE', amount, ...swipe(DECLINED) });
    expect(again).toMatchObject({ result: 'Declined' });
    expect(again.error_code).toBeUndefined();
    expect(postsSince(upstream(), seen)).toHaveLength(1);
  });
});

describe.each<{ type: string; extra: Record<string, string> }>([
  { type: 'SALE', extra: {} },
  { type: 'AUTH', extra: {} },
  { type: 'FORCED SALE', extra: { authorization_code: 'VOICE1', tip_amount: '1.00' } },
])('$type past a possible duplicate', ({ type, extra }) => {
  it("the caller's duplicate_override goes up with it, so the gateway's check does not refuse it again", async () => {
    const charge = { type, amount: fresh(), ...VISA, ...extra };
    const first = await post(relay(), 'json', charge);
    expect(first.result).toBe('Approved');
    const seen = upstream().proxy.seen.length;
    expect(await post(relay(), 'json', charge)).toMatchObject({
      result: 'Rejected',
      error_code: '8033',
      duplicate_of: first.id,
    });
    expect(postsSince(upstream(), seen)).toEqual([]);

    const overridden = await postJson(relay(), { ...charge, duplicate_override: true });
    expect(overridden).toMatchObject({ result: 'Approved' });
    expect(postsSince(upstream(), seen)).toMatchObject([{ body: { type, duplicate_override: true } }]);
    const [one, two] = await Promise.all([item(first.id), item(overridden.id)]);
    expect(one.upstream_id).not.toBe(two.upstream_id);
    expect(await atGateway(upstream(), two.upstream_id)).toMatchObject({ result: 'Approved' });
  });
});

describe("the gateway's own duplicate check", () => {
  it('is not told to skip its check unless Tender was', async () => {
    const seen = upstream().proxy.seen.length;
    expect(await post(relay(), 'json', { type: 'SALE', amount: fresh(), ...VISA })).toMatchObject({
      result: 'Approved',
    });
    const [sent] = postsSince(upstream(), seen);
    expect(sent?.body).not.toHaveProperty('duplicate_override');
  });

  it("names the earlier charge by Tender's id when Tender made it, and the override then goes through", async () => {
    // Something else charged at the gateway first, so that its ids and Tender's differ.
    expect((await post(upstream().gateway, 'json', { type: 'SALE', amount: fresh(), ...VISA })).result).toBe(
      'Approved',
    );
    const charge = { type: 'SALE', amount: fresh(), ...VISA };
    const first = await post(relay(), 'json', charge);
    expect(first.result).toBe('Approved');
    const { upstream_id: gatewayId } = await item(first.id);
    expect(gatewayId).not.toBe(first.id);

    // Past Tender's window here, still within the gateway's there.
    clock.offset += (WINDOW_MINUTES + 1) * 60_000;
    const refused = await post(relay(), 'json', charge);
    expect(refused).toMatchObject({ result: 'Rejected', error_code: '8033', duplicate_of: first.id });
    expect(refused.display_message).toContain(`transaction ${first.id}:`);
    expect(refused.display_message).toContain("payment gateway's duplicate window");
    expect(refused.display_message).not.toContain(`transaction ${gatewayId}`);
    const [attempt] = await relay().client.listTransactions({ result: 'Rejected' });
    expect(attempt).toMatchObject({ error_code: '8033', original_id: first.id });

    expect(await post(relay(), 'json', { ...charge, duplicate_override: 'true' })).toMatchObject({
      result: 'Approved',
    });
  });

  it("names a charge Tender did not make as the gateway's, never as one of Tender's", async () => {
    const charge = { type: 'SALE', amount: fresh(), ...VISA };
    const elsewhere = await post(upstream().gateway, 'json', charge);
    expect(elsewhere.result).toBe('Approved');

    const refused = await post(relay(), 'json', charge);
    expect(refused).toMatchObject({ result: 'Rejected', error_code: '8033' });
    expect(refused).not.toHaveProperty('duplicate_of');
    expect(refused.display_message).toContain(`payment gateway's transaction ${elsewhere.id}`);
    expect(refused.display_message).not.toContain(`of transaction ${elsewhere.id}`);

    expect(await post(relay(), 'json', { ...charge, duplicate_override: 'true' })).toMatchObject({
      result: 'Approved',
    });
  });
});
