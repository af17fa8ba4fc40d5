/**
 * The engine relaying to the merchant's gateway (a second engine in simulator mode, behind the fault
 * proxy) while the gateway answers: every type in JSON and XML with the gateway's answer passed on
 * and its ids kept, what the engine refuses itself never leaving it, swipes going up as the reader
 * encrypted them, one request per decision however requests race, and lost answers looked up.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TRANSACTION_POSTS } from '../support/fault-proxy';
import { recentAudit, VISA, type TestGateway } from '../support/gateway';
import { atGateway, heldAtTheLine, postsSince, startRelay, swipe } from '../support/relay';
import { post, type Format } from '../support/transactions';
import { startUpstreamGateway, type UpstreamGateway } from '../support/upstream-gateway';

let upstream: UpstreamGateway;
let t: TestGateway;

beforeAll(async () => {
  upstream = await startUpstreamGateway({ tips: true });
  t = await startRelay(upstream, { tips: true });
});
afterAll(async () => {
  await t?.close();
  await upstream?.close();
});
afterEach(async () => {
  upstream.proxy.clearFaults();
  await upstream.proxy.line('up');
});

let amounts = 100;
/** An amount no other test of this file charges, so that the gateway's duplicate check never meets it. */
const fresh = () => `${(amounts++).toString()}.${String(amounts % 100).padStart(2, '0')}`;

const item = async (id: string | undefined) => {
  const [found] = await t.client.listTransactions({ id: id ?? '' });
  if (!found) throw new Error(`no transaction ${id}`);
  return found;
};

describe.each<Format>(['json', 'xml'])('every type goes to the gateway (%s)', (format) => {
  it("SALE: the gateway's answer is the answer, and its id is kept beside the engine's", async () => {
    const seen = upstream.proxy.seen.length;
    const answer = await post(t, format, {
      type: 'SALE',
      amount: fresh(),
      ...VISA,
      csc: '123',
      invoice: 'INV-9',
      billing: { street: '1 Main St', zip: '10001' },
    });
    expect(answer).toMatchObject({
      result: 'Approved',
      result_code: '0000',
      avs_result_code: 'Y',
      csc_result_code: 'M',
    });
    const listed = await item(answer.id);
    const gateway = await atGateway(upstream, listed.upstream_id);
    expect(answer.authorization_code).toBe(gateway.authorization_code);
    expect(gateway).toMatchObject({
      type: 'Sale',
      amount: listed.amount,
      invoice: 'INV-9',
      card: '************1111',
    });
    expect(listed).toMatchObject({ offline: 'false', forward_state: '' });
    const [sent] = postsSince(upstream, seen);
    expect(sent?.body).toMatchObject({ type: 'SALE', card: VISA.card, order_number: gateway.order_number });
    expect(sent?.body.order_number).toMatch(/^T[0-9A-Z]{17}$/);
  });

  it("AUTH, then CAPTURE with a tip, which names the AUTH by the gateway's id", async () => {
    const auth = await post(t, format, { type: 'AUTH', amount: '40.00', ...VISA, server_id: '07' });
    expect(auth.result).toBe('Approved');
    const capture = await post(t, format, {
      type: 'CAPTURE',
      id: auth.id ?? '',
      amount: '40.00',
      tip_amount: '6.00',
    });
    expect(capture).toMatchObject({ result: 'Approved', authorization_code: auth.authorization_code });
    const authAtGateway = (await item(auth.id)).upstream_id;
    const gateway = await atGateway(upstream, (await item(capture.id)).upstream_id);
    expect(gateway).toMatchObject({
      type: 'Capture',
      amount: '46.00',
      tip_amount: '6.00',
      original_id: authAtGateway,
    });
    expect((await atGateway(upstream, authAtGateway)).captured).toBe('true');
  });

  it('FORCED SALE, VOID and an unmatched REFUND', async () => {
    const forced = await post(t, format, {
      type: 'FORCED SALE',
      amount: fresh(),
      tip_amount: '1.00',
      authorization_code: 'vox42',
      ...VISA,
    });
    expect(forced).toMatchObject({ result: 'Approved', authorization_code: 'VOX42' });
    const forcedAtGateway = await atGateway(upstream, (await item(forced.id)).upstream_id);
    expect(forcedAtGateway).toMatchObject({
      type: 'Forced Sale',
      authorization_code: 'VOX42',
      tip_amount: '1.00',
    });

    const voided = await post(t, format, { type: 'VOID', id: forced.id ?? '' });
    expect(voided.result).toBe('Approved');
    expect((await atGateway(upstream, forcedAtGateway.id)).voided).toBe('true');
    expect((await atGateway(upstream, (await item(voided.id)).upstream_id)).original_id).toBe(
      forcedAtGateway.id,
    );

    const credit = await post(t, format, { type: 'REFUND', amount: '3.25', ...VISA });
    expect(credit.result).toBe('Approved');
    expect(await atGateway(upstream, (await item(credit.id)).upstream_id)).toMatchObject({
      type: 'Refund',
      amount: '3.25',
      original_id: '',
    });
  });

  it('a matched REFUND of a settled sale names it at the gateway', async () => {
    const sale = await post(t, format, { type: 'SALE', amount: fresh(), ...VISA });
    const close = await t.request('batches/open', { method: 'PUT', headers: { api_key: t.key } });
    expect(close.status, close.body).toBe(200);
    const refund = await post(t, format, { type: 'REFUND', id: sale.id ?? '', amount: '1.00' });
    expect(refund.result).toBe('Approved');
    const saleAtGateway = (await item(sale.id)).upstream_id;
    expect(await atGateway(upstream, (await item(refund.id)).upstream_id)).toMatchObject({
      type: 'Refund',
      original_id: saleAtGateway,
    });
    expect((await atGateway(upstream, saleAtGateway)).refunded_amount).toBe('1.00');
  });
});

