import { describe, expect, it } from 'vitest';
import { useTestGateway, VISA } from '../support/gateway';

const t = useTestGateway();

describe('a sale over HTTPS', () => {
  it('approves a keyed Visa and lists it masked', async () => {
    const response = await t.client.createTransaction({ type: 'SALE', amount: '25.00', ...VISA });
    expect(response.result).toBe('Approved');
    const [item] = await t.client.listTransactions();
    expect(item?.card).toBe('************1111');
    expect(item?.id).toBe(response.id);
  });
});
