/**
 * The gateway client against a real gateway (a second engine in simulator mode) over real HTTPS,
 * through the fault proxy: each way the line can fail ends in the one kind that says what the
 * engine may conclude (not sent, sent without answer, answered).
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayAccount } from '../../electron/gateway/processor/gateway-account';
import { UpstreamClient, type UpstreamEndpoint } from '../../electron/gateway/processor/upstream-client';
import { TRANSACTION_POSTS } from '../support/fault-proxy';
import { VISA } from '../support/gateway';
import { useUpstreamGateway } from '../support/upstream-gateway';

const upstream = useUpstreamGateway();

const opened: UpstreamClient[] = [];
afterEach(async () => {
  for (const client of opened.splice(0)) client.close();
  upstream().proxy.clearFaults();
  await upstream().proxy.line('up');
});

function endpoint(overrides: Partial<UpstreamEndpoint> = {}): UpstreamEndpoint {
  return {
    url: upstream().url,
    apiKey: upstream().key,
    extraCaPem: readFileSync(upstream().caFile, 'utf8'),
    timeoutMs: 5_000,
    ...overrides,
  };
}

function client(overrides: Partial<UpstreamEndpoint> = {}): UpstreamClient {
  const made = new UpstreamClient(endpoint(overrides));
  opened.push(made);
  return made;
}

let references = 0;
/** A reference no other test uses, in order_number's form. */
const reference = () =>
  `T${process.pid}X${Date.now().toString(36).toUpperCase()}${references++}`.slice(0, 18);

const sale = (orderNumber: string) => ({ type: 'SALE', amount: '12.34', ...VISA, order_number: orderNumber });

async function gatewayHas(orderNumber: string): Promise<boolean> {
  const items = await upstream().gateway.client.listTransactions({ order_id: orderNumber });
  return items.some((item) => item.order_number === orderNumber);
}

describe('answered', () => {
  it('a SALE through the line is answered by the gateway, which records it under the reference', async () => {
    const ref = reference();
    const exchange = await client().exchange('POST', '/transactions', sale(ref));
    expect(exchange.kind).toBe('answered');
    if (exchange.kind !== 'answered') return;
    expect(exchange.status).toBe(200);
    expect(JSON.parse(exchange.body)).toMatchObject({ result: 'Approved' });
    expect(await gatewayHas(ref)).toBe(true);
    expect(upstream().proxy.seen.at(-1)?.fate).toBe('forwarded');
  });

  it('a slow line still brings the answer within the time limit', async () => {
    upstream().proxy.fault({ kind: 'delay', ms: 300 }, { match: TRANSACTION_POSTS });
    const exchange = await client().exchange('POST', '/transactions', sale(reference()));
    expect(exchange).toMatchObject({ kind: 'answered', status: 200 });
  });

  it('a key the gateway does not accept is answered 401, a refusal, with nothing recorded', async () => {
    const ref = reference();
    const account = new GatewayAccount(client({ apiKey: 'tender_0000000000000000_wrong' }));
    expect(await account.postTransaction(sale(ref))).toMatchObject({ kind: 'refused', status: 401 });
    expect(await gatewayHas(ref)).toBe(false);
  });
});

describe('could not connect: nothing was sent', () => {
  it('a refused connection', async () => {
    await upstream().proxy.line('refuse');
    expect(await client().exchange('POST', '/transactions', sale(reference()))).toMatchObject({
      kind: 'unreachable',
      cause: 'refused',
    });
  });

  it('a connection accepted but never secured, until the time limit', async () => {
    await upstream().proxy.line('stall');
    const exchange = await client({ timeoutMs: 1_000 }).exchange('POST', '/transactions', sale(reference()));
    expect(exchange).toMatchObject({ kind: 'unreachable', cause: 'timeout' });
  });

  it('a connection dropped during the handshake', async () => {
    await upstream().proxy.line('reset');
    const exchange = await client().exchange('POST', '/transactions', sale(reference()));
    expect(exchange).toMatchObject({ kind: 'unreachable', cause: 'tls' });
  });

  it('a certificate that is not the trusted one', async () => {
    await upstream().proxy.line('untrusted');
    const exchange = await client().exchange('POST', '/transactions', sale(reference()));
    expect(exchange).toMatchObject({ kind: 'unreachable', cause: 'certificate' });
    if (exchange.kind === 'unreachable') expect(exchange.detail).toMatch(/not trusted: it is self-signed/);
  });

  it("the gateway's own certificate, when the CA file is not given: verification stays on", async () => {
    const ref = reference();
    const exchange = await client({ extraCaPem: undefined }).exchange('POST', '/transactions', sale(ref));
    expect(exchange).toMatchObject({ kind: 'unreachable', cause: 'certificate' });
    expect(await gatewayHas(ref)).toBe(false);
  });

  it('a name that does not resolve', async () => {
    const exchange = await client({ url: 'https://tender-gateway.invalid/rest/v1' }).exchange(
      'GET',
      '/batches/open',
    );
    expect(exchange).toMatchObject({ kind: 'unreachable', cause: 'dns' });
  });

  it('the line comes back: the next request is answered', async () => {
    const line = client();
    await upstream().proxy.line('refuse');
    expect((await line.exchange('GET', '/batches/open')).kind).toBe('unreachable');
    await upstream().proxy.line('up');
    expect((await line.exchange('GET', '/batches/open')).kind).toBe('answered');
  });
});

