/**
 * The gateway's authorization code of a sale approved offline: the sale keeps the code it was given
 * offline (the one on the customer's receipt), and once forwarded the audit log and the answer the
 * forwarder keeps name the gateway's own code and transaction, which a dispute is answered with.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { recentAudit, type TestGateway } from '../support/gateway';
import { atGateway, startRelay, swipe } from '../support/relay';
import { startUpstreamGateway, type UpstreamGateway } from '../support/upstream-gateway';

let upstream: UpstreamGateway;
beforeAll(async () => {
  upstream = await startUpstreamGateway();
});
afterAll(async () => {
  await upstream?.close();
});

/** The answer the forwarder kept for `id`, as the ledger holds it. */
async function keptAnswer(t: TestGateway, id: string): Promise<Record<string, unknown>> {
  const sql = 'SELECT answer FROM forward_queue WHERE transaction_id = ';
  if (t.store) {
    const client = new pg.Client({ connectionString: t.store.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ answer: string }>(`${sql}$1`, [Number(id)]);
      return JSON.parse(rows[0]?.answer ?? '{}') as Record<string, unknown>;
    } finally {
      await client.end();
    }
  }
  const db = new Database(join(t.dataDir, 'tender.db'), { readonly: true });
  try {
    const row = db.prepare<[number], { answer: string }>(`${sql}?`).get(Number(id));
    return JSON.parse(row?.answer ?? '{}') as Record<string, unknown>;
  } finally {
    db.close();
  }
}

describe("the gateway's authorization code of a forwarded sale", () => {
  it('is in the audit log and the kept answer, beside the offline code the sale keeps', async () => {
    const t = await startRelay(upstream, { offline: true });
    try {
      await upstream.proxy.line('refuse');
      const sale = await t.client.createTransaction({
        type: 'SALE',
        amount: '6.15',
        ...swipe({ pan: '4556737586899855', expMmyy: '1230' }),
      });
      expect(sale.offline).toBe('true');
      const offlineCode = sale.authorization_code ?? '';
      expect(offlineCode).toMatch(/^OFL/);
      await upstream.proxy.line('up');
      expect((await t.gateway.engine.forwarder.drain()).waiting).toBe(0);

      const [listed] = await t.client.listTransactions({ id: sale.id ?? '' });
      expect(listed).toMatchObject({ forward_state: 'forwarded', authorization_code: offlineCode });
      const atTheGateway = await atGateway(upstream, listed?.upstream_id ?? '');
      const gatewayCode = atTheGateway.authorization_code;
      expect(gatewayCode).not.toBe('');
      expect(gatewayCode).not.toBe(offlineCode);

      const entry = (await recentAudit(t, 20)).find((each) => each.action === 'offline_forwarded');
      expect(entry).toMatchObject({ subject: `transaction ${sale.id ?? ''}` });
      expect(entry?.detail).toContain(`authorization code ${offlineCode}`);
      expect(entry?.detail).toContain(
        `its transaction ${atTheGateway.id}, authorization code ${gatewayCode}`,
      );
      expect(await keptAnswer(t, sale.id ?? '')).toMatchObject({
        result: 'Approved',
        authorization_code: gatewayCode,
      });
    } finally {
      await upstream.proxy.line('up');
      await t.close();
    }
  });
});
