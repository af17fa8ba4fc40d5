/**
 * What the interface promises at the HTTP layer, on either store: bodies are UTF-8 or refused,
 * answers come in the very media type asked for, amounts read the same wherever they are read, HEAD
 * is served wherever GET is, the batch close takes its figures from the query only, and refusals
 * name what they refuse.
 */
import { gzipSync } from 'node:zlib';
import { XMLParser } from 'fast-xml-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiError } from '../../shared/api/schemas';
import { useTestGateway, VISA, type RawResponse, type TestGateway } from '../support/gateway';

const xmlParser = new XMLParser({ parseTagValue: false });

/** A POST of a transaction on a connection of its own, its body bytes as given, not always UTF-8. */
function postBytes(t: TestGateway, headers: Record<string, string>, body: Buffer): Promise<RawResponse> {
  return t.request('transactions', { method: 'POST', headers, body, newConnection: true });
}

/** The transactions the ledger lists, as many as there are (the suites here make a handful). */
async function transactionCount(t: TestGateway): Promise<number> {
  const response = await t.request('transactions?page_size=100', {
    headers: { api_key: t.key, accept: 'application/json' },
  });
  if (response.status === 204) return 0;
  expect(response.status).toBe(200);
  return response.json<unknown[]>().length;
}

function xmlError(response: RawResponse): ApiError {
  const parsed = xmlParser.parse(response.body) as { error?: ApiError };
  expect(parsed.error, response.body).toBeDefined();
  return parsed.error as ApiError;
}

/** Bytes of a name: "Ren" and then the given bytes. */
const renWith = (...bytes: number[]) => Buffer.concat([Buffer.from('Ren'), Buffer.from(bytes)]);

const jsonSaleBytes = (name: Buffer) =>
  Buffer.concat([
    Buffer.from(
      `{"type":"SALE","amount":"3.00","card":"${VISA.card}","exp_date":"${VISA.exp_date}","billing":{"first_name":"`,
    ),
    name,
    Buffer.from('"}}'),
  ]);

const xmlSaleBytes = (name: Buffer) =>
  Buffer.concat([
    Buffer.from(
      `<transaction><type>SALE</type><amount>3.00</amount><card>${VISA.card}</card>` +
        `<exp_date>${VISA.exp_date}</exp_date><billing><first_name>`,
    ),
    name,
    Buffer.from('</first_name></billing></transaction>'),
  ]);

