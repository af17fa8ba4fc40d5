/**
 * The store port's promises, held by both stores: the SQLite ledger of one counter and the ledger on
 * a real PostgreSQL server that several counters share. The same scenarios run against each.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AuditLog } from '../../electron/gateway/store/sqlite/audit-log';
import { type AuditEntry } from '../../electron/gateway/store/audit';
import { openDatabase } from '../../electron/gateway/store/sqlite/database';
import { SqliteLedger } from '../../electron/gateway/store/sqlite/ledger';
import type { LedgerStore } from '../../electron/gateway/store/ledger-store';
import { PostgresLedger } from '../../electron/gateway/store/postgres/ledger';
import { PostgresReadPool } from '../../electron/gateway/store/postgres/read-pool';
import { POSTGRES_DIALECT } from '../../electron/gateway/store/sql/dialect';
import { LedgerReads } from '../../electron/gateway/store/sql/ledger-reads';
import { addRow, T0 } from '../support/ledger-rows';
import { startPostgresServer, type PostgresServer } from '../support/postgres-server';

interface StoreUnderTest {
  ledger: LedgerStore;
  auditEntries(): Promise<AuditEntry[]>;
  close(): Promise<void>;
}

let server: PostgresServer;
beforeAll(async () => {
  server = await startPostgresServer();
});
afterAll(() => server?.close());

const STORES: Record<string, () => Promise<StoreUnderTest>> = {
  SQLite: async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tender-conformance-'));
    const db = openDatabase(join(dir, 'ledger.db'));
    const audit = new AuditLog(db);
    return {
      ledger: new SqliteLedger(db, audit),
      auditEntries: async () => audit.recent(100),
      close: async () => {
        db.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
  PostgreSQL: async () => {
    const url = await server.createDatabase();
    const ledger = await PostgresLedger.open({ url, lane: 'counter-1' });
    const pool = new PostgresReadPool({ url });
    const reads = new LedgerReads(pool, POSTGRES_DIALECT);
    return {
      ledger,
      auditEntries: () => reads.recentAudit(100),
      close: async () => {
        await Promise.all([ledger.close(), pool.close()]);
      },
    };
  },
};

describe.each(Object.keys(STORES))('the %s ledger', (storeName) => {
  let store: StoreUnderTest;
  let ledger: LedgerStore;
  beforeEach(async () => {
    store = await (STORES[storeName] as () => Promise<StoreUnderTest>)();
    ledger = store.ledger;
  });
  afterEach(() => store?.close());

  it('a transaction written is found again with every field as written', async () => {
    const written = await ledger.write((write) =>
      addRow(write, {
        tipAmount: 300,
        amount: 2800,
        firstName: 'Élodie',
        lastName: 'Ünal',
        billingIsShipping: true,
        billing: JSON.stringify({ first_name: 'Élodie' }),
        invoice: 'INV-7',
        serverId: 'S1',
        swipeKsn: 'FFFF9876543210E00001',
        cardHash: 'a'.repeat(64),
        authorizationCode: 'A1B2C3',
      }),
    );
    expect(await ledger.find(written.id)).toEqual({
      ...written,
      voidedBy: null,
      capturedBy: null,
      refundedAmount: 0,
    });
    expect(await ledger.find(written.id + 1)).toBeUndefined();
  });

  it('ids only grow, and a write that throws keeps nothing under its id', async () => {
    const first = await ledger.write((write) => addRow(write));
    expect(first.id).toBeGreaterThanOrEqual(1);
    let thrownId = 0;
    await expect(
      ledger.write(async (write) => {
        thrownId = (await addRow(write)).id;
        throw new Error('the processor answered nothing');
      }),
    ).rejects.toThrow('the processor answered nothing');
    expect(await ledger.find(thrownId)).toBeUndefined();
    const second = await ledger.write((write) => addRow(write, { result: 'Declined', batchId: null }));
    expect(second.id).toBeGreaterThan(first.id);
    expect(await ledger.write((write) => write.nextTransactionId())).toBeGreaterThan(second.id);
  });

  it('the first settling transaction opens the batch, later ones join it, and its counters add up', async () => {
    const first = await ledger.write((write) => addRow(write, { amount: 1000, tipAmount: 200 }));
    const second = await ledger.write((write) => addRow(write, { amount: 500 }));
    const refund = await ledger.write((write) => addRow(write, { type: 'Refund', amount: 300 }));
    expect(second.batchId).toBe(first.batchId);
    expect(refund.batchId).toBe(first.batchId);
    const open = await ledger.write((write) => write.openBatch());
    expect(open).toMatchObject({
      id: first.batchId,
      status: 'OPEN',
      settledAt: null,
      salesCount: 2,
      salesTotal: 1500,
      refundCount: 1,
      refundTotal: 300,
      tipTotal: 200,
    });
  });

  it('a closed batch takes no more counts, and the next transaction opens a new one', async () => {
    const first = await ledger.write((write) => addRow(write));
    const batchId = first.batchId as number;
    const closed = await ledger.write((write) => write.closeBatch(batchId, T0 + 1000, '1234567890'));
    expect(closed).toMatchObject({ id: batchId, status: 'CLOSED', settledAt: T0 + 1000 });
    expect(await ledger.findBatch(batchId)).toEqual(closed);
    await expect(
      ledger.write((write) =>
        write.applyBatchDelta(batchId, {
          salesCount: 1,
          salesTotal: 100,
          refundCount: 0,
          refundTotal: 0,
          tipTotal: 0,
        }),
      ),
    ).rejects.toThrow(`batch ${batchId} is not open`);
    expect(await ledger.write((write) => write.openBatch())).toBeUndefined();
    const next = await ledger.write((write) => addRow(write));
    expect(next.batchId).toBe(batchId + 1);
    expect((await ledger.findBatch(batchId))?.salesCount).toBe(1);
  });

  it('a transaction is voided once, and an authorization captured once until its capture is reopened', async () => {
    const target = await ledger.write((write) => addRow(write));
    const auth = await ledger.write((write) => addRow(write, { type: 'Auth' }));
    const voidRow = await ledger.write(async (write) => {
      const row = await addRow(write, { type: 'Void', originalId: target.id, batchId: null });
      await write.markVoided(target.id, row.id);
      return row;
    });
    await expect(ledger.write((write) => write.markVoided(target.id, voidRow.id))).rejects.toThrow(
      'voided already',
    );
    const capture = await ledger.write(async (write) => {
      const row = await addRow(write, { type: 'Capture', originalId: auth.id });
      await write.markCaptured(auth.id, row.id);
      return row;
    });
    await expect(ledger.write((write) => write.markCaptured(auth.id, capture.id))).rejects.toThrow(
      'captured already',
    );
    expect((await ledger.find(target.id))?.voidedBy).toBe(voidRow.id);
    expect((await ledger.find(auth.id))?.capturedBy).toBe(capture.id);
    await ledger.write((write) => write.reopenCapture(auth.id, capture.id));
    await expect(ledger.write((write) => write.reopenCapture(auth.id, capture.id))).rejects.toThrow(
      'is not captured by',
    );
    expect((await ledger.find(auth.id))?.capturedBy).toBeNull();
  });

  it('refunds never add up to more than the original', async () => {
    const original = await ledger.write((write) => addRow(write, { amount: 1000 }));
    await ledger.write((write) => write.addRefunded(original.id, 600));
    await expect(ledger.write((write) => write.addRefunded(original.id, 401))).rejects.toThrow();
    await ledger.write((write) => write.addRefunded(original.id, 400));
    expect((await ledger.find(original.id))?.refundedAmount).toBe(1000);
  });

  it('an answer is kept under its key in the commit that made it, once, and forgotten when old', async () => {
    const answer = { fingerprint: 'f1', response: '{"result":"Approved"}' };
    await ledger.write(async (write) => {
      await addRow(write);
      await write.rememberAnswer(7, 'order-1', answer, T0);
    });
    expect(await ledger.findAnswer(7, 'order-1')).toEqual(answer);
    expect(await ledger.findAnswer(8, 'order-1')).toBeUndefined();
    await expect(
      ledger.write((write) => write.rememberAnswer(7, 'order-1', { ...answer, fingerprint: 'f2' }, T0 + 1)),
    ).rejects.toThrow();
    await ledger.write(async (write) => {
      await write.rememberAnswer(7, 'order-2', answer, T0 + 10);
      await write.forgetAnswers(T0 + 5);
    });
    expect(await ledger.findAnswer(7, 'order-1')).toBeUndefined();
    expect(await ledger.findAnswer(7, 'order-2')).toEqual(answer);
  });

  it('audit entries are kept with their write, newest first', async () => {
    const entry = (subject: string) => ({
      at: T0,
      actor: 'Manager Ada',
      action: 'refund' as const,
      subject,
      detail: 'refund 10.00',
    });
    await ledger.write((write) => write.appendAudit(entry('transaction 1')));
    await ledger.write((write) => write.appendAudit(entry('transaction 2')));
    const entries = await store.auditEntries();
    expect(entries.map((e) => e.subject)).toEqual(['transaction 2', 'transaction 1']);
    expect(entries[0]).toMatchObject({
      actor: 'Manager Ada',
      action: 'refund',
      at: T0,
      detail: 'refund 10.00',
    });
  });

  it('a write that throws leaves nothing: no row, no batch, no counts, no answer, no audit entry', async () => {
    await expect(
      ledger.write(async (write) => {
        await addRow(write, { swipeKsn: 'FFFF9876543210E00002' });
        await write.rememberAnswer(7, 'order-1', { fingerprint: 'f', response: '{}' }, T0);
        await write.appendAudit({ at: T0, actor: 'a', action: 'void', subject: 's', detail: 'd' });
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await ledger.find(1)).toBeUndefined();
    expect(await ledger.findBatch(1)).toBeUndefined();
    expect(await ledger.write((write) => write.openBatch())).toBeUndefined();
    expect(await ledger.findAnswer(7, 'order-1')).toBeUndefined();
    expect(await ledger.isSwipeKsnUsed('FFFF9876543210E00002')).toBe(false);
    expect(await store.auditEntries()).toEqual([]);
  });

  it('a swipe KSN is known once used, and a replay of it is refused', async () => {
    await ledger.write((write) => addRow(write, { swipeKsn: 'FFFF9876543210E00003' }));
    expect(await ledger.isSwipeKsnUsed('FFFF9876543210E00003')).toBe(true);
    expect(await ledger.isSwipeKsnUsed('FFFF9876543210E00004')).toBe(false);
    await expect(
      ledger.write((write) => addRow(write, { swipeKsn: 'FFFF9876543210E00003' })),
    ).rejects.toThrow();
  });

  it('the duplicate check finds the latest approved, unvoided charge of the same card and amount', async () => {
    const hash = 'b'.repeat(64);
    await ledger.write((write) => addRow(write, { cardHash: hash, amount: 1500 }));
    const latest = await ledger.write((write) => addRow(write, { cardHash: hash, amount: 1500 }));
    await ledger.write((write) =>
      addRow(write, { cardHash: hash, amount: 1500, result: 'Declined', batchId: null }),
    );
    const charge = { cardHash: hash, amount: 1500, since: T0 };
    expect((await ledger.findSameCardCharge(charge))?.id).toBe(latest.id);
    expect(await ledger.findSameCardCharge({ ...charge, amount: 1600 })).toBeUndefined();
    expect(await ledger.findSameCardCharge({ ...charge, since: latest.createdAt + 1 })).toBeUndefined();
    expect((await ledger.write((write) => write.findSameCardCharge(charge)))?.id).toBe(latest.id);
  });
});
