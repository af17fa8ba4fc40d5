/**
 * The HTTP surface of /rest/v1: authentication and permissions, status codes for requests the
 * engine refuses, content negotiation of error bodies, Host and Origin checks, and the OpenAPI
 * document. Every refused request must leave the ledger as it was.
 */
import { XMLParser } from 'fast-xml-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Permission } from '../../shared/api/permissions';
import type { ApiError } from '../../shared/api/schemas';
import {
  useTestGateway,
  VISA,
  type RawRequest,
  type RawResponse,
  type TestGateway,
} from '../support/gateway';

type Format = 'json' | 'xml';

const xmlParser = new XMLParser({ parseTagValue: false });

const SALE_JSON = JSON.stringify({ type: 'SALE', amount: '5.00', ...VISA });
/** A JSON sale that carries an API key as its api_key property. */
const saleWithBodyKey = (key: string) =>
  JSON.stringify({ type: 'SALE', amount: '2.00', ...VISA, api_key: key });
const saleXml = (extra = '') =>
  `<?xml version="1.0" encoding="UTF-8"?><transaction><type>SALE</type><amount>5.00</amount>` +
  `<card>${VISA.card}</card><exp_date>${VISA.exp_date}</exp_date>${extra}</transaction>`;

const BILLION_LAUGHS = `<?xml version="1.0"?>
<!DOCTYPE transaction [
  <!ENTITY lol "lol">
  <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
  <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
  <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
  <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
  <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
  <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
  <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
  <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
  <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<transaction><type>SALE</type><amount>5.00</amount><card>${VISA.card}</card><exp_date>1230</exp_date><invoice>&lol9;</invoice></transaction>`;

const EXTERNAL_ENTITY = `<?xml version="1.0"?>
<!DOCTYPE transaction [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<transaction><type>SALE</type><amount>5.00</amount><card>${VISA.card}</card><exp_date>1230</exp_date><invoice>&xxe;</invoice></transaction>`;

/** Parses an error body in the format it must be in and checks the fields every error carries. */
function expectError(response: RawResponse, status: number, format: Format = 'json'): ApiError {
  expect(response.status, response.body).toBe(status);
  const contentType = String(response.headers['content-type']);
  let body: ApiError;
  if (format === 'json') {
    expect(contentType).toMatch(/^application\/json/);
    body = response.json<ApiError>();
  } else {
    expect(contentType).toMatch(/^(application|text)\/xml/);
    const parsed = xmlParser.parse(response.body) as Record<string, unknown>;
    expect(Object.keys(parsed).filter((k) => k !== '?xml')).toEqual(['error']);
    body = parsed.error as ApiError;
  }
  expect(body.status).toBe(String(status));
  expect(typeof body.error).toBe('string');
  expect(body.error.length).toBeGreaterThan(0);
  expect(typeof body.message).toBe('string');
  expect(body.message.length).toBeGreaterThan(0);
  return body;
}

async function transactionCount(t: TestGateway): Promise<number> {
  let total = 0;
  for (let page = 1; ; page++) {
    const response = await t.request(`transactions?page_size=100&page=${page}`, {
      headers: { api_key: t.key, accept: 'application/json' },
    });
    if (response.status === 204) return total;
    expect(response.status).toBe(200);
    const items = response.json<unknown[]>();
    total += items.length;
    if (items.length < 100) return total;
  }
}

/** Sends a request that must be refused, and checks the ledger holds as many transactions after as before. */
async function refused(t: TestGateway, path: string, request: RawRequest): Promise<RawResponse> {
  const before = await transactionCount(t);
  const response = await t.request(path, request);
  expect(await transactionCount(t), `${request.method ?? 'GET'} ${path} changed the ledger`).toBe(before);
  return response;
}

/** POSTs a transaction with exactly these headers, as a request that must be refused. */
const refusedPost = (t: TestGateway, headers: Record<string, string>, body: string): Promise<RawResponse> =>
  refused(t, 'transactions', { method: 'POST', headers, body });

