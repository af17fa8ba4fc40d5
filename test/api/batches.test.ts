/**
 * GET and PUT /rest/v1/batches/open: when a batch opens, what it counts, how it closes, and what the
 * next transaction does after a close.
 */
import { XMLParser } from 'fast-xml-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Batch, TransactionListItem, TransactionRequestBody } from '../../shared/api/schemas';
import {
  AMEX,
  DECLINED_CARD,
  MASTERCARD,
  PROCESSOR_ERROR_CARD,
  startTestGateway,
  useTestGateway,
  VISA,
  type RawResponse,
  type TestGateway,
} from '../support/gateway';

/** Every value of a batch is a string, and so is every value of each lane's share of it. */
function expectStringsOnly(batch: object): void {
  for (const [field, value] of Object.entries(batch)) {
    if (field !== 'lanes') {
      expect(typeof value, field).toBe('string');
      continue;
    }
    expect(Array.isArray(value), field).toBe(true);
    for (const share of value as object[])
      for (const [name, shared] of Object.entries(share))
        expect(typeof shared, `lanes.${name}`).toBe('string');
  }
}

const ISO_WITH_MS_AND_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}[+-]\d{2}:\d{2}$/;
const MINUTE = 60_000;

const xmlParser = new XMLParser({ parseTagValue: false });

function call(
  t: TestGateway,
  method: string,
  path: string,
  accept = 'application/json',
): Promise<RawResponse> {
  return t.request(path, { method, headers: { api_key: t.key, accept } });
}

async function openBatch(t: TestGateway): Promise<Batch | undefined> {
  const response = await call(t, 'GET', 'batches/open');
  if (response.status === 204) {
    expect(response.body).toBe('');
    return undefined;
  }
  expect(response.status, response.body).toBe(200);
  return response.json<Batch>();
}

async function allBatches(t: TestGateway): Promise<Batch[]> {
  const response = await call(t, 'GET', 'batches?page_size=100');
  if (response.status === 204) return [];
  expect(response.status, response.body).toBe(200);
  return response.json<Batch[]>();
}

async function transaction(t: TestGateway, id: string): Promise<TransactionListItem> {
  const [item] = await t.client.listTransactions({ id });
  expect(item, `transaction ${id}`).toBeDefined();
  return item as TransactionListItem;
}

async function run(t: TestGateway, request: TransactionRequestBody, expected = 'Approved'): Promise<string> {
  const response = await t.client.createTransaction(request);
  expect(response.result, JSON.stringify(response)).toBe(expected);
  return response.id ?? '';
}

const sale = (t: TestGateway, amount: string) => run(t, { type: 'SALE', amount, ...VISA });

interface Totals {
  sales_count: string;
  sales_total: string;
  refund_count: string;
  refund_total: string;
}

/** The counts a batch with these sales and refunds must show, derived ones included. */
function totals(sales: number, salesTotal: string, refunds: number, refundTotal: string) {
  const net = (Math.round(Number(salesTotal) * 100) - Math.round(Number(refundTotal) * 100)) / 100;
  return {
    sales_count: String(sales),
    sales_total: salesTotal,
    refund_count: String(refunds),
    refund_total: refundTotal,
    total_count: String(sales + refunds),
    net_amount: net.toFixed(2),
  } satisfies Totals & { total_count: string; net_amount: string };
}

/** Runs `steps` on a fresh gateway and returns the open batch afterwards. */
async function openBatchAfter(steps: (t: TestGateway) => Promise<void>): Promise<Batch | undefined> {
  const t = await startTestGateway();
  try {
    await steps(t);
    return await openBatch(t);
  } finally {
    await t.close();
  }
}

// ---------------------------------------------------------------------------------------------

describe('with no batch at all', () => {
  const t = useTestGateway();

  it('answers GET /batches/open with 204 and no body', async () => {
    const response = await call(t, 'GET', 'batches/open');
    expect(response.status).toBe(204);
    expect(response.body).toBe('');
  });

  it('answers PUT /batches/open with 204 and no body, and creates nothing', async () => {
    const response = await call(t, 'PUT', 'batches/open');
    expect(response.status).toBe(204);
    expect(response.body).toBe('');
    expect((await call(t, 'GET', 'batches')).status).toBe(204);
  });

  it('answers 204 when XML is asked for', async () => {
    expect((await call(t, 'GET', 'batches/open', 'application/xml')).status).toBe(204);
    expect((await call(t, 'PUT', 'batches/open', 'application/xml')).status).toBe(204);
  });
});

