/**
 * A receipt says only what the ledger says, one line per line, whichever way it leaves the engine:
 * an invoice or a name with a line break prints on its own line (text, JSON, the printer, email),
 * and a refund or a void asks nobody to sign.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receiptSchema } from '../../shared/api/schemas';
import { COUNTER_SALE_WITH_TIP } from '../../shared/tips';
import { decodeEscPos } from '../support/escpos-decoder';
import { startFakePrinter } from '../support/fake-printer';
import { MASTERCARD, useTestGateway, VISA } from '../support/gateway';
import { startMailServer, type MailServer } from '../support/mail-server';

const api = useTestGateway({ tips: true });
const CONTROL = /[\p{Cc}\u2028\u2029]/u;

const receipt = async (id: string, query: string, accept: string) => {
  const response = await api.request(`transactions/${id}/receipt${query}`, {
    headers: { api_key: api.key, accept },
  });
  expect(response.status).toBe(200);
  return response;
};

const json = async (id: string, query = '') =>
  receiptSchema.parse((await receipt(id, query, 'application/json')).json());

const text = async (id: string, query = '') =>
  (await receipt(id, query, 'text/plain')).body.replace(/\n$/, '').split('\n');

describe('a value with line breaks and tabs', () => {
  let forgedTotal: string;
  let forgedName: string;
  let smtp: MailServer;

  beforeAll(async () => {
    forgedTotal =
      (
        await api.client.createTransaction({
          type: 'SALE',
          amount: '50.00',
          ...VISA,
          invoice: 'A1\nTOTAL                  $0.01',
        })
      ).id ?? '';
    forgedName =
      (
        await api.client.createTransaction({
          type: 'SALE',
          amount: '50.00',
          ...VISA,
          invoice: 'I1\r\nTOTAL            $0.01',
          email: 'ada@example.test',
          billing: { first_name: 'Ada\n\n       REFUND', last_name: 'L\tx' },
        })
      ).id ?? '';
    smtp = await startMailServer();
    const { settings } = api.gateway.engine;
    await settings.setFromText('smtp_host', '127.0.0.1');
    await settings.setFromText('smtp_port', String(smtp.port));
    await settings.setFromText('smtp_security', 'none');
    await settings.setFromText('smtp_from', 'receipts@bluedoor.test');
  });
  afterAll(() => smtp.close());

  it('prints on its own line: the printer shows one TOTAL, the sale’s', async () => {
    const printer = await startFakePrinter();
    try {
      const service = api.gateway.engine.receipts();
      const job = printer.nextJob();
      await service.print(Number(forgedTotal), ['customer', 'merchant'], {
        printer: printer.address,
        width: 42,
      });
      const paper = decodeEscPos(await job);
      expect(paper.copies).toHaveLength(2);
      for (const copy of paper.copies) {
        expect(copy.filter((line) => /TOTAL/.test(line))).toEqual([
          `Invoice${' '.repeat(42 - 'InvoiceA1 TOTAL                  $0.01'.length)}A1 TOTAL                  $0.01`,
          `TOTAL${' '.repeat(42 - 'TOTAL$50.00'.length)}$50.00`,
        ]);
        for (const line of copy) expect(line.length, `"${line}"`).toBeLessThanOrEqual(42);
      }
    } finally {
      await printer.close();
    }
  });

  it('in the text and JSON answers, every line is one line within the width', async () => {
    for (const width of [32, 42, 48]) {
      for (const copy of ['customer', 'merchant']) {
        const query = `?copy=${copy}&width=${width}`;
        const lines = await text(forgedName, query);
        for (const line of lines) {
          expect(line.length, `${copy} at ${width}: "${line}"`).toBeLessThanOrEqual(width);
          expect(line, `${copy} at ${width}: "${line}"`).not.toMatch(CONTROL);
        }
        expect(lines.filter((line) => line.trim().startsWith('REFUND'))).toEqual([]);
        expect(lines.filter((line) => line.startsWith('TOTAL'))).toEqual([
          `TOTAL${' '.repeat(width - 'TOTAL$50.00'.length)}$50.00`,
        ]);
        const structured = await json(forgedName, query);
        expect(structured.lines).toEqual(lines);
        expect(structured.fields).toEqual(
          expect.arrayContaining([
            { label: 'Invoice', value: 'I1 TOTAL            $0.01' },
            { label: 'Name', value: 'Ada REFUND L x' },
          ]),
        );
      }
    }
    expect(await text(forgedName, '?width=42')).toContain(`Name${' '.repeat(24)}Ada REFUND L x`);
  });

  it('in the email, as text and as HTML', async () => {
    const service = api.gateway.engine.receipts();
    await service.email(Number(forgedName));
    await expect.poll(() => smtp.mails.length).toBe(1);
    const [mail] = smtp.mails;
    const lines = (mail?.text ?? '').replace(/\n$/, '').split('\n');
    expect(lines).toEqual(await text(forgedName));
    expect(lines.filter((line) => line.trim().startsWith('REFUND'))).toEqual([]);
    expect(mail?.html || '').toContain('Ada REFUND L x');
    expect(mail?.html || '').not.toMatch(/Ada\s*\n/);
  });
});

describe('the line to sign', () => {
  const asksToSign = async (id: string | undefined) => {
    const structured = await json(id ?? '', '?copy=merchant&width=32');
    return {
      signature: structured.signature,
      lines: structured.lines.filter((line) =>
        ['x___', 'Signature', 'I agree to pay'].some((words) => line.includes(words)),
      ),
    };
  };
  const NONE = { signature: 'false', lines: [] };

  it('a sale and a tab’s capture ask for one; their refunds and voids do not', async () => {
    const sale = await api.client.createTransaction({ type: 'SALE', amount: '27.50', ...VISA });
    const tab = await api.client.createTransaction({ type: 'AUTH', amount: '40.00', ...MASTERCARD });
    const capture = await api.client.createTransaction({
      type: 'CAPTURE',
      id: tab.id,
      amount: '40.00',
      tip_amount: '8.00',
    });
    // A counter sale tipped before the card: an AUTH of the total captured at once with the tip.
    const counterAuth = await api.client.createTransaction({
      type: 'AUTH',
      amount: '48.00',
      ...VISA,
      description: COUNTER_SALE_WITH_TIP,
    });
    const counterSale = await api.client.createTransaction({
      type: 'CAPTURE',
      id: counterAuth.id,
      amount: '40.00',
      tip_amount: '8.00',
      description: COUNTER_SALE_WITH_TIP,
    });
    const signs = {
      signature: 'true',
      lines: [`x${'_'.repeat(31)}`, `${' '.repeat(11)}Signature`, ` I agree to pay the above total`],
    };
    expect(await asksToSign(sale.id)).toEqual(signs);
    expect(await asksToSign(capture.id)).toEqual(signs);
    expect(await asksToSign(counterSale.id)).toEqual(signs);

    const voidOfCounterSale = await api.client.createTransaction({ type: 'VOID', id: counterSale.id });
    expect(voidOfCounterSale.result).toBe('Approved');
    expect(await asksToSign(voidOfCounterSale.id)).toEqual(NONE);
    // Voided, the counter sale asks for no signature either.
    expect(await asksToSign(counterSale.id)).toEqual(NONE);

    await api.client.closeOpenBatch();
    const refund = await api.client.createTransaction({ type: 'REFUND', id: sale.id, amount: '5.00' });
    const tabRefund = await api.client.createTransaction({
      type: 'REFUND',
      id: capture.id,
      amount: '48.00',
    });
    const unmatched = await api.client.createTransaction({ type: 'REFUND', amount: '3.00', ...VISA });
    expect([refund.result, tabRefund.result, unmatched.result]).toEqual(['Approved', 'Approved', 'Approved']);
    expect(await asksToSign(refund.id)).toEqual(NONE);
    expect(await asksToSign(tabRefund.id)).toEqual(NONE);
    expect(await asksToSign(unmatched.id)).toEqual(NONE);

    const voidOfRefund = await api.client.createTransaction({ type: 'VOID', id: refund.id });
    expect(voidOfRefund.result).toBe('Approved');
    expect(await asksToSign(voidOfRefund.id)).toEqual(NONE);
  });
});
