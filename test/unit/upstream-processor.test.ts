/**
 * The processor that forwards to the merchant's gateway, against a real gateway (a second engine in
 * simulator mode, tips on) over real HTTPS through the fault proxy: each type goes up in the
 * interface's form, the gateway's answer comes back as the decision, a swipe goes up as the reader
 * encrypted it, and a lost answer is looked up, never sent twice.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { TransactionRequest } from '../../shared/api/schemas';
import { simulatedSwipeString } from '../../electron/reader/simulator';
import type { CardDetails, ProcessorDecision } from '../../electron/gateway/processor/processor';
import { UpstreamProcessor, type UpstreamSettings } from '../../electron/gateway/processor/upstream';
import { newReference, REFERENCE_PATTERN } from '../../electron/gateway/processor/upstream-forms';
import { TRANSACTION_POSTS } from '../support/fault-proxy';
import { useUpstreamGateway } from '../support/upstream-gateway';

const upstream = useUpstreamGateway({ tips: true });

let processor: UpstreamProcessor | undefined;
let timeoutSeconds = 5;
afterEach(async () => {
  processor?.close();
  processor = undefined;
  timeoutSeconds = 5;
  upstream().proxy.clearFaults();
  await upstream().proxy.line('up');
});

function relay(overrides: Partial<UpstreamSettings> = {}): UpstreamProcessor {
  processor = new UpstreamProcessor(() => ({
    url: upstream().url,
    apiKey: upstream().key,
    caFile: upstream().caFile,
    timeoutSeconds,
    ...overrides,
  }));
  return processor;
}

const keyed = (pan = '4111111111111111', extra: Partial<CardDetails> = {}): CardDetails => ({
  pan,
  expiry: { month: 12, year: 2030 },
  entryMode: 'keyed',
  ...extra,
});

const forwarding = (request: Partial<TransactionRequest> = {}) => ({
  request: { type: 'SALE', ...request },
  reference: newReference(),
});

/** The gateway's own list item of the transaction it decided. */
async function atGateway(decision: ProcessorDecision) {
  expect(decision.upstreamId, JSON.stringify(decision)).toMatch(/^\d+$/);
  const [item] = await upstream().gateway.client.listTransactions({ id: decision.upstreamId ?? '' });
  expect(item).toBeDefined();
  return item;
}

/** The POST bodies that reached the line with this reference. */
const postsWith = (reference: string) =>
  upstream()
    .proxy.seen.filter((request) => TRANSACTION_POSTS(request))
    .filter((request) => (JSON.parse(request.body) as { order_number?: string }).order_number === reference);

