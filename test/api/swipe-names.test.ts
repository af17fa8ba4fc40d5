/**
 * A swipe whose name field holds a card number: the sale is approved without a name, and the number
 * reaches no list, receipt or stored byte, whether the engine decrypts the swipe or reads its masked
 * tracks and relays it to the merchant's gateway.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextKsnCounter, simulatedSwipeString, type TestCard } from '../../electron/reader/simulator';
import { useTestGateway, type TestGateway } from '../support/gateway';
import { storedText } from '../support/ledger-rows';
import { atGateway, startRelay, swipe } from '../support/relay';
import { startUpstreamGateway, type UpstreamGateway } from '../support/upstream-gateway';

/** A card number that no test here charges, written as the name: any trace of it is the name's. */
const NAME_NUMBER = '4012888888881881';
/** The card charged. */
const PAN = '4556737586899855';

/** Stripes that carry NAME_NUMBER as the name, whole or cut by spaces, dashes and the field separator. */
const CARDS: TestCard[] = [
  { pan: PAN, expMmyy: '1230', lastName: NAME_NUMBER, firstName: 'X' },
  { pan: PAN, expMmyy: '1230', lastName: '4012-8888-8888-1881', firstName: 'X' },
  { pan: PAN, expMmyy: '1230', lastName: '4012 8888', firstName: '8888 1881' },
];

/** How NAME_NUMBER may be found: whole, in its groups, or its first twelve digits. */
const TRACES = [
  NAME_NUMBER,
  '4012 8888 8888 1881',
  '4012-8888-8888-1881',
  '8888 1881 4012 8888',
  NAME_NUMBER.slice(0, 12),
];

/** Every file below `dir`, as text byte for byte (files that vanish meanwhile are skipped). */
function filesBelow(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    try {
      const stat = statSync(path);
      if (stat.isDirectory()) found.push(...filesBelow(path));
      else if (stat.isFile()) found.push(readFileSync(path).toString('latin1'));
    } catch {
      // Removed while it was walked (a journal, a temporary file).
    }
  }
  return found;
}

/** Everything the engine stored: its data dir's files and, on a store server, its database's rows. */
async function stored(t: TestGateway): Promise<string> {
  return [...filesBelow(t.dataDir), await storedText(t)].join('\n');
}

/** The receipt of `id` as text and as JSON, every copy a sale has. */
async function receipts(t: TestGateway, id: string): Promise<string[]> {
  const bodies: string[] = [];
  for (const copy of ['customer', 'merchant']) {
    for (const accept of ['text/plain', 'application/json']) {
      const response = await t.request(`transactions/${id}/receipt?copy=${copy}&width=42`, {
        headers: { api_key: t.key, accept },
      });
      expect(response.status).toBe(200);
      bodies.push(response.body);
    }
  }
  return bodies;
}

/** The sale is listed without a name, its receipts print none, and NAME_NUMBER is nowhere. */
async function expectNoName(t: TestGateway, ids: string[]): Promise<void> {
  for (const id of ids) {
    const [listed] = await t.client.listTransactions({ id });
    expect(listed).toMatchObject({
      id,
      result: 'Approved',
      card: expect.stringMatching(/^\*+9855$/) as unknown,
      first_name: '',
      last_name: '',
    });
    for (const body of await receipts(t, id)) {
      expect(body).toContain('9855');
      expect(body).not.toMatch(/^Name\b|"Name"/m);
      for (const trace of TRACES) expect(body).not.toContain(trace);
    }
  }
  const all = JSON.stringify(await t.client.listTransactions({ page_size: 100 }));
  const bytes = await stored(t);
  for (const trace of TRACES) {
    expect(all).not.toContain(trace);
    expect(bytes).not.toContain(trace);
  }
}

describe('a swipe with a card number for a name, decrypted by the engine', () => {
  const t = useTestGateway();
  let counter = nextKsnCounter(Math.floor(Math.random() * 1_000_000));

  it('is approved without a name, and the number is listed, printed and stored nowhere', async () => {
    const ids: string[] = [];
    for (const card of CARDS) {
      counter = nextKsnCounter(counter);
      const sale = await t.client.createTransaction({
        type: 'SALE',
        amount: '3.00',
        encrypted_track_data: simulatedSwipeString(card, { counter }),
        track_format: 'MAGTEK',
      });
      expect(sale).toMatchObject({ result: 'Approved' });
      ids.push(sale.id ?? '');
    }
    await expectNoName(t, ids);
  });
});

describe("a swipe with a card number for a name, relayed to the merchant's gateway", () => {
  let upstream: UpstreamGateway;
  let relay: TestGateway;
  beforeAll(async () => {
    upstream = await startUpstreamGateway();
    relay = await startRelay(upstream);
  });
  afterAll(async () => {
    await relay?.close();
    await upstream?.close();
  });

  it('is approved without a name from the masked tracks, and the number is kept nowhere', async () => {
    const ids: string[] = [];
    for (const card of CARDS) {
      const sale = await relay.client.createTransaction({ type: 'SALE', amount: '4.00', ...swipe(card) });
      expect(sale).toMatchObject({ result: 'Approved' });
      ids.push(sale.id ?? '');
    }
    await expectNoName(relay, ids);
    // The gateway, which decrypts the swipe, keeps no name from it either.
    for (const id of ids) {
      const [listed] = await relay.client.listTransactions({ id });
      expect(await atGateway(upstream, listed?.upstream_id ?? '')).toMatchObject({
        first_name: '',
        last_name: '',
      });
    }
  });
});