describe('transactions that open no batch', () => {
  const t = useTestGateway();
  let authId: string;
  let declinedId: string;
  let errorId: string;
  beforeAll(async () => {
    authId = await run(t, { type: 'AUTH', amount: '50.00', ...VISA });
    declinedId = await run(t, { type: 'SALE', amount: '30.00', ...DECLINED_CARD }, 'Declined');
    errorId = await run(t, { type: 'SALE', amount: '11.00', ...PROCESSOR_ERROR_CARD }, 'Error');
    await run(t, { type: 'SALE', amount: '12.00', card: VISA.card, exp_date: '0120' }, 'Rejected');
  });

  it('opens no batch for an approved AUTH alone, nor for declined, errored or rejected sales', async () => {
    expect(await openBatch(t)).toBeUndefined();
    expect((await call(t, 'GET', 'batches')).status).toBe(204);
  });

  it('leaves the AUTH, declined and errored transactions in no batch', async () => {
    expect((await transaction(t, authId)).batch_id).toBe('');
    expect((await transaction(t, declinedId)).batch_id).toBe('');
    expect((await transaction(t, errorId)).batch_id).toBe('');
  });

  it('has nothing to close', async () => {
    expect((await call(t, 'PUT', 'batches/open')).status).toBe(204);
  });
});

describe('the first approved sale', () => {
  const now = new Date(2026, 10, 20, 9, 15, 0, 250).getTime();
  const t = useTestGateway({ engine: { now: () => now } });
  let saleId: string;
  let batch: Batch | undefined;
  beforeAll(async () => {
    await run(t, { type: 'AUTH', amount: '50.00', ...VISA });
    saleId = await sale(t, '10.00');
    batch = await openBatch(t);
  });

  it('opens a batch with status OPEN counting that sale only', () => {
    expect(batch).toMatchObject({ status: 'OPEN', ...totals(1, '10.00', 0, '0.00') });
    expect(batch?.id).toMatch(/^[1-9]\d*$/);
  });

  it('puts the sale in the open batch', async () => {
    expect((await transaction(t, saleId)).batch_id).toBe(batch?.id);
  });

  it('carries no settled time or confirmation code while open', () => {
    expect(batch).not.toHaveProperty('settled');
    expect(batch).not.toHaveProperty('confirmation_code');
  });

  it('sends every value as a string and names the amounts refund_total, sales_total and net_amount', () => {
    expectStringsOnly(batch ?? {});
    expect(batch).toHaveProperty('sales_total');
    expect(batch).toHaveProperty('refund_total');
    expect(batch).toHaveProperty('net_amount');
    expect(batch).not.toHaveProperty('sales_amount');
    expect(batch).not.toHaveProperty('refund_amount');
    expect(batch).not.toHaveProperty('total_amount');
  });

  it('lists the same batch in GET /batches', async () => {
    expect(await allBatches(t)).toEqual([batch]);
  });
});

describe('transactions that open a batch', () => {
  it('opens one with a FORCED SALE', async () => {
    const batch = await openBatchAfter(async (t) => {
      await run(t, { type: 'FORCED SALE', amount: '20.00', ...VISA, authorization_code: 'V12345' });
    });
    expect(batch).toMatchObject({ status: 'OPEN', ...totals(1, '20.00', 0, '0.00') });
  });

  it('opens one with the CAPTURE of an AUTH', async () => {
    const batch = await openBatchAfter(async (t) => {
      const auth = await run(t, { type: 'AUTH', amount: '50.00', ...VISA });
      await run(t, { type: 'CAPTURE', id: auth, amount: '40.00' });
    });
    expect(batch).toMatchObject({ status: 'OPEN', ...totals(1, '40.00', 0, '0.00') });
  });

  it('opens one with an unmatched REFUND', async () => {
    const batch = await openBatchAfter(async (t) => {
      await run(t, { type: 'REFUND', amount: '5.00', ...VISA });
    });
    expect(batch).toMatchObject({ status: 'OPEN', ...totals(0, '0.00', 1, '5.00') });
  });
});

