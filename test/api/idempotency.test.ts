import { createHash, createHmac } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startGateway } from '../../electron/gateway/gateway';
import type { CardDetails, Processor, ProcessorDecision } from '../../electron/gateway/processor/processor';
import { SimulatedProcessor } from '../../electron/gateway/processor/simulated';
import { useGatewayPerTest, VISA, type TestGateway } from '../support/gateway';
import { queryLedger } from '../support/ledger-rows';

const startGatewayForTest = useGatewayPerTest();

const SALE = JSON.stringify({ type: 'SALE', amount: '12.00', ...VISA });

function post(g: TestGateway, body: string, key?: string, format: 'json' | 'xml' = 'json') {
  return g.request('transactions', {
    method: 'POST',
    body,
    headers: {
      api_key: g.key,
      'content-type': `application/${format}`,
      accept: 'application/json',
      ...(key !== undefined && { 'idempotency-key': key }),
    },
  });
}

async function transactionCount(g: TestGateway): Promise<number> {
  return (await g.client.listTransactions({ page_size: 100 })).length;
}

/** A processor whose authorizations wait until the test lets them through. */
class GatedProcessor extends SimulatedProcessor implements Processor {
  private release: (() => void) | undefined;
  gate = new Promise<void>((resolve) => (this.release = resolve));
  open(): void {
    this.release?.();
  }
  override async authorize(request: {
    kind: 'sale' | 'auth';
    amountCents: number;
    card: CardDetails;
  }): Promise<ProcessorDecision> {
    await this.gate;
    return super.authorize(request);
  }
}

