/**
 * The rules behind the counter's screens, in Node: tips, what a transaction can still have done to
 * it, the batch report's lines, the CSV export, amounts typed like a register, and screen addresses.
 */
import { describe, expect, it } from 'vitest';
import type { TransactionListItem } from '../../shared/api/schemas';
import { listItem } from '../support/list-items';
import { agreesWith, countAndNet, summarize } from '../../renderer/src/batch/batch-summary';
import { csvCell, transactionsCsv } from '../../renderer/src/history/csv';
import {
  filterProblem,
  historyQuery,
  NEWEST_FIRST,
  NO_FILTERS,
} from '../../renderer/src/history/history-query';
import { hasCheck } from '../../renderer/src/refunds/counter-sale';
import { refundProblem, remedyFor } from '../../renderer/src/refunds/remedy';
import { screenOf } from '../../renderer/src/shell/routes';
import { matchingPercent, percentOfCheck, tipForPercent } from '../../renderer/src/tabs/tip-math';
import { ageLabel, cardLabel, counted, kindOf, statusOf } from '../../renderer/src/transactions/present';
import { startOfDay } from '../../renderer/src/transactions/queries';
import { pressDigit } from '../../renderer/src/ui/DigitPad';
import { centsFromText, pressMoneyKey } from '../../renderer/src/ui/MoneyInput';

const item = (fields: Partial<TransactionListItem>): TransactionListItem =>
  listItem({ tip_amount: '', ...fields });

describe('tips', () => {
  it('are a percentage of the check, rounded to the cent', () => {
    expect(tipForPercent(4200, 20)).toBe(840);
    expect(tipForPercent(3333, 18)).toBe(600);
    expect(tipForPercent(3000, 12.5)).toBe(375);
    expect(percentOfCheck(2500, 450)).toBe(18);
    expect(percentOfCheck(0, 100)).toBe(0);
  });

  it('know which suggested percentage they are, if any', () => {
    expect(matchingPercent(4200, 840, [15, 18, 20])).toBe(20);
    expect(matchingPercent(4200, 841, [15, 18, 20])).toBeUndefined();
    expect(matchingPercent(4200, 0, [15, 18, 20])).toBeUndefined();
  });
});

describe('what the screen offers for a transaction', () => {
  // Whether a void or a refund is possible is the engine's to say (test/api/follow-ups.test.ts); the
  // screen offers what the list item says, and explains a "neither" from the item's facts.
  it('is the void the engine says it would accept', () => {
    expect(remedyFor(item({ voidable: 'true' }))).toEqual({
      kind: 'void',
      what: 'It is still in the open batch: void it to cancel it in full, with nothing to settle.',
    });
    expect(remedyFor(item({ type: 'Auth', batch_id: '', voidable: 'true' }))).toEqual({
      kind: 'void',
      what: 'Void the tab to release the hold on the card.',
    });
    expect(remedyFor(item({ type: 'Refund', voidable: 'true' }))).toEqual({
      kind: 'void',
      what: 'The refund is still in the open batch: void it to take it back.',
    });
    // The hold of a sale tipped at the counter whose capture did not go through is not a tab.
    expect(
      remedyFor(item({ type: 'Auth', batch_id: '', voidable: 'true', counter_sale: 'true' })),
    ).toMatchObject({ kind: 'void', what: expect.stringContaining('sale tipped at the counter') });
  });

  it('is a check to reprint only for an open tab', () => {
    const tab = { type: 'Auth', batch_id: '', capturable: 'true', voidable: 'true' } as const;
    expect(hasCheck(item(tab))).toBe(true);
    expect(hasCheck(item({ ...tab, counter_sale: 'true' }))).toBe(false);
    // Past auth_expiry_days, or captured: the engine would capture it no more.
    expect(hasCheck(item({ ...tab, capturable: 'false' }))).toBe(false);
    expect(hasCheck(item({ ...tab, capturable: 'false', captured: 'true' }))).toBe(false);
    expect(hasCheck(item({ type: 'Sale', capturable: 'false' }))).toBe(false);
  });

  it('is a refund of what the engine says is left', () => {
    const settled = { batch_id: '2', amount: '50.00', refunded_amount: '20.00', refundable_amount: '30.00' };
    expect(remedyFor(item(settled))).toEqual({ kind: 'refund', remainingCents: 3000, refundedCents: 2000 });
    expect(remedyFor(item({ batch_id: '2', refundable_amount: '10.00' }))).toEqual({
      kind: 'refund',
      remainingCents: 1000,
      refundedCents: 0,
    });
  });

  it('is nothing, with the reason, when the engine offers neither', () => {
    const reason = (fields: Partial<TransactionListItem>) => {
      const remedy = remedyFor(item(fields));
      return remedy.kind === 'none' ? remedy.reason : remedy.kind;
    };
    expect(reason({ result: 'Declined' })).toBe('This sale was declined: no money moved.');
    expect(reason({ voided: 'true' })).toMatch(/voided already/);
    expect(reason({ type: 'Void' })).toMatch(/cannot itself be voided/);
    expect(reason({ batch_id: '2', refunded_amount: '10.00' })).toBe('It has been refunded in full.');
    expect(reason({ type: 'Auth', captured: 'true', batch_id: '', refunded_amount: '' })).toMatch(
      /find its capture/,
    );
    expect(reason({ type: 'Refund', batch_id: '2', refunded_amount: '' })).toMatch(/settled/);
  });

  it('refunds at most what is left', () => {
    expect(refundProblem(0, 3000)).toBe('Enter the amount to refund.');
    expect(refundProblem(3001, 3000)).toBe('At most $30.00 is left to refund.');
    expect(refundProblem(3000, 3000)).toBeUndefined();
  });
});