describe('batch counts and totals', () => {
  it.each<[string, (t: TestGateway) => Promise<void>, ReturnType<typeof totals>]>([
    ['counts a SALE as a sale', (t) => sale(t, '10.00').then(() => undefined), totals(1, '10.00', 0, '0.00')],
    [
      'counts a FORCED SALE as a sale',
      async (t) => {
        await sale(t, '10.00');
        await run(t, { type: 'FORCED_SALE', amount: '20.00', ...MASTERCARD, authorization_code: 'ABC123' });
      },
      totals(2, '30.00', 0, '0.00'),
    ],
    [
      'counts a CAPTURE as a sale at the captured amount, and the AUTH not at all',
      async (t) => {
        await sale(t, '10.00');
        const auth = await run(t, { type: 'AUTH', amount: '50.00', ...AMEX });
        await run(t, { type: 'CAPTURE', id: auth, amount: '40.00' });
      },
      totals(2, '50.00', 0, '0.00'),
    ],
    [
      'counts an unmatched REFUND as a refund',
      async (t) => {
        await sale(t, '10.00');
        await run(t, { type: 'REFUND', amount: '5.00', ...MASTERCARD });
      },
      totals(1, '10.00', 1, '5.00'),
    ],
    [
      'counts refunds larger than the sales, with a negative net amount',
      async (t) => {
        await sale(t, '10.00');
        await run(t, { type: 'REFUND', amount: '25.50', ...MASTERCARD });
      },
      totals(1, '10.00', 1, '25.50'),
    ],
    [
      'does not count a declined sale',
      async (t) => {
        await sale(t, '10.00');
        await run(t, { type: 'SALE', amount: '30.00', ...DECLINED_CARD }, 'Declined');
      },
      totals(1, '10.00', 0, '0.00'),
    ],
    [
      'does not count a sale that ended in Error',
      async (t) => {
        await sale(t, '10.00');
        await run(t, { type: 'SALE', amount: '11.00', ...PROCESSOR_ERROR_CARD }, 'Error');
      },
      totals(1, '10.00', 0, '0.00'),
    ],
    [
      'does not count a rejected sale',
      async (t) => {
        await sale(t, '10.00');
        await run(t, { type: 'SALE', amount: '12.00', card: VISA.card, exp_date: '0120' }, 'Rejected');
      },
      totals(1, '10.00', 0, '0.00'),
    ],
    [
      'does not count a rejected matched refund of a sale still in the open batch',
      async (t) => {
        const id = await sale(t, '10.00');
        await run(t, { type: 'REFUND', id, amount: '4.00' }, 'Rejected');
      },
      totals(1, '10.00', 0, '0.00'),
    ],
    [
      'does not count a voided sale',
      async (t) => {
        await sale(t, '10.00');
        const id = await sale(t, '7.00');
        await run(t, { type: 'VOID', id });
      },
      totals(1, '10.00', 0, '0.00'),
    ],
    [
      'does not count a voided forced sale',
      async (t) => {
        await sale(t, '10.00');
        const id = await run(t, { type: 'forced sale', amount: '3.00', ...VISA, authorization_code: 'X1' });
        await run(t, { type: 'VOID', id });
      },
      totals(1, '10.00', 0, '0.00'),
    ],
    [
      'does not count a voided capture',
      async (t) => {
        await sale(t, '10.00');
        const auth = await run(t, { type: 'AUTH', amount: '9.00', ...VISA });
        const capture = await run(t, { type: 'CAPTURE', id: auth, amount: '9.00' });
        await run(t, { type: 'VOID', id: capture });
      },
      totals(1, '10.00', 0, '0.00'),
    ],
    [
      'does not count a voided refund',
      async (t) => {
        await sale(t, '10.00');
        const id = await run(t, { type: 'REFUND', amount: '2.50', ...VISA });
        await run(t, { type: 'VOID', id });
      },
      totals(1, '10.00', 0, '0.00'),
    ],
    [
      'does not count an uncaptured AUTH, voided or not',
      async (t) => {
        await sale(t, '10.00');
        await run(t, { type: 'AUTH', amount: '8.00', ...VISA });
        const voided = await run(t, { type: 'AUTH', amount: '6.00', ...VISA });
        await run(t, { type: 'VOID', id: voided });
      },
      totals(1, '10.00', 0, '0.00'),
    ],
  ])('%s', async (_name, steps, expected) => {
    const batch = await openBatchAfter(steps);
    expect(batch).toMatchObject({ status: 'OPEN', ...expected });
  });

  it('counts a matched REFUND of a settled sale in the next open batch', async () => {
    const t = await startTestGateway();
    try {
      const id = await sale(t, '10.00');
      const first = await t.client.closeOpenBatch();
      await run(t, { type: 'REFUND', id, amount: '4.00' });
      const batch = await openBatch(t);
      expect(batch).toMatchObject({ status: 'OPEN', ...totals(0, '0.00', 1, '4.00') });
      expect(batch?.id).not.toBe(first?.id);
      const [closed] = await t.client.listBatches({ id: first?.id ?? '' });
      expect(closed).toMatchObject({ status: 'CLOSED', ...totals(1, '10.00', 0, '0.00') });
    } finally {
      await t.close();
    }
  });

  describe('a busy day', () => {
    const t = useTestGateway();
    let batch: Batch | undefined;
    beforeAll(async () => {
      const auth = await run(t, { type: 'AUTH', amount: '50.00', ...VISA });
      await sale(t, '10.00');
      await run(t, { type: 'FORCED SALE', amount: '20.00', ...AMEX, authorization_code: 'V9' });
      await run(t, { type: 'CAPTURE', id: auth, amount: '40.00' });
      await run(t, { type: 'REFUND', amount: '5.00', ...MASTERCARD });
      await run(t, { type: 'VOID', id: await run(t, { type: 'REFUND', amount: '2.50', ...VISA }) });
      await run(t, { type: 'VOID', id: await sale(t, '7.00') });
      await run(t, { type: 'SALE', amount: '30.00', ...DECLINED_CARD }, 'Declined');
      await run(t, { type: 'SALE', amount: '11.00', ...PROCESSOR_ERROR_CARD }, 'Error');
      await run(t, { type: 'SALE', amount: '12.00', card: VISA.card, exp_date: '0120' }, 'Rejected');
      await run(t, { type: 'AUTH', amount: '8.00', ...VISA });
      batch = await openBatch(t);
    });

    it('counts sales, forced sales and captures as sales and refunds as refunds, nothing else', () => {
      expect(batch).toMatchObject({ status: 'OPEN', ...totals(3, '70.00', 1, '5.00') });
    });

    it('derives total_count as sales plus refunds and net_amount as sales minus refunds', () => {
      expect(batch?.total_count).toBe('4');
      expect(batch?.net_amount).toBe('65.00');
    });

    it('uses the sample payload names and not refund_amount, sales_amount or total_amount', () => {
      const fields = Object.keys(batch ?? {});
      expect(fields).toEqual(
        expect.arrayContaining([
          'id',
          'status',
          'sales_count',
          'sales_total',
          'refund_count',
          'refund_total',
          'total_count',
          'net_amount',
        ]),
      );
      for (const name of ['refund_amount', 'sales_amount', 'total_amount'])
        expect(fields).not.toContain(name);
    });

    it('agrees with GET /batches', async () => {
      expect(await allBatches(t)).toEqual([batch]);
    });
  });
});

