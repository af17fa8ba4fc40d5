/**
 * The ledger as the API shows it, checked against itself: every batch's counts and totals recomputed
 * from its rows, one open batch at most, and the rules between rows (refunds within the original,
 * one capture per authorization, one void per transaction, nothing but approved unvoided sales and
 * refunds counting). Each check returns the problems it found, in words, so that a test can expect
 * an empty list and a soak run can print them.
 */
import type { Batch, TransactionListItem } from '../../shared/api/schemas';

/** GET a path below /rest/v1: the parsed JSON body, or undefined for 204. */
export type GetJson = <T>(path: string) => Promise<T | undefined>;

export const PAGE = 100;

/** "-12.34" → -1234. Throws on anything that is not money with two decimals. */
export function cents(text: string): number {
  const match = /^(-?)(\d+)\.(\d{2})$/.exec(text);
  if (!match) throw new Error(`not money with two decimals: "${text}"`);
  const value = Number(match[2]) * 100 + Number(match[3]);
  return match[1] === '-' ? -value : value;
}

export const money = (value: number): string =>
  `${value < 0 ? '-' : ''}${Math.trunc(Math.abs(value) / 100)}.${String(Math.abs(value) % 100).padStart(2, '0')}`;

/** Every item of a list, page after page (default order: id descending). */
export async function listAll<T>(
  get: GetJson,
  path: string,
  query: Record<string, string> = {},
): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; ; page++) {
    const search = new URLSearchParams({ ...query, page_size: String(PAGE), page: String(page) });
    const batch = (await get<T[]>(`${path}?${search}`)) ?? [];
    items.push(...batch);
    if (batch.length < PAGE) return items;
  }
}

/** The transactions with an id above `afterId`, read newest first until an older one shows up. */
export async function transactionsAfter(get: GetJson, afterId: number): Promise<TransactionListItem[]> {
  const items: TransactionListItem[] = [];
  for (let page = 1; ; page++) {
    const batch = (await get<TransactionListItem[]>(`transactions?page_size=${PAGE}&page=${page}`)) ?? [];
    for (const item of batch) {
      if (Number(item.id) <= afterId) return items;
      items.push(item);
    }
    if (batch.length < PAGE) return items;
  }
}

const SALE_TYPES = new Set(['Sale', 'Forced Sale', 'Capture']);

/** Whether a row counts in its batch: an approved, unvoided sale, forced sale, capture or refund. */
export function counts(row: TransactionListItem): boolean {
  return (
    row.result === 'Approved' && row.voided === 'false' && (SALE_TYPES.has(row.type) || row.type === 'Refund')
  );
}

/** What a batch must say, given its rows. */
export function expectedTotals(rows: readonly TransactionListItem[]) {
  const counted = rows.filter(counts);
  const sales = counted.filter((row) => SALE_TYPES.has(row.type));
  const refunds = counted.filter((row) => row.type === 'Refund');
  const sum = (list: TransactionListItem[], field: 'amount' | 'tip_amount') =>
    list.reduce((total, row) => total + cents(row[field]), 0);
  return {
    sales_count: String(sales.length),
    sales_total: money(sum(sales, 'amount')),
    refund_count: String(refunds.length),
    refund_total: money(sum(refunds, 'amount')),
    total_count: String(sales.length + refunds.length),
    net_amount: money(sum(sales, 'amount') - sum(refunds, 'amount')),
    tip_total: money(sum(sales, 'tip_amount')),
  };
}

/** Compares one batch with the sum of its rows. */
export function batchProblems(batch: Batch, rows: readonly TransactionListItem[]): string[] {
  const expected = expectedTotals(rows);
  const problems: string[] = [];
  for (const [field, value] of Object.entries(expected)) {
    const stated = batch[field as keyof Batch];
    if (stated !== value) {
      problems.push(`batch ${batch.id} (${batch.status}) says ${field} ${stated}, its rows say ${value}`);
    }
  }
  return problems;
}

/**
 * Recomputes the batches with an id of at least `fromBatchId` (all by default) from their rows, and
 * checks that at most one batch is open and that GET /batches/open answers that one.
 */
export async function auditBatches(get: GetJson, fromBatchId = 1): Promise<string[]> {
  const problems: string[] = [];
  const batches: Batch[] = [];
  for (let page = 1; ; page++) {
    const list = (await get<Batch[]>(`batches?page_size=${PAGE}&page=${page}`)) ?? [];
    const wanted = list.filter((batch) => Number(batch.id) >= fromBatchId);
    batches.push(...wanted);
    if (list.length < PAGE || wanted.length < list.length) break;
  }
  for (const batch of batches) {
    const rows = await listAll<TransactionListItem>(get, 'transactions', { batch_id: batch.id });
    problems.push(...batchProblems(batch, rows));
    for (const row of rows) {
      if (row.batch_id !== batch.id)
        problems.push(`batch_id=${batch.id} listed row ${row.id} of ${row.batch_id}`);
    }
  }
  problems.push(...(await openBatchProblems(get)));
  return problems;
}