const jsonPost = (t: TestGateway, body: string, headers: Record<string, string> = {}): RawRequest => ({
  method: 'POST',
  headers: { api_key: t.key, 'content-type': 'application/json', accept: 'application/json', ...headers },
  body,
});

const xmlPost = (t: TestGateway, body: string, headers: Record<string, string> = {}): RawRequest => ({
  method: 'POST',
  headers: { api_key: t.key, 'content-type': 'application/xml', ...headers },
  body,
});

// ---------------------------------------------------------------------------------------------

describe('authentication', () => {
  const t = useTestGateway();
  beforeAll(async () => {
    await t.client.createTransaction({ type: 'SALE', amount: '1.00', ...VISA });
  });

  it.each([
    ['GET', 'transactions'],
    ['GET', 'batches'],
    ['GET', 'batches/open'],
    ['PUT', 'batches/open'],
  ])('answers %s %s without a key with 401', async (method, path) => {
    const response = await refused(t, path, { method, headers: { accept: 'application/json' } });
    expect(expectError(response, 401).error).toBe('unauthorized');
  });

  it('answers POST /transactions without a key with 401 and records nothing', async () => {
    const response = await refused(t, 'transactions', jsonPost(t, SALE_JSON, { api_key: '' }));
    expect(expectError(response, 401).error).toBe('unauthorized');
  });

  it('answers POST /transactions with no api_key header and no key in the body with 401', async () => {
    const response = await refusedPost(t, { 'content-type': 'application/json' }, SALE_JSON);
    expectError(response, 401);
  });

  it.each([
    'nonsense',
    'tender_0123456789abcdef_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    'Bearer something',
  ])('answers a wrong key (%s) with 401', async (key) => {
    const get = await refused(t, 'transactions', { headers: { api_key: key, accept: 'application/json' } });
    expectError(get, 401);
    const post = await refused(t, 'transactions', jsonPost(t, SALE_JSON, { api_key: key }));
    expectError(post, 401);
  });

  it('answers a key that differs from a real one in its secret with 401', async () => {
    const tampered = t.key.slice(0, -1) + (t.key.endsWith('A') ? 'B' : 'A');
    const response = await refused(t, 'transactions', { headers: { api_key: tampered } });
    expectError(response, 401);
  });

  it('answers a revoked key with 401 on every endpoint', async () => {
    const key = await t.createKey([
      'transactions:write',
      'transactions:read',
      'batches:read',
      'batches:close',
    ]);
    expect((await t.request('transactions', { headers: { api_key: key } })).status).toBe(200);
    expect(await t.gateway.engine.keys.revoke(key)).toBeDefined();
    for (const [method, path] of [
      ['GET', 'transactions'],
      ['GET', 'batches'],
      ['GET', 'batches/open'],
      ['PUT', 'batches/open'],
    ] as const) {
      expectError(await refused(t, path, { method, headers: { api_key: key } }), 401);
    }
    expectError(await refused(t, 'transactions', jsonPost(t, SALE_JSON, { api_key: key })), 401);
    expect((await t.client.openBatch())?.status).toBe('OPEN');
  });

  it('accepts the key as an api_key property of a JSON transaction body', async () => {
    const before = await transactionCount(t);
    const response = await t.request('transactions', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: saleWithBodyKey(t.key),
    });
    expect(response.status, response.body).toBe(200);
    expect(response.json()).toMatchObject({ result: 'Approved' });
    expect(await transactionCount(t)).toBe(before + 1);
  });

  it('accepts the key as an <api_key> child of an XML <transaction>', async () => {
    const before = await transactionCount(t);
    const response = await t.request('transactions', {
      method: 'POST',
      headers: { 'content-type': 'application/xml' },
      body: saleXml(`<api_key>${t.key}</api_key>`),
    });
    expect(response.status, response.body).toBe(200);
    expect(String(response.headers['content-type'])).toMatch(/^application\/xml/);
    const parsed = xmlParser.parse(response.body) as { transaction: Record<string, string> };
    expect(parsed.transaction.result).toBe('Approved');
    expect(await transactionCount(t)).toBe(before + 1);
  });

  it('answers a wrong key in the body with 401 and records nothing', async () => {
    const response = await refusedPost(t, { 'content-type': 'application/json' }, saleWithBodyKey('wrong'));
    expectError(response, 401);
  });

  it('does not take a body key on PUT /batches/open, which takes no body', async () => {
    const response = await refused(t, 'batches/open', {
      method: 'PUT',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ api_key: t.key }),
    });
    expectError(response, 401);
    expect((await t.client.openBatch())?.status).toBe('OPEN');
  });

  it.each(['transactions', 'batches', 'batches/open'])('does not take a body key on GET %s', async (path) => {
    const json = await refused(t, path, {
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ api_key: t.key }),
    });
    expectError(json, 401);
    const xml = await refused(t, path, {
      headers: { 'content-type': 'application/xml', accept: 'application/xml' },
      body: `<transaction><api_key>${t.key}</api_key></transaction>`,
    });
    expectError(xml, 401, 'xml');
  });

  it('lets the header key win over a body key: a read-only header key is refused with 403', async () => {
    const readOnly = await t.createKey(['transactions:read']);
    const response = await refusedPost(
      t,
      { api_key: readOnly, 'content-type': 'application/json' },
      saleWithBodyKey(t.key),
    );
    expectError(response, 403);
  });

  it('lets the header key win over a body key: a wrong header key is refused with 401', async () => {
    const response = await refusedPost(
      t,
      { api_key: 'wrong', 'content-type': 'application/json' },
      saleWithBodyKey(t.key),
    );
    expectError(response, 401);
  });

  it('lets the header key win over a wrong body key', async () => {
    const before = await transactionCount(t);
    const response = await t.request('transactions', {
      method: 'POST',
      headers: { api_key: t.key, 'content-type': 'application/json' },
      body: saleWithBodyKey('wrong'),
    });
    expect(response.status, response.body).toBe(200);
    expect(response.json()).toMatchObject({ result: 'Approved' });
    expect(await transactionCount(t)).toBe(before + 1);
  });
});