// ---------------------------------------------------------------------------------------------

describe('closing the open batch', () => {
  const start = new Date(2026, 10, 20, 9, 0, 0, 0).getTime();
  const closeAt = start + 8 * 60 * MINUTE + 1234;
  const clock = { now: start };
  const t = useTestGateway({ engine: { now: () => clock.now } });
  let saleId: string;
  let authId: string;
  let opened: Batch | undefined;
  let closeResponse: RawResponse;
  let closed: Batch;
  let secondClose: RawResponse;
  let openAfterClose: RawResponse;
  let nextSaleId: string;
  let nextBatch: Batch | undefined;
  let captureId: string;
  let afterCapture: Batch | undefined;
  /** The OPEN batches GET /batches showed after each step. */
  const openCounts: { step: string; open: number }[] = [];
  const countOpen = async (step: string) => {
    const batches = await allBatches(t);
    const byStatus = await t.client.listBatches({ status: 'OPEN' });
    openCounts.push({ step, open: batches.filter((b) => b.status === 'OPEN').length });
    openCounts.push({ step: `${step} (status=OPEN)`, open: byStatus.length });
  };

  beforeAll(async () => {
    await countOpen('start');
    saleId = await sale(t, '10.00');
    await countOpen('first sale');
    clock.now = start + MINUTE;
    authId = await run(t, { type: 'AUTH', amount: '30.00', ...VISA });
    await run(t, { type: 'REFUND', amount: '1.25', ...VISA });
    opened = await openBatch(t);
    await countOpen('auth and refund');
    clock.now = closeAt;
    closeResponse = await call(t, 'PUT', 'batches/open');
    closed = closeResponse.json<Batch>();
    await countOpen('close');
    openAfterClose = await call(t, 'GET', 'batches/open');
    secondClose = await call(t, 'PUT', 'batches/open');
    await countOpen('second close');
    clock.now = closeAt + 10 * MINUTE;
    nextSaleId = await sale(t, '3.00');
    await countOpen('next sale');
    nextBatch = await openBatch(t);
    captureId = await run(t, { type: 'CAPTURE', id: authId, amount: '25.00' });
    afterCapture = await openBatch(t);
    await countOpen('capture');
  });

  it('answers PUT with 200 and the batch, now CLOSED, with its counts', () => {
    expect(closeResponse.status).toBe(200);
    expect(String(closeResponse.headers['content-type'])).toMatch(/^application\/json/);
    expect(closed).toMatchObject({ id: opened?.id, status: 'CLOSED', ...totals(1, '10.00', 1, '1.25') });
  });

  it('sets settled to the close time as ISO 8601 with milliseconds and offset', () => {
    expect(closed.settled).toMatch(ISO_WITH_MS_AND_OFFSET);
    expect(Date.parse(closed.settled as string)).toBe(closeAt);
  });

  it('sets a 10-digit numeric confirmation_code', () => {
    expect(closed.confirmation_code).toMatch(/^\d{10}$/);
  });

  it('sends every value of the closed batch as a string', () => {
    expectStringsOnly(closed);
  });

  it('leaves no open batch: GET /batches/open answers 204', () => {
    expect(openAfterClose.status).toBe(204);
    expect(openAfterClose.body).toBe('');
  });

  it('answers a second PUT with 204 and no body', () => {
    expect(secondClose.status).toBe(204);
    expect(secondClose.body).toBe('');
  });

  it('lists the closed batch in GET /batches with the same settled time and confirmation code', async () => {
    const [listed] = await t.client.listBatches({ id: closed.id });
    expect(listed).toEqual(closed);
  });

  it('keeps the closed batch unchanged by later transactions', async () => {
    const [listed] = await t.client.listBatches({ id: closed.id });
    expect(listed).toMatchObject(totals(1, '10.00', 1, '1.25'));
    expect((await transaction(t, saleId)).batch_id).toBe(closed.id);
  });

  it('opens a new batch with a new id on the next sale', async () => {
    expect(nextBatch?.status).toBe('OPEN');
    expect(nextBatch?.id).not.toBe(closed.id);
    expect(Number(nextBatch?.id)).toBeGreaterThan(Number(closed.id));
    expect(nextBatch).toMatchObject(totals(1, '3.00', 0, '0.00'));
    expect(Date.parse(nextBatch?.opened as string)).toBe(closeAt + 10 * MINUTE);
    expect((await transaction(t, nextSaleId)).batch_id).toBe(nextBatch?.id);
  });

  it('keeps an uncaptured AUTH through the close and captures it into the new batch', async () => {
    expect((await transaction(t, authId)).batch_id).toBe('');
    expect((await transaction(t, captureId)).batch_id).toBe(nextBatch?.id);
    expect(afterCapture).toMatchObject({ id: nextBatch?.id, ...totals(2, '28.00', 0, '0.00') });
  });

  it('refuses to VOID a sale of the closed batch', async () => {
    const response = await t.client.createTransaction({ type: 'VOID', id: saleId });
    expect(response.result).toBe('Rejected');
    expect(response.error_code).toBe('8016');
  });

  it('never shows more than one OPEN batch in GET /batches', () => {
    expect(openCounts.length).toBeGreaterThan(0);
    for (const { step, open } of openCounts) expect(open, step).toBeLessThanOrEqual(1);
    expect(openCounts.find((c) => c.step === 'first sale')?.open).toBe(1);
    expect(openCounts.find((c) => c.step === 'close')?.open).toBe(0);
  });
});