describe('bodies that are not UTF-8', () => {
  const t = useTestGateway();

  /** What is not UTF-8: Latin-1 é alone, a sequence cut short, an overlong slash, half a surrogate pair. */
  const NOT_UTF8: [string, number[]][] = [
    ['a Latin-1 é (0xE9)', [0xe9]],
    ['a two-byte sequence cut short', [0xc3]],
    ['an overlong encoding', [0xc0, 0xaf]],
    ['an encoded surrogate', [0xed, 0xa0, 0x80]],
  ];

  it.each(NOT_UTF8)('refuses JSON holding %s with 400 in JSON, recording nothing', async (_what, bytes) => {
    const before = await transactionCount(t);
    const response = await postBytes(
      t,
      { api_key: t.key, 'content-type': 'application/json' },
      jsonSaleBytes(renWith(...bytes)),
    );
    expect(response.status, response.body).toBe(400);
    expect(String(response.headers['content-type'])).toMatch(/^application\/json/);
    expect(response.json<ApiError>()).toMatchObject({
      error: 'bad_request',
      message: expect.stringMatching(/UTF-8/),
    });
    expect(await transactionCount(t)).toBe(before);
  });

  it.each(NOT_UTF8)('refuses XML holding %s with 400 in XML, recording nothing', async (_what, bytes) => {
    const before = await transactionCount(t);
    const response = await postBytes(
      t,
      { api_key: t.key, 'content-type': 'application/xml' },
      xmlSaleBytes(renWith(...bytes)),
    );
    expect(response.status, response.body).toBe(400);
    expect(String(response.headers['content-type'])).toMatch(/^application\/xml/);
    expect(xmlError(response)).toMatchObject({
      error: 'bad_request',
      message: expect.stringMatching(/UTF-8/),
    });
    expect(await transactionCount(t)).toBe(before);
  });

  it('refuses a JSON body declared as ISO-8859-1, whatever its bytes, with 415', async () => {
    const before = await transactionCount(t);
    for (const body of [jsonSaleBytes(renWith(0xe9)), jsonSaleBytes(Buffer.from('Rene'))]) {
      const response = await postBytes(
        t,
        { api_key: t.key, 'content-type': 'application/json; charset=iso-8859-1' },
        body,
      );
      expect(response.status, response.body).toBe(415);
      expect(response.json<ApiError>()).toMatchObject({
        error: 'unsupported_media_type',
        message: expect.stringMatching(/UTF-8/),
      });
    }
    expect(await transactionCount(t)).toBe(before);
  });

  it('refuses a compressed body with 415 that names its Content-Encoding, and records nothing', async () => {
    const before = await transactionCount(t);
    for (const encoding of ['gzip', 'deflate, gzip', 'br']) {
      const response = await postBytes(
        t,
        { api_key: t.key, 'content-type': 'application/json', 'content-encoding': encoding },
        gzipSync(jsonSaleBytes(Buffer.from('Rene'))),
      );
      expect(response.status, response.body).toBe(415);
      expect(response.json<ApiError>()).toMatchObject({
        error: 'unsupported_media_type',
        message: expect.stringContaining(`Content-Encoding "${encoding}"`),
      });
    }
    // Identity is no coding at all.
    const plain = await postBytes(
      t,
      { api_key: t.key, 'content-type': 'application/json', 'content-encoding': 'identity' },
      jsonSaleBytes(Buffer.from('Rene')),
    );
    expect(plain.status, plain.body).toBe(200);
    expect(await transactionCount(t)).toBe(before + 1);
  });

  it('refuses an XML body whose Content-Type names another charset with 415', async () => {
    const response = await postBytes(
      t,
      { api_key: t.key, 'content-type': 'text/xml; charset=windows-1252' },
      xmlSaleBytes(Buffer.from('Rene')),
    );
    expect(response.status, response.body).toBe(415);
    expect(xmlError(response).error).toBe('unsupported_media_type');
  });

  it.each([
    'application/json; charset=utf-8',
    'application/json; charset="UTF-8"',
    'application/json;charset=utf8',
  ])('takes UTF-8, é and all, under %s', async (contentType) => {
    const response = await postBytes(
      t,
      { api_key: t.key, 'content-type': contentType, accept: 'application/json' },
      jsonSaleBytes(Buffer.from('René', 'utf8')),
    );
    expect(response.status, response.body).toBe(200);
    const { id, result } = response.json<{ id: string; result: string }>();
    expect(result).toBe('Approved');
    const listed = await t.request(`transactions?id=${id}`, { headers: { api_key: t.key } });
    expect(listed.json<{ first_name: string }[]>()[0]?.first_name).toBe('René');
  });
});

describe('the XML media type of answers', () => {
  const t = useTestGateway();
  beforeAll(async () => {
    await t.client.createTransaction({ type: 'SALE', amount: '4.00', ...VISA });
  });

  const contentTypeFor = async (headers: Record<string, string>) =>
    String(
      (await t.request('transactions', { headers: { api_key: t.key, ...headers } })).headers['content-type'],
    );

  it('answers text/xml to Accept: text/xml and to Accept: text/*', async () => {
    expect(await contentTypeFor({ accept: 'text/xml' })).toBe('text/xml; charset=utf-8');
    expect(await contentTypeFor({ accept: 'text/*' })).toBe('text/xml; charset=utf-8');
  });

  it('answers application/xml to Accept: application/xml, and JSON to */*', async () => {
    expect(await contentTypeFor({ accept: 'application/xml' })).toBe('application/xml; charset=utf-8');
    expect(await contentTypeFor({ accept: '*/*' })).toBe('application/json; charset=utf-8');
  });

  it('answers a body sent as text/xml in text/xml unless Accept names another', async () => {
    const sale = `<transaction><type>SALE</type><amount>4.10</amount><card>${VISA.card}</card><exp_date>${VISA.exp_date}</exp_date></transaction>`;
    const post = (headers: Record<string, string>) =>
      t.request('transactions', {
        method: 'POST',
        headers: { api_key: t.key, 'content-type': 'text/xml', ...headers },
        body: sale,
      });
    const open = await post({});
    expect(open.status, open.body).toBe(200);
    expect(open.headers['content-type']).toBe('text/xml; charset=utf-8');
    expect((await post({ accept: '*/*' })).headers['content-type']).toBe('text/xml; charset=utf-8');
    expect((await post({ accept: 'application/xml' })).headers['content-type']).toBe(
      'application/xml; charset=utf-8',
    );
  });

  it('writes errors in text/xml too when text/xml was asked for', async () => {
    const response = await t.request('transactions', { headers: { accept: 'text/xml' } });
    expect(response.status).toBe(401);
    expect(response.headers['content-type']).toBe('text/xml; charset=utf-8');
    expect(xmlError(response).error).toBe('unauthorized');
  });
});

