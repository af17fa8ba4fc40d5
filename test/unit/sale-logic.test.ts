/** The sale screen's rules, without a browser: amount entry, keyed-card checks, steps and outcomes. */
import { describe, expect, it } from 'vitest';
import { TenderApiError } from '../../shared/api/client';
import { pressAmountKey, pressBackspace } from '../../renderer/src/sale/amount';
import { checkKeyedCard, groupCardNumber } from '../../renderer/src/payment/keyed-card';
import {
  cashierWords,
  nextAction,
  outcomeOfFailure,
  outcomeOfResponse,
} from '../../renderer/src/payment/outcome';
import { freshSale, saleReducer, type SaleAction, type SaleState } from '../../renderer/src/sale/sale-state';

const run = (actions: SaleAction[], from: SaleState = freshSale()) => actions.reduce(saleReducer, from);
const keys = (digits: string): SaleAction[] =>
  [...digits].map((key) => ({ type: 'amount-key', key: key as '0' }) as SaleAction);

describe('the amount keypad', () => {
  it('pushes digits in from the right, like a cash register', () => {
    expect([...'1250'].reduce((cents, key) => pressAmountKey(cents, key as '1'), 0)).toBe(1250);
    expect(pressAmountKey(12, '00')).toBe(1200);
    expect(pressBackspace(1250)).toBe(125);
    expect(pressBackspace(0)).toBe(0);
  });

  it('ignores a key that would pass the largest amount the engine takes', () => {
    expect(pressAmountKey(99_999_999, '1')).toBe(99_999_999);
    expect(pressAmountKey(9_999_999, '00')).toBe(9_999_999);
    expect(pressAmountKey(9_999_999, '9')).toBe(99_999_999);
  });
});

describe('a keyed card', () => {
  it('is grouped as printed on the card', () => {
    expect(groupCardNumber('4111111111111111')).toBe('4111 1111 1111 1111');
    expect(groupCardNumber('371449635398431')).toBe('3714 496353 98431');
    expect(groupCardNumber('41111')).toBe('4111 1');
  });

  it('is accepted with what the request needs, and only the last four kept for the screen', () => {
    expect(
      checkKeyedCard({ cardNumber: '4111 1111 1111 1111', expiry: '1230', csc: '123', zip: ' 30301 ' }),
    ).toEqual({
      ok: true,
      card: {
        card: '4111111111111111',
        expMmyy: '1230',
        csc: '123',
        zip: '30301',
        brand: 'visa',
        lastFour: '1111',
      },
    });
  });

  it('names each field that is wrong', () => {
    const checked = checkKeyedCard({ cardNumber: '4111111111111112', expiry: '1330', csc: '12', zip: '!' });
    expect(checked.ok).toBe(false);
    expect(!checked.ok && Object.keys(checked.problems).sort()).toEqual([
      'cardNumber',
      'csc',
      'expiry',
      'zip',
    ]);
    const amex = checkKeyedCard({ cardNumber: '371449635398431', expiry: '1230', csc: '123', zip: '' });
    expect(!amex.ok && amex.problems.csc).toBe('American Express has a 4-digit code on the front.');
  });

  it('leaves a past expiry to the engine, which knows the terminal’s month', () => {
    expect(checkKeyedCard({ cardNumber: '4111111111111111', expiry: '0120', csc: '', zip: '' }).ok).toBe(
      true,
    );
  });
});