describe('sent, but no answer came', () => {
  it('a request the line swallowed runs into the time limit, and the gateway never saw it', async () => {
    const ref = reference();
    upstream().proxy.fault({ kind: 'hang' }, { match: TRANSACTION_POSTS });
    const exchange = await client({ timeoutMs: 1_000 }).exchange('POST', '/transactions', sale(ref));
    expect(exchange).toMatchObject({ kind: 'no answer', cause: 'timeout' });
    expect(await gatewayHas(ref)).toBe(false);
  });

  it('a connection cut after the request went through: the gateway charged, the answer is lost', async () => {
    const ref = reference();
    upstream().proxy.fault({ kind: 'cut' }, { match: TRANSACTION_POSTS });
    const exchange = await client().exchange('POST', '/transactions', sale(ref));
    expect(exchange).toMatchObject({ kind: 'no answer', cause: 'cut' });
    expect(await gatewayHas(ref)).toBe(true);
  });

  it('an answer withheld on an open connection ends at the time limit', async () => {
    const ref = reference();
    upstream().proxy.fault({ kind: 'withhold' }, { match: TRANSACTION_POSTS });
    const exchange = await client({ timeoutMs: 1_500 }).exchange('POST', '/transactions', sale(ref));
    expect(exchange).toMatchObject({ kind: 'no answer', cause: 'timeout' });
    expect(await gatewayHas(ref)).toBe(true);
  });

  it('a kept connection the line dropped fails a POST as sent-without-answer, never as not sent', async () => {
    const line = client();
    expect((await line.exchange('GET', '/batches/open')).kind).toBe('answered');
    const seen = upstream().proxy.seen.length;
    upstream().proxy.fault({ kind: 'hang' }, { match: TRANSACTION_POSTS });
    const lost = line.exchange('POST', '/transactions', sale(reference()), { timeoutMs: 5_000 });
    await upstream().proxy.waitFor((request) => request.fate === 'hang', seen);
    // The line goes down under the request that is out.
    await upstream().proxy.line('reset');
    expect(await lost).toMatchObject({ kind: 'no answer', cause: 'cut' });
  });
});

describe('the account', () => {
  it('finds a request whose answer was lost by its reference, and nothing for one never sent', async () => {
    const account = new GatewayAccount(client());
    const ref = reference();
    upstream().proxy.fault({ kind: 'cut' }, { match: TRANSACTION_POSTS });
    expect((await account.postTransaction(sale(ref))).kind).toBe('no answer');
    const found = await account.findByReference(ref);
    expect(found).toMatchObject({
      kind: 'answered',
      value: { found: { result: 'Approved', order_number: ref, amount: '12.34', type: 'Sale' } },
    });
    expect(await account.findByReference(reference())).toEqual({
      kind: 'answered',
      value: { found: undefined },
    });
  });

  it('reads the open batch and closes it', async () => {
    const account = new GatewayAccount(client());
    await account.postTransaction(sale(reference()));
    const open = await account.openBatch();
    expect(open).toMatchObject({ kind: 'answered', value: { status: 'OPEN' } });
    const closed = await account.closeOpenBatch();
    expect(closed.kind).toBe('answered');
    if (closed.kind !== 'answered' || open.kind !== 'answered') return;
    expect(closed.value).toMatchObject({ id: open.value?.id, status: 'CLOSED' });
    expect(closed.value?.confirmationCode).toMatch(/^\d+$/);
    expect(await account.closeOpenBatch()).toEqual({ kind: 'answered', value: undefined });
  });

  it('says in words what a connection check found', async () => {
    const fine = await new GatewayAccount(client()).check();
    expect(fine).toMatchObject({ ok: true });
    expect(fine.message).toMatch(/^Connected: 127\.0\.0\.1:\d+ answered/);

    const refused = await new GatewayAccount(client({ apiKey: 'tender_0000000000000000_wrong' })).check();
    expect(refused).toMatchObject({ ok: false, problem: 'key refused' });
    expect(refused.message).toMatch(/^Key refused \(401\)/);

    const untrusted = await new GatewayAccount(client({ extraCaPem: undefined })).check();
    expect(untrusted).toMatchObject({ ok: false, problem: 'certificate' });
    expect(untrusted.message).toMatch(/^Certificate not trusted/);

    await upstream().proxy.line('refuse');
    const down = await new GatewayAccount(client()).check();
    expect(down).toMatchObject({ ok: false, problem: 'unreachable' });
    expect(down.message).toMatch(/^Unreachable: 127\.0\.0\.1:\d+ refused the connection/);
  });

  it('says which permission a limited key lacks', async () => {
    const limited = await upstream().gateway.createKey(['transactions:sale']);
    const check = await new GatewayAccount(client({ apiKey: limited })).check();
    expect(check).toMatchObject({ ok: false, problem: 'not permitted' });
  });
});
