/** Which optional fields each transaction type takes, and that every other is refused, never ignored. */
import { describe, expect, it } from 'vitest';
import { Rejection, validateTransactionRequest } from '../../electron/gateway/validation';

const CARD = { card: '4111111111111111', exp_date: '1230' };

/** The smallest valid request of each kind, a REFUND as either refund. */
const REQUESTS = {
  SALE: { type: 'SALE', amount: '1.00', ...CARD },
  'FORCED SALE': { type: 'FORCED SALE', amount: '1.00', authorization_code: 'VOICE1', ...CARD },
  AUTH: { type: 'AUTH', amount: '1.00', ...CARD },
  CAPTURE: { type: 'CAPTURE', id: '1', amount: '1.00' },
  'matched REFUND': { type: 'REFUND', id: '1', amount: '1.00' },
  'unmatched REFUND': { type: 'REFUND', amount: '1.00', ...CARD },
  VOID: { type: 'VOID', id: '1' },
} as const;
type Kind = keyof typeof REQUESTS;
const KINDS = Object.keys(REQUESTS) as Kind[];
const NEW_CHARGES: Kind[] = ['SALE', 'FORCED SALE', 'AUTH'];

/** Each optional field, a valid value of it, and the kinds of request that take it. */
const FIELDS: [string, unknown, readonly Kind[]][] = [
  ['server_id', '07', [...NEW_CHARGES, 'CAPTURE']],
  ['billing', { first_name: 'Ann', zip: '30301' }, [...NEW_CHARGES, 'unmatched REFUND']],
  ['shipping', { first_name: 'Ann', zip: '30301' }, NEW_CHARGES],
  ['billing_is_shipping', true, NEW_CHARGES],
  // Kept with the transaction whatever its type (the receipt goes to its email, lists show the rest).
  ['invoice', 'INV-1', KINDS],
  ['purchase_order', 'PO-1', KINDS],
  ['email', 'ann@example.com', KINDS],
  ['customer_id', 'C-1', KINDS],
  ['order_number', 'A1', KINDS],
  ['client_ip', '10.0.0.1', KINDS],
  ['description', 'lunch', KINDS],
  ['comments', 'table 4', KINDS],
];

function outcome(body: Record<string, unknown>): string {
  try {
    validateTransactionRequest(body, { tipsEnabled: true });
    return 'taken';
  } catch (error) {
    if (error instanceof Rejection) return `${error.errorCode} ${error.message}`;
    throw error;
  }
}

describe.each(FIELDS)('%s', (field, value, takenBy) => {
  it.each(KINDS)('on %s is taken or refused with 8009 as the field table says', (kind) => {
    const answer = outcome({ ...REQUESTS[kind], [field]: value });
    if (takenBy.includes(kind)) expect(answer).toBe('taken');
    else expect(answer).toMatch(new RegExp(`^8009 Field Validation: ${field} (applies|does not apply) `));
  });
});

describe('the refusal of a field a type does not take', () => {
  it('names the types that take server_id', () => {
    expect(outcome({ ...REQUESTS.VOID, server_id: '07' })).toBe(
      '8009 Field Validation: server_id applies to SALE and FORCED SALE and AUTH and CAPTURE only',
    );
  });

  it('says billing does not apply to a refund of an earlier transaction, as card data does not', () => {
    expect(outcome({ ...REQUESTS['matched REFUND'], billing: { zip: '30301' } })).toBe(
      '8009 Field Validation: billing does not apply to a REFUND of an earlier transaction (id)',
    );
    expect(outcome({ ...REQUESTS.CAPTURE, billing: { zip: '30301' } })).toBe(
      '8009 Field Validation: billing does not apply to CAPTURE',
    );
  });

  it('refuses billing_is_shipping false as well as true: it is sent, so it is not ignored', () => {
    expect(outcome({ ...REQUESTS.CAPTURE, billing_is_shipping: false })).toMatch(/^8009 /);
  });
});