describe('the steps of a sale', () => {
  it('replaces an amount come back to from the card with the first digit, and lets Backspace edit it', () => {
    const back = run([...keys('555'), { type: 'take-card' }, { type: 'back' }]);
    expect(back).toMatchObject({ step: 'amount', untouched: true });
    expect(run(keys('2'), back).sale.cents).toBe(2);
    expect(run([{ type: 'backspace' }, ...keys('9')], back).sale.cents).toBe(559);
    expect(run([...keys('2'), ...keys('5')], back).sale.cents).toBe(25);
    const edited = run([...keys('555'), { type: 'take-card' }, { type: 'edit-amount' }]);
    expect(run(keys('7'), edited).sale.cents).toBe(7);
  });

  it('needs an amount before it takes a card', () => {
    expect(run([{ type: 'take-card' }]).step).toBe('amount');
    expect(run([...keys('5'), { type: 'take-card' }])).toMatchObject({ step: 'card', mode: 'swipe' });
  });

  it('charges once: a second charge while one is in flight changes nothing', () => {
    const card = { source: 'keyed', brand: 'visa', lastFour: '1111' } as const;
    const charging = run([...keys('5'), { type: 'take-card' }, { type: 'charge', card }]);
    expect(charging.step).toBe('charging');
    expect(saleReducer(charging, { type: 'charge', card })).toBe(charging);
    expect(saleReducer(charging, { type: 'new-sale' })).toBe(charging);
    expect(saleReducer(charging, { type: 'amount-key', key: '9' })).toBe(charging);
  });

  it('after a decline tries another card for the same amount and references', () => {
    const card = { source: 'keyed', brand: 'visa', lastFour: '0002' } as const;
    const declined = run([
      ...keys('4000'),
      { type: 'invoice', value: 'INV-9' },
      { type: 'order-number', value: 'a1' },
      { type: 'take-card' },
      { type: 'charge', card },
      { type: 'settled', outcome: { kind: 'declined', message: 'Declined.' } },
    ]);
    expect(run([{ type: 'try-again' }], declined)).toEqual({
      step: 'card',
      mode: 'swipe',
      sale: { cents: 4000, tipCents: 0, tipLabel: '', invoice: 'INV-9', orderNumber: 'A1' },
    });
    expect(run([{ type: 'new-sale' }], declined)).toEqual(freshSale());
  });

  it('with tips at the counter, asks the tip before the card, and keeps it through another card', () => {
    const tipping = run([...keys('4000'), { type: 'ask-tip' }]);
    expect(tipping.step).toBe('tip');
    // A swipe or a late Charge does not skip the tip.
    expect(
      run(
        [{ type: 'take-card' }, { type: 'charge', card: { source: 'keyed', brand: 'visa', lastFour: '1' } }],
        tipping,
      ),
    ).toBe(tipping);
    const card = { source: 'keyed', brand: 'visa', lastFour: '0002' } as const;
    const chosen = run([{ type: 'tip-chosen', tipCents: 800, label: '20%' }], tipping);
    expect(chosen).toEqual({
      step: 'card',
      mode: 'swipe',
      sale: { cents: 4000, tipCents: 800, tipLabel: '20%', invoice: '', orderNumber: '' },
    });
    const declined = run(
      [
        { type: 'charge', card },
        { type: 'settled', outcome: { kind: 'declined', message: 'Declined.' } },
      ],
      chosen,
    );
    expect(run([{ type: 'try-again' }], declined)).toEqual(chosen);
  });

  it('back to the amount from the tip or the card asks the tip again for the new amount', () => {
    const chosen = run([
      ...keys('4000'),
      { type: 'ask-tip' },
      { type: 'tip-chosen', tipCents: 800, label: '20%' },
    ]);
    for (const back of [{ type: 'edit-amount' }, { type: 'back' }] as const) {
      expect(run([back], chosen)).toEqual({
        step: 'amount',
        sale: { cents: 4000, tipCents: 0, tipLabel: '', invoice: '', orderNumber: '' },
        untouched: true,
      });
    }
    expect(run([{ type: 'back' }], run([...keys('4000'), { type: 'ask-tip' }])).step).toBe('amount');
    expect(run([{ type: 'new-sale' }], chosen)).toEqual(freshSale());
  });

  it('after no answer offers the same charge again, never another card', () => {
    const card = { source: 'keyed', brand: 'visa', lastFour: '1111' } as const;
    const unknown = run([
      ...keys('100'),
      { type: 'take-card' },
      { type: 'charge', card },
      { type: 'settled', outcome: { kind: 'unknown', reason: 'no-answer', message: 'x', nextStep: 'y' } },
    ]);
    expect(saleReducer(unknown, { type: 'try-again' })).toBe(unknown);
    expect(saleReducer(unknown, { type: 'recheck' })).toEqual({
      step: 'charging',
      sale: { cents: 100, tipCents: 0, tipLabel: '', invoice: '', orderNumber: '' },
      card,
    });
  });

  it('checks again only when the answer is unknown', () => {
    const card = { source: 'keyed', brand: 'visa', lastFour: '0002' } as const;
    const declined = run([
      ...keys('100'),
      { type: 'take-card' },
      { type: 'charge', card },
      { type: 'settled', outcome: { kind: 'declined', message: 'Declined.' } },
    ]);
    expect(saleReducer(declined, { type: 'recheck' })).toBe(declined);
  });
});

