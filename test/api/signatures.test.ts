/**
 * The customer's signature kept with a charge, and GET /rest/v1/transactions/{id}/signature over real
 * HTTPS: a PNG for a signed charge, 404 for anything else, the permission it needs, and the merchant
 * copy that shows it. On both stores.
 */
import { PNG } from 'pngjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { receiptSchema } from '../../shared/api/schemas';
import { decodeSignature } from '../../shared/signature';
import { drawSignature, SIGNATURE_PRINT_SIZE } from '../../electron/gateway/receipts/signature-image';
import { SignatureRefusedError } from '../../electron/gateway/signatures';
import { decodeEscPos } from '../support/escpos-decoder';
import { startFakePrinter } from '../support/fake-printer';
import { DECLINED_CARD, useTestGateway, VISA } from '../support/gateway';
import { queryLedger, storedText } from '../support/ledger-rows';
import { sampleSignature } from '../support/signatures';

const api = useTestGateway({ tips: true });
let saleId: string;
let unsignedId: string;

beforeAll(async () => {
  saleId = (await api.client.createTransaction({ type: 'SALE', amount: '64.00', ...VISA })).id ?? '';
  unsignedId = (await api.client.createTransaction({ type: 'SALE', amount: '3.00', ...VISA })).id ?? '';
  await api.gateway.engine.signatures.keep(Number(saleId), sampleSignature());
});

const signaturePath = (id: string) => `transactions/${id}/signature`;

function inkOf(png: PNG): number {
  let ink = 0;
  for (let i = 0; i < png.data.length; i += 4) if (png.data[i] === 0) ink += 1;
  return ink;
}

describe('GET /transactions/{id}/signature', () => {
  it('answers the signature as a PNG, to the typed client as well', async () => {
    const response = await api.request(signaturePath(saleId), { headers: { api_key: api.key } });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('image/png');
    const png = PNG.sync.read(response.bytes);
    expect([png.width, png.height]).toEqual([600, 200]);
    expect(inkOf(png)).toBeGreaterThan(1000);
    const viaClient = await api.client.signature(saleId);
    expect(Buffer.from(viaClient ?? new Uint8Array()).equals(response.bytes)).toBe(true);
  });

  it('takes Accept that allows a PNG, and refuses one that does not with 406', async () => {
    for (const accept of ['image/png', 'image/*', '*/*', 'application/json, image/png;q=0.5']) {
      const response = await api.request(signaturePath(saleId), { headers: { api_key: api.key, accept } });
      expect(response.status, accept).toBe(200);
    }
    const json = await api.request(signaturePath(saleId), {
      headers: { api_key: api.key, accept: 'application/json' },
    });
    expect(json.status).toBe(406);
    expect(json.json()).toMatchObject({ error: 'not_acceptable' });
  });

  it('answers 404 not_found for a transaction without a signature, and for no transaction', async () => {
    const unsigned = await api.request(signaturePath(unsignedId), { headers: { api_key: api.key } });
    expect(unsigned.status).toBe(404);
    expect(unsigned.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(unsigned.json()).toMatchObject({
      error: 'not_found',
      message: expect.stringContaining('no signature'),
    });
    const missing = await api.request(signaturePath('999999'), {
      headers: { api_key: api.key, accept: 'application/xml, image/png' },
    });
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(missing.body).toContain('No transaction has id 999999.');
    expect(await api.client.signature(unsignedId)).toBeUndefined();
  });

  it('needs transactions:read, and a key', async () => {
    const saleOnly = await api.createKey(['transactions:sale']);
    const refused = await api.request(signaturePath(saleId), { headers: { api_key: saleOnly } });
    expect(refused.status).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'forbidden' });
    const reader = await api.createKey(['transactions:read']);
    expect((await api.request(signaturePath(saleId), { headers: { api_key: reader } })).status).toBe(200);
    expect((await api.request(signaturePath(saleId))).status).toBe(401);
  });

  it('refuses a malformed id and any query parameter with 400', async () => {
    const badId = await api.request(signaturePath('abc'), { headers: { api_key: api.key } });
    expect(badId.status).toBe(400);
    expect(badId.json()).toMatchObject({ error: 'bad_parameter', parameter: 'id' });
    const query = await api.request(`${signaturePath(saleId)}?size=big`, { headers: { api_key: api.key } });
    expect(query.status).toBe(400);
    expect(query.json()).toMatchObject({ error: 'bad_parameter', parameter: 'size' });
  });
});

