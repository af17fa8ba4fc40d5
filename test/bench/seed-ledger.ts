/**
 * Fills a ledger with realistic history fast, for benchmarks and demos: a day's settled batch after
 * another, then an open batch. Rows are what the engine itself would have written (sales, auths and
 * their captures, refunds, voids, declines and rejections, tips, servers, names), with batch totals
 * that equal their rows. Secondary indexes are dropped while the rows go in and rebuilt after, which
 * is what makes a million rows take seconds rather than minutes.
 */
import { openDatabase } from '../../electron/gateway/store/sqlite/database';

export interface SeedOptions {
  /** Transactions in settled batches. */
  settledTransactions: number;
  /** Transactions left in the open batch. */
  openTransactions: number;
  /** The history ends here (epoch ms)... */
  endAt: number;
  /** ...and spans this many days, one batch a day. */
  days: number;
  /** Deterministic data for a given seed. */
  seed?: number;
}

const FIRST_NAMES = [
  'ANN',
  'BEN',
  'CARLA',
  'DEV',
  'EMMA',
  'FARID',
  'GRACE',
  'HUGO',
  'IRIS',
  'JONAS',
  'KEIKO',
  'LIAM',
  'MARIA',
  'NOOR',
  'OSCAR',
  'PRIYA',
  'QUINN',
  'ROSA',
  'SAM',
  'TARA',
];
const LAST_NAMES = [
  'ADAMS',
  'BROWN',
  'CHEN',
  'DIAZ',
  'EVANS',
  'FISCHER',
  'GARCIA',
  'HAYES',
  'ITO',
  'JOHNSON',
  'KIM',
  'LOPEZ',
  'MOORE',
  'NGUYEN',
  'OKAFOR',
  'PATEL',
  'REYES',
  'SMITH',
  'TANAKA',
  'WONG',
];
const CARDS = [
  { brand: 'visa', length: 16 },
  { brand: 'mastercard', length: 16 },
  { brand: 'amex', length: 15 },
  { brand: 'discover', length: 16 },
];

/**
 * A small, fast, seedable generator (mulberry32): the same seed gives the same ledger, and a
 * failing randomized run can be replayed from its seed.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Seeds the ledger file (migrating it first when new). Run it while no engine has the file open. */
export function seedLedger(file: string, options: SeedOptions): { transactions: number; batches: number } {
  const db = openDatabase(file);
  try {
    return seed(db, options);
  } finally {
    db.close();
  }
}

