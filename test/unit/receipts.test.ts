import { describe, expect, it } from 'vitest';
import {
  maskedCard,
  receiptDocument,
  renderReceipt,
  RECEIPT_WIDTHS,
  tipFor,
  type MerchantDetails,
  type ReceiptTransaction,
} from '../../electron/gateway/receipts/receipt';
import { escposBytes } from '../../electron/gateway/receipts/escpos';
import { wrap } from '../../shared/paper-text';
import { COUNTER_SALE_WITH_TIP } from '../../shared/tips';
import { decodeEscPos } from '../support/escpos-decoder';

const MERCHANT: MerchantDetails = {
  name: 'Blue Door Bistro',
  addressLines: ['12 Harbour Street', 'Portland, ME 04101'],
  phone: '(207) 555-0142',
  footer: 'Thank you!|Returns within 30 days',
};

const SALE: ReceiptTransaction = {
  id: 1042,
  type: 'Sale',
  result: 'Approved',
  displayMessage: 'Approved',
  amount: 2750,
  tipAmount: 0,
  authorizationCode: 'K7M2QX',
  cardLastFour: '1111',
  cardBrand: 'visa',
  entryMode: 'swiped',
  invoice: 'INV-88',
  orderNumber: 'A12',
  serverId: null,
  firstName: 'Ada',
  lastName: 'Lovelace',
  originalId: null,
  description: null,
  createdAt: Date.UTC(2026, 10, 24, 14, 5, 9),
  offline: false,
  forwardState: null,
};

const at = (lines: string[], text: string) => lines.find((line) => line.includes(text));

