/** GET /rest/v1/transactions/{id}/receipt over real HTTPS, in text, JSON and XML. */
import { XMLParser } from 'fast-xml-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { receiptSchema } from '../../shared/api/schemas';
import { DECLINED_CARD, useTestGateway, VISA } from '../support/gateway';

const api = useTestGateway();
let saleId: string;
let declinedId: string;
let tabId: string;

beforeAll(async () => {
  const { settings } = api.gateway.engine;
  await settings.setFromText('merchant_name', 'Blue Door Bistro');
  await settings.setFromText('merchant_address', '12 Harbour Street|Portland, ME 04101');
  await settings.setFromText('merchant_phone', '(207) 555-0142');
  await settings.setFromText('receipt_footer', 'Thank you!');
  saleId =
    (await api.client.createTransaction({ type: 'SALE', amount: '27.50', ...VISA, invoice: 'INV-88' })).id ??
    '';
  declinedId =
    (await api.client.createTransaction({ type: 'SALE', amount: '9.00', ...DECLINED_CARD })).id ?? '';
  tabId =
    (await api.client.createTransaction({ type: 'AUTH', amount: '40.00', ...VISA, server_id: '07' })).id ??
    '';
});

const receiptPath = (id: string, query = '') => `transactions/${id}/receipt${query}`;

