/**
 * A refusal never repeats a card number the client sent where no card belongs: a query parameter's
 * name, a path, a transaction id in a path, a header. It quotes the rest of the request as sent.
 */
import { describe, expect, it } from 'vitest';
import type { ApiError } from '../../shared/api/schemas';
import { useTestGateway, type RawRequest, type RawResponse } from '../support/gateway';

const t = useTestGateway();

const WITHHELD = '[withheld: looks like a card number]';

/** A card number in forms a client might send it, as a query parameter's name or in a path. */
const CARD_NUMBERS = [
  '4111111111111111',
  '4111.1111.1111.1111',
  '4111_1111_1111_1111',
  '4111-1111-1111-1111',
  '371449635398431',
  // Fullwidth digits, as they travel in a URL.
  encodeURIComponent('４１１１１１１１１１１１１１１１'),
];

/** The digits those forms hold, and fragments of them a careless message could keep. */
const FRAGMENTS = [
  '4111111111111111',
  '411111111111',
  '4111.1111',
  '4111_1111',
  '4111-1111',
  '3714496353',
  '４１１１',
  encodeURIComponent('４１１１'),
];

function expectNoCardNumber(response: RawResponse): void {
  for (const fragment of FRAGMENTS) expect(response.body).not.toContain(fragment);
  expect(response.json<ApiError>().message).toContain(WITHHELD);
}

const asked = (path: string, raw: RawRequest = {}) =>
  t.request(path, { ...raw, headers: { api_key: t.key, accept: 'application/json', ...raw.headers } });

describe('a query parameter whose name is a card number', () => {
  it.each(CARD_NUMBERS)('is refused (400 bad_parameter) and withheld: %s', async (name) => {
    for (const path of [`transactions?${name}=1`, `batches?page=1&${name}=x`, `batches/open?${name}`]) {
      const response = await asked(path);
      expect(response.status, path).toBe(400);
      expect(response.json()).toMatchObject({
        status: '400',
        error: 'bad_parameter',
        parameter: WITHHELD,
      });
      expectNoCardNumber(response);
    }
  });

  it('is withheld when it is given twice', async () => {
    const response = await asked('transactions?4111111111111111=1&4111111111111111=2');
    expect(response.status).toBe(400);
    expect(response.json<ApiError>().message).toMatch(/more than once/);
    expectNoCardNumber(response);
  });

  it('leaves other names named as sent', async () => {
    const response = await asked('transactions?2026-11-20=1');
    expect(response.status).toBe(400);
    expect(response.json()).toMatchObject({
      error: 'bad_parameter',
      parameter: '2026-11-20',
      message: expect.stringMatching(/^2026-11-20 is not a parameter of this request/) as string,
    });
  });
});

describe('a path that holds a card number', () => {
  it.each(CARD_NUMBERS)('is answered 404 and withheld: %s', async (number) => {
    for (const path of [`/rest/v1/${number}`, `/${number}`, `/rest/v1/transactions/x/${number}?a=1`]) {
      const response = await asked(path);
      expect(response.status, path).toBe(404);
      expect(response.json()).toMatchObject({ error: 'not_found' });
      expectNoCardNumber(response);
    }
  });

  it('is withheld when its digits are percent-encoded', async () => {
    const encoded = [...'4111111111111111'].map((digit) => `%3${digit}`).join('');
    const response = await asked(`/rest/v1/${encoded}`);
    expect(response.status).toBe(404);
    expect(response.body).not.toContain(encoded);
    expectNoCardNumber(response);
  });

  it('is answered 400 without repeating the URL when the URL cannot be read', async () => {
    for (const path of [
      '/rest/v1/transactions/4111111111111111%E0%A4%A/receipt',
      '/rest/v1/4111.1111.1111.1111%ZZ',
    ]) {
      const response = await asked(path);
      expect(response.status, path).toBe(400);
      expect(response.json()).toMatchObject({ status: '400', error: 'bad_request' });
      for (const fragment of FRAGMENTS) expect(response.body, path).not.toContain(fragment);
    }
  });

  it('is answered 405 and withheld when the method is not allowed there', async () => {
    const response = await asked('transactions/4111111111111111/receipt', { method: 'DELETE' });
    expect(response.status).toBe(405);
    expect(response.json()).toMatchObject({ error: 'method_not_allowed' });
    expectNoCardNumber(response);
  });

  it('is answered 404 and withheld when it is the transaction id of a receipt or signature', async () => {
    for (const [path, accept] of [
      ['transactions/371449635398431/receipt', 'application/json'],
      ['transactions/371449635398431/signature', 'image/png'],
    ] as const) {
      const response = await asked(path, { headers: { accept } });
      expect(response.status, path).toBe(404);
      expect(response.json()).toMatchObject({ error: 'not_found' });
      expectNoCardNumber(response);
    }
  });

  it('is withheld in a text/plain answer too', async () => {
    const response = await asked('transactions/371449635398431/receipt', {
      headers: { accept: 'text/plain' },
    });
    expect(response.status).toBe(404);
    expect(response.body).not.toContain('371449635398431');
    expect(response.body).toContain(WITHHELD);
  });

  it('leaves other paths and ids repeated as sent', async () => {
    const path = await asked('/rest/v1/receipts/2026-11-20');
    expect(path.status).toBe(404);
    expect(path.json<ApiError>().message).toMatch(/^No resource at \/rest\/v1\/receipts\/2026-11-20\./);
    const id = await asked('transactions/987654/receipt');
    expect(id.status).toBe(404);
    expect(id.json<ApiError>().message).toBe('No transaction has id 987654.');
  });
});

describe('a header that holds a card number', () => {
  it('is withheld as the Host', async () => {
    const response = await asked('transactions', { host: '4111.1111.1111.1111' });
    expect(response.status).toBe(421);
    expectNoCardNumber(response);
  });

  it('is withheld as the Origin', async () => {
    const response = await asked('transactions', { headers: { origin: 'https://4111111111111111.example' } });
    expect(response.status).toBe(403);
    expectNoCardNumber(response);
  });

  it.each([
    ['a Content-Type', { 'content-type': 'application/4111111111111111' }],
    ['a charset', { 'content-type': 'application/json; charset=x4111111111111111' }],
    [
      'a Content-Encoding',
      { 'content-type': 'application/json', 'content-encoding': 'x-4111.1111.1111.1111' },
    ],
  ])('is withheld as %s', async (_what, headers) => {
    const response = await asked('transactions', { method: 'POST', headers, body: '{}' });
    expect(response.status).toBe(415);
    expectNoCardNumber(response);
  });

  it('leaves other Content-Types quoted as sent', async () => {
    const response = await asked('transactions', {
      method: 'POST',
      headers: { 'content-type': 'text/csv' },
      body: '{}',
    });
    expect(response.status).toBe(415);
    expect(response.json<ApiError>().message).toContain('"text/csv"');
  });
});