/** At most one open batch, and GET /batches/open agrees with the list. */
export async function openBatchProblems(get: GetJson): Promise<string[]> {
  const open = (await get<Batch[]>(`batches?status=OPEN&page_size=${PAGE}`)) ?? [];
  const problems: string[] = [];
  if (open.length > 1) problems.push(`${open.length} open batches: ${open.map((b) => b.id).join(', ')}`);
  const current = await get<Batch>('batches/open');
  if ((current?.id ?? 'none') !== (open[0]?.id ?? 'none')) {
    problems.push(`GET /batches/open answers ${current?.id ?? 'none'}, the list ${open[0]?.id ?? 'none'}`);
  }
  if (current && current.status !== 'OPEN')
    problems.push(`GET /batches/open answers a ${current.status} batch`);
  return problems;
}

/**
 * The rules between rows, over the whole ledger: refunds within their original, at most one capture
 * not voided per authorization, one void per transaction, flags that agree with the rows that set them, and only
 * approved sales, captures and refunds in a batch.
 */
export function rowProblems(rows: readonly TransactionListItem[]): string[] {
  const problems: string[] = [];
  const byId = new Map(rows.map((row) => [row.id, row]));
  // Approved captures, refunds and voids by the transaction they refer to: one pass, so that a
  // ledger of a hundred thousand rows is checked in a moment.
  const followUps = new Map<string, TransactionListItem[]>();
  for (const row of rows) {
    if (row.result !== 'Approved' || row.original_id === '') continue;
    const key = `${row.type} ${row.original_id}`;
    followUps.set(key, [...(followUps.get(key) ?? []), row]);
  }
  const approvedFollowUps = (type: string, originalId: string) =>
    followUps.get(`${type} ${originalId}`) ?? [];

  for (const row of rows) {
    if (row.result !== 'Approved' && row.batch_id !== '') {
      problems.push(`${row.result} transaction ${row.id} sits in batch ${row.batch_id}`);
    }
    if (row.type === 'Auth' && row.batch_id !== '')
      problems.push(`Auth ${row.id} sits in batch ${row.batch_id}`);
    if (row.result !== 'Approved' && row.voided === 'true')
      problems.push(`${row.result} ${row.id} is voided`);

    const voids = approvedFollowUps('Void', row.id);
    if (voids.length > 1) problems.push(`${row.type} ${row.id} voided ${voids.length} times`);

    if (row.type === 'Auth') {
      const captures = approvedFollowUps('Capture', row.id);
      // A voided capture puts its authorization back, so only the live ones count.
      const live = captures.filter((capture) => capture.voided === 'false');
      if (live.length > 1) problems.push(`Auth ${row.id} has ${live.length} captures not voided`);
      if (live.length > 0 !== (row.captured === 'true')) {
        problems.push(`Auth ${row.id} says captured=${row.captured} with ${live.length} live captures`);
      }
      if (live.length > 0 && row.voided === 'true')
        problems.push(`Auth ${row.id} is voided with a live capture`);
      for (const capture of captures) {
        if (cents(capture.amount) - cents(capture.tip_amount) > cents(row.amount)) {
          problems.push(`Capture ${capture.id} of ${capture.amount} exceeds Auth ${row.id} of ${row.amount}`);
        }
      }
      // An authorization is voided only directly: voiding its capture leaves it open.
      if (voids.length > 0 !== (row.voided === 'true')) {
        problems.push(`Auth ${row.id} says voided=${row.voided} with ${voids.length} voids`);
      }
    } else if (
      row.type !== 'Void' &&
      row.result === 'Approved' &&
      voids.length > 0 !== (row.voided === 'true')
    ) {
      problems.push(`${row.type} ${row.id} says voided=${row.voided} with ${voids.length} voids`);
    }

    if (SALE_TYPES.has(row.type) && row.result === 'Approved') {
      const refunds = approvedFollowUps('Refund', row.id).filter((refund) => refund.voided === 'false');
      const refunded = refunds.reduce((total, refund) => total + cents(refund.amount), 0);
      if (refunded > cents(row.amount)) {
        problems.push(`${row.type} ${row.id} of ${row.amount} refunded ${money(refunded)} in total`);
      }
      if (money(refunded) !== row.refunded_amount) {
        problems.push(
          `${row.type} ${row.id} says refunded ${row.refunded_amount}, its refunds add up to ${money(refunded)}`,
        );
      }
      if (refunds.length > 0 && row.voided === 'true')
        problems.push(`${row.type} ${row.id} refunded and voided`);
    }

    if (row.original_id !== '' && row.result === 'Approved' && !byId.has(row.original_id)) {
      problems.push(`${row.type} ${row.id} refers to ${row.original_id}, which is not in the ledger`);
    }
  }
  return problems;
}