describe('401 bodies follow the requested format', () => {
  const t = useTestGateway();

  it('answers in JSON when Accept asks for JSON', async () => {
    expectError(await t.request('transactions', { headers: { accept: 'application/json' } }), 401, 'json');
  });

  it('answers in XML when Accept asks for XML', async () => {
    expectError(await t.request('transactions', { headers: { accept: 'application/xml' } }), 401, 'xml');
    const textXml = await t.request('batches/open', { headers: { accept: 'text/xml' } });
    expectError(textXml, 401, 'xml');
    expect(textXml.headers['content-type']).toBe('text/xml; charset=utf-8');
  });

  it('answers in JSON when there is no Accept and no Content-Type', async () => {
    expectError(await t.request('batches'), 401, 'json');
  });

  it('answers an XML POST without Accept in XML', async () => {
    const response = await refusedPost(t, { 'content-type': 'application/xml' }, saleXml());
    expectError(response, 401, 'xml');
  });

  it('answers a text/xml POST with Accept */* in XML', async () => {
    const response = await refusedPost(t, { 'content-type': 'text/xml', accept: '*/*' }, saleXml());
    expectError(response, 401, 'xml');
    expect(response.headers['content-type']).toBe('text/xml; charset=utf-8');
  });

  it('answers a JSON POST without Accept in JSON', async () => {
    const response = await refusedPost(t, { 'content-type': 'application/json' }, SALE_JSON);
    expectError(response, 401, 'json');
  });

  it('lets Accept win over Content-Type', async () => {
    const response = await refusedPost(
      t,
      { 'content-type': 'application/xml', accept: 'application/json' },
      saleXml(),
    );
    expectError(response, 401, 'json');
  });

  it('answers XML when Accept prefers it by quality', async () => {
    const response = await t.request('transactions', {
      headers: { accept: 'application/json;q=0.5, application/xml' },
    });
    expectError(response, 401, 'xml');
  });
});