describe('what Enter does on an answer', () => {
  const unknown = {
    kind: 'unknown',
    reason: 'no-answer',
    message: 'No answer.',
    nextStep: 'Check again.',
  } as const;
  const declined = { kind: 'declined', message: 'Declined.' } as const;
  const error = { kind: 'error', message: 'Processor down.' } as const;

  it('checks again while the answer is unknown, even when the card already holds the sale', () => {
    expect(nextAction(unknown)).toBe('check-again');
    // A tipped sale whose capture got no answer: the capture may yet be found, so Enter asks again.
    expect(nextAction(unknown, true)).toBe('check-again');
  });

  it('starts a new sale, not another card, once the card holds the sale and the answer is known', () => {
    expect(nextAction(declined)).toBe('another-card');
    expect(nextAction(error)).toBe('try-again');
    expect(nextAction(declined, true)).toBe('new-sale');
    expect(nextAction(error, true)).toBe('new-sale');
  });
});

describe('what the cashier is told', () => {
  it('turns the engine’s field names into words and keeps cashier messages as they are', () => {
    expect(cashierWords('Field Validation: exp_date month 13 is not 01 to 12')).toBe(
      'Expiry date month 13 is not 01 to 12.',
    );
    expect(cashierWords('Field Validation: csc must be 4 digits for this card')).toBe(
      'Security code must be 4 digits for this card.',
    );
    expect(cashierWords('Field Validation: card expired 01/20. Ask for another card.')).toBe(
      'Card expired 01/20. Ask for another card.',
    );
  });

  it('adds what to do only when the engine’s message does not say it', () => {
    expect(
      outcomeOfResponse({
        result: 'Rejected',
        error_code: '8000',
        display_message: 'Field Validation: exp_date month 13 is not 01 to 12',
      }),
    ).toEqual({
      kind: 'rejected',
      errorCode: '8000',
      message: 'Expiry date month 13 is not 01 to 12.',
      nextStep: 'Check the expiry date on the card and key it again, or ask for another card.',
    });
    expect(
      outcomeOfResponse({
        id: '4',
        result: 'Declined',
        result_code: '0005',
        display_message: 'Declined by the card issuer. Ask for another card.',
      }),
    ).toEqual({
      kind: 'declined',
      transactionId: '4',
      message: 'Declined by the card issuer. Ask for another card.',
    });
  });

  it('approves with the authorization code and transaction', () => {
    expect(
      outcomeOfResponse({
        id: '9',
        result: 'Approved',
        display_message: 'Approved',
        authorization_code: 'K7M2QX',
      }),
    ).toEqual({ kind: 'approved', transactionId: '9', authorizationCode: 'K7M2QX' });
  });

  it('never swallows a failure: a refusal, a timeout, a broken connection', () => {
    const unauthorized = new TenderApiError(401, {
      status: '401',
      error: 'unauthorized',
      message: 'The API key is not valid, or was revoked.',
    });
    expect(outcomeOfFailure(unauthorized)).toMatchObject({
      kind: 'refused',
      status: 401,
      message: 'The API key is not valid, or was revoked.',
      nextStep: expect.stringMatching(/^Nothing was done\. If Tender just restarted, wait/),
    });
    expect(outcomeOfFailure(new DOMException('timed out', 'TimeoutError'))).toMatchObject({
      kind: 'unknown',
      reason: 'no-answer',
      message: 'The payment engine did not answer in time.',
    });
    expect(outcomeOfFailure(new TypeError('Failed to fetch'))).toMatchObject({
      kind: 'unknown',
      reason: 'unreachable',
    });
  });

  it('takes a key still being answered for a sale in progress, not a refusal', () => {
    const inFlight = new TenderApiError(409, {
      status: '409',
      error: 'idempotency_key_in_flight',
      message:
        'A request with this Idempotency-Key is still being processed. Retry once it has been answered.',
    });
    expect(outcomeOfFailure(inFlight)).toEqual({
      kind: 'unknown',
      reason: 'in-progress',
      message: 'The payment engine is still working on this sale.',
      nextStep: 'Wait a moment, then press Check again.',
    });
  });
});