describe('amounts read the same everywhere', () => {
  const t = useTestGateway();
  beforeAll(async () => {
    await t.client.createTransaction({ type: 'SALE', amount: '0.50', ...VISA });
  });

  const openBatch = async () =>
    (await t.request('batches/open', { headers: { api_key: t.key, accept: 'application/json' } })).status;

  it.each(['01.00', '-05.00', '00.50'])(
    'refuses expected_net_amount=%s on the close as the amount fields refuse it, closing nothing',
    async (amount) => {
      const response = await t.request(`batches/open?expected_net_amount=${amount}`, {
        method: 'PUT',
        headers: { api_key: t.key, accept: 'application/json' },
      });
      expect(response.status, response.body).toBe(400);
      expect(response.json<ApiError>()).toMatchObject({
        error: 'bad_parameter',
        parameter: 'expected_net_amount',
      });
      expect(await openBatch()).toBe(200);
    },
  );

  it('refuses a list amount with a leading zero, and takes one below a dollar', async () => {
    const leading = await t.request('transactions?amount=05.00', { headers: { api_key: t.key } });
    expect(leading.status).toBe(400);
    expect(leading.json<ApiError>().parameter).toBe('amount');
    const cents = await t.request('transactions?amount=0.50', { headers: { api_key: t.key } });
    expect(cents.status, cents.body).toBe(200);
  });

  it('refuses a transaction amount with a leading zero (8003), and takes 0.50', async () => {
    const leading = await t.client.createTransaction({ type: 'SALE', amount: '05.00', ...VISA });
    expect(leading).toMatchObject({ result: 'Rejected', error_code: '8003' });
    const cents = await t.client.createTransaction({ type: 'SALE', amount: '0.50', ...VISA });
    expect(cents.result).toBe('Approved');
  });
});