describe('receipt document', () => {
  it('a customer copy names the merchant, the sale, the masked card and the result', () => {
    const lines = renderReceipt(
      receiptDocument(SALE, { copy: 'customer', merchant: MERCHANT, timeZone: 'UTC' }),
      42,
    );
    expect(lines[0]?.trim()).toBe('Blue Door Bistro');
    expect(lines.map((line) => line.trim())).toEqual(
      expect.arrayContaining([
        '12 Harbour Street',
        'Portland, ME 04101',
        '(207) 555-0142',
        'SALE',
        'APPROVED',
        'CUSTOMER COPY',
        'Thank you!',
        'Returns within 30 days',
      ]),
    );
    expect(at(lines, 'Date')).toMatch(/^Date\s+2026-11-24$/);
    expect(at(lines, 'Time')).toMatch(/^Time\s+14:05:09$/);
    expect(at(lines, 'Transaction')).toMatch(/^Transaction\s+#1042$/);
    expect(at(lines, 'Invoice')).toMatch(/INV-88$/);
    expect(at(lines, 'Order')).toMatch(/A12$/);
    // How the card was taken, in plain words, on the card's own line.
    expect(at(lines, 'Visa')).toMatch(/^Swiped\s+Visa \*\*\*\* 1111$/);
    expect(lines.some((line) => line.startsWith('Entry'))).toBe(false);
    expect(at(lines, 'Name')).toMatch(/Ada Lovelace$/);
    expect(at(lines, 'Auth code')).toMatch(/K7M2QX$/);
    expect(at(lines, 'AMOUNT')).toMatch(/\$27\.50$/);
    expect(at(lines, 'TOTAL')).toMatch(/\$27\.50$/);
    expect(lines.some((line) => line.includes('Signature'))).toBe(false);
  });

  it('every line fits the paper at each width', () => {
    const long = { ...MERCHANT, name: 'The Extraordinarily Long Named Neighbourhood Coffee Roastery' };
    for (const width of RECEIPT_WIDTHS) {
      for (const copy of ['customer', 'merchant', 'check'] as const) {
        const lines = renderReceipt(
          receiptDocument(
            { ...SALE, type: copy === 'check' ? 'Auth' : 'Sale' },
            {
              copy,
              merchant: long,
              takesTips: true,
              tipPercentages: [15, 18, 20],
            },
          ),
          width,
        );
        for (const line of lines)
          expect(line.length, `${copy} at ${width}: "${line}"`).toBeLessThanOrEqual(width);
        expect(lines.some((line) => line.length === width)).toBe(true);
      }
    }
  });

  it('the merchant copy has a signature line and says so', () => {
    const lines = renderReceipt(receiptDocument(SALE, { copy: 'merchant', merchant: MERCHANT }), 32);
    expect(lines).toContain(`x${'_'.repeat(31)}`);
    expect(lines.map((line) => line.trim())).toEqual(
      expect.arrayContaining(['Signature', 'MERCHANT COPY', 'I agree to pay the above total']),
    );
  });

  it('a check for a tab of a counter that takes tips has the amount, blank TIP and TOTAL lines, suggested tips and a signature line', () => {
    const tab: ReceiptTransaction = { ...SALE, type: 'Auth', amount: 4000, serverId: '07' };
    const document = receiptDocument(tab, {
      copy: 'check',
      merchant: MERCHANT,
      takesTips: true,
      tipPercentages: [15, 18, 20],
    });
    expect(document.suggestedTips).toEqual([
      { percent: 15, tip: '$6.00', total: '$46.00' },
      { percent: 18, tip: '$7.20', total: '$47.20' },
      { percent: 20, tip: '$8.00', total: '$48.00' },
    ]);
    const lines = renderReceipt(document, 42);
    expect(at(lines, 'AMOUNT')).toMatch(/\$40\.00$/);
    expect(at(lines, 'TIP ')).toMatch(/^TIP\s+_{20}$/);
    expect(at(lines, 'TOTAL')).toMatch(/^TOTAL\s+_{20}$/);
    expect(at(lines, '15%')).toMatch(/^15% {2}tip \$6\.00\s+total \$46\.00$/);
    expect(at(lines, 'Server')).toMatch(/07$/);
    expect(at(lines, 'Tab')).toMatch(/#1042$/);
    expect(lines.map((line) => line.trim())).toEqual(
      expect.arrayContaining(['AUTH (TAB)', 'CHECK', 'Signature']),
    );
  });

  it('a check of a counter that takes no tips asks for none: no TIP line, no suggested tips', () => {
    const tab: ReceiptTransaction = { ...SALE, type: 'Auth', amount: 4000, serverId: '07' };
    for (const takesTips of [false, undefined]) {
      const document = receiptDocument(tab, {
        copy: 'check',
        merchant: MERCHANT,
        ...(takesTips !== undefined && { takesTips }),
        tipPercentages: [15, 18, 20],
      });
      expect(document.suggestedTips).toEqual([]);
      expect(document.amounts).toEqual([
        { label: 'AMOUNT', value: '$40.00' },
        { label: 'TOTAL', value: '$40.00' },
      ]);
      const lines = renderReceipt(document, 32);
      expect(lines.filter((line) => /^(TIP|TOTAL)\s+_+$|\btips?\b/i.test(line.trim()))).toEqual([]);
      expect(at(lines, 'TOTAL')).toMatch(/\$40\.00$/);
      expect(lines.map((line) => line.trim())).toEqual(expect.arrayContaining(['AUTH (TAB)', 'CHECK']));
    }
  });

  it('a capture shows the tip apart from the amount', () => {
    const capture: ReceiptTransaction = {
      ...SALE,
      type: 'Capture',
      amount: 4800,
      tipAmount: 800,
      originalId: 1041,
    };
    const lines = renderReceipt(receiptDocument(capture, { copy: 'customer', merchant: MERCHANT }), 42);
    expect(at(lines, 'AMOUNT')).toMatch(/\$40\.00$/);
    expect(at(lines, 'TIP')).toMatch(/\$8\.00$/);
    expect(at(lines, 'TOTAL')).toMatch(/\$48\.00$/);
    expect(at(lines, 'Tab ')).toMatch(/#1041$/);
    expect(lines.map((line) => line.trim())).toContain('CAPTURE (TAB)');
  });

  it('a counter sale tipped before the card prints as the sale it was, with its tip, and no tab', () => {
    const capture: ReceiptTransaction = {
      ...SALE,
      type: 'Capture',
      amount: 4800,
      tipAmount: 800,
      originalId: 1041,
      description: COUNTER_SALE_WITH_TIP,
    };
    for (const copy of ['customer', 'merchant'] as const) {
      const lines = renderReceipt(receiptDocument(capture, { copy, merchant: MERCHANT }), 42);
      const trimmed = lines.map((line) => line.trim());
      expect(trimmed).toContain('SALE');
      expect(trimmed.filter((line) => /TAB|CAPTURE/.test(line))).toEqual([]);
      expect(lines.some((line) => line.startsWith('Tab'))).toBe(false);
      expect(at(lines, 'Transaction')).toMatch(/#1042$/);
      expect(at(lines, 'AMOUNT')).toMatch(/\$40\.00$/);
      expect(at(lines, 'TIP')).toMatch(/\$8\.00$/);
      expect(at(lines, 'TOTAL')).toMatch(/\$48\.00$/);
    }
    // Its AUTH is no tab either; anything else that only says so in its description stays what it is.
    const auth = { ...capture, type: 'Auth' as const, tipAmount: 0, originalId: null };
    const authLines = renderReceipt(receiptDocument(auth, { copy: 'merchant', merchant: MERCHANT }), 42);
    expect(authLines.map((line) => line.trim())).toContain('AUTH');
    const refund = { ...capture, type: 'Refund' as const };
    expect(receiptDocument(refund, { copy: 'customer', merchant: MERCHANT }).title).toBe('REFUND');
  });

  it('refund and void receipts name the transaction they reverse', () => {
    const refund = renderReceipt(
      receiptDocument(
        { ...SALE, id: 1050, type: 'Refund', originalId: 1042 },
        { copy: 'customer', merchant: MERCHANT },
      ),
      42,
    );
    expect(at(refund, 'Refund of')).toMatch(/^Refund of\s+#1042$/);
    const voided = renderReceipt(
      receiptDocument(
        { ...SALE, id: 1051, type: 'Void', originalId: 1042 },
        { copy: 'customer', merchant: MERCHANT },
      ),
      42,
    );
    expect(at(voided, 'Void of')).toMatch(/^Void of\s+#1042$/);
    expect(voided.map((line) => line.trim())).toContain('VOID');
  });

  it('a decline says DECLINED with the engine’s message and has no signature line', () => {
    const declined: ReceiptTransaction = {
      ...SALE,
      result: 'Declined',
      displayMessage: 'Declined: do not honor',
      authorizationCode: null,
    };
    const lines = renderReceipt(receiptDocument(declined, { copy: 'merchant', merchant: MERCHANT }), 42);
    expect(lines.map((line) => line.trim())).toEqual(
      expect.arrayContaining(['DECLINED', 'Declined: do not honor']),
    );
    expect(lines.some((line) => line.includes('Signature'))).toBe(false);
    expect(lines.some((line) => line.includes('Auth code'))).toBe(false);
  });

  it('an offline approval says so, with its OFL code, and once declined when forwarded says that', () => {
    const offline: ReceiptTransaction = {
      ...SALE,
      authorizationCode: 'OFL7K2',
      offline: true,
      forwardState: 'waiting',
    };
    const lines = renderReceipt(receiptDocument(offline, { copy: 'customer', merchant: MERCHANT }), 42);
    const trimmed = lines.map((line) => line.trim());
    expect(trimmed).toContain('APPROVED OFFLINE');
    expect(trimmed.join(' ')).toContain('Approved while the card network was down');
    expect(at(lines, 'Auth code')).toMatch(/OFL7K2$/);
    const declined = renderReceipt(
      receiptDocument({ ...offline, forwardState: 'declined' }, { copy: 'customer', merchant: MERCHANT }),
      42,
    ).map((line) => line.trim());
    expect(declined).toContain('DECLINED');
    expect(declined.join(' ')).toContain('Approved offline, then declined by the card network');
    expect(declined).not.toContain('APPROVED OFFLINE');
  });

  it('a keyed card says Typed in, and a receipt without merchant settings still prints', () => {
    const lines = renderReceipt(
      receiptDocument(
        { ...SALE, entryMode: 'keyed', firstName: null, lastName: null },
        { copy: 'customer', merchant: { name: '', addressLines: [], phone: '', footer: '' } },
      ),
      32,
    );
    expect(at(lines, 'Visa')).toMatch(/^Typed in\s+Visa \*\*\*\* 1111$/);
    expect(lines.some((line) => /Keyed|Entry/.test(line))).toBe(false);
    expect(lines.some((line) => line.startsWith('Name'))).toBe(false);
    expect(lines[1]?.trim()).toBe('SALE');
  });

  it('shows only the brand and last four digits of a card', () => {
    expect(maskedCard('mastercard', '5454')).toBe('Mastercard **** 5454');
    expect(maskedCard('amex', '8431')).toBe('American Express **** 8431');
    expect(maskedCard(null, '1111')).toBe('Card **** 1111');
    expect(maskedCard('visa', null)).toBeUndefined();
    expect(maskedCard('visa', '4111111111111111')).toBeUndefined();
  });

  it('rounds suggested tips to the nearest cent', () => {
    expect(tipFor(1999, 15)).toBe(300);
    expect(tipFor(1003, 18)).toBe(181);
  });

  it('wraps words and cuts a word longer than the line', () => {
    expect(wrap('one two three', 7)).toEqual(['one two', 'three']);
    expect(wrap('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
  });
});

describe('ESC/POS bytes', () => {
  it('decode back to the same lines, one piece of paper per copy', async () => {
    for (const width of RECEIPT_WIDTHS) {
      const customer = renderReceipt(receiptDocument(SALE, { copy: 'customer', merchant: MERCHANT }), width);
      const merchant = renderReceipt(receiptDocument(SALE, { copy: 'merchant', merchant: MERCHANT }), width);
      const printed = decodeEscPos(await escposBytes([customer, merchant], width));
      expect(printed.cuts).toBe(2);
      expect(printed.copies).toEqual([customer, merchant]);
    }
  });
});