describe('concurrent requests', () => {
  it('opens exactly one batch when many first sales arrive at once', async () => {
    const t = await startTestGateway();
    try {
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          t.client.createTransaction({ type: 'SALE', amount: `${i + 1}.00`, ...VISA }),
        ),
      );
      expect(answers.every((a) => a.result === 'Approved')).toBe(true);
      const batches = await allBatches(t);
      expect(batches).toHaveLength(1);
      expect(batches[0]).toMatchObject({ status: 'OPEN', ...totals(30, '465.00', 0, '0.00') });
    } finally {
      await t.close();
    }
  });

  it('keeps at most one OPEN batch and loses no sale when closes race with sales', async () => {
    const t = await startTestGateway();
    try {
      await sale(t, '1.00');
      const sales = () => Array.from({ length: 10 }, () => sale(t, '1.00'));
      const closes = [call(t, 'PUT', 'batches/open'), call(t, 'PUT', 'batches/open')];
      await Promise.all([...sales(), ...closes, ...sales()]);
      // The first close to run closes the batch. The other closes what the sales that ran between
      // them opened, if any did (requests sent together run in no promised order), or answers 204.
      const answers = await Promise.all(closes);
      expect(answers.map((r) => r.status)).toContain(200);
      for (const answer of answers) expect([200, 204]).toContain(answer.status);
      const closedIds = answers.filter((r) => r.status === 200).map((r) => r.json<{ id: string }>().id);
      expect(new Set(closedIds).size).toBe(closedIds.length);
      const batches = await allBatches(t);
      expect(batches.filter((b) => b.status === 'OPEN').length).toBeLessThanOrEqual(1);
      expect(
        batches
          .filter((b) => b.status === 'CLOSED')
          .map((b) => b.id)
          .sort(),
      ).toEqual([...closedIds].sort());
      const counted = batches.reduce((sum, b) => sum + Number(b.sales_count), 0);
      expect(counted).toBe(21);
    } finally {
      await t.close();
    }
  });
});