describe('Idempotency-Key on POST /transactions', () => {
  it('a retry with the same key and body gets the same answer, marked replayed, and charges once', async () => {
    const t = await startGatewayForTest();
    const first = await post(t, SALE, 'order-1001');
    const again = await post(t, SALE, 'order-1001');
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await transactionCount(t)).toBe(1);
  });

  it('the same request sent as XML is the same request', async () => {
    const t = await startGatewayForTest();
    const json = await post(t, SALE, 'k-xml');
    const xml = await post(
      t,
      '<transaction><type>SALE</type><amount>12.00</amount><card>4111111111111111</card><exp_date>1230</exp_date></transaction>',
      'k-xml',
      'xml',
    );
    expect(xml.json()).toEqual(json.json());
    expect(xml.headers['idempotent-replayed']).toBe('true');
  });

  it('is the same request however JSON and XML write its values, and its type however it is spelt', async () => {
    const t = await startGatewayForTest();
    const sale = await t.client.createTransaction({ type: 'SALE', amount: '8.00', ...VISA });
    const asJson = await post(t, JSON.stringify({ type: 'void', id: Number(sale.id) }), 'k-void');
    expect(asJson.json()).toMatchObject({ result: 'Approved' });
    const asXml = await post(
      t,
      `<transaction><type>VOID</type><id>${sale.id}</id></transaction>`,
      'k-void',
      'xml',
    );
    expect(asXml.status).toBe(200);
    expect(asXml.headers['idempotent-replayed']).toBe('true');
    expect(asXml.json()).toEqual(asJson.json());

    const forced = { amount: '6.00', ...VISA, authorization_code: 'V0ICE1' };
    const spaced = await post(
      t,
      JSON.stringify({ type: 'FORCED SALE', ...forced, billing_is_shipping: true }),
      'k-forced',
    );
    const joined = await post(
      t,
      JSON.stringify({ type: 'forced_sale', ...forced, billing_is_shipping: 'TRUE' }),
      'k-forced',
    );
    expect(joined.headers['idempotent-replayed']).toBe('true');
    expect(joined.json()).toEqual(spaced.json());
    // A value that reads differently is another request.
    const other = await post(
      t,
      JSON.stringify({ type: 'FORCED SALE', ...forced, billing_is_shipping: false }),
      'k-forced',
    );
    expect(other.status).toBe(422);
    expect(await transactionCount(t)).toBe(3);
  });

  it('the same key with a different body is refused with 422 and changes nothing', async () => {
    const t = await startGatewayForTest();
    await post(t, SALE, 'k-1');
    const other = await post(t, JSON.stringify({ type: 'SALE', amount: '99.00', ...VISA }), 'k-1');
    expect(other.status).toBe(422);
    expect(other.json()).toMatchObject({ status: '422', error: 'idempotency_key_reused' });
    expect(await transactionCount(t)).toBe(1);
  });

  it('the same key while the first request is still in flight gets 409', async () => {
    const processor = new GatedProcessor();
    const t = await startGatewayForTest({ engine: { processor } });
    const first = post(t, SALE, 'k-slow');
    await expect.poll(async () => (await post(t, SALE, 'k-slow')).status).toBe(409);
    processor.open();
    expect((await first).status).toBe(200);
    expect((await post(t, SALE, 'k-slow')).headers['idempotent-replayed']).toBe('true');
    expect(await transactionCount(t)).toBe(1);
  });

  it('a Rejected answer is replayed too, without a second rejected row', async () => {
    const t = await startGatewayForTest();
    const expired = JSON.stringify({ type: 'SALE', amount: '1.00', card: VISA.card, exp_date: '0101' });
    const first = await post(t, expired, 'k-rejected');
    const again = await post(t, expired, 'k-rejected');
    expect(first.json()).toMatchObject({ result: 'Rejected', error_code: '8000' });
    expect(again.json()).toEqual(first.json());
    expect(await transactionCount(t)).toBe(1);
  });

  it('keys belong to their API key: another integrator may use the same key', async () => {
    const t = await startGatewayForTest();
    const other = await t.createKey(['transactions:write', 'transactions:read']);
    await post(t, SALE, 'shared');
    const second = await t.request('transactions', {
      method: 'POST',
      body: SALE,
      headers: { api_key: other, 'content-type': 'application/json', 'idempotency-key': 'shared' },
    });
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(await transactionCount(t)).toBe(2);
  });

  it('an answer is kept at least 24 hours, and forgotten after 48', async () => {
    const clock = { now: Date.now() };
    const t = await startGatewayForTest({ engine: { now: () => clock.now } });
    const first = await post(t, SALE, 'k-day');
    clock.now += 25 * 3_600_000;
    expect((await post(t, SALE, 'k-day')).json()).toEqual(first.json());
    clock.now += 24 * 3_600_000;
    await post(t, SALE, 'k-other');
    const later = await post(t, SALE, 'k-day');
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect(later.json()).not.toEqual(first.json());
  });

  it('a request that failed before its commit leaves the key free for the retry', async () => {
    class FailingOnce extends SimulatedProcessor {
      failed = false;
      override async authorize(request: { kind: 'sale' | 'auth'; amountCents: number; card: CardDetails }) {
        if (!this.failed) {
          this.failed = true;
          throw new Error('network down');
        }
        return super.authorize(request);
      }
    }
    const t = await startGatewayForTest({ engine: { processor: new FailingOnce() } });
    expect((await post(t, SALE, 'k-retry')).status).toBe(500);
    const retry = await post(t, SALE, 'k-retry');
    expect(retry.status).toBe(200);
    expect(retry.json()).toMatchObject({ result: 'Approved' });
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
  });

  it.each(['', 'x'.repeat(65), 'has space', 'ünïcode'])(
    'refuses the key %j with 400 and records nothing',
    async (key) => {
      const t = await startGatewayForTest();
      const response = await post(t, SALE, key);
      expect(response.status).toBe(400);
      expect(await transactionCount(t)).toBe(0);
    },
  );
});