describe('GET /transactions/{id}/receipt', () => {
  it('answers the receipt as printed in text/plain, 42 columns by default', async () => {
    const response = await api.request(receiptPath(saleId), {
      headers: { api_key: api.key, accept: 'text/plain' },
    });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    const lines = response.body.trimEnd().split('\n');
    expect(lines[0]?.trim()).toBe('Blue Door Bistro');
    expect(lines.some((line) => line.length === 42)).toBe(true);
    expect(lines.every((line) => line.length <= 42)).toBe(true);
    expect(response.body).toMatch(/^Transaction\s+#\d+$/m);
    expect(response.body).toMatch(/^Typed in\s+Visa \*\*\*\* 1111$/m);
    expect(response.body).toMatch(/^TOTAL\s+\$27\.50$/m);
    expect(response.body).toContain('CUSTOMER COPY');
    expect(response.body).not.toContain('4111111111111111');
    expect(response.body).not.toContain('1230');
  });

  it('answers text/plain to Accept: text/*, and XML only to an Accept that names it', async () => {
    const typeFor = async (accept: string) =>
      (await api.request(receiptPath(saleId), { headers: { api_key: api.key, accept } })).headers[
        'content-type'
      ];
    expect(await typeFor('text/*')).toBe('text/plain; charset=utf-8');
    expect(await typeFor('text/xml, text/*;q=0.9')).toBe('text/xml; charset=utf-8');
    expect(await typeFor('*/*')).toBe('application/json; charset=utf-8');
  });

  it('gives the merchant copy at 32 or 48 columns when asked', async () => {
    for (const width of [32, 48]) {
      const response = await api.request(receiptPath(saleId, `?copy=merchant&width=${width}`), {
        headers: { api_key: api.key, accept: 'text/plain' },
      });
      const lines = response.body.trimEnd().split('\n');
      expect(lines.every((line) => line.length <= width)).toBe(true);
      expect(lines).toContain(`x${'_'.repeat(width - 1)}`);
      expect(response.body).toContain('MERCHANT COPY');
    }
  });

  it('answers the same content structured in JSON', async () => {
    const response = await api.request(receiptPath(saleId, '?width=32'), {
      headers: { api_key: api.key, accept: 'application/json' },
    });
    expect(response.status).toBe(200);
    const receipt = receiptSchema.parse(response.json());
    expect(receipt).toMatchObject({
      id: saleId,
      copy: 'customer',
      width: '32',
      merchant: {
        name: 'Blue Door Bistro',
        address_lines: ['12 Harbour Street', 'Portland, ME 04101'],
        phone: '(207) 555-0142',
      },
      title: 'SALE',
      result: 'APPROVED',
      signature: 'false',
      copy_label: 'CUSTOMER COPY',
      footer: 'Thank you!',
    });
    expect(receipt.fields).toEqual(
      expect.arrayContaining([
        { label: 'Transaction', value: `#${saleId}` },
        { label: 'Invoice', value: 'INV-88' },
        { label: 'Typed in', value: 'Visa **** 1111' },
      ]),
    );
    expect(receipt.amounts).toEqual([
      { label: 'AMOUNT', value: '$27.50' },
      { label: 'TOTAL', value: '$27.50' },
    ]);
    const text = await api.request(receiptPath(saleId, '?width=32'), {
      headers: { api_key: api.key, accept: 'text/plain' },
    });
    expect(receipt.lines).toEqual(text.body.replace(/\n$/, '').split('\n'));
  });

  it('gives a tab’s check with copy=check: a tip to fill in and suggested tips only while tips are on', async () => {
    const { settings } = api.gateway.engine;
    await settings.setFromText('tips_enabled', 'true');
    try {
      const text = await api.request(receiptPath(tabId, '?copy=check&width=32'), {
        headers: { api_key: api.key, accept: 'text/plain' },
      });
      expect(text.status).toBe(200);
      expect(text.body).toMatch(/^ +AUTH \(TAB\)$/m);
      expect(text.body).toMatch(/^Tab\s+#\d+$/m);
      expect(text.body).toMatch(/^TIP\s+_{20}$/m);
      expect(text.body).toMatch(/^TOTAL\s+_{20}$/m);
      expect(text.body).toMatch(/^15% {2}tip \$6\.00\s+total \$46\.00$/m);
      expect(text.body).toContain('CHECK');
      expect(
        text.body
          .trimEnd()
          .split('\n')
          .every((line) => line.length <= 32),
      ).toBe(true);
      const json = receiptSchema.parse(
        (await api.request(receiptPath(tabId, '?copy=check'), { headers: { api_key: api.key } })).json(),
      );
      expect(json).toMatchObject({
        copy: 'check',
        title: 'AUTH (TAB)',
        copy_label: 'CHECK',
        signature: 'true',
      });
      expect(json.amounts).toEqual([
        { label: 'AMOUNT', value: '$40.00' },
        { label: 'TIP', value: '' },
        { label: 'TOTAL', value: '' },
      ]);
    } finally {
      await settings.setFromText('tips_enabled', 'false');
    }
    const withoutTips = receiptSchema.parse(
      (await api.request(receiptPath(tabId, '?copy=check'), { headers: { api_key: api.key } })).json(),
    );
    expect(withoutTips.amounts).toEqual([
      { label: 'AMOUNT', value: '$40.00' },
      { label: 'TOTAL', value: '$40.00' },
    ]);
    expect(withoutTips.lines.join('\n')).not.toMatch(/\btips?\b|^TIP/im);
    const xml = await api.request(receiptPath(tabId, '?copy=check'), {
      headers: { api_key: api.key, accept: 'application/xml' },
    });
    expect(xml.status).toBe(200);
    expect(xml.body).toContain('<copy>check</copy>');
    expect((await api.client.receipt(tabId, { copy: 'check' })).copy_label).toBe('CHECK');
  });

  it('refuses the check of a transaction that is not a tab with 409 not_a_tab, in the format asked for', async () => {
    for (const id of [saleId, declinedId]) {
      const json = await api.request(receiptPath(id, '?copy=check'), { headers: { api_key: api.key } });
      expect(json.status).toBe(409);
      expect(json.json()).toEqual({
        status: '409',
        error: 'not_a_tab',
        message: `Transaction ${id} is not a tab (an approved AUTH not voided): only a tab has a check.`,
      });
    }
    const text = await api.request(receiptPath(saleId, '?copy=check'), {
      headers: { api_key: api.key, accept: 'text/plain' },
    });
    expect(text.status).toBe(409);
    expect(text.body).toMatch(/^409 not_a_tab: /);
  });

  it('prints a voided transaction as VOIDED, naming the void, with no line to sign; a voided tab has no check', async () => {
    const sale = await api.client.createTransaction({ type: 'SALE', amount: '12.25', ...VISA });
    const tab = await api.client.createTransaction({ type: 'AUTH', amount: '30.00', ...VISA });
    const voids = [];
    for (const id of [sale.id ?? '', tab.id ?? ''])
      voids.push(await api.client.createTransaction({ type: 'VOID', id }));
    const receipt = await api.client.receipt(sale.id ?? '', { copy: 'merchant' });
    expect(receipt).toMatchObject({
      result: 'VOIDED',
      message: `Voided by transaction #${voids[0]?.id}: nothing is charged.`,
      signature: 'false',
    });
    const text = await api.request(receiptPath(sale.id ?? ''), {
      headers: { api_key: api.key, accept: 'text/plain' },
    });
    expect(text.body).toContain('VOIDED');
    expect(text.body).not.toContain('APPROVED');
    expect((await api.client.receipt(tab.id ?? '', { copy: 'customer' })).message).toBe(
      `Voided by transaction #${voids[1]?.id}: the hold on the card is released.`,
    );
    const check = await api.request(receiptPath(tab.id ?? '', '?copy=check'), {
      headers: { api_key: api.key },
    });
    expect(check.status).toBe(409);
    expect(check.json()).toMatchObject({ error: 'not_a_tab' });
  });

  it('the typed client reads it too', async () => {
    const receipt = await api.client.receipt(saleId, { copy: 'merchant' });
    expect(receipt.signature).toBe('true');
    expect(receipt.width).toBe('42');
  });

  it('answers in XML with the lines in order', async () => {
    const response = await api.request(receiptPath(declinedId), {
      headers: { api_key: api.key, accept: 'application/xml' },
    });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/xml; charset=utf-8');
    const parsed = new XMLParser({
      parseTagValue: false,
      isArray: (name) => name === 'lines' || name === 'fields',
    }).parse(response.body) as {
      receipt: { result: string; message: string; lines: string[]; fields: unknown[] };
    };
    expect(parsed.receipt.result).toBe('DECLINED');
    expect(parsed.receipt.message).toMatch(/decline/i);
    const json = receiptSchema.parse(
      (await api.request(receiptPath(declinedId), { headers: { api_key: api.key } })).json(),
    );
    expect(parsed.receipt.lines.map((line) => String(line).trim())).toEqual(
      json.lines.map((line) => line.trim()),
    );
    expect(parsed.receipt.fields).toHaveLength(json.fields.length);
  });

  it('an unknown id is 404 in the format asked for', async () => {
    const json = await api.request(receiptPath('999999'), { headers: { api_key: api.key } });
    expect(json.status).toBe(404);
    expect(json.json()).toEqual({
      status: '404',
      error: 'not_found',
      message: 'No transaction has id 999999.',
    });
    const xml = await api.request(receiptPath('999999'), {
      headers: { api_key: api.key, accept: 'application/xml' },
    });
    expect(xml.status).toBe(404);
    expect(xml.body).toContain('<error><status>404</status><error>not_found</error>');
    const text = await api.request(receiptPath('999999'), {
      headers: { api_key: api.key, accept: 'text/plain' },
    });
    expect(text.status).toBe(404);
    expect(text.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(text.body).toBe('404 not_found: No transaction has id 999999.\n');
  });

  it('a bad query or id is a 400 naming it', async () => {
    for (const [query, parameter] of [
      ['?width=40', 'width'],
      ['?copy=tab', 'copy'],
      ['?colour=red', 'colour'],
      ['?width=32&width=48', 'width'],
    ] as const) {
      const response = await api.request(receiptPath(saleId, query), { headers: { api_key: api.key } });
      expect(response.status, query).toBe(400);
      expect(response.json()).toMatchObject({ error: 'bad_parameter', parameter });
    }
    const badId = await api.request(receiptPath('abc'), { headers: { api_key: api.key } });
    expect(badId.status).toBe(400);
    expect(badId.json()).toMatchObject({ error: 'bad_parameter', parameter: 'id' });
  });

  it('needs transactions:read', async () => {
    const writer = await api.createKey(['transactions:write']);
    const refused = await api.request(receiptPath(saleId), { headers: { api_key: writer } });
    expect(refused.status).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'forbidden' });
    const reader = await api.createKey(['transactions:read']);
    const allowed = await api.request(receiptPath(saleId), { headers: { api_key: reader } });
    expect(allowed.status).toBe(200);
    const none = await api.request(receiptPath(saleId));
    expect(none.status).toBe(401);
  });

  it('answers other methods 405 with the Allow header', async () => {
    const response = await api.request(receiptPath(saleId), {
      method: 'POST',
      headers: { api_key: api.key },
    });
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD');
  });

  it('refuses an Accept it cannot write with 406', async () => {
    const response = await api.request(receiptPath(saleId), {
      headers: { api_key: api.key, accept: 'image/png' },
    });
    expect(response.status).toBe(406);
    const list = await api.request('transactions', { headers: { api_key: api.key, accept: 'text/plain' } });
    expect(list.status).toBe(406);
  });
});
