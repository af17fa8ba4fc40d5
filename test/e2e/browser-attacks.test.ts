/**
 * A web page in a browser on the same computer cannot use the engine. In Debian's Chromium, a page
 * served from another origin on loopback (http://127.0.0.1:<other port>) holds a valid API key and
 * tries everything a page can: form posts (urlencoded, and text/plain shaped into JSON), fetch in
 * no-cors mode, fetch with credentials and the api_key header (a preflight), an XMLHttpRequest, and
 * a beacon. The ledger must not change, and the page must not be able to read any answer.
 *
 * Chromium trusts exactly the engine's certificate (--ignore-certificate-errors-spki-list with its
 * key's fingerprint, as a browser set up per docs/operations.md would; no blanket certificate
 * bypass): TLS is accepted, so every refusal below is the engine's own. A control shows the browser
 * reaching the engine over TLS, and Playwright's view of the network shows each attack arriving and
 * refused.
 *
 * DNS rebinding is checked through Node, where the Host header can be set at will.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright';
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from 'vitest';
import type { Batch, TransactionListItem } from '../../shared/api/schemas';
import { startTestGateway, VISA, type TestGateway } from '../support/gateway';
import { launchChromium } from '../support/screens';

let t: TestGateway;
/** The control: an engine that does allow the attacker's origin, to show the attacks have teeth. */
let permissive: TestGateway;
let attacker: Server;
let attackerOrigin: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;
/** What reached the engine from the browser, as Playwright sees the network (not the page). */
let seen: { method: string; url: string; status: number }[];

/** The attacking page: it knows the engine's address and a valid key, and tries to spend with it. */
function attackPage(engine: string, key: string): string {
  return `<!doctype html>
<meta charset="utf-8">
<title>Free coupons</title>
<iframe name="sink" id="sink"></iframe>
<script>
const ENGINE = ${JSON.stringify(engine)};
const KEY = ${JSON.stringify(key)};
const SALE = { type: 'SALE', amount: '6.66', card: '${VISA.card}', exp_date: '${VISA.exp_date}', api_key: KEY };

/** What the page can learn of the answer in the iframe a form targets. */
function readFrame() {
  const frame = document.getElementById('sink');
  const seen = { contentDocument: String(frame.contentDocument), text: null, error: null };
  try {
    seen.text = frame.contentWindow.document.body.innerText;
  } catch (error) {
    seen.error = error.name;
  }
  return seen;
}

function submitForm(enctype, fields) {
  return new Promise((resolve) => {
    const frame = document.getElementById('sink');
    frame.onload = () => resolve(readFrame());
    const form = document.createElement('form');
    form.method = 'POST';
    form.action = ENGINE + '/transactions';
    form.enctype = enctype;
    form.target = 'sink';
    for (const [name, value] of fields) {
      const input = document.createElement('input');
      input.type = 'hidden';
      input.name = name;
      input.value = value;
      form.appendChild(input);
    }
    document.body.appendChild(form);
    form.submit();
  });
}

async function tryFetch(url, init) {
  try {
    const response = await fetch(url, init);
    let text = null;
    try { text = await response.text(); } catch (error) { text = 'unreadable: ' + error.name; }
    return { type: response.type, status: response.status, text, headers: [...response.headers].length };
  } catch (error) {
    return { error: error.name + ': ' + error.message };
  }
}

function sendXhr(withCredentials) {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', ENGINE + '/transactions');
    xhr.setRequestHeader('content-type', 'application/json');
    xhr.setRequestHeader('api_key', KEY);
    xhr.withCredentials = withCredentials;
    xhr.onloadend = () => resolve({ status: xhr.status, text: xhr.responseText, headers: xhr.getAllResponseHeaders() });
    xhr.send(JSON.stringify(SALE));
  });
}

window.attacks = {
  formUrlencoded: () => submitForm('application/x-www-form-urlencoded', Object.entries(SALE)),
  // The classic trick: one field whose name and value make the whole text/plain body valid JSON.
  formTextPlainJson: () => {
    const json = JSON.stringify({ ...SALE, padding: '' });
    return submitForm('text/plain', [[json.slice(0, -3) + '"', '"}']]);
  },
  noCorsJson: () => tryFetch(ENGINE + '/transactions', {
    method: 'POST', mode: 'no-cors', headers: { 'content-type': 'application/json' }, body: JSON.stringify(SALE),
  }),
  noCorsTextPlain: () => tryFetch(ENGINE + '/transactions', {
    method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: JSON.stringify(SALE),
  }),
  corsWithKeyHeader: () => tryFetch(ENGINE + '/transactions', {
    method: 'POST', mode: 'cors', credentials: 'include',
    headers: { 'content-type': 'application/json', api_key: KEY, 'idempotency-key': 'evil-1' },
    body: JSON.stringify(SALE),
  }),
  corsWithKeyHeaderNoCredentials: () => tryFetch(ENGINE + '/transactions', {
    method: 'POST', mode: 'cors', credentials: 'omit',
    headers: { 'content-type': 'application/json', api_key: KEY },
    body: JSON.stringify(SALE),
  }),
  corsReadList: () => tryFetch(ENGINE + '/transactions', {
    mode: 'cors', credentials: 'include', headers: { api_key: KEY, accept: 'application/json' },
  }),
  corsCloseBatch: () => tryFetch(ENGINE + '/batches/open', {
    method: 'PUT', mode: 'cors', credentials: 'include', headers: { api_key: KEY },
  }),
  xhr: () => sendXhr(true),
  xhrNoCredentials: () => sendXhr(false),
  beacon: () => ({ queued: navigator.sendBeacon(ENGINE + '/transactions', new Blob([JSON.stringify(SALE)], { type: 'text/plain' })) }),
};
</script>`;
}