describe("the gateway's own answers", () => {
  it('a decline, an error and a rejection are passed on in its words and codes', async () => {
    const declined = await post(t, 'json', {
      type: 'SALE',
      amount: '5.00',
      card: '4000000000000002',
      exp_date: '1230',
    });
    expect(declined).toMatchObject({ result: 'Declined', result_code: '0005' });
    expect((await item(declined.id)).upstream_id).toMatch(/^\d+$/);
    const errored = await post(t, 'json', {
      type: 'SALE',
      amount: '5.00',
      card: '4000000000000119',
      exp_date: '1230',
    });
    expect(errored).toMatchObject({ result: 'Error', error_code: '9000', result_code: '0096' });
    const blocked = await post(t, 'json', {
      type: 'SALE',
      amount: '5.00',
      ...VISA,
      client_ip: '198.51.100.20',
    });
    expect(blocked).toMatchObject({ result: 'Rejected', error_code: '8008' });
  });
});

describe('what the engine refuses itself never leaves it', () => {
  it('a malformed request, a refund above what is left, a void of a settled sale', async () => {
    const sale = await post(t, 'json', { type: 'SALE', amount: '8.00', ...VISA });
    expect((await t.request('batches/open', { method: 'PUT', headers: { api_key: t.key } })).status).toBe(
      200,
    );
    const seen = upstream.proxy.seen.length;
    expect(await post(t, 'json', { type: 'SALE', amount: '8', ...VISA })).toMatchObject({
      result: 'Rejected',
      error_code: '8003',
    });
    expect(await post(t, 'json', { type: 'REFUND', id: sale.id ?? '', amount: '9.00' })).toMatchObject({
      result: 'Rejected',
      error_code: '8014',
    });
    expect(await post(t, 'json', { type: 'VOID', id: sale.id ?? '' })).toMatchObject({
      result: 'Rejected',
      error_code: '8016',
    });
    expect(
      await post(t, 'json', { type: 'SALE', amount: '5.00', card: '4111111111111112', exp_date: '1230' }),
    ).toMatchObject({
      result: 'Rejected',
      error_code: '8002',
    });
    expect(postsSince(upstream, seen)).toEqual([]);
  });

  it('a possible duplicate', async () => {
    await t.gateway.engine.settings.setFromText('duplicate_window_minutes', '2');
    try {
      const amount = fresh();
      expect((await post(t, 'json', { type: 'SALE', amount, ...VISA })).result).toBe('Approved');
      const seen = upstream.proxy.seen.length;
      expect(await post(t, 'json', { type: 'SALE', amount, ...VISA })).toMatchObject({
        result: 'Rejected',
        error_code: '8033',
      });
      expect(postsSince(upstream, seen)).toEqual([]);
    } finally {
      await t.gateway.engine.settings.setFromText('duplicate_window_minutes', '0');
    }
  });
});