describe('permissions', () => {
  const t = useTestGateway();
  const ALL: Permission[] = ['transactions:write', 'transactions:read', 'batches:read', 'batches:close'];
  const without = (missing: Permission) => t.createKey(ALL.filter((p) => p !== missing));
  beforeAll(async () => {
    await t.client.createTransaction({ type: 'SALE', amount: '1.00', ...VISA });
  });

  it('refuses POST /transactions with 403 to a key without transactions:write, and records nothing', async () => {
    const key = await without('transactions:write');
    expectError(await refused(t, 'transactions', jsonPost(t, SALE_JSON, { api_key: key })), 403);
    const xml = await refused(t, 'transactions', xmlPost(t, saleXml(), { api_key: key }));
    expectError(xml, 403, 'xml');
    expect((await t.request('transactions', { headers: { api_key: key } })).status).toBe(200);
  });

  it('refuses a body key without transactions:write with 403', async () => {
    const key = await without('transactions:write');
    const response = await refusedPost(t, { 'content-type': 'application/json' }, saleWithBodyKey(key));
    expectError(response, 403);
  });

  it('refuses GET /transactions with 403 to a key without transactions:read', async () => {
    const key = await without('transactions:read');
    expectError(await refused(t, 'transactions', { headers: { api_key: key } }), 403);
    expect((await t.request('batches', { headers: { api_key: key } })).status).toBe(200);
  });

  it('refuses GET /batches and GET /batches/open with 403 to a key without batches:read', async () => {
    const key = await without('batches:read');
    expectError(await refused(t, 'batches', { headers: { api_key: key } }), 403);
    expectError(await refused(t, 'batches/open', { headers: { api_key: key } }), 403);
    expect((await t.request('transactions', { headers: { api_key: key } })).status).toBe(200);
  });

  it('refuses PUT /batches/open with 403 to a key without batches:close, and leaves the batch open', async () => {
    const key = await without('batches:close');
    expectError(await refused(t, 'batches/open', { method: 'PUT', headers: { api_key: key } }), 403);
    const open = await t.request('batches/open', { headers: { api_key: key } });
    expect(open.status).toBe(200);
    expect(open.json()).toMatchObject({ status: 'OPEN' });
  });

  it('answers 403 in XML when XML is asked for', async () => {
    const key = await without('batches:read');
    expectError(
      await t.request('batches', { headers: { api_key: key, accept: 'application/xml' } }),
      403,
      'xml',
    );
  });
});