async function getJson<T>(path: string): Promise<T | undefined> {
  const response = await t.request(path, { headers: { api_key: t.key, accept: 'application/json' } });
  if (response.status === 204) return undefined;
  expect(response.status, response.body).toBe(200);
  return response.json<T>();
}

/** The ledger as an attack could change it: every transaction, and the open batch. */
async function ledger(): Promise<string> {
  return JSON.stringify({
    transactions: await getJson<TransactionListItem[]>('transactions?page_size=100'),
    open: await getJson<Batch>('batches/open'),
  });
}

beforeAll(async () => {
  t = await startTestGateway();
  await t.client.createTransaction({ type: 'SALE', amount: '2.00', ...VISA });
  attacker = createServer((request, response) => {
    const target = request.url?.startsWith('/control') ? permissive : t;
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(attackPage(target.gateway.url, target.key));
  });
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  attackerOrigin = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`;
  permissive = await startTestGateway({ allowedOrigins: [attackerOrigin] });
  // Trusts exactly the engines' certificates; no --ignore-certificate-errors.
  browser = await launchChromium([t.gateway.certificatePem, permissive.gateway.certificatePem]);
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => attacker?.close(resolve));
  await t?.close();
  await permissive?.close();
});

beforeEach(async () => {
  context = await browser.newContext();
  // A bound on a state that never comes, far past any step's pace on a busy machine.
  context.setDefaultTimeout(90_000);
  page = await context.newPage();
  seen = [];
  page.on('response', (response) => {
    if (response.url().startsWith(`https://127.0.0.1:${t.gateway.port}/`)) {
      seen.push({ method: response.request().method(), url: response.url(), status: response.status() });
    }
  });
});
afterEach(() => context?.close());

/** Runs one attack in the page and returns what the page could see of it. */
async function attack(name: string, path = '/'): Promise<Record<string, unknown>> {
  await page.goto(`${attackerOrigin}${path}`);
  return page.evaluate(
    (attackName) => (window as unknown as { attacks: Record<string, () => unknown> }).attacks[attackName]?.(),
    name,
  ) as Promise<Record<string, unknown>>;
}

describe('the browser reaches the engine', () => {
  it('over TLS it trusts: a navigation to the OpenAPI document loads', async () => {
    const response = await page.goto(`${t.gateway.url}/openapi.json`);
    expect(response?.status()).toBe(200);
    expect(await response?.text()).toContain('"openapi"');
  });
});

