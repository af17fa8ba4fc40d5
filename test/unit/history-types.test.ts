/** History's Type filter, where a sale tipped at the counter is a Sale though the engine lists a Capture. */
import { describe, expect, it } from 'vitest';
import type { TransactionListItem } from '../../shared/api/schemas';
import { readHistoryPage } from '../../renderer/src/history/history-pages';
import { historyQuery, NEWEST_FIRST, NO_FILTERS, typeFilter } from '../../renderer/src/history/history-query';
import { listItem } from '../support/list-items';

const sale = listItem({ id: '1' });
const hold = listItem({ id: '2', type: 'Auth', counter_sale: 'true', captured: 'true', batch_id: '' });
const tippedSale = listItem({ id: '3', type: 'Capture', counter_sale: 'true', original_id: '2' });
const tab = listItem({ id: '4', type: 'Auth', captured: 'true', batch_id: '' });
const tabCapture = listItem({ id: '5', type: 'Capture', original_id: '4' });
const ALL = [sale, hold, tippedSale, tab, tabCapture];

/** What History lists for a Type: the engine's rows of the type it is asked for, those the screen keeps. */
const kept = (type: string) => {
  const asked = typeFilter(type);
  return ALL.filter((item) => asked.type === undefined || item.type === asked.type)
    .filter((item) => asked.keep?.(item) ?? true)
    .map((item) => item.id);
};

describe('the History Type filter', () => {
  it('Sale holds the sales and the sales tipped at the counter, not their holds', () => {
    expect(kept('Sale')).toEqual(['1', '3']);
    // The engine's type filter has one type: Sale reads them all and keeps its own.
    expect(historyQuery({ ...NO_FILTERS, type: 'Sale' }, NEWEST_FIRST)).not.toHaveProperty('type');
  });

  it('Capture holds the captured tabs only', () => {
    expect(kept('Capture')).toEqual(['5']);
    expect(historyQuery({ ...NO_FILTERS, type: 'Capture' }, NEWEST_FIRST)).toMatchObject({ type: 'Capture' });
  });

  it('the other types, and all types, are the engine’s', () => {
    expect(kept('Auth')).toEqual(['2', '4']);
    expect(typeFilter('Auth')).toEqual({ type: 'Auth' });
    expect(typeFilter('Refund')).toEqual({ type: 'Refund' });
    expect(typeFilter('')).toEqual({});
  });
});

/** A list API over `rows` in the order given, with its pages. */
function listOf(rows: readonly TransactionListItem[]) {
  const calls: Record<string, unknown>[] = [];
  const list = (query: Record<string, unknown>) => {
    calls.push(query);
    const size = Number(query.page_size);
    const page = Number(query.page);
    return Promise.resolve(rows.slice((page - 1) * size, page * size));
  };
  return { list, calls };
}

describe('a page of the history', () => {
  const many = Array.from({ length: 250 }, (_, index) =>
    listItem({
      id: String(250 - index),
      ...(index % 5 === 0
        ? { type: 'Capture', counter_sale: 'true' }
        : index % 5 === 1
          ? { type: 'Auth' }
          : {}),
    }),
  );
  const wanted = many.filter(typeFilter('Sale').keep ?? (() => true));

  it('counts its rows among those kept, in the engine’s order, across the API’s pages', async () => {
    const { list } = listOf(many);
    const keep = typeFilter('Sale').keep;
    const first = await readHistoryPage(list, {}, 1, 25, keep);
    expect(first.items.map((item) => item.id)).toEqual(wanted.slice(0, 25).map((item) => item.id));
    expect(first.more).toBe(true);
    const eighth = await readHistoryPage(list, {}, 8, 25, keep);
    expect(eighth.items.map((item) => item.id)).toEqual(wanted.slice(175, 200).map((item) => item.id));
    expect(eighth.more).toBe(false);
    expect(wanted).toHaveLength(200);
  });

  it('without a filter of the screen’s own, is one page of the API and one row past it', async () => {
    const { list, calls } = listOf(many);
    const page = await readHistoryPage(list, { type: 'Auth' }, 2, 25);
    expect(page.items.map((item) => item.id)).toEqual(many.slice(25, 50).map((item) => item.id));
    expect(page.more).toBe(true);
    expect(calls).toEqual([
      { type: 'Auth', page_size: 25, page: 2 },
      { type: 'Auth', page_size: 1, page: 51 },
    ]);
  });
});
