import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTestGateway } from '../support/gateway';

const t = useTestGateway();

/** Every byte SQLite has written: the database file and its write-ahead log. */
function ledgerBytes(): string {
  return ['tender.db', 'tender.db-wal']
    .map((name) => join(t.dataDir, name))
    .filter(existsSync)
    .map((file) => readFileSync(file).toString('latin1'))
    .join('');
}

describe('card data is never stored', () => {
  it('no full card number reaches the database or its WAL, approved, declined or rejected', async () => {
    const cards = [
      '4111111111111111',
      '4000000000000002',
      '4000000000000119',
      '4111111111111112',
      '5454545454545454',
    ];
    for (const card of cards) {
      await t.client.createTransaction({ type: 'SALE', amount: '12.34', card, exp_date: '1230', csc: '737' });
      await t.client.createTransaction({ type: 'AUTH', amount: '5.00', card, exp_date: '0101' });
    }
    const bytes = ledgerBytes();
    expect(bytes.length).toBeGreaterThan(0);
    for (const card of cards) {
      expect(bytes).not.toContain(card);
      expect(bytes).not.toContain(card.slice(0, 12));
    }
    expect(bytes).not.toMatch(/"csc"|737"/);
  });

  it('lists show cards masked to the last four digits', async () => {
    const items = await t.client.listTransactions({ page_size: 100 });
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) expect(item.card).toMatch(/^(\*+\d{4})?$/);
    expect(JSON.stringify(items)).not.toContain('4111111111111111');
  });
});
