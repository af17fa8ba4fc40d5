import { describe, expect, it } from 'vitest';
import { dispatchInvoke } from '../../electron/bridge/dispatch';
import { useGatewayPerTest, VISA } from '../support/gateway';
import { startTerminal } from '../support/terminal';

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

  it('an expired tab has no check, through the API or the bridge: it can no longer be captured', async () => {
    const clock = { now: Date.now() };
    const t = await startGatewayForTest({ engine: { now: () => clock.now } });
    const auth = await t.client.createTransaction({ type: 'AUTH', amount: '40.00', ...VISA });
    const id = auth.id ?? '';
    const check = () => t.request(`transactions/${id}/receipt?copy=check`, { headers: { api_key: t.key } });
    expect((await check()).status).toBe(200);

    clock.now += 7 * DAY + 60_000;
    const message = `Tab #${id} has expired: it is older than 7 days and can no longer be captured, so it has no check. Void it to release the hold.`;
    const refused = await check();
    expect(refused.status).toBe(409);
    expect(refused.json()).toEqual({ status: '409', error: 'not_a_tab', message });
    await t.gateway.engine.staff.create({ name: 'Maya', role: 'manager', pin: '2580' }, 'test');
    const terminal = await startTerminal(t);
    try {
      // A receipt is previewed only for someone signed in at the counter.
      expect(await dispatchInvoke(terminal.handlers, 'staff:sign-in', { pin: '2580' })).toMatchObject({
        ok: true,
      });
      const preview = await dispatchInvoke(terminal.handlers, 'receipts:preview', {
        id: Number(id),
        copy: 'check',
      });
      expect(preview).toEqual({ ok: false, error: { code: 'refused', message } });
    } finally {
      await terminal.stop();
    }
    // Its own copies still print, and it can still be voided.
    const copy = await t.request(`transactions/${id}/receipt?copy=customer`, { headers: { api_key: t.key } });
    expect(copy.status).toBe(200);
    expect((await t.client.createTransaction({ type: 'VOID', id })).result).toBe('Approved');
  });
});