describe('the stored fingerprint of a request that carries a card number', () => {
  /**
   * The body as the engine fingerprints it: its fields as read (the amount in cents), in name order,
   * the card number as its keyed hash, without the expiry date or the security code.
   */
  const canonicalSale = (secret: Buffer) =>
    JSON.stringify({
      amount: 1200,
      card: createHmac('sha256', secret).update(`card:${VISA.card}`).digest('hex'),
      type: 'SALE',
    });
  /** How fingerprints were made before: every field as read, the card's secrets included. */
  const earlierCanonicalSale = JSON.stringify({
    amount: 1200,
    card: VISA.card,
    exp_date: VISA.exp_date,
    type: 'SALE',
  });

  async function storedFingerprint(t: TestGateway): Promise<string> {
    const [row] = await queryLedger<{ fingerprint: string }>(t, 'SELECT fingerprint FROM idempotency_keys');
    return row?.fingerprint ?? '';
  }

  /** The data dir's secret, readable by its owner only; on a store server, the store's one. */
  async function cardHashSecret(t: TestGateway): Promise<Buffer> {
    if (t.store) {
      const [row] = await queryLedger<{ secret: Buffer }>(t, 'SELECT secret FROM card_hash_key');
      return row?.secret ?? Buffer.alloc(0);
    }
    const keyFile = join(t.dataDir, 'card-hash.key');
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    return Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'hex');
  }

  it("is keyed with a secret of its own (the data dir's, or the store's), so hashing guessed card numbers finds nothing", async () => {
    const t = await startGatewayForTest();
    expect((await post(t, SALE, 'k-keyed')).status).toBe(200);
    const fingerprint = await storedFingerprint(t);
    const secret = await cardHashSecret(t);
    expect(secret.length).toBe(32);
    expect(fingerprint).not.toContain(createHash('sha256').update(canonicalSale(secret)).digest('hex'));
    expect(fingerprint).toBe(`2:${createHmac('sha256', secret).update(canonicalSale(secret)).digest('hex')}`);
  });

  it('holds nothing of the security code or the expiry date: trying every code against it finds none', async () => {
    const t = await startGatewayForTest();
    const sale = (csc: string, exp_date: string) =>
      JSON.stringify({ type: 'SALE', amount: '12.00', card: VISA.card, exp_date, csc });
    expect((await post(t, sale('321', '1230'), 'k-code')).status).toBe(200);
    const stored = await storedFingerprint(t);
    const secret = await cardHashSecret(t);
    const { requestFingerprint } = await import('../../electron/gateway/idempotency');
    const fingerprints = new Set(
      Array.from(
        { length: 1000 },
        (_, code) =>
          requestFingerprint(JSON.parse(sale(String(code).padStart(3, '0'), '1230')), secret).value,
      ),
    );
    for (const exp of ['0127', '1129', '1230', '0631'])
      fingerprints.add(requestFingerprint(JSON.parse(sale('321', exp)), secret).value);
    expect([...fingerprints]).toEqual([stored]);
    // So a retry that differs only in them is the same request, answered again and charged once.
    const again = await post(t, sale('999', '1129'), 'k-code');
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await transactionCount(t)).toBe(1);
  });

  it('an answer stored with a fingerprint made the earlier way is still replayed, and only for its request', async () => {
    const t = await startGatewayForTest();
    const secret = await cardHashSecret(t);
    const { requestFingerprint } = await import('../../electron/gateway/idempotency');
    const earlier = createHmac('sha256', secret).update(earlierCanonicalSale).digest('hex');
    expect(requestFingerprint(JSON.parse(SALE), secret).matches(earlier)).toBe(true);
    const other = JSON.parse(SALE) as Record<string, unknown>;
    expect(requestFingerprint({ ...other, amount: '12.01' }, secret).matches(earlier)).toBe(false);
    expect(requestFingerprint({ ...other, exp_date: '1231' }, secret).matches(earlier)).toBe(false);
  });

  it('keeps its secret across a restart, so a retry after it is still replayed', async () => {
    const t = await startGatewayForTest();
    const first = await post(t, SALE, 'k-restart');
    await t.gateway.close();
    const again = await startGateway({
      dataDir: t.dataDir,
      port: 0,
      ...(t.store && { engine: { store: t.store } }),
    });
    try {
      const retried = await again.engine.transactions.submitOnce(
        JSON.parse(SALE),
        { apiKeyId: (await again.engine.keys.authenticate(t.key))?.recordId ?? 0 },
        'k-restart',
      );
      expect(retried.replayed).toBe(true);
      expect(retried.response).toEqual(first.json());
    } finally {
      await again.close();
    }
  });
});