describe('HEAD wherever GET is served', () => {
  const t = useTestGateway();
  let readOnly: string;
  beforeAll(async () => {
    await t.client.createTransaction({ type: 'SALE', amount: '6.00', ...VISA });
    readOnly = await t.createKey(['transactions:read']);
  });

  it.each(['transactions', 'batches', 'batches/open', 'transactions/1/receipt', 'openapi.json'])(
    'answers HEAD /%s with the status and headers of GET and no body',
    async (path) => {
      const headers = { api_key: t.key, accept: 'application/json' };
      const get = await t.request(path, { headers });
      const head = await t.request(path, { method: 'HEAD', headers });
      expect(head.status).toBe(get.status);
      expect(head.status).toBe(200);
      expect(head.headers['content-type']).toBe(get.headers['content-type']);
      expect(head.headers['content-length']).toBe(String(get.bytes.length));
      expect(head.bytes.length).toBe(0);
    },
  );

  it('refuses HEAD without a key with 401 and with a key lacking the permission with 403, as GET', async () => {
    const anonymous = await t.request('batches', { method: 'HEAD' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers['www-authenticate']).toBeDefined();
    expect(anonymous.bytes.length).toBe(0);
    const lacking = await t.request('batches', { method: 'HEAD', headers: { api_key: readOnly } });
    expect(lacking.status).toBe(403);
    expect(lacking.bytes.length).toBe(0);
  });

  it('lists HEAD in Allow beside GET', async () => {
    const response = await t.request('transactions', { method: 'DELETE', headers: { api_key: t.key } });
    expect(response.status).toBe(405);
    expect(String(response.headers.allow).split(', ')).toEqual(['GET', 'HEAD', 'POST']);
    const close = await t.request('batches/open', { method: 'POST', headers: { api_key: t.key } });
    expect(String(close.headers.allow).split(', ')).toEqual(['GET', 'HEAD', 'PUT']);
  });
});

describe('the batch close takes no body', () => {
  const t = useTestGateway();
  beforeAll(async () => {
    await t.client.createTransaction({ type: 'SALE', amount: '7.00', ...VISA });
  });

  const openStatus = async () =>
    (await t.request('batches/open', { headers: { api_key: t.key, accept: 'application/json' } })).json<{
      status: string;
    }>().status;

  it.each([
    ['application/json', '{"expected_total_count":"1","expected_net_amount":"7.00"}'],
    ['application/xml', '<batch><expected_total_count>1</expected_total_count></batch>'],
    ['text/plain', 'expected_total_count=1'],
    ['application/x-www-form-urlencoded', 'expected_total_count=1'],
  ])('refuses a %s body with 400 saying the figures go in the query, closing nothing', async (type, body) => {
    const response = await t.request('batches/open', {
      method: 'PUT',
      headers: { api_key: t.key, 'content-type': type, accept: 'application/json' },
      body,
    });
    expect(response.status, response.body).toBe(400);
    expect(response.json<ApiError>()).toMatchObject({
      error: 'bad_request',
      message: expect.stringMatching(/query/),
    });
    expect(await openStatus()).toBe('OPEN');
  });

  it('asks for the key before it looks at the body: 401 without a good one, 403 without the permission', async () => {
    const readOnly = await t.createKey(['transactions:read']);
    const close = (headers: Record<string, string>) =>
      t.request('batches/open', {
        method: 'PUT',
        headers: { ...headers, 'content-type': 'application/json', accept: 'application/json' },
        body: '{}',
      });
    const anonymous = await close({});
    expect(anonymous.status, anonymous.body).toBe(401);
    expect(anonymous.headers['www-authenticate']).toBeDefined();
    expect((await close({ api_key: 'tender_not-a-key' })).status).toBe(401);
    const lacking = await close({ api_key: readOnly });
    expect(lacking.status, lacking.body).toBe(403);
    expect(await openStatus()).toBe('OPEN');
  });

  it('closes with an empty body, and with the figures in the query', async () => {
    const response = await t.request('batches/open?expected_total_count=1&expected_net_amount=7.00', {
      method: 'PUT',
      headers: { api_key: t.key, 'content-type': 'application/json', accept: 'application/json' },
      body: '',
    });
    expect(response.status, response.body).toBe(200);
    expect(response.json<{ status: string }>().status).toBe('CLOSED');
  });
});

describe('refusals name what they refuse', () => {
  const t = useTestGateway();
  let readOnly: string;
  beforeAll(async () => {
    readOnly = await t.createKey(['transactions:read']);
  });

  it.each([
    ['SALE', { type: 'SALE', amount: '1.00', ...VISA }, 'transactions:write or transactions:sale'],
    ['REFUND', { type: 'REFUND', amount: '1.00', ...VISA }, 'transactions:write or transactions:refund'],
    ['VOID', { type: 'VOID', id: '1' }, 'transactions:write or transactions:void'],
  ])('names only the permissions that would allow a %s', async (_type, body, named) => {
    for (const where of ['header', 'body'] as const) {
      const response = await t.request('transactions', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          ...(where === 'header' && { api_key: readOnly }),
        },
        body: JSON.stringify(where === 'body' ? { ...body, api_key: readOnly } : body),
      });
      expect(response.status, response.body).toBe(403);
      const { message } = response.json<ApiError>();
      expect(message).toContain(`lacks the ${named} permission`);
      expect(message.match(/transactions:\w+/g)).toHaveLength(2);
    }
  });

  const nested = (depth: number) =>
    `<transaction><type>SALE</type>${'<a>'.repeat(depth - 1)}x${'</a>'.repeat(depth - 1)}</transaction>`;

  it.each([9, 20, 1000, 5000])('refuses XML %i elements deep as nesting too deep', async (depth) => {
    const response = await t.request('transactions', {
      method: 'POST',
      headers: { api_key: t.key, 'content-type': 'application/xml' },
      body: nested(depth),
    });
    expect(response.status).toBe(400);
    expect(xmlError(response).message).toBe('The body nests deeper than 8 levels.');
  });

  it('reads XML 8 elements deep', async () => {
    const response = await t.request('transactions', {
      method: 'POST',
      headers: { api_key: t.key, 'content-type': 'application/xml' },
      body: nested(8),
    });
    expect(response.status, response.body).toBe(200);
  });
});