describe('swipes', () => {
  it('go up as the reader encrypted them; the engine shows the masked card and holds no reader key', async () => {
    const { settings } = t.gateway.engine;
    // In this mode the engine holds no BDK, and none can be set.
    await expect(settings.setFromText('swipe_bdk', '00112233445566778899AABBCCDDEEFF')).rejects.toThrow(
      /swipe_bdk cannot be set while processor is upstream/,
    );
    expect(settings.display('swipe_bdk')).toMatch(/^none held/);
    const swiped = swipe({ pan: '5454545454545454', expMmyy: '1230', firstName: 'Lee', lastName: 'Park' });
    const seen = upstream.proxy.seen.length;
    const answer = await post(t, 'json', { type: 'SALE', amount: fresh(), ...swiped });
    expect(answer.result).toBe('Approved');
    const listed = await item(answer.id);
    expect(listed).toMatchObject({ card: '************5454', card_brand: 'mastercard', last_name: 'PARK' });
    const [sent] = postsSince(upstream, seen);
    expect(sent?.body.encrypted_track_data).toBe(swiped.encrypted_track_data);
    expect(sent?.body).not.toHaveProperty('card');
    expect(await atGateway(upstream, listed.upstream_id)).toMatchObject({ card: '************5454' });
    // The same swipe again is a replay, refused here.
    expect(await post(t, 'json', { type: 'SALE', amount: fresh(), ...swiped })).toMatchObject({
      error_code: '8029',
    });
  });
});

describe('at most one request per decision', () => {
  it('ten CAPTUREs of one AUTH at once: one is approved, and the gateway saw one', async () => {
    const auth = await post(t, 'json', { type: 'AUTH', amount: '25.00', ...VISA });
    const seen = upstream.proxy.seen.length;
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        post(t, 'json', { type: 'CAPTURE', id: auth.id ?? '', amount: '25.00' }),
      ),
    );
    expect(answers.filter((answer) => answer.result === 'Approved')).toHaveLength(1);
    expect(answers.filter((answer) => answer.error_code === '8011')).toHaveLength(9);
    expect(postsSince(upstream, seen)).toHaveLength(1);
    const authAtGateway = (await item(auth.id)).upstream_id;
    const captures = await upstream.gateway.client.listTransactions({ type: 'CAPTURE', page_size: 100 });
    expect(captures.filter((capture) => capture.original_id === authAtGateway)).toHaveLength(1);
  });

  it('a retried Idempotency-Key, at once and after: the gateway saw one', async () => {
    const body = JSON.stringify({ type: 'SALE', amount: fresh(), ...VISA });
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json',
      api_key: t.key,
      'idempotency-key': `retry-${randomUUID()}`,
    };
    const seen = upstream.proxy.seen.length;
    // The first is kept at the gateway's door, so the retry surely comes while it is being answered.
    upstream.proxy.fault({ kind: 'hold' }, { match: TRANSACTION_POSTS });
    const first = t.request('transactions', { method: 'POST', headers, body });
    await heldAtTheLine(upstream, first, seen);
    const retried = await t.request('transactions', { method: 'POST', headers, body });
    expect(retried.status).toBe(409);
    await upstream.proxy.releaseHeld();
    expect((await first).status).toBe(200);
    const again = await t.request('transactions', { method: 'POST', headers, body });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(postsSince(upstream, seen)).toHaveLength(1);
  });

  it('two voids of one sale at once: one is approved, and the gateway saw one', async () => {
    const sale = await post(t, 'json', { type: 'SALE', amount: fresh(), ...VISA });
    const seen = upstream.proxy.seen.length;
    const answers = await Promise.all([
      post(t, 'json', { type: 'VOID', id: sale.id ?? '' }),
      post(t, 'json', { type: 'VOID', id: sale.id ?? '' }),
    ]);
    expect(answers.map((answer) => answer.result).sort()).toEqual(['Approved', 'Rejected']);
    expect(postsSince(upstream, seen)).toHaveLength(1);
  });
});