describe('batches in XML', () => {
  const t = useTestGateway();
  let open: RawResponse;
  let close: RawResponse;
  beforeAll(async () => {
    await sale(t, '10.00');
    await run(t, { type: 'REFUND', amount: '2.00', ...VISA });
    open = await call(t, 'GET', 'batches/open', 'application/xml');
    close = await call(t, 'PUT', 'batches/open', 'application/xml');
  });

  it('answers GET /batches/open with root <batch> and the JSON field names as child elements', () => {
    expect(open.status).toBe(200);
    expect(String(open.headers['content-type'])).toMatch(/^application\/xml/);
    const parsed = xmlParser.parse(open.body) as Record<string, unknown>;
    expect(Object.keys(parsed).filter((k) => k !== '?xml')).toEqual(['batch']);
    expect(parsed.batch).toMatchObject({ status: 'OPEN', ...totals(1, '10.00', 1, '2.00') });
    expect(parsed.batch).not.toHaveProperty('refund_amount');
  });

  it('answers PUT /batches/open with root <batch> holding settled and confirmation_code', () => {
    expect(close.status).toBe(200);
    expect(String(close.headers['content-type'])).toMatch(/^application\/xml/);
    const parsed = xmlParser.parse(close.body) as { batch: Record<string, string> };
    expect(parsed.batch).toMatchObject({ status: 'CLOSED', ...totals(1, '10.00', 1, '2.00') });
    expect(parsed.batch.settled).toMatch(ISO_WITH_MS_AND_OFFSET);
    expect(parsed.batch.confirmation_code).toMatch(/^\d{10}$/);
  });
});

describe('the open batch while sales land', () => {
  const t = useTestGateway();

  it('always has lanes that add up to its own counts and totals, read as of one moment', async () => {
    const sale = { type: 'SALE', amount: '1.00', ...MASTERCARD } as TransactionRequestBody;
    expect((await t.client.createTransaction(sale)).result).toBe('Approved');
    let selling = true;
    const sellers = Array.from({ length: 4 }, async () => {
      while (selling) await t.client.createTransaction(sale);
    });
    const disagreeing: string[] = [];
    try {
      for (let read = 0; read < 100; read++) {
        const batch = await openBatch(t);
        if (!batch) throw new Error('no open batch');
        const lanes = batch.lanes ?? [];
        const count = lanes.reduce((sum, share) => sum + Number(share.total_count), 0);
        const cents = lanes.reduce((sum, share) => sum + Math.round(Number(share.net_amount) * 100), 0);
        if (count !== Number(batch.total_count) || cents !== Math.round(Number(batch.net_amount) * 100))
          disagreeing.push(
            `${batch.total_count} for ${batch.net_amount}, lanes ${lanes.map((share) => `${share.total_count} for ${share.net_amount}`).join(' + ')}`,
          );
      }
    } finally {
      selling = false;
      await Promise.all(sellers);
    }
    expect(disagreeing).toEqual([]);
  });
});
