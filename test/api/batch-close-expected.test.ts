/**
 * PUT /batches/open with what the closer saw: the batch closes only if it still has it; otherwise
 * 409 batch_changed in the requested format, carrying the open batch, and nothing is closed.
 */
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import type { Batch } from '../../shared/api/schemas';
import { recentAudit, useGatewayPerTest, VISA, type TestGateway } from '../support/gateway';
import { postJson } from '../support/transactions';

const startGatewayForTest = useGatewayPerTest();

const close = (t: TestGateway, query: string, accept = 'application/json') =>
  t.request(`batches/open${query}`, { method: 'PUT', headers: { api_key: t.key, accept } });

async function sale(t: TestGateway, amount: string): Promise<string> {
  const answer = await postJson(t, { type: 'SALE', amount, ...VISA });
  expect(answer.result).toBe('Approved');
  return answer.id ?? '';
}

async function refund(t: TestGateway, id: string, amount: string): Promise<void> {
  expect((await postJson(t, { type: 'REFUND', id, amount })).result).toBe('Approved');
}

describe('a close that closes what the closer saw', () => {
  it('closes when the count and net amount are still what was expected', async () => {
    const t = await startGatewayForTest();
    await sale(t, '10.00');
    await sale(t, '2.50');
    const answer = await close(t, '?expected_total_count=2&expected_net_amount=12.50');
    expect(answer.status, answer.body).toBe(200);
    expect(answer.json<Batch>()).toMatchObject({ status: 'CLOSED', total_count: '2', net_amount: '12.50' });
    expect(await t.client.openBatch()).toBeUndefined();
  });

  it('shows a key that may close but not read batches none of the open batch’s figures in its 409', async () => {
    const t = await startGatewayForTest();
    await sale(t, '10.00');
    const closer = await t.createKey(['batches:close']);
    const answer = await t.request('batches/open?expected_total_count=5&expected_net_amount=99.00', {
      method: 'PUT',
      headers: { api_key: closer, accept: 'application/json' },
    });
    expect(answer.status).toBe(409);
    const problem = answer.json<Record<string, unknown>>();
    expect(problem).toMatchObject({ status: '409', error: 'batch_changed' });
    expect(problem).not.toHaveProperty('batch');
    expect(answer.body).not.toMatch(/10\.00|"1"|1 transaction/);
    const xml = await t.request('batches/open?expected_total_count=5', {
      method: 'PUT',
      headers: { api_key: closer, accept: 'application/xml' },
    });
    expect(xml.status).toBe(409);
    expect(xml.body).not.toContain('<batch>');
    expect(xml.body).not.toContain('10.00');
    expect(await t.client.openBatch()).toMatchObject({ status: 'OPEN', total_count: '1' });
  });

  it('answers 409 batch_changed with the open batch, and closes nothing, when a sale came in since', async () => {
    const t = await startGatewayForTest();
    await sale(t, '10.00');
    const seen = await t.client.openBatch();
    await sale(t, '4.00');
    const answer = await close(
      t,
      `?expected_total_count=${seen?.total_count}&expected_net_amount=${seen?.net_amount}`,
    );
    expect(answer.status, answer.body).toBe(409);
    const problem = answer.json<{ status: string; error: string; message: string; batch: Batch }>();
    expect(problem).toMatchObject({ status: '409', error: 'batch_changed' });
    expect(problem.message).toMatch(/Nothing was closed/);
    expect(problem.batch).toMatchObject({
      status: 'OPEN',
      id: seen?.id,
      total_count: '2',
      net_amount: '14.00',
    });
    expect(await t.client.openBatch()).toMatchObject({ status: 'OPEN', total_count: '2' });
    expect((await recentAudit(t, 5)).map((entry) => entry.action)).not.toContain('batch_close');
  });

  it('in XML too: the 409 error element carries the batch', async () => {
    const t = await startGatewayForTest();
    await sale(t, '7.00');
    const answer = await close(t, '?expected_total_count=1&expected_net_amount=6.99', 'application/xml');
    expect(answer.status, answer.body).toBe(409);
    expect(answer.headers['content-type']).toMatch(/^application\/xml/);
    const parsed = new XMLParser({ parseTagValue: false }).parse(answer.body) as {
      error: { error: string; batch: Batch };
    };
    expect(parsed.error.error).toBe('batch_changed');
    expect(parsed.error.batch).toMatchObject({ status: 'OPEN', total_count: '1', net_amount: '7.00' });
    expect((await t.client.openBatch())?.status).toBe('OPEN');
  });

  it('each figure is checked alone when only one is sent; a negative net amount is understood', async () => {
    const t = await startGatewayForTest();
    const first = await sale(t, '5.00');
    await t.client.closeOpenBatch();
    await refund(t, first, '5.00');
    expect((await close(t, '?expected_total_count=2')).status).toBe(409);
    expect((await close(t, '?expected_net_amount=5.00')).status).toBe(409);
    const closed = await close(t, '?expected_net_amount=-5.00');
    expect(closed.status, closed.body).toBe(200);
    expect(closed.json<Batch>()).toMatchObject({ status: 'CLOSED', total_count: '1', net_amount: '-5.00' });
  });

  it('without them the close behaves as before; with no open batch it is 204', async () => {
    const t = await startGatewayForTest();
    expect((await close(t, '?expected_total_count=0&expected_net_amount=0.00')).status).toBe(204);
    await sale(t, '1.00');
    const answer = await close(t, '');
    expect(answer.status).toBe(200);
    expect(answer.json<Batch>().status).toBe('CLOSED');
  });

  for (const [query, parameter] of [
    ['?expected_total_count=two', 'expected_total_count'],
    ['?expected_total_count=-1', 'expected_total_count'],
    ['?expected_net_amount=12.5', 'expected_net_amount'],
    ['?expected_net_amount=12', 'expected_net_amount'],
    ['?expected_total_count=1&expected_total_count=1', 'expected_total_count'],
    ['?expected_count=1', 'expected_count'],
  ] as const) {
    it(`refuses ${query} with 400 bad_parameter and closes nothing`, async () => {
      const t = await startGatewayForTest();
      await sale(t, '3.00');
      const answer = await close(t, query);
      expect(answer.status, answer.body).toBe(400);
      expect(answer.json()).toMatchObject({ error: 'bad_parameter', parameter });
      expect((await t.client.openBatch())?.status).toBe('OPEN');
    });
  }

  it('a sale racing the close: either it is in the closed batch the closer expected, or the close is refused', async () => {
    const t = await startGatewayForTest();
    await sale(t, '20.00');
    const [closeAnswer, late] = await Promise.all([
      close(t, '?expected_total_count=1&expected_net_amount=20.00'),
      postJson(t, { type: 'SALE', amount: '1.00', ...VISA }),
    ]);
    expect(late.result).toBe('Approved');
    if (closeAnswer.status === 200) {
      expect(closeAnswer.json<Batch>()).toMatchObject({ total_count: '1', net_amount: '20.00' });
      expect(await t.client.openBatch()).toMatchObject({ total_count: '1', net_amount: '1.00' });
    } else {
      expect(closeAnswer.status).toBe(409);
      expect(await t.client.openBatch()).toMatchObject({ total_count: '2', net_amount: '21.00' });
    }
  });

  it('the typed client sends the figures and surfaces the 409 with the batch', async () => {
    const t = await startGatewayForTest();
    await sale(t, '9.00');
    await expect(
      t.client.closeOpenBatch({ expected_total_count: 3, expected_net_amount: '9.00' }),
    ).rejects.toMatchObject({
      status: 409,
      body: { error: 'batch_changed', batch: { total_count: '1' } },
    });
    expect(
      (await t.client.closeOpenBatch({ expected_total_count: 1, expected_net_amount: '9.00' }))?.status,
    ).toBe('CLOSED');
  });
});
