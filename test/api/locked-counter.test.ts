/**
 * The counter screens' own key reads only while someone is signed in at that counter: after Lock,
 * the idle lock, or before anyone signs in, every read made with it is refused (403 counter_locked,
 * in JSON or XML), as its money moves are. Other programs' keys read as before.
 */
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchInvoke } from '../../electron/bridge/dispatch';
import { issueTerminalKey, type Terminal } from '../../electron/bridge/terminal';
import { startTerminal } from '../support/terminal';
import { startTestGateway, VISA, type TestGateway } from '../support/gateway';

const MANAGER_PIN = '2580';
const LOCKED = 'The counter is locked. Sign in with your PIN.';
const parser = new XMLParser({ parseTagValue: false, ignoreDeclaration: true });

let t: TestGateway;
let terminal: Terminal;
let screensKey: string;
let saleId: string;

beforeAll(async () => {
  t = await startTestGateway();
  await t.gateway.engine.staff.create({ name: 'Maya', role: 'manager', pin: MANAGER_PIN }, 'test');
  terminal = await startTerminal(t, { shell: 'browser' });
  screensKey = ((await bridge('terminal:session')) as { apiKey: string }).apiKey;
  const sale = await t.client.createTransaction({
    type: 'SALE',
    amount: '12.34',
    ...VISA,
    email: 'ada@example.com',
    invoice: 'INV-2041',
  });
  saleId = String(sale.id);
});
afterAll(async () => {
  await terminal.stop();
  await t.close();
});

async function bridge(channel: string, input?: unknown): Promise<unknown> {
  const result = await dispatchInvoke(terminal.handlers, channel, input);
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
}

/** Every read the screens' key may make, by its path below /rest/v1. */
const READS = () => [
  'transactions',
  `transactions?id=${saleId}`,
  `transactions/${saleId}/receipt`,
  `transactions/${saleId}/signature`,
  'batches',
  'batches/open',
];

async function read(key: string, path: string, format: 'json' | 'xml' = 'json') {
  const type = format === 'json' ? 'application/json' : 'application/xml';
  // The signature is a picture; its refusals come in the format Accept prefers after it.
  const accept = path.endsWith('/signature') ? `image/png, ${type};q=0.9` : type;
  const response = await t.request(path, { headers: { api_key: key, accept } });
  const fields =
    response.status === 403
      ? format === 'json'
        ? response.json<Record<string, string>>()
        : (Object.values(parser.parse(response.body) as Record<string, Record<string, string>>)[0] ?? {})
      : {};
  return { status: response.status, fields, body: response.body };
}

describe("the counter screens' key while the counter is locked", () => {
  it('reads nothing: every read is 403 counter_locked, in JSON and XML, and says to sign in', async () => {
    await bridge('staff:lock');
    for (const path of READS()) {
      for (const format of ['json', 'xml'] as const) {
        const refused = await read(screensKey, path, format);
        expect(refused.status, `${path} in ${format}`).toBe(403);
        expect(refused.fields, `${path} in ${format}`).toMatchObject({
          error: 'counter_locked',
          message: LOCKED,
        });
        expect(refused.body).not.toContain('INV-2041');
      }
    }
  });

  it('reads again once someone signs in, and is refused again after Lock', async () => {
    await bridge('staff:sign-in', { pin: MANAGER_PIN });
    const list = await read(screensKey, `transactions?id=${saleId}`);
    expect(list.status).toBe(200);
    expect(list.body).toContain('INV-2041');
    expect((await read(screensKey, `transactions/${saleId}/receipt`)).status).toBe(200);
    expect((await read(screensKey, 'batches/open')).status).toBe(200);

    await bridge('staff:lock');
    expect((await read(screensKey, `transactions?id=${saleId}`)).fields).toMatchObject({
      error: 'counter_locked',
    });
  });

  it('does not touch another program’s key, which reads whether or not anyone is signed in', async () => {
    await bridge('staff:lock');
    const other = await t.createKey(['transactions:read', 'batches:read']);
    for (const path of READS()) {
      expect((await read(other, path)).status, path).not.toBe(403);
    }
    expect((await read(other, `transactions?id=${saleId}`)).body).toContain('INV-2041');
  });
});

describe('a screens key whose screens this engine does not host', () => {
  it('reads nothing and sells nothing, in no one’s name', async () => {
    // Issued for a counter's screens and left live (its host ended without revoking it): a gateway
    // started on the same data dir on its own has no one signed in for it.
    const { key } = await issueTerminalKey(t.gateway.engine, 'desktop');
    const refusal = {
      error: 'counter_locked',
      message:
        "This key is a counter's own, not this counter's: it works only at its counter, for whoever is signed in there.",
    };
    for (const format of ['json', 'xml'] as const) {
      const refused = await read(key, 'transactions', format);
      expect(refused.status, format).toBe(403);
      expect(refused.fields, format).toMatchObject(refusal);
    }
    const before = await t.gateway.engine.reads.transaction(Number(saleId) + 1);
    const sale = await t.request('transactions', {
      method: 'POST',
      headers: { api_key: key, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ type: 'SALE', amount: '5.00', ...VISA }),
    });
    expect(sale.status).toBe(403);
    expect(sale.json()).toMatchObject(refusal);
    expect(before).toBeUndefined();
    expect(await t.gateway.engine.reads.transaction(Number(saleId) + 1)).toBeUndefined();
  });
});

describe('the idle lock', () => {
  it('refuses the screens’ key its reads once the counter has gone unused, with no request from the page', async () => {
    let now = Date.now();
    const idle = await startTestGateway({ engine: { now: () => now } });
    const counter = await startTerminal(idle);
    try {
      await idle.gateway.engine.staff.create({ name: 'Maya', role: 'manager', pin: MANAGER_PIN }, 'test');
      await idle.gateway.engine.settings.setFromText('lock_after_minutes', '1');
      const call = async (channel: string, input?: unknown) => {
        const result = await dispatchInvoke(counter.handlers, channel, input);
        if (!result.ok) throw new Error(result.error.message);
        return result.value;
      };
      await call('staff:sign-in', { pin: MANAGER_PIN });
      const { apiKey } = (await call('terminal:session')) as { apiKey: string };
      const list = () => idle.request('transactions', { headers: { api_key: apiKey } });
      expect((await list()).status).not.toBe(403);
      now += 61_000;
      const refused = await list();
      expect(refused.status).toBe(403);
      expect(refused.json()).toMatchObject({ error: 'counter_locked', message: LOCKED });
    } finally {
      await counter.stop();
      await idle.close();
    }
  });
});
