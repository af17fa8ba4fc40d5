/**
 * A body labelled US-ASCII is UTF-8 as long as every byte is below 0x80, so the engine reads it as
 * such; a byte at or above 0x80 under that label is no US-ASCII character and is refused (400), and
 * any other charset stays refused (415). Nothing refused is charged.
 */
import { describe, expect, it } from 'vitest';
import type { ApiError } from '../../shared/api/schemas';
import { useTestGateway, VISA } from '../support/gateway';

const t = useTestGateway();

const sale = (firstName: string) =>
  JSON.stringify({ type: 'SALE', amount: '5.00', ...VISA, billing: { first_name: firstName } });

const post = (contentType: string, body: string) =>
  t.request('transactions', {
    method: 'POST',
    headers: { api_key: t.key, 'content-type': contentType, accept: 'application/json' },
    body,
  });

async function transactionCount(): Promise<number> {
  const response = await t.request('transactions?page_size=100', { headers: { api_key: t.key } });
  return response.status === 204 ? 0 : response.json<unknown[]>().length;
}

describe('a body labelled US-ASCII', () => {
  it.each([
    'application/json; charset=us-ascii',
    'application/json; charset=US-ASCII',
    'application/json; charset="us-ascii"',
    'application/json;charset=ascii',
  ])('is read when every byte is ASCII, under %s', async (contentType) => {
    const response = await post(contentType, sale('Rene'));
    expect(response.status, response.body).toBe(200);
    const { id, result } = response.json<{ id: string; result: string }>();
    expect(result).toBe('Approved');
    const listed = await t.request(`transactions?id=${id}`, { headers: { api_key: t.key } });
    expect(listed.json<{ first_name: string }[]>()[0]?.first_name).toBe('Rene');
  });

  it('with a byte that is not ASCII is refused with 400 and nothing is charged', async () => {
    const before = await transactionCount();
    const response = await post('application/json; charset=us-ascii', sale('René'));
    expect(response.status, response.body).toBe(400);
    expect(response.json<ApiError>()).toMatchObject({
      error: 'bad_request',
      message: expect.stringMatching(/^The body is not US-ASCII, as its Content-Type says: byte \d+ is 0xC3/),
    });
    expect(await transactionCount()).toBe(before);
  });

  it.each(['application/json; charset=iso-8859-1', 'application/json; charset=utf-16'])(
    'does not make another charset welcome: %s is still a 415',
    async (contentType) => {
      const response = await post(contentType, sale('Rene'));
      expect(response.status, response.body).toBe(415);
      expect(response.json<ApiError>().error).toBe('unsupported_media_type');
    },
  );
});