describe('each type goes up in the interface form and comes back as the decision', () => {
  it("SALE: the gateway's approval with its id, AVS and CSC, and the caller's fields sent on", async () => {
    const sent = forwarding({
      invoice: 'INV-77',
      description: 'two coffees',
      email: 'ana@example.com',
      billing: { street: '1 Main St', zip: '10001', first_name: 'Ana' },
    });
    const decision = await relay().authorize({
      kind: 'sale',
      amountCents: 1234,
      card: keyed('4111111111111111', { csc: '123', billingStreet: '1 Main St', billingZip: '10001' }),
      forwarding: sent,
    });
    expect(decision).toMatchObject({
      outcome: 'approved',
      resultCode: '0000',
      message: 'Approved',
      avs: 'Y',
      csc: 'M',
      reference: sent.reference,
    });
    const item = await atGateway(decision);
    expect(item).toMatchObject({
      type: 'Sale',
      amount: '12.34',
      invoice: 'INV-77',
      order_number: sent.reference,
      first_name: 'Ana',
      card: '************1111',
    });
    expect(decision.outcome === 'approved' && decision.authorizationCode).toBe(item?.authorization_code);
    const [body] = postsWith(sent.reference);
    expect(JSON.parse(body?.body ?? '{}')).toEqual({
      type: 'SALE',
      card: '4111111111111111',
      exp_date: '1230',
      csc: '123',
      amount: '12.34',
      invoice: 'INV-77',
      email: 'ana@example.com',
      description: 'two coffees',
      billing: { street: '1 Main St', zip: '10001', first_name: 'Ana' },
      order_number: sent.reference,
    });
  });

  it("AUTH, then CAPTURE with a tip naming the AUTH by the gateway's id", async () => {
    const line = relay();
    const auth = await line.authorize({
      kind: 'auth',
      amountCents: 4000,
      card: keyed('5454545454545454'),
      forwarding: forwarding({ type: 'AUTH', server_id: '07' }),
    });
    expect(auth.outcome).toBe('approved');
    const capture = await line.followUp({
      kind: 'capture',
      amountCents: 4800,
      tipCents: 800,
      originalAuthorizationCode: auth.outcome === 'approved' ? auth.authorizationCode : '',
      originalUpstreamId: auth.upstreamId ?? null,
      forwarding: forwarding({ type: 'CAPTURE', invoice: 'TAB-3' }),
    });
    expect(capture.outcome).toBe('approved');
    expect(await atGateway(capture)).toMatchObject({
      type: 'Capture',
      amount: '48.00',
      tip_amount: '8.00',
      original_id: auth.upstreamId,
      invoice: 'TAB-3',
      server_id: '07',
    });
    expect((await atGateway(auth))?.captured).toBe('true');
  });

  it('FORCED SALE with its voice code and tip', async () => {
    const decision = await relay().forcedSale({
      amountCents: 2500,
      tipCents: 500,
      authorizationCode: 'VOX123',
      card: keyed(),
      forwarding: forwarding({ type: 'FORCED SALE' }),
    });
    expect(decision).toMatchObject({ outcome: 'approved', authorizationCode: 'VOX123' });
    expect(await atGateway(decision)).toMatchObject({
      type: 'Forced Sale',
      amount: '25.00',
      tip_amount: '5.00',
    });
  });

  it('VOID and matched REFUND name their original by its id at the gateway', async () => {
    const line = relay();
    const sale = await line.authorize({
      kind: 'sale',
      amountCents: 900,
      card: keyed(),
      forwarding: forwarding(),
    });
    const voided = await line.followUp({
      kind: 'void',
      amountCents: 900,
      originalAuthorizationCode: '',
      originalUpstreamId: sale.upstreamId ?? null,
      forwarding: forwarding({ type: 'VOID', description: 'wrong table' }),
    });
    expect(voided.outcome).toBe('approved');
    expect((await atGateway(sale))?.voided).toBe('true');
    expect(JSON.parse(postsWith(voided.reference ?? '')[0]?.body ?? '{}')).toEqual({
      type: 'VOID',
      id: sale.upstreamId,
      description: 'wrong table',
      order_number: voided.reference,
    });

    const settled = await line.authorize({
      kind: 'sale',
      amountCents: 3000,
      card: keyed(),
      forwarding: forwarding(),
    });
    await upstream().gateway.client.closeOpenBatch();
    const refund = await line.followUp({
      kind: 'refund',
      amountCents: 1000,
      originalAuthorizationCode: '',
      originalUpstreamId: settled.upstreamId ?? null,
      forwarding: forwarding({ type: 'REFUND' }),
    });
    expect(refund.outcome).toBe('approved');
    expect(await atGateway(refund)).toMatchObject({ type: 'Refund', original_id: settled.upstreamId });
    expect((await atGateway(settled))?.refunded_amount).toBe('10.00');
  });

  it('unmatched REFUND to a card', async () => {
    const decision = await relay().credit({
      amountCents: 1500,
      card: keyed(),
      forwarding: forwarding({ type: 'REFUND' }),
    });
    expect(decision.outcome).toBe('approved');
    expect(await atGateway(decision)).toMatchObject({ type: 'Refund', original_id: '', amount: '15.00' });
  });

  it('a swipe goes up exactly as the reader encrypted it, and the gateway decrypts it', async () => {
    const swipe = simulatedSwipeString(
      { pan: '4111111111111111', expMmyy: '1230', lastName: 'ROSS' },
      { counter: 77 },
    );
    const sent = forwarding();
    const decision = await relay().authorize({
      kind: 'sale',
      amountCents: 700,
      card: {
        entryMode: 'swiped',
        expiry: { month: 12, year: 2030 },
        encryptedSwipe: { trackData: swipe, trackFormat: 'MAGTEK' },
      },
      forwarding: sent,
    });
    expect(decision.outcome).toBe('approved');
    expect(await atGateway(decision)).toMatchObject({ card: '************1111', last_name: 'ROSS' });
    const body = JSON.parse(postsWith(sent.reference)[0]?.body ?? '{}') as Record<string, unknown>;
    expect(body.encrypted_track_data).toBe(swipe);
    expect(body.track_format).toBe('MAGTEK');
    expect(body).not.toHaveProperty('card');
    expect(JSON.stringify(body)).not.toContain('4111111111111111');
  });

  it("passes on the gateway's decline, error and rejection in its own codes", async () => {
    const line = relay();
    expect(
      await line.authorize({
        kind: 'sale',
        amountCents: 100,
        card: keyed('4000000000000002'),
        forwarding: forwarding(),
      }),
    ).toMatchObject({ outcome: 'declined', resultCode: '0005', upstreamId: expect.stringMatching(/^\d+$/) });
    expect(
      await line.authorize({
        kind: 'sale',
        amountCents: 100,
        card: keyed('4000000000000119'),
        forwarding: forwarding(),
      }),
    ).toMatchObject({ outcome: 'error', errorCode: '9000', resultCode: '0096' });
    expect(
      await line.authorize({
        kind: 'sale',
        amountCents: 100,
        card: keyed(),
        forwarding: forwarding({ client_ip: '198.51.100.7' }),
      }),
    ).toMatchObject({
      outcome: 'rejected',
      errorCode: '8008',
      message: expect.stringMatching(/Blocked geographic/),
    });
  });

  it('refuses a follow-up whose original the gateway never decided, sending nothing', async () => {
    const before = upstream().proxy.seen.length;
    const decision = await relay().followUp({
      kind: 'void',
      amountCents: 100,
      originalAuthorizationCode: 'ABC',
    });
    expect(decision).toMatchObject({ outcome: 'rejected', errorCode: '8010' });
    expect(upstream().proxy.seen.length).toBe(before);
  });

  it('marks each request with a reference of its own in order_number', () => {
    const references = new Set(Array.from({ length: 1000 }, newReference));
    expect(references.size).toBe(1000);
    for (const reference of references) expect(reference).toMatch(REFERENCE_PATTERN);
  });
});

