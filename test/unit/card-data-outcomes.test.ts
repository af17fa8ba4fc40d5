/** What the cashier reads when the engine refuses card data at the edges: a misread swipe, a card number in a text field. */
import { describe, expect, it } from 'vitest';
import { SWIPE_DISPLAY_MESSAGES, SWIPE_ERROR_CODES } from '../../electron/gateway/swipe/codes';
import { Rejection, validateTransactionRequest } from '../../electron/gateway/validation';
import { outcomeOfResponse } from '../../renderer/src/payment/outcome';

function engineRefusal(body: Record<string, unknown>): Rejection {
  try {
    validateTransactionRequest(body, { tipsEnabled: false });
  } catch (error) {
    if (error instanceof Rejection) return error;
  }
  throw new Error('the engine accepted the request');
}

describe('what the cashier is told about card data the engine refuses', () => {
  it('a swipe whose tracks do not read cleanly: swipe again, and nothing else to add', () => {
    const code = SWIPE_ERROR_CODES.SWIPE_MISREAD;
    expect(
      outcomeOfResponse({
        result: 'Rejected',
        error_code: code,
        display_message: SWIPE_DISPLAY_MESSAGES[code],
      }),
    ).toEqual({
      kind: 'rejected',
      errorCode: '8031',
      message: 'The card was not read cleanly. Swipe again; if it keeps failing, key the card in.',
    });
  });

  it('a card number typed as the order number: the field in words, and what to do, without the digits', () => {
    const refusal = engineRefusal({
      type: 'SALE',
      amount: '5.00',
      card: '4111111111111111',
      exp_date: '1230',
      order_number: '4012888888881881',
    });
    const outcome = outcomeOfResponse({
      result: 'Rejected',
      error_code: refusal.errorCode,
      display_message: refusal.message,
    });
    expect(outcome).toMatchObject({ kind: 'rejected', errorCode: '8032' });
    expect(outcome).not.toHaveProperty('nextStep');
    if (outcome.kind !== 'rejected') return;
    expect(outcome.message).toMatch(/^Order number holds a card number/);
    expect(outcome.message).toMatch(/Remove it and send again/);
    expect(outcome.message).toMatch(/break the digits with a letter/);
    expect(outcome.message).not.toMatch(/4012|1881/);
  });
});
