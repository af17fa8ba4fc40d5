/**
 * What a receipt prints is decided by the receipt alone: a value typed into an invoice or a name
 * cannot start a line of its own, and only a charge that stands asks the customer to sign.
 */
import { describe, expect, it } from 'vitest';
import { escposBytes } from '../../electron/gateway/receipts/escpos';
import {
  receiptDocument,
  receiptPieces,
  renderReceipt,
  RECEIPT_WIDTHS,
  type MerchantDetails,
  type ReceiptCopy,
  type ReceiptTransaction,
} from '../../electron/gateway/receipts/receipt';
import { center, labelled, oneLine, wrap } from '../../shared/paper-text';
import { COUNTER_SALE_WITH_TIP } from '../../shared/tips';
import { decodeEscPos } from '../support/escpos-decoder';

const MERCHANT: MerchantDetails = {
  name: 'Blue Door Bistro',
  addressLines: ['12 Harbour Street'],
  phone: '',
  footer: 'Thank you!',
};

const SALE: ReceiptTransaction = {
  id: 7,
  type: 'Sale',
  result: 'Approved',
  displayMessage: 'Approved',
  amount: 5000,
  tipAmount: 0,
  authorizationCode: 'K7M2QX',
  cardLastFour: '1111',
  cardBrand: 'visa',
  entryMode: 'keyed',
  invoice: null,
  orderNumber: null,
  serverId: null,
  firstName: null,
  lastName: null,
  originalId: null,
  description: null,
  createdAt: Date.UTC(2026, 10, 24, 14, 5, 9),
  offline: false,
  forwardState: null,
};

/** A line of text that a value could make look like part of the receipt. */
const FORGED: Partial<ReceiptTransaction> = {
  invoice: 'A1\nTOTAL                  $0.01',
  firstName: 'Ada\n\n       REFUND',
  lastName: 'L\tx',
};

const render = (t: ReceiptTransaction, copy: ReceiptCopy, width: (typeof RECEIPT_WIDTHS)[number]) =>
  renderReceipt(receiptDocument(t, { copy, merchant: MERCHANT, timeZone: 'UTC' }), width);

describe('values on a receipt line', () => {
  it('a control character in a value is a space, and a run of them one space', () => {
    expect(oneLine('A1\nTOTAL $0.01')).toBe('A1 TOTAL $0.01');
    expect(oneLine('Ada\n\n       REFUND')).toBe('Ada REFUND');
    expect(oneLine('L\tx')).toBe('L x');
    expect(oneLine('a\r\nb\u0000c\u001bd\u007fe\u0085f\u2028g\u2029h')).toBe('a b c d e f g h');
    expect(oneLine('\n INV-88 \t')).toBe('INV-88');
    expect(oneLine('  Visa 1111')).toBe('  Visa 1111');
    // Spaces a value was typed with stay as they are.
    expect(oneLine('Table  4')).toBe('Table  4');
  });

  it('the layout keeps every value on its own line, within the width', () => {
    for (const width of RECEIPT_WIDTHS) {
      const lines = [
        ...labelled('Invoice', 'A1\nTOTAL $0.01', width),
        ...labelled('Name', `Ada\r\n${'x'.repeat(60)}\tL`, width),
        ...labelled('A label far longer than any paper is wide, in words', 'v', width),
        ...center('Blue\nDoor\u001b@', width),
        ...wrap('one\ftwo\u0007three', width),
      ];
      for (const line of lines) {
        expect(line.length, `"${line}"`).toBeLessThanOrEqual(width);
        expect(line, `"${line}"`).not.toMatch(/[\p{Cc}\u2028\u2029]/u);
      }
    }
    expect(labelled('Invoice', 'A1\nTOTAL $0.01', 42)).toEqual([`Invoice${' '.repeat(21)}A1 TOTAL $0.01`]);
  });

  it('an invoice or a name with line breaks and tabs prints on its own line, as text and as ESC/POS', async () => {
    const forged = { ...SALE, ...FORGED };
    for (const width of RECEIPT_WIDTHS) {
      for (const copy of ['customer', 'merchant'] as const) {
        const lines = render(forged, copy, width);
        for (const line of lines) {
          expect(line.length, `${copy} at ${width}: "${line}"`).toBeLessThanOrEqual(width);
          expect(line, `${copy} at ${width}: "${line}"`).not.toMatch(/[\p{Cc}\u2028\u2029]/u);
        }
        // The only TOTAL is the real one, and no line says REFUND on a sale.
        expect(lines.filter((line) => line.startsWith('TOTAL'))).toEqual([
          `TOTAL${' '.repeat(width - 'TOTAL$50.00'.length)}$50.00`,
        ]);
        expect(lines.filter((line) => line.trim().startsWith('REFUND'))).toEqual([]);
        expect(lines.join(' ')).toContain('A1 TOTAL');
        expect(lines.join(' ')).toContain('Ada REFUND L x');
      }
    }
    const document = receiptDocument(forged, { copy: 'customer', merchant: MERCHANT, timeZone: 'UTC' });
    expect(document.fields).toEqual(
      expect.arrayContaining([
        { label: 'Invoice', value: 'A1 TOTAL                  $0.01' },
        { label: 'Name', value: 'Ada REFUND L x' },
      ]),
    );
    const paper = decodeEscPos(await escposBytes([receiptPieces(document, 42)], 42));
    expect(paper.copies).toHaveLength(1);
    expect(paper.copies[0]).toEqual(renderReceipt(document, 42));
    expect(paper.copies[0]?.filter((line) => /^\s*TOTAL/.test(line))).toEqual([
      `TOTAL${' '.repeat(42 - 'TOTAL$50.00'.length)}$50.00`,
    ]);
  });

  it('a line sent to the printer is one line of paper, whoever laid it out', async () => {
    const paper = decodeEscPos(await escposBytes([['Blue Door\nTOTAL $0.01', 'Tab\u001b@le 4']], 32));
    expect(paper.copies).toEqual([['Blue Door TOTAL $0.01', 'Tab @le 4']]);
  });

  it('the merchant’s own lines keep to theirs too', () => {
    const merchant = {
      name: 'Blue Door\nVOID',
      addressLines: ['12 Harbour\tStreet'],
      phone: '555\r\n0142',
      footer: 'Thank you!\n\nCome again',
    };
    const lines = renderReceipt(receiptDocument(SALE, { copy: 'customer', merchant, timeZone: 'UTC' }), 32);
    for (const line of lines) expect(line).not.toMatch(/[\p{Cc}\u2028\u2029]/u);
    expect(lines.map((line) => line.trim())).toEqual(
      expect.arrayContaining(['Blue Door VOID', '12 Harbour Street', '555 0142', 'Thank you! Come again']),
    );
  });
});