describe('when the line fails', () => {
  it('an answer lost after the gateway charged is looked up: the charge is the answer, sent once', async () => {
    upstream().proxy.fault({ kind: 'cut' }, { match: TRANSACTION_POSTS });
    const sent = forwarding();
    const decision = await relay().authorize({
      kind: 'sale',
      amountCents: 1111,
      card: keyed(),
      forwarding: sent,
    });
    expect(decision).toMatchObject({ outcome: 'approved', reference: sent.reference });
    expect(await atGateway(decision)).toMatchObject({ amount: '11.11', order_number: sent.reference });
    expect(postsWith(sent.reference)).toHaveLength(1);
    expect(await upstream().gateway.client.listTransactions({ order_id: sent.reference })).toHaveLength(1);
  });

  it('a decline whose answer was lost is found as the decline', async () => {
    upstream().proxy.fault({ kind: 'withhold' }, { match: TRANSACTION_POSTS });
    timeoutSeconds = 2;
    const decision = await relay().authorize({
      kind: 'sale',
      amountCents: 100,
      card: keyed('4000000000009995'),
      forwarding: forwarding(),
    });
    expect(decision).toMatchObject({ outcome: 'declined', resultCode: '0051' });
  });

  it("a request the gateway never got is an outcome that could not be learned, after the gateway's time limit", async () => {
    upstream().proxy.fault({ kind: 'hang' }, { match: TRANSACTION_POSTS });
    timeoutSeconds = 2;
    const sent = forwarding();
    const decision = await relay().authorize({
      kind: 'sale',
      amountCents: 1212,
      card: keyed(),
      forwarding: sent,
    });
    expect(decision).toMatchObject({
      outcome: 'error',
      errorCode: '9004',
      line: 'unknown',
      reference: sent.reference,
    });
    expect(postsWith(sent.reference)).toHaveLength(1);
    const lookups = upstream().proxy.seen.filter((request) =>
      request.path.includes(`order_id=${sent.reference}`),
    );
    expect(lookups.length).toBeGreaterThan(1);
    expect(await upstream().gateway.client.listTransactions({ order_id: sent.reference })).toEqual([]);
  });

  it('a line that cannot be reached answers at once that nothing was sent, and is offline until it answers again', async () => {
    const line = relay();
    const changes: string[] = [];
    line.line.on('changed', (state) => changes.push(state));
    await upstream().proxy.line('refuse');
    const decision = await line.authorize({
      kind: 'sale',
      amountCents: 100,
      card: keyed(),
      forwarding: forwarding(),
    });
    expect(decision).toMatchObject({ outcome: 'error', errorCode: '9003', line: 'unreachable' });
    if (decision.outcome === 'error')
      expect(decision.message).toMatch(/^The card network is down: .* refused/);
    expect(line.line.state).toBe('offline');
    await upstream().proxy.line('up');
    expect((await line.authorize({ kind: 'sale', amountCents: 100, card: keyed() })).outcome).toBe(
      'approved',
    );
    expect(line.line.state).toBe('online');
    expect(changes).toEqual(['offline', 'online']);
  });

  it('a key the gateway refuses is an error saying so, and not a line that is down', async () => {
    const decision = await relay({ apiKey: 'tender_0000000000000000_wrong' }).authorize({
      kind: 'sale',
      amountCents: 100,
      card: keyed(),
      forwarding: forwarding(),
    });
    expect(decision).toMatchObject({ outcome: 'error', errorCode: '9005' });
    expect(decision).not.toHaveProperty('line');
    if (decision.outcome === 'error') expect(decision.message).toMatch(/refused the API key \(401\)/);
  });

  it('a changed key applies from the next request', async () => {
    let apiKey = 'tender_0000000000000000_wrong';
    processor = new UpstreamProcessor(() => ({
      url: upstream().url,
      apiKey,
      caFile: upstream().caFile,
      timeoutSeconds,
    }));
    expect((await processor.authorize({ kind: 'sale', amountCents: 100, card: keyed() })).outcome).toBe(
      'error',
    );
    apiKey = upstream().key;
    expect((await processor.authorize({ kind: 'sale', amountCents: 100, card: keyed() })).outcome).toBe(
      'approved',
    );
  });
});
