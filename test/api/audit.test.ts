import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recentAudit, storeArguments, useGatewayPerTest, VISA } from '../support/gateway';
import { queryLedger } from '../support/ledger-rows';

const ROOT = join(import.meta.dirname, '..', '..');
const startGatewayForTest = useGatewayPerTest();

const cli = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'electron', 'cli.ts'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
  });

describe('the audit log', () => {
  it('records who captured, voided, refunded and closed the batch, and nothing for refused attempts', async () => {
    // The default duplicate check stays on: no setting change besides tips comes before the key.
    const t = await startGatewayForTest({ tips: true, duplicateWindowMinutes: 2 });
    const keyId = (t.key.split('_')[1] ?? '') as string;
    const auth = await t.client.createTransaction({ type: 'AUTH', amount: '20.00', ...VISA });
    const capture = await t.client.createTransaction({
      type: 'CAPTURE',
      id: auth.id ?? '',
      amount: '20.00',
      tip_amount: '3.00',
    });
    const sale = await t.client.createTransaction({ type: 'SALE', amount: '9.00', ...VISA });
    await t.client.createTransaction({ type: 'VOID', id: sale.id ?? '' });
    await t.client.createTransaction({ type: 'VOID', id: sale.id ?? '' });
    await t.client.closeOpenBatch();
    await t.client.createTransaction({ type: 'REFUND', id: capture.id ?? '', amount: '5.00' });
    await t.client.createTransaction({ type: 'REFUND', id: capture.id ?? '', amount: '500.00' });

    const entries = (await recentAudit(t, 50)).reverse();
    expect(entries.map((entry) => entry.action)).toEqual([
      'setting_change',
      'key_create',
      'capture',
      'void',
      'batch_close',
      'refund',
    ]);
    const byApi = entries.slice(2);
    for (const entry of byApi) expect(entry.actor).toBe(`API key ${keyId} "test suite"`);
    expect(byApi[0]?.detail).toBe(`of auth ${auth.id}: 20.00 + tip 3.00`);
    expect(byApi[1]?.detail).toBe(`of Sale ${sale.id}: 9.00`);
    expect(byApi[2]?.detail).toMatch(/^1 sales 23\.00, 0 refunds 0\.00, confirmation \d{10}$/);
    expect(byApi[3]?.detail).toBe(`of transaction ${capture.id}: 5.00`);
  });

  it('records key and setting changes from the command line, and shows them with audit', async () => {
    const t = await startGatewayForTest();
    const dataDir = t.dataDir;
    await t.gateway.close();
    const onStore = storeArguments(t);
    const created = cli('keys', 'create', '--data-dir', dataDir, ...onStore, '--name', 'kitchen display');
    const id = created.stdout.trim().split('\n').at(-1)?.split('_')[1] ?? '';
    cli('keys', 'revoke', id, '--data-dir', dataDir, ...onStore);
    cli('settings', 'set', 'tips_enabled', 'true', '--data-dir', dataDir, ...onStore);
    const shown = cli('audit', '--data-dir', dataDir, ...onStore, '--limit', '3');
    expect(shown.status).toBe(0);
    const lines = shown.stdout.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/command line {2}setting_change {2}tips_enabled {2}false → true$/);
    expect(lines[1]).toContain(`key_revoke  key ${id} "kitchen display"`);
    expect(lines[2]).toContain(`key_create  key ${id} "kitchen display"  transactions:write`);
  });

  it('records a setting only when its value changes, not when the same value is saved again', async () => {
    const t = await startGatewayForTest();
    const settings = t.gateway.engine.settings;
    const changes = async () =>
      (await recentAudit(t, 50))
        .filter((entry) => entry.action === 'setting_change' && entry.subject === 'merchant_name')
        .map((entry) => entry.detail);
    // Its default, never stored: saved as it is.
    await settings.setFromText('merchant_name', '', 'Maya');
    await settings.setFromText('merchant_name', 'Blue Door', 'Maya');
    await settings.setFromText('merchant_name', 'Blue Door', 'Maya');
    await settings.change([['merchant_name', ' Blue Door ']], 'Maya');
    await settings.setFromText('merchant_name', 'Red Door', 'Maya');
    expect((await changes()).reverse()).toEqual([' → Blue Door', 'Blue Door → Red Door']);
    expect(settings.get('merchant_name')).toBe('Red Door');
  });

  it('is append-only: rows cannot be changed or deleted, even through SQL', async () => {
    const t = await startGatewayForTest();
    // The key the harness made is on record, so each statement has a row to change.
    const count = async () => Number((await queryLedger(t, 'SELECT count(*) AS n FROM audit_log'))[0]?.n);
    const before = await count();
    expect(before).toBeGreaterThan(0);
    for (const change of ["UPDATE audit_log SET actor = 'nobody'", 'DELETE FROM audit_log'])
      await expect(queryLedger(t, change, [], { write: true })).rejects.toThrow(/append-only/);
    expect(await count()).toBe(before);
  });
});