describe('the line to sign', () => {
  const signs = (t: ReceiptTransaction, copy: ReceiptCopy = 'merchant') => {
    const document = receiptDocument(t, { copy, merchant: MERCHANT, timeZone: 'UTC' });
    const lines = renderReceipt(document, 32).map((line) => line.trim());
    const onPaper = ['Signature', 'I agree to pay the above total', `x${'_'.repeat(31)}`].filter((words) =>
      lines.includes(words),
    );
    return { flag: document.signature, onPaper };
  };
  const ASKS = {
    flag: true,
    onPaper: ['Signature', 'I agree to pay the above total', `x${'_'.repeat(31)}`],
  };
  const NONE = { flag: false, onPaper: [] };

  it('a charge that stands asks for a signature on the merchant copy', () => {
    expect(signs(SALE)).toEqual(ASKS);
    expect(signs({ ...SALE, type: 'Forced Sale' })).toEqual(ASKS);
    expect(signs({ ...SALE, type: 'Capture', originalId: 6, tipAmount: 800, amount: 5800 })).toEqual(ASKS);
    expect(signs({ ...SALE, type: 'Capture', originalId: 6, description: COUNTER_SALE_WITH_TIP })).toEqual(
      ASKS,
    );
    // Approved while the card network was down: the charge stands until the network says otherwise.
    expect(signs({ ...SALE, offline: true, forwardState: 'waiting' })).toEqual(ASKS);
    expect(signs({ ...SALE, offline: true, forwardState: 'forwarded' })).toEqual(ASKS);
    // The guest signs a tab's check, where they write the tip.
    expect(signs({ ...SALE, type: 'Auth' }, 'check').flag).toBe(true);
    expect(signs({ ...SALE, type: 'Auth' }, 'check').onPaper).toContain('Signature');
  });

  it('a refund or a void charges nobody and asks nobody to sign', () => {
    expect(signs({ ...SALE, type: 'Refund', originalId: 6, amount: 500 })).toEqual(NONE);
    expect(signs({ ...SALE, type: 'Refund', amount: 300 })).toEqual(NONE);
    expect(signs({ ...SALE, type: 'Void', originalId: 6 })).toEqual(NONE);
    // The void of a counter sale tipped before the card.
    expect(signs({ ...SALE, type: 'Void', originalId: 6, description: COUNTER_SALE_WITH_TIP })).toEqual(NONE);
  });

  it('an offline sale the card network declined asks for no signature', () => {
    const declined = { ...SALE, offline: true, forwardState: 'declined' as const };
    expect(signs(declined)).toEqual(NONE);
    expect(render(declined, 'merchant', 32).map((line) => line.trim())).toContain('DECLINED');
  });

  it('nothing not approved, nothing voided and no customer copy asks for one', () => {
    expect(signs({ ...SALE, result: 'Declined', displayMessage: 'Declined' })).toEqual(NONE);
    expect(signs({ ...SALE, voidedBy: 8 })).toEqual(NONE);
    // A tab's hold is signed for on its check, and its capture on the merchant copy.
    expect(signs({ ...SALE, type: 'Auth' })).toEqual(NONE);
    expect(signs(SALE, 'customer')).toEqual(NONE);
  });

  it('a signature taken on screen shows only on a copy that asks for one', () => {
    for (const t of [
      { ...SALE, type: 'Refund' as const, originalId: 6 },
      { ...SALE, type: 'Void' as const, originalId: 6 },
      { ...SALE, offline: true, forwardState: 'declined' as const },
    ]) {
      const document = receiptDocument(t, { copy: 'merchant', merchant: MERCHANT, signed: true });
      expect(document.signed).toBe(false);
      expect(renderReceipt(document, 32).map((line) => line.trim())).not.toContain(
        'I agree to pay the above total',
      );
    }
    expect(receiptDocument(SALE, { copy: 'merchant', merchant: MERCHANT, signed: true }).signed).toBe(true);
  });
});
