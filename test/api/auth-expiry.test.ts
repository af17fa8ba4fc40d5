import { describe, expect, it } from 'vitest';
import { useGatewayPerTest, VISA } from '../support/gateway';

const DAY = 86_400_000;
const startGatewayForTest = useGatewayPerTest();

describe('authorizations expire', () => {
  it('an AUTH older than 7 days cannot be captured, and its list item says when it expired', async () => {
    const clock = { now: Date.now() };
    const t = await startGatewayForTest({ engine: { now: () => clock.now } });
    const auth = await t.client.createTransaction({ type: 'AUTH', amount: '40.00', ...VISA });
    const [listed] = await t.client.listTransactions({ id: auth.id ?? '' });
    expect(Date.parse(listed?.expires ?? '')).toBe(Date.parse(listed?.created ?? '') + 7 * DAY);
    clock.now += 7 * DAY + 60_000;
    const capture = await t.client.createTransaction({ type: 'CAPTURE', id: auth.id ?? '', amount: '40.00' });
    expect(capture).toMatchObject({ result: 'Rejected', error_code: '8030' });
    expect(capture.display_message).toMatch(/expired/);
    const voided = await t.client.createTransaction({ type: 'VOID', id: auth.id ?? '' });
    expect(voided.result).toBe('Approved');
  });

  it('the expiry is a setting of the data dir', async () => {
    const clock = { now: Date.now() };
    const t = await startGatewayForTest({ engine: { now: () => clock.now } });
    await t.gateway.engine.settings.setFromText('auth_expiry_days', '30');
    const auth = await t.client.createTransaction({ type: 'AUTH', amount: '40.00', ...VISA });
    clock.now += 8 * DAY;
    const capture = await t.client.createTransaction({ type: 'CAPTURE', id: auth.id ?? '', amount: '40.00' });
    expect(capture.result).toBe('Approved');
    const [captured] = await t.client.listTransactions({ id: auth.id ?? '' });
    expect(captured?.expires).toBe('');
  });
});