describe('the batch report', () => {
  const rows = [
    item({ id: '1', type: 'Sale', amount: '20.00' }),
    item({ id: '2', type: 'Sale', amount: '12.50', server_id: '04' }),
    item({ id: '3', type: 'Forced Sale', amount: '8.00' }),
    item({ id: '5', type: 'Capture', amount: '48.00', tip_amount: '8.00', server_id: '04' }),
    item({ id: '7', type: 'Capture', amount: '30.00', tip_amount: '5.00', server_id: '09' }),
    item({ id: '8', type: 'Sale', amount: '99.00', voided: 'true' }),
    item({ id: '9', type: 'Void', amount: '99.00', original_id: '8' }),
    item({ id: '10', type: 'Refund', amount: '6.50' }),
    item({ id: '11', type: 'Sale', amount: '40.00', result: 'Declined' }),
  ];

  it('counts approved, unvoided sales and refunds by type, and tips by server', () => {
    const summary = summarize(rows);
    expect(summary.types.map((line) => [line.type, line.count, line.totalCents, line.tipCents])).toEqual([
      ['Sale', 2, 3250, 0],
      ['Forced Sale', 1, 800, 0],
      ['Capture', 2, 7800, 1300],
      ['Refund', 1, 650, 0],
    ]);
    expect(summary.servers).toEqual([
      { server: '04', count: 2, salesCents: 6050, tipCents: 800 },
      { server: '09', count: 1, salesCents: 3000, tipCents: 500 },
      { server: '', count: 2, salesCents: 2800, tipCents: 0 },
    ]);
    expect(summary.counted.map((row) => row.id)).toEqual(['1', '2', '3', '5', '7', '10']);
  });

  it('counts a sale tipped at the counter among the sales, not the captured tabs', () => {
    const counterSale = { counter_sale: 'true' } as const;
    const summary = summarize([
      ...rows,
      item({ id: '12', type: 'Auth', amount: '24.00', captured: 'true', batch_id: '', ...counterSale }),
      item({
        id: '13',
        type: 'Capture',
        amount: '24.00',
        tip_amount: '4.00',
        original_id: '12',
        ...counterSale,
      }),
    ]);
    expect(summary.types.map((line) => [line.type, line.count, line.totalCents, line.tipCents])).toEqual([
      ['Sale', 3, 5650, 400],
      ['Forced Sale', 1, 800, 0],
      ['Capture', 2, 7800, 1300],
      ['Refund', 1, 650, 0],
    ]);
    expect(summary.tipCents).toBe(1700);
  });

  it('checks its lines against the engine’s totals', () => {
    const batch = {
      id: '3',
      status: 'OPEN' as const,
      sales_count: '5',
      sales_total: '118.50',
      refund_count: '1',
      refund_total: '6.50',
      total_count: '6',
      net_amount: '112.00',
      tip_total: '13.00',
      opened: '2026-11-20T09:00:00.000-05:00',
    };
    expect(agreesWith(summarize(rows), batch)).toBe(true);
    expect(agreesWith(summarize(rows), { ...batch, tip_total: '12.00' })).toBe(false);
  });

  it('says its size and net as a sentence does, one transaction as one', () => {
    expect(countAndNet({ total_count: '6', net_amount: '112.00' })).toBe('6 transactions for $112.00 net');
    expect(countAndNet({ total_count: '1', net_amount: '12.50' })).toBe('1 transaction for $12.50 net');
  });
});

describe('the CSV export', () => {
  it('quotes what needs quoting and keeps formulas as text', () => {
    expect(csvCell('INV-1')).toBe('INV-1');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('=SUM(A1:A9)')).toBe("'=SUM(A1:A9)");
    expect(csvCell('@cmd')).toBe("'@cmd");
    expect(csvCell('+1 555')).toBe("'+1 555");
    expect(csvCell('-12.50')).toBe('-12.50');
  });

  it('writes a header and one CRLF line per transaction, the card as the engine masked it', () => {
    const csv = transactionsCsv([item({ id: '7', invoice: 'A,B' })]);
    const [header, line, end] = csv.split('\r\n');
    expect(header?.startsWith('Transaction,Created,Type,Result,Amount,Tip')).toBe(true);
    expect(line).toContain(
      '7,2026-11-20T14:05:09.042-05:00,Sale,Approved,10.00,,0.00,10.00,************1111,visa',
    );
    expect(line).toContain('"A,B"');
    const [, sale] = transactionsCsv([item({ type: 'Capture', counter_sale: 'true' })]).split('\r\n');
    expect(sale?.split(',')[2]).toBe('Sale');
    expect(sale).toContain(',Capture,Approved,');
    expect(end).toBe('');
  });
});