function seed(
  db: ReturnType<typeof openDatabase>,
  options: SeedOptions,
): { transactions: number; batches: number } {
  const next = seededRandom(options.seed ?? 42);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const total = options.settledTransactions + options.openTransactions;
  const startAt = options.endAt - options.days * 86_400_000;
  const step = (options.endAt - startAt) / Math.max(total, 1);
  const perBatch = Math.max(1, Math.ceil(options.settledTransactions / Math.max(options.days, 1)));

  const indexes = db
    .prepare<[], { sql: string; name: string }>(
      "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'transactions' AND sql IS NOT NULL",
    )
    .all();

  const insertBatch = db.prepare(
    `INSERT INTO batches (id, status, opened_at, settled_at, confirmation_code, sales_count, sales_total,
       refund_count, refund_total, tip_total) VALUES (?, ?, ?, ?, ?, 0, 0, 0, 0, 0)`,
  );
  const insert = db.prepare(`
    INSERT INTO transactions (id, type, result, result_code, error_code, display_message, amount, tip_amount,
      authorization_code, avs_result_code, csc_result_code, card_last_four, card_length, card_brand,
      entry_mode, invoice, order_number, purchase_order, server_id, first_name, last_name, first_name_key,
      last_name_key, billing_is_shipping, original_id, batch_id, voided_by, captured_by, refunded_amount, created_at)
    VALUES (@id, @type, @result, @resultCode, @errorCode, @message, @amount, @tip, @authorizationCode, @avs, @csc,
      @lastFour, @length, @brand, @entryMode, @invoice, @orderNumber, @purchaseOrder, @serverId, @firstName,
      @lastName, @firstNameKey, @lastNameKey, 0, @originalId, @batchId, @voidedBy, @capturedBy, 0, @createdAt)`);
  const totals = db.prepare(
    `UPDATE batches SET sales_count = ?, sales_total = ?, refund_count = ?, refund_total = ?, tip_total = ? WHERE id = ?`,
  );
  const markVoided = db.prepare('UPDATE transactions SET voided_by = ? WHERE id = ?');
  const markCaptured = db.prepare('UPDATE transactions SET captured_by = ? WHERE id = ?');

  const base = (db.prepare('SELECT COALESCE(MAX(id), 0) AS id FROM transactions').get() as { id: number }).id;
  const baseBatch = (db.prepare('SELECT COALESCE(MAX(id), 0) AS id FROM batches').get() as { id: number }).id;

  const batches = db.transaction(() => {
    for (const index of indexes) db.exec(`DROP INDEX ${index.name}`);
    let id = base;
    let batchId = baseBatch;
    let batch = { sales: 0, salesTotal: 0, refunds: 0, refundTotal: 0, tips: 0 };
    let inBatch = 0;
    let lastSale: { id: number; amount: number; tip: number } | undefined;
    const flushTotals = () =>
      totals.run(batch.sales, batch.salesTotal, batch.refunds, batch.refundTotal, batch.tips, batchId);
    const openBatch = (at: number, open: boolean) => {
      if (batchId > baseBatch) flushTotals();
      batchId += 1;
      insertBatch.run(
        batchId,
        open ? 'OPEN' : 'CLOSED',
        at,
        open ? null : at + 86_000_000,
        open ? null : String(1_000_000_000 + batchId),
      );
      batch = { sales: 0, salesTotal: 0, refunds: 0, refundTotal: 0, tips: 0 };
      inBatch = 0;
      lastSale = undefined;
    };

    for (let n = 0; n < total; n++) {
      const createdAt = Math.round(startAt + n * step);
      const opening = n === options.settledTransactions;
      if (opening || (n < options.settledTransactions && inBatch >= perBatch) || batchId === baseBatch) {
        openBatch(createdAt, n >= options.settledTransactions);
      }
      inBatch += 1;
      const card = pick(CARDS);
      const firstName = pick(FIRST_NAMES);
      const lastName = pick(LAST_NAMES);
      const roll = next();
      id += 1;
      const row = {
        id,
        type: 'Sale',
        result: 'Approved',
        resultCode: '0000' as string | null,
        errorCode: null as string | null,
        message: 'Approved',
        amount: 100 + Math.floor(next() * 30_000),
        tip: 0,
        authorizationCode: Math.floor(next() * 2_176_782_336)
          .toString(36)
          .toUpperCase()
          .padStart(6, '0') as string | null,
        avs: 'Z',
        csc: 'M',
        lastFour: String(Math.floor(next() * 10_000)).padStart(4, '0'),
        length: card.length,
        brand: card.brand,
        entryMode: next() < 0.8 ? 'swiped' : 'keyed',
        invoice: `INV${String(id).padStart(8, '0')}`,
        orderNumber:
          next() < 0.3
            ? Math.floor(next() * 1e12)
                .toString(36)
                .toUpperCase()
            : null,
        purchaseOrder: `PO${String(id).padStart(10, '0')}`,
        serverId: String(1 + Math.floor(next() * 20)).padStart(2, '0'),
        firstName,
        lastName,
        firstNameKey: firstName.toLowerCase(),
        lastNameKey: lastName.toLowerCase(),
        originalId: null as number | null,
        batchId: batchId as number | null,
        voidedBy: null as number | null,
        capturedBy: null as number | null,
        createdAt,
      };
      if (roll < 0.06) {
        Object.assign(row, {
          result: 'Declined',
          resultCode: '0005',
          message: 'Declined by the card issuer.',
          authorizationCode: null,
          batchId: null,
        });
      } else if (roll < 0.08) {
        Object.assign(row, {
          result: 'Rejected',
          resultCode: null,
          errorCode: '8000',
          message: 'Field Validation: card expired',
          authorizationCode: null,
          batchId: null,
          avs: null,
          csc: null,
        });
      } else if (roll < 0.18 && n + 1 < total) {
        // An authorization and, right after it, its capture with a tip.
        Object.assign(row, { type: 'Auth', batchId: null });
        insert.run(row);
        const tip = Math.floor(row.amount * 0.18);
        id += 1;
        n += 1;
        inBatch += 1;
        Object.assign(row, {
          id,
          type: 'Capture',
          amount: row.amount + tip,
          tip,
          originalId: id - 1,
          batchId,
          capturedBy: null,
          createdAt: Math.round(startAt + n * step),
          invoice: `INV${String(id).padStart(8, '0')}`,
          purchaseOrder: `PO${String(id).padStart(10, '0')}`,
        });
        batch.sales += 1;
        batch.salesTotal += row.amount;
        batch.tips += tip;
        insert.run(row);
        markCaptured.run(id, id - 1);
        continue;
      } else if (roll < 0.2) {
        Object.assign(row, { type: 'Refund', amount: Math.floor(row.amount / 2) + 1 });
        batch.refunds += 1;
        batch.refundTotal += row.amount;
      } else if (roll < 0.22 && lastSale) {
        Object.assign(row, { type: 'Void', amount: lastSale.amount, originalId: lastSale.id });
        batch.sales -= 1;
        batch.salesTotal -= lastSale.amount;
        batch.tips -= lastSale.tip;
        lastSale = undefined;
      } else {
        if (roll < 0.25) row.type = 'Forced Sale';
        batch.sales += 1;
        batch.salesTotal += row.amount;
      }
      insert.run(row);
      if (row.type === 'Void' && row.originalId !== null) markVoided.run(row.id, row.originalId);
      if (row.type === 'Sale' && row.result === 'Approved')
        lastSale = { id: row.id, amount: row.amount, tip: 0 };
    }
    if (batchId > baseBatch) flushTotals();
    for (const index of indexes) db.exec(index.sql);
    return batchId - baseBatch;
  })();
  // Fresh statistics let the planner pick the right index for each list query.
  db.exec('ANALYZE');
  return { transactions: total, batches };
}