describe('keeping a signature', () => {
  it('keeps it as its strokes, a few hundred bytes and nothing of the card', async () => {
    const [row] = await queryLedger<{ strokes: Uint8Array }>(
      { dataDir: api.dataDir, store: api.store },
      'SELECT strokes FROM signatures WHERE transaction_id = ?',
      [Number(saleId)],
    );
    const strokes = new Uint8Array(row?.strokes ?? []);
    expect(strokes.length).toBeGreaterThan(10);
    expect(strokes.length).toBeLessThan(500);
    expect(decodeSignature(strokes)).toEqual(sampleSignature());
    const stored = await storedText({ dataDir: api.dataDir, store: api.store });
    expect(stored).not.toContain(VISA.card);
  });

  it('keeps the first signature: a second one for the same charge is refused and changes nothing', async () => {
    const before = (await api.request(signaturePath(saleId), { headers: { api_key: api.key } })).bytes;
    await expect(api.gateway.engine.signatures.keep(Number(saleId), [[10, 10, 600, 300]])).rejects.toThrow(
      expect.objectContaining({ reason: 'already-signed' }),
    );
    const after = (await api.request(signaturePath(saleId), { headers: { api_key: api.key } })).bytes;
    expect(after.equals(before)).toBe(true);
  });

  it('refuses what cannot be signed for: a decline, a tab, a voided sale, no transaction', async () => {
    const declined = await api.client.createTransaction({ type: 'SALE', amount: '5.00', ...DECLINED_CARD });
    const tab = await api.client.createTransaction({ type: 'AUTH', amount: '5.00', ...VISA });
    const sale = await api.client.createTransaction({ type: 'SALE', amount: '6.00', ...VISA });
    await api.client.createTransaction({ type: 'VOID', id: sale.id ?? '' });
    for (const id of [declined.id, tab.id, sale.id, '888888']) {
      const refusal = api.gateway.engine.signatures.keep(Number(id), sampleSignature());
      await expect(refusal).rejects.toBeInstanceOf(SignatureRefusedError);
      await expect(refusal).rejects.toMatchObject({ reason: 'not-signable' });
      expect(await api.client.signature(id ?? '')).toBeUndefined();
    }
  });

  it('refuses a tap, a point off the pad and text for a signature', async () => {
    const sale = await api.client.createTransaction({ type: 'SALE', amount: '7.00', ...VISA });
    for (const strokes of [[[500, 200, 501, 201]], [[0, 0, 1200, 10]], [['4111111111111111']], 'signed']) {
      await expect(api.gateway.engine.signatures.keep(Number(sale.id), strokes)).rejects.toMatchObject({
        reason: 'not-a-signature',
      });
    }
    expect(await api.client.signature(sale.id ?? '')).toBeUndefined();
  });

  it('a signature kept for a tab’s capture, with its tip, is the capture’s alone', async () => {
    const tab = await api.client.createTransaction({ type: 'AUTH', amount: '22.00', ...VISA });
    const capture = await api.client.createTransaction({
      type: 'CAPTURE',
      id: tab.id ?? '',
      amount: '20.00',
      tip_amount: '2.00',
    });
    await api.gateway.engine.signatures.keep(Number(capture.id), sampleSignature());
    expect(await api.client.signature(capture.id ?? '')).toBeInstanceOf(Uint8Array);
    expect(await api.client.signature(tab.id ?? '')).toBeUndefined();
  });
});

describe('the receipt of a signed charge', () => {
  it('the merchant copy says it was signed on screen, in place of the line to sign on', async () => {
    const merchant = receiptSchema.parse(
      (
        await api.request(`transactions/${saleId}/receipt?copy=merchant`, { headers: { api_key: api.key } })
      ).json(),
    );
    expect(merchant.signed).toBe('true');
    expect(merchant.lines.map((line) => line.trim())).toEqual(
      expect.arrayContaining(['[signature]', 'Signed on screen', 'I agree to pay the above total']),
    );
    expect(merchant.lines.some((line) => line.startsWith('x___'))).toBe(false);
    const customer = await api.client.receipt(saleId);
    expect(customer.signed).toBe('false');
    expect(customer.lines.join('\n')).not.toContain('[signature]');
    const unsigned = await api.client.receipt(unsignedId, { copy: 'merchant' });
    expect(unsigned.signed).toBe('false');
    expect(unsigned.lines.some((line) => line.startsWith('x___'))).toBe(true);
  });
});

describe('printing a signed charge', () => {
  it('the merchant copy carries the signature as a picture, dot for dot; the customer copy none', async () => {
    const printer = await startFakePrinter();
    try {
      const { engine } = api.gateway;
      const receipts = engine.receipts();
      const job = printer.nextJob();
      await receipts.print(Number(saleId), ['merchant', 'customer'], { printer: printer.address });
      const paper = decodeEscPos(await job);
      const [merchant, customer] = paper.copies;
      expect(merchant?.map((line) => line.trim())).toEqual(
        expect.arrayContaining(['MERCHANT COPY', '[picture 384x128]', 'Signed on screen']),
      );
      expect(customer?.join('\n')).not.toContain('[picture');
      const drawn = drawSignature(sampleSignature(), SIGNATURE_PRINT_SIZE);
      expect(Array.from(paper.pictures[0]?.dots ?? [])).toEqual(
        Array.from(drawn.gray, (v) => (v === 0 ? 1 : 0)),
      );
    } finally {
      await printer.close();
    }
  });
});