describe('refused requests', () => {
  const t = useTestGateway();
  beforeAll(async () => {
    await t.client.createTransaction({ type: 'SALE', amount: '1.00', ...VISA });
  });

  it.each(['/rest/v1/nothing', '/rest/v1/transactions/1', '/rest/v2/transactions', '/', '/rest/v1'])(
    'answers an unknown path %s with 404',
    async (path) => {
      expectError(await refused(t, path, { headers: { api_key: t.key } }), 404);
    },
  );

  it('answers 404 in XML when XML is asked for', async () => {
    expectError(
      await t.request('/rest/v1/nothing', { headers: { api_key: t.key, accept: 'application/xml' } }),
      404,
      'xml',
    );
  });

  it.each([
    ['DELETE', 'transactions', ['GET', 'HEAD', 'POST']],
    ['PUT', 'transactions', ['GET', 'HEAD', 'POST']],
    ['PATCH', 'transactions', ['GET', 'HEAD', 'POST']],
    ['POST', 'batches', ['GET', 'HEAD']],
    ['DELETE', 'batches', ['GET', 'HEAD']],
    ['POST', 'batches/open', ['GET', 'HEAD', 'PUT']],
    ['DELETE', 'batches/open', ['GET', 'HEAD', 'PUT']],
  ])('answers %s /rest/v1/%s with 405 and an Allow header', async (method, path, allowed) => {
    const response = await refused(t, path, { method, headers: { api_key: t.key } });
    expectError(response, 405);
    const allow = String(response.headers.allow)
      .split(',')
      .map((m) => m.trim())
      .sort();
    expect(allow).toEqual([...allowed].sort());
  });

  it('leaves the open batch open after POST /batches/open is refused', async () => {
    const response = await refused(t, 'batches/open', {
      method: 'POST',
      headers: { api_key: t.key, 'content-type': 'application/json' },
      body: '{}',
    });
    expectError(response, 405);
    expect((await t.client.openBatch())?.status).toBe('OPEN');
  });

  it('answers 405 in XML when XML is asked for', async () => {
    const response = await t.request('transactions', {
      method: 'DELETE',
      headers: { api_key: t.key, accept: 'application/xml' },
    });
    expectError(response, 405, 'xml');
    expect(response.headers.allow).toBeDefined();
  });

  it.each(['text/html', 'text/plain', 'image/png', 'application/json;q=0, application/xml;q=0, text/html'])(
    'answers Accept: %s with 406',
    async (accept) => {
      expectError(await refused(t, 'transactions', { headers: { api_key: t.key, accept } }), 406);
    },
  );

  it('answers a POST that accepts only text/html with 406 and records nothing', async () => {
    const response = await refused(t, 'transactions', jsonPost(t, SALE_JSON, { accept: 'text/html' }));
    expectError(response, 406);
  });

  it('accepts Accept: */* and answers in JSON', async () => {
    const response = await t.request('transactions', { headers: { api_key: t.key, accept: '*/*' } });
    expect(response.status).toBe(200);
    expect(String(response.headers['content-type'])).toMatch(/^application\/json/);
  });

  it('answers a body larger than 64 KiB with 413 and records nothing', async () => {
    const body = JSON.stringify({ type: 'SALE', amount: '5.00', ...VISA, comments: 'x'.repeat(65 * 1024) });
    expectError(await refused(t, 'transactions', jsonPost(t, body)), 413);
  });

  it('answers a large XML body in XML with 413', async () => {
    const body = saleXml(`<comments>${'x'.repeat(70 * 1024)}</comments>`);
    expectError(await refused(t, 'transactions', xmlPost(t, body)), 413, 'xml');
  });

  it.each([
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'text/html',
  ])('answers Content-Type %s with 415 and records nothing', async (contentType) => {
    const response = await refused(
      t,
      'transactions',
      jsonPost(t, SALE_JSON, { 'content-type': contentType }),
    );
    expectError(response, 415);
  });

  it('answers a POST body without Content-Type with 415 and records nothing', async () => {
    const response = await refusedPost(t, { api_key: t.key, accept: 'application/json' }, SALE_JSON);
    expectError(response, 415);
  });

  it('answers a POST without body or Content-Type with 415', async () => {
    const response = await refused(t, 'transactions', { method: 'POST', headers: { api_key: t.key } });
    expectError(response, 415);
  });

  it('accepts application/json with a charset parameter', async () => {
    const response = await t.request(
      'transactions',
      jsonPost(t, SALE_JSON, { 'content-type': 'application/json; charset=utf-8' }),
    );
    expect(response.status, response.body).toBe(200);
  });

  it.each([
    ['malformed JSON', '{"type": "SALE", "amount": '],
    ['a JSON array', JSON.stringify([{ type: 'SALE', amount: '5.00', ...VISA }])],
    ['a JSON string', '"SALE"'],
    ['JSON null', 'null'],
    ['a JSON number', '42'],
    ['an empty body', ''],
    ['JSON with a trailing comma', '{"type": "SALE",}'],
  ])('answers %s with 400 and records nothing', async (_name, body) => {
    expectError(await refused(t, 'transactions', jsonPost(t, body)), 400);
  });

  it('answers XML with a DOCTYPE and nested entities (billion laughs) with 400 and records nothing', async () => {
    const response = await refused(t, 'transactions', xmlPost(t, BILLION_LAUGHS));
    expectError(response, 400, 'xml');
  });

  it('answers XML with an external entity with 400 and records nothing', async () => {
    const response = await refused(t, 'transactions', xmlPost(t, EXTERNAL_ENTITY));
    expectError(response, 400, 'xml');
    expect(response.body).not.toContain('root:');
  });

  it('answers a DOCTYPE without entities with 400', async () => {
    const body = `<?xml version="1.0"?><!DOCTYPE transaction>${saleXml().replace(/^<\?xml[^>]*\?>/, '')}`;
    expectError(await refused(t, 'transactions', xmlPost(t, body)), 400, 'xml');
  });

  it.each([
    ['a wrong root element', '<sale><type>SALE</type><amount>5.00</amount></sale>'],
    ['two root elements', `${saleXml().replace(/^<\?xml[^>]*\?>/, '')}<transaction/>`],
    ['an unclosed element', '<transaction><type>SALE</type><amount>5.00</amount>'],
    ['mismatched tags', '<transaction><type>SALE</amount></transaction>'],
    ['text that is not XML', 'type=SALE&amount=5.00'],
    ['a bare ampersand', '<transaction><type>SALE</type><invoice>A & B</invoice></transaction>'],
  ])('answers XML with %s with 400 and records nothing', async (_name, body) => {
    expectError(await refused(t, 'transactions', xmlPost(t, body)), 400, 'xml');
  });

  it('answers malformed XML in JSON when Accept asks for JSON', async () => {
    const response = await refused(
      t,
      'transactions',
      xmlPost(t, '<transaction>', { accept: 'application/json' }),
    );
    expectError(response, 400, 'json');
  });
});