describe('history filters', () => {
  it('become the list API’s query, dates as local days with the last one included', () => {
    const query = historyQuery(
      {
        ...NO_FILTERS,
        type: 'Forced Sale',
        lastFour: '1111',
        server: '07',
        from: '2026-11-20',
        to: '2026-11-21',
      },
      { field: 'amount', descending: false },
    );
    expect(query).toEqual({
      order_by: 'amount',
      descending: false,
      type: 'Forced Sale',
      last_four: '1111',
      server_id: '07',
      start_date: new Date(2026, 10, 20).toISOString(),
      end_date: new Date(2026, 10, 22).toISOString(),
    });
    expect(historyQuery(NO_FILTERS, NEWEST_FIRST)).toEqual({ order_by: 'id', descending: true });
  });

  it('refuse what the engine would refuse', () => {
    expect(filterProblem({ ...NO_FILTERS, lastFour: '111' })).toMatch(/four digits/);
    expect(filterProblem({ ...NO_FILTERS, server: '7' })).toMatch(/two digits/);
    expect(filterProblem({ ...NO_FILTERS, from: '2026-11-21', to: '2026-11-20' })).toMatch(/after/);
    expect(filterProblem(NO_FILTERS)).toBeUndefined();
    expect(startOfDay('2026-02-30')).toBe(new Date(2026, 1, 30).toISOString());
    expect(startOfDay('')).toBeUndefined();
  });
});

describe('amounts typed like a register', () => {
  it('push digits in from the right and never pass the largest amount', () => {
    expect(pressMoneyKey(0, '1')).toBe(1);
    expect(pressMoneyKey(125, '0')).toBe(1250);
    expect(pressMoneyKey(12, '00')).toBe(1200);
    expect(pressMoneyKey(1250, 'back')).toBe(125);
    expect(pressMoneyKey(1250, 'clear')).toBe(0);
    expect(pressMoneyKey(99_999_999, '9')).toBe(99_999_999);
  });

  it('read typed or pasted text by its digits', () => {
    expect(centsFromText('$12.503', 1250)).toBe(12503);
    // Backspace at the end of "$1,250.00" takes the last digit off.
    expect(centsFromText('$1,250.0', 125000)).toBe(12500);
    expect(centsFromText('12.50', 0)).toBe(1250);
    expect(centsFromText('', 1250)).toBe(0);
    expect(centsFromText('9999999999', 500)).toBe(500);
  });

  it('type PINs up to eight digits', () => {
    expect(pressDigit('482', '6', 8)).toBe('4826');
    expect(pressDigit('12345678', '9', 8)).toBe('12345678');
    expect(pressDigit('4826', 'back', 8)).toBe('482');
  });
});

describe('how transactions read on screen', () => {
  it('with the card masked to brand and last four, and a status in words', () => {
    expect(cardLabel(item({ card: '***********8431', card_brand: 'amex' }))).toBe(
      'American Express •••• 8431',
    );
    expect(cardLabel(item({ card: '', card_brand: '' }))).toBe('No card');
    expect(statusOf(item({ refunded_amount: '4.00' }))).toEqual({ label: '$4.00 refunded', tone: 'warn' });
    expect(statusOf(item({ refunded_amount: '10.00' }))).toMatchObject({ label: 'Refunded' });
    expect(statusOf(item({ type: 'Auth', captured: 'false' }))).toMatchObject({ label: 'Open tab' });
    expect(statusOf(item({ type: 'Void', original_id: '8' }))).toMatchObject({ label: 'Voids #8' });
    // A sale tipped at the counter is a Sale and its hold, never a tab.
    expect(kindOf(item({ type: 'Capture', counter_sale: 'true' }))).toBe('Sale');
    expect(kindOf(item({ type: 'Auth', counter_sale: 'true' }))).toBe('Sale hold');
    expect(kindOf(item({ type: 'Capture' }))).toBe('Capture');
    expect(statusOf(item({ type: 'Auth', counter_sale: 'true' }))).toMatchObject({ label: 'Not captured' });
    expect(counted(1, 'refund')).toBe('1 refund');
    expect(counted('3', 'refund')).toBe('3 refunds');
  });

  it('with ages for open tabs', () => {
    const opened = Date.parse('2026-11-20T14:00:00.000-05:00');
    const at = (minutes: number) => ageLabel('2026-11-20T14:00:00.000-05:00', opened + minutes * 60_000);
    expect(at(0)).toBe('just now');
    expect(at(12)).toBe('12 min');
    expect(at(125)).toBe('2 h 05 min');
    expect(at(60 * 24 * 3)).toBe('3 days');
  });
});

describe('screen addresses', () => {
  it('name a screen by the fragment, and fall back to the sale', () => {
    expect(screenOf('#tabs')).toBe('tabs');
    expect(screenOf('#end-of-day')).toBe('end-of-day');
    expect(screenOf('')).toBe('sale');
    expect(screenOf('#bridge=abc')).toBe('sale');
    expect(screenOf('#toString')).toBe('sale');
  });
});