describe('an answer that never came', () => {
  it.each([
    ['SALE', async () => ({ type: 'SALE', amount: fresh(), ...VISA })],
    [
      'CAPTURE',
      async () => {
        const auth = await post(t, 'json', { type: 'AUTH', amount: '30.00', ...VISA });
        return { type: 'CAPTURE', id: auth.id ?? '', amount: '30.00' };
      },
    ],
    [
      'VOID',
      async () => {
        const sale = await post(t, 'json', { type: 'SALE', amount: fresh(), ...VISA });
        return { type: 'VOID', id: sale.id ?? '' };
      },
    ],
  ] as const)(
    '%s: the gateway acted and its answer was lost; it is looked up, not sent again',
    async (_type, body) => {
      const request = await body();
      upstream.proxy.fault({ kind: 'cut' }, { match: TRANSACTION_POSTS });
      const seen = upstream.proxy.seen.length;
      const answer = await post(t, 'json', request);
      expect(answer.result).toBe('Approved');
      const posts = postsSince(upstream, seen);
      expect(posts).toHaveLength(1);
      expect(posts[0]?.fate).toBe('cut');
      const reference = String(posts[0]?.body.order_number);
      const atTheGateway = await upstream.gateway.client.listTransactions({ order_id: reference });
      expect(atTheGateway).toHaveLength(1);
      expect((await item(answer.id)).upstream_id).toBe(atTheGateway[0]?.id);
    },
  );

  it('a request that never reached the gateway is an Error 9004, with nothing charged', async () => {
    upstream.proxy.fault({ kind: 'hang' }, { match: TRANSACTION_POSTS });
    const seen = upstream.proxy.seen.length;
    const answer = await post(t, 'json', { type: 'SALE', amount: fresh(), ...VISA });
    expect(answer).toMatchObject({ result: 'Error', error_code: '9004' });
    expect(answer.display_message).toMatch(/could not be learned. Nothing was recorded as charged/);
    const reference = String(postsSince(upstream, seen)[0]?.body.order_number);
    expect(await upstream.gateway.client.listTransactions({ order_id: reference })).toEqual([]);
    expect(await item(answer.id)).toMatchObject({ result: 'Error', upstream_id: '' });
  });

  it('one that turns up at the gateway later is voided there, and the audit log says so', async () => {
    upstream.proxy.fault({ kind: 'hold' }, { match: TRANSACTION_POSTS });
    const seen = upstream.proxy.seen.length;
    const answer = await post(t, 'json', { type: 'SALE', amount: fresh(), ...VISA });
    expect(answer).toMatchObject({ result: 'Error', error_code: '9004' });
    const reference = String(postsSince(upstream, seen)[0]?.body.order_number);
    // The gateway acts on it at last.
    const [late] = await upstream.proxy.releaseHeld();
    expect(JSON.parse(late ?? '{}')).toMatchObject({ result: 'Approved' });
    await t.gateway.engine.forwarder.round();
    const [turnedUp] = await upstream.gateway.client.listTransactions({ order_id: reference });
    expect(turnedUp?.voided).toBe('true');
    const audit = await recentAudit(t, 10);
    expect(audit.find((entry) => entry.action === 'gateway_void')).toMatchObject({
      actor: 'store and forward',
      subject: `transaction ${answer.id}`,
      detail: expect.stringContaining(`turned up at the gateway approved as its transaction ${turnedUp?.id}`),
    });
  });
});

describe('the relay tells how long it took', () => {
  it('a Server-Timing header with the time at the gateway and after its answer', async () => {
    const response = await t.request('transactions', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', api_key: t.key },
      body: JSON.stringify({ type: 'SALE', amount: fresh(), ...VISA }),
    });
    expect(response.headers['server-timing']).toMatch(/^upstream;dur=\d+\.\d{2}, relay;dur=\d+\.\d{2}$/);
  });
});