describe('a page of another origin on loopback, holding a valid key', () => {
  it('cannot record a sale with a urlencoded form post, nor read the answer', async () => {
    const before = await ledger();
    const read = await attack('formUrlencoded');
    expect(read).toMatchObject({ contentDocument: 'null', text: null, error: 'SecurityError' });
    expect(seen).toContainEqual(expect.objectContaining({ method: 'POST', status: 403 }));
    expect(await ledger()).toBe(before);
  });

  it('cannot record a sale with a text/plain form post shaped as JSON, nor read the answer', async () => {
    const before = await ledger();
    const read = await attack('formTextPlainJson');
    expect(read).toMatchObject({ contentDocument: 'null', text: null, error: 'SecurityError' });
    expect(seen).toContainEqual(expect.objectContaining({ method: 'POST', status: 403 }));
    expect(await ledger()).toBe(before);
  });

  it.each(['noCorsJson', 'noCorsTextPlain'])(
    'cannot record a sale with a no-cors fetch (%s), and gets only an opaque answer',
    async (name) => {
      const before = await ledger();
      const read = await attack(name);
      expect(read).toEqual({ type: 'opaque', status: 0, text: '', headers: 0 });
      await expect
        .poll(() => seen.filter((entry) => entry.method === 'POST').map((e) => e.status))
        .toEqual([403]);
      expect(await ledger()).toBe(before);
    },
  );

  it.each(['corsWithKeyHeader', 'corsWithKeyHeaderNoCredentials', 'corsReadList', 'corsCloseBatch'])(
    'cannot pass the preflight of a fetch with the api_key header (%s)',
    async (name) => {
      const before = await ledger();
      const read = await attack(name);
      expect(read).toEqual({ error: expect.stringMatching(/^TypeError/) });
      // The request itself never left: only its preflight did, and it was refused.
      expect(seen.filter((entry) => entry.method !== 'OPTIONS')).toEqual([]);
      expect(await ledger()).toBe(before);
    },
  );

  it.each(['xhr', 'xhrNoCredentials'])(
    'cannot record a sale with an XMLHttpRequest (%s), nor read its answer',
    async (name) => {
      const before = await ledger();
      const read = await attack(name);
      expect(read).toEqual({ status: 0, text: '', headers: '' });
      expect(seen.filter((entry) => entry.method !== 'OPTIONS')).toEqual([]);
      expect(await ledger()).toBe(before);
    },
  );

  it('cannot record a sale with a beacon', async () => {
    const before = await ledger();
    expect(await attack('beacon')).toEqual({ queued: true });
    await expect
      .poll(() => seen.filter((entry) => entry.method === 'POST').map((e) => e.status))
      .toEqual([403]);
    expect(await ledger()).toBe(before);
  });
});

describe('the control: an engine that allowed the attacker’s origin', () => {
  it('would be used by the same page, so the refusals above are the engine’s origin policy at work', async () => {
    // Without credentials: the engine never sends Access-Control-Allow-Credentials, to anyone.
    const viaFetch = await attack('corsWithKeyHeaderNoCredentials', '/control');
    expect(viaFetch).toMatchObject({ type: 'cors', status: 200 });
    expect(JSON.parse(String(viaFetch.text))).toMatchObject({ result: 'Approved' });
    const viaXhr = await attack('xhrNoCredentials', '/control');
    expect(viaXhr).toMatchObject({ status: 200 });
    expect(JSON.parse(String(viaXhr.text))).toMatchObject({ result: 'Approved' });
    const recorded = await permissive.client.listTransactions({ amount: '6.66' });
    expect(recorded).toHaveLength(2);
  });
});

describe('what the browser met, seen from Node', () => {
  it('the preflight from that origin is refused, with no CORS permission', async () => {
    const response = await t.request('transactions', {
      method: 'OPTIONS',
      headers: {
        origin: attackerOrigin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'api_key,content-type',
      },
    });
    expect(response.status).toBe(403);
    expect(response.json()).toMatchObject({ error: 'forbidden' });
    expect(Object.keys(response.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
  });

  it('a sale with a valid key from that origin is refused with 403 and records nothing', async () => {
    const before = await ledger();
    const response = await t.request('transactions', {
      method: 'POST',
      headers: { origin: attackerOrigin, api_key: t.key, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'SALE', amount: '6.66', ...VISA }),
    });
    expect(response.status).toBe(403);
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
    expect(await ledger()).toBe(before);
  });
});

describe('DNS rebinding', () => {
  it.each([
    (port: number) => `evil.example:${port}`,
    (port: number) => `127.0.0.1.nip.io:${port}`,
    (port: number) => `localhost.evil.example:${port}`,
    (port: number) => `127.0.0.1:${port + 1}`,
    () => '127.0.0.1',
  ])(
    'a request whose Host is a rebinding name (%#) is refused with 421 and records nothing',
    async (host) => {
      const before = await ledger();
      const name = host(t.gateway.port);
      for (const [method, path, body] of [
        ['POST', 'transactions', JSON.stringify({ type: 'SALE', amount: '6.66', ...VISA })],
        ['GET', 'transactions', undefined],
        ['PUT', 'batches/open', undefined],
      ] as const) {
        const response = await t.request(path, {
          method,
          host: name,
          headers: { api_key: t.key, 'content-type': 'application/json', accept: 'application/json' },
          ...(body !== undefined && { body }),
        });
        expect(response.status, `${method} ${path} with Host ${name}`).toBe(421);
        expect(response.json()).toMatchObject({ status: '421', error: 'host_not_allowed' });
      }
      expect(await ledger()).toBe(before);
    },
  );
});