describe('content negotiation', () => {
  const t = useTestGateway();
  beforeAll(async () => {
    await t.client.createTransaction({ type: 'SALE', amount: '1.00', ...VISA });
  });

  it.each([
    ['application/json; charset=utf-8', 'application/json'],
    ['application/json;charset=UTF-8', 'application/json'],
    ['application/xml; charset=utf-8', 'application/xml'],
    ['text/xml; charset=utf-8', 'text/xml'],
    ['application/json, text/plain, */*', 'application/json'],
    ['APPLICATION/JSON', 'application/json'],
    ['application/*', 'application/json'],
  ] as const)('serves Accept: %s as %s', async (accept, mediaType) => {
    const response = await t.request('transactions', { headers: { api_key: t.key, accept } });
    expect(response.status, response.body).toBe(200);
    expect(response.headers['content-type']).toBe(`${mediaType}; charset=utf-8`);
  });

  it('accepts the Content-Type it answers with as the Accept of the next request', async () => {
    const first = await t.request('batches/open', {
      headers: { api_key: t.key, accept: 'application/json' },
    });
    const contentType = String(first.headers['content-type']);
    const second = await t.request('batches/open', { headers: { api_key: t.key, accept: contentType } });
    expect(second.status, `Accept: ${contentType} -> ${second.body}`).toBe(200);
  });

  it('takes an XML transaction sent as text/xml and answers in XML, as text/xml', async () => {
    const response = await t.request('transactions', {
      method: 'POST',
      headers: { api_key: t.key, 'content-type': 'text/xml; charset=utf-8' },
      body: saleXml(),
    });
    expect(response.status, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/xml; charset=utf-8');
    expect(xmlParser.parse(response.body)).toMatchObject({ transaction: { result: 'Approved' } });
  });
});

describe('Host header', () => {
  const t = useTestGateway();

  it.each([
    (port: number) => `evil.example:${port}`,
    (port: number) => `127.0.0.1:${port + 1 === 65536 ? port - 1 : port + 1}`,
    () => '127.0.0.1',
    () => 'localhost',
    (port: number) => `127.0.0.2:${port}`,
    (port: number) => `tender.localhost:${port}`,
  ])('refuses a foreign Host header with 421 (%#)', async (host) => {
    const value = host(t.gateway.port);
    const response = await refused(t, 'transactions', { host: value, headers: { api_key: t.key } });
    expectError(response, 421);
  });

  it('refuses a POST with a foreign Host with 421 and records nothing', async () => {
    const response = await refused(t, 'transactions', {
      ...jsonPost(t, SALE_JSON),
      host: `evil.example:${t.gateway.port}`,
    });
    expectError(response, 421);
  });

  it.each([
    (port: number) => `127.0.0.1:${port}`,
    (port: number) => `localhost:${port}`,
    (port: number) => `[::1]:${port}`,
  ])('serves a loopback Host header (%#)', async (host) => {
    const response = await t.request('batches/open', {
      host: host(t.gateway.port),
      headers: { api_key: t.key },
    });
    expect(response.status).toBe(204);
  });
});

describe('web origins (no extra origins allowed)', () => {
  const t = useTestGateway();
  beforeAll(async () => {
    await t.client.createTransaction({ type: 'SALE', amount: '1.00', ...VISA });
  });

  it('refuses Origin https://evil.example with 403 and no Access-Control-Allow-Origin', async () => {
    const response = await refused(t, 'transactions', {
      headers: { api_key: t.key, origin: 'https://evil.example' },
    });
    expectError(response, 403);
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('refuses a POST from a foreign origin with 403 and records nothing', async () => {
    const response = await refused(
      t,
      'transactions',
      jsonPost(t, SALE_JSON, { origin: 'https://evil.example' }),
    );
    expectError(response, 403);
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('refuses a PUT /batches/open from a foreign origin and leaves the batch open', async () => {
    const response = await refused(t, 'batches/open', {
      method: 'PUT',
      headers: { api_key: t.key, origin: 'https://evil.example' },
    });
    expectError(response, 403);
    expect((await t.client.openBatch())?.status).toBe('OPEN');
  });

  it.each(['null', 'tender://app', 'http://127.0.0.1'])(
    'refuses Origin %s when it was not allowed',
    async (origin) => {
      const response = await refused(t, 'transactions', { headers: { api_key: t.key, origin } });
      expectError(response, 403);
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
    },
  );

  it('refuses a preflight from a foreign origin without Access-Control-Allow-Origin', async () => {
    const response = await t.request('transactions', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://evil.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'api_key, content-type',
      },
    });
    expect(response.status).toBe(403);
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });

  it("allows the server's own origin https://127.0.0.1:<port>", async () => {
    const origin = `https://127.0.0.1:${t.gateway.port}`;
    const response = await t.request('transactions', { headers: { api_key: t.key, origin } });
    expect(response.status).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBe(origin);
  });
});

describe('web origins (tender://app allowed)', () => {
  const ORIGIN = 'tender://app';
  const t = useTestGateway({ allowedOrigins: [ORIGIN] });

  it('answers a request from the allowed origin with Access-Control-Allow-Origin', async () => {
    const response = await t.request('batches/open', { headers: { api_key: t.key, origin: ORIGIN } });
    expect(response.status).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe(ORIGIN);
  });

  it('lets the allowed origin run a sale', async () => {
    const response = await t.request('transactions', jsonPost(t, SALE_JSON, { origin: ORIGIN }));
    expect(response.status).toBe(200);
    expect(response.json()).toMatchObject({ result: 'Approved' });
    expect(response.headers['access-control-allow-origin']).toBe(ORIGIN);
  });

  it('answers a preflight from the allowed origin with 204 and the CORS headers', async () => {
    const response = await t.request('transactions', {
      method: 'OPTIONS',
      headers: {
        origin: ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'api_key, content-type',
      },
    });
    expect(response.status).toBe(204);
    expect(response.body).toBe('');
    expect(response.headers['access-control-allow-origin']).toBe(ORIGIN);
    const methods = String(response.headers['access-control-allow-methods']).toUpperCase();
    expect(methods).toContain('POST');
    expect(methods).toContain('GET');
    const headers = String(response.headers['access-control-allow-headers']).toLowerCase();
    expect(headers).toContain('api_key');
    expect(headers).toContain('content-type');
  });

  it('answers a preflight of PUT /batches/open from the allowed origin with 204', async () => {
    const response = await t.request('batches/open', {
      method: 'OPTIONS',
      headers: { origin: ORIGIN, 'access-control-request-method': 'PUT' },
    });
    expect(response.status).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(String(response.headers['access-control-allow-methods']).toUpperCase()).toContain('PUT');
  });

  it('still refuses other origins', async () => {
    const response = await refused(t, 'transactions', {
      headers: { api_key: t.key, origin: 'https://evil.example' },
    });
    expectError(response, 403);
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('still needs a key from the allowed origin', async () => {
    const response = await t.request('transactions', { headers: { origin: ORIGIN } });
    expectError(response, 401);
  });
});

describe('GET /rest/v1/openapi.json', () => {
  const t = useTestGateway();
  let response: RawResponse;
  let doc: Record<string, unknown>;
  beforeAll(async () => {
    response = await t.request('openapi.json');
    doc = response.json();
  });

  it('answers without a key with 200 and JSON', () => {
    expect(response.status).toBe(200);
    expect(String(response.headers['content-type'])).toMatch(/^application\/json/);
  });

  it('is an OpenAPI 3.1 document with info and a header api_key security scheme', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
    const components = doc.components as { securitySchemes: Record<string, unknown> };
    expect(Object.values(components.securitySchemes)).toContainEqual(
      expect.objectContaining({ type: 'apiKey', in: 'header', name: 'api_key' }),
    );
  });

  it('describes the list, create, open-batch and close operations on their paths', () => {
    const paths = doc.paths as Record<string, Record<string, unknown>>;
    const operations = Object.entries(paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((key) => ['get', 'put', 'post', 'delete', 'patch', 'options', 'head'].includes(key))
        .map((method) => `${method.toUpperCase()} ${path.replace(/^\/rest\/v1/, '')}`),
    );
    expect(operations).toEqual(
      expect.arrayContaining([
        'POST /transactions',
        'GET /transactions',
        'GET /batches',
        'GET /batches/open',
        'PUT /batches/open',
      ]),
    );
  });

  it('gives every operation responses and resolves every $ref inside the document', () => {
    const paths = doc.paths as Record<string, Record<string, { responses?: Record<string, unknown> }>>;
    for (const [path, item] of Object.entries(paths)) {
      expect(path.startsWith('/')).toBe(true);
      for (const [method, operation] of Object.entries(item)) {
        expect(Object.keys(operation.responses ?? {}).length, `${method} ${path}`).toBeGreaterThan(0);
      }
    }
    const refs: string[] = [];
    const walk = (node: unknown) => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') {
        for (const [key, value] of Object.entries(node)) {
          if (key === '$ref' && typeof value === 'string') refs.push(value);
          else walk(value);
        }
      }
    };
    walk(doc);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) {
      expect(ref.startsWith('#/')).toBe(true);
      let target: unknown = doc;
      for (const part of ref.slice(2).split('/'))
        target = (target as Record<string, unknown> | undefined)?.[part];
      expect(target, ref).toBeDefined();
    }
  });

  it('documents the list query parameters, page_size among them', () => {
    const paths = doc.paths as Record<
      string,
      Record<string, { parameters?: { name: string; in: string }[] }>
    >;
    const list = Object.entries(paths).find(([path]) => /\/transactions$/.test(path))?.[1].get;
    const names = (list?.parameters ?? []).map((p) => p.name);
    expect(names).toEqual(
      expect.arrayContaining(['page_size', 'page', 'order_by', 'descending', 'start_date']),
    );
    for (const parameter of list?.parameters ?? []) expect(parameter.in).toBe('query');
  });
});
