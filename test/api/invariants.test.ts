/**
 * The ledger's invariants, over the real HTTPS API, under generated operations run with real
 * concurrency (fast-check):
 *
 * - a model-based run (fc.commands): each command predicts the engine's exact answers from a model
 *   of the ledger, including bursts of identical captures, voids and refunds sent at once, whose
 *   outcome does not depend on the order the engine takes them in;
 * - waves of mixed operations sent at once (Promise.all), where the order decides the outcome, with
 *   the whole ledger audited after every wave;
 * - targeted races on one transaction (refunds of different amounts, captures of different
 *   amounts, a void against the batch close).
 *
 * Invariants: refunds never exceed the original, an AUTH has at most one capture not voided, a transaction is
 * voided at most once, every batch's counts and totals equal its rows, voided, declined and rejected
 * transactions never count, and at most one batch is open.
 */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Batch, TransactionListItem, TransactionResponse } from '../../shared/api/schemas';
import { startTestGateway, VISA, type TestGateway } from '../support/gateway';
import {
  auditBatches,
  cents,
  listAll,
  money,
  openBatchProblems,
  rowProblems,
  type GetJson,
} from '../support/ledger-audit';

const CARDS = {
  ok: VISA.card,
  declined: '4000000000000002',
  luhn: '4111111111111112',
} as const;
type CardKind = keyof typeof CARDS;

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };

/** POST /transactions: the engine answers every transaction with 200. */
async function post(t: TestGateway, body: Record<string, unknown>): Promise<TransactionResponse> {
  const response = await t.request('transactions', {
    method: 'POST',
    headers: { api_key: t.key, ...JSON_HEADERS },
    body: JSON.stringify(body),
  });
  if (response.status !== 200) {
    throw new Error(`POST ${JSON.stringify(body)} answered ${response.status}: ${response.body}`);
  }
  return response.json<TransactionResponse>();
}

/** PUT /batches/open: the closed batch, or undefined for 204. */
async function closeBatch(t: TestGateway): Promise<Batch | undefined> {
  const response = await t.request('batches/open', {
    method: 'PUT',
    headers: { api_key: t.key, accept: 'application/json' },
  });
  if (response.status === 204) return undefined;
  if (response.status !== 200)
    throw new Error(`PUT /batches/open answered ${response.status}: ${response.body}`);
  return response.json<Batch>();
}

const getter =
  (t: TestGateway): GetJson =>
  async <T>(path: string) => {
    const response = await t.request(path, { headers: { api_key: t.key, accept: 'application/json' } });
    if (response.status === 204) return undefined;
    if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}: ${response.body}`);
    return response.json<T>();
  };

/** Everything wrong with the ledger as a whole: rows, batches, open batch. */
async function ledgerProblems(t: TestGateway): Promise<string[]> {
  const get = getter(t);
  const rows = await listAll<TransactionListItem>(get, 'transactions');
  return [...rowProblems(rows), ...(await auditBatches(get))];
}

const dollars = (value: number) => money(value);

/** Sends `copies` of the same request at once. */
const burst = (t: TestGateway, copies: number, body: Record<string, unknown>) =>
  Promise.all(Array.from({ length: copies }, () => post(t, body)));

// ---------------------------------------------------------------------------------------------
// The model

type TxType = 'Sale' | 'Forced Sale' | 'Auth' | 'Capture' | 'Refund' | 'Void';

interface ModelTx {
  id: string;
  type: TxType;
  result: 'Approved' | 'Declined';
  amount: number;
  batch: number | null;
  voided: boolean;
  captured: boolean;
  refunded: number;
  original: string | null;
}

interface Model {
  txs: ModelTx[];
  open: number | null;
  lastBatch: number;
  closed: Set<number>;
}

const SALE_TYPES: readonly TxType[] = ['Sale', 'Forced Sale', 'Capture'];

function modelTotals(model: Model, batch: number) {
  const counted = model.txs.filter(
    (tx) =>
      tx.batch === batch &&
      tx.result === 'Approved' &&
      !tx.voided &&
      (SALE_TYPES.includes(tx.type) || tx.type === 'Refund'),
  );
  const sum = (list: ModelTx[]) => list.reduce((total, tx) => total + tx.amount, 0);
  const sales = counted.filter((tx) => SALE_TYPES.includes(tx.type));
  const refunds = counted.filter((tx) => tx.type === 'Refund');
  return {
    id: String(batch),
    sales_count: String(sales.length),
    sales_total: dollars(sum(sales)),
    refund_count: String(refunds.length),
    refund_total: dollars(sum(refunds)),
    total_count: String(counted.length),
    net_amount: dollars(sum(sales) - sum(refunds)),
  };
}

/** The open batch, opened when an approved transaction needs one. */
function joinOpenBatch(model: Model): number {
  if (model.open === null) {
    model.lastBatch += 1;
    model.open = model.lastBatch;
  }
  return model.open;
}

function expectApproved(answer: TransactionResponse | undefined, what: string): string {
  expect(answer?.result, `${what}: ${JSON.stringify(answer)}`).toBe('Approved');
  expect(answer?.id, what).toMatch(/^[1-9]\d*$/);
  expect(answer?.authorization_code, what).toMatch(/^[A-Z0-9]{1,8}$/);
  return answer?.id as string;
}

function expectRejected(answer: TransactionResponse, code: string, what: string): void {
  expect(answer, what).toMatchObject({ result: 'Rejected', error_code: code });
  expect(answer.id, what).toBeUndefined();
}

/** Sorts a burst's answers: the approved ones, and the error codes of the rest. */
function sortAnswers(answers: TransactionResponse[]) {
  return {
    approved: answers.filter((answer) => answer.result === 'Approved'),
    codes: answers
      .filter((answer) => answer.result !== 'Approved')
      .map((answer) => `${answer.result} ${answer.error_code ?? ''}`.trim())
      .sort(),
  };
}

type Real = TestGateway;
type ModelCommand = fc.AsyncCommand<Model, Real>;

class ChargeCommand implements ModelCommand {
  constructor(
    readonly kind: 'SALE' | 'FORCED SALE' | 'AUTH' | 'UNMATCHED REFUND',
    readonly amount: number,
    readonly card: CardKind,
  ) {}
  check = () => true;
  async run(model: Model, t: Real) {
    const body: Record<string, unknown> = {
      type: this.kind === 'UNMATCHED REFUND' ? 'REFUND' : this.kind,
      amount: dollars(this.amount),
      card: CARDS[this.card],
      exp_date: '1230',
      ...(this.kind === 'FORCED SALE' && { authorization_code: 'VOICE1' }),
    };
    const answer = await post(t, body);
    const what = this.toString();
    if (this.card === 'luhn') return expectRejected(answer, '8002', what);
    const type: TxType =
      this.kind === 'SALE'
        ? 'Sale'
        : this.kind === 'AUTH'
          ? 'Auth'
          : this.kind === 'FORCED SALE'
            ? 'Forced Sale'
            : 'Refund';
    // The issuer declines the declining test card on SALE and AUTH; a forced sale and a credit do not ask it.
    if (this.card === 'declined' && (this.kind === 'SALE' || this.kind === 'AUTH')) {
      expect(answer, what).toMatchObject({ result: 'Declined', result_code: '0005' });
      model.txs.push(newTx(answer.id as string, type, 'Declined', this.amount, null));
      return;
    }
    const id = expectApproved(answer, what);
    model.txs.push(newTx(id, type, 'Approved', this.amount, type === 'Auth' ? null : joinOpenBatch(model)));
  }
  toString = () => `${this.kind} ${dollars(this.amount)} (${this.card} card)`;
}

function newTx(
  id: string,
  type: TxType,
  result: ModelTx['result'],
  amount: number,
  batch: number | null,
): ModelTx {
  return { id, type, result, amount, batch, voided: false, captured: false, refunded: 0, original: null };
}

class CaptureCommand implements ModelCommand {
  constructor(
    readonly pick: number,
    readonly mode: 'full' | 'less' | 'over',
    readonly fraction: number,
    readonly copies: number,
  ) {}
  check = (model: Readonly<Model>) => model.txs.some((tx) => tx.type === 'Auth');
  async run(model: Model, t: Real) {
    const auths = model.txs.filter((tx) => tx.type === 'Auth');
    const auth = auths[this.pick % auths.length] as ModelTx;
    const amount =
      this.mode === 'full'
        ? auth.amount
        : this.mode === 'less'
          ? Math.max(1, Math.floor(auth.amount * this.fraction))
          : auth.amount + 1 + Math.floor(auth.amount * this.fraction);
    const answers = await burst(t, this.copies, { type: 'CAPTURE', id: auth.id, amount: dollars(amount) });
    const what = `${this.toString()} of ${auth.id} for ${dollars(amount)}: ${JSON.stringify(answers)}`;
    const capturable = auth.result === 'Approved' && !auth.voided && !auth.captured;
    const { approved, codes } = sortAnswers(answers);
    if (!capturable) {
      expect(codes, what).toEqual(Array(this.copies).fill('Rejected 8011'));
      return;
    }
    if (amount > auth.amount) {
      expect(codes, what).toEqual(Array(this.copies).fill('Rejected 8012'));
      return;
    }
    // However the engine orders them, one capture wins and the others find it captured.
    expect(approved, what).toHaveLength(1);
    expect(codes, what).toEqual(Array(this.copies - 1).fill('Rejected 8011'));
    const capture = newTx(
      expectApproved(approved[0], what),
      'Capture',
      'Approved',
      amount,
      joinOpenBatch(model),
    );
    capture.original = auth.id;
    model.txs.push(capture);
    auth.captured = true;
  }
  toString = () => `CAPTURE x${this.copies} (${this.mode}, auth #${this.pick})`;
}

/**
 * A transaction to follow up: mostly one the follow-up can apply to (so that the bursts race for
 * something), sometimes any at all (so that refusals are predicted too).
 */
function pickTarget(model: Model, pick: number, anyTx: boolean, likely: (tx: ModelTx) => boolean): ModelTx {
  const candidates = model.txs.filter(likely);
  const pool = anyTx || candidates.length === 0 ? model.txs : candidates;
  return pool[pick % pool.length] as ModelTx;
}

class VoidCommand implements ModelCommand {
  constructor(
    readonly pick: number,
    readonly anyTx: boolean,
    readonly copies: number,
  ) {}
  check = (model: Readonly<Model>) => model.txs.length > 0;
  async run(model: Model, t: Real) {
    const target = pickTarget(
      model,
      this.pick,
      this.anyTx,
      (tx) =>
        tx.result === 'Approved' &&
        tx.type !== 'Void' &&
        !tx.voided &&
        (tx.batch === model.open || tx.type === 'Auth'),
    );
    const answers = await burst(t, this.copies, { type: 'VOID', id: target.id });
    const what = `${this.toString()} of ${target.type} ${target.id}: ${JSON.stringify(answers)}`;
    const { approved, codes } = sortAnswers(answers);
    let refusal: string | undefined;
    if (target.type === 'Void' || target.result !== 'Approved' || target.voided) refusal = '8017';
    else if (target.type === 'Auth') refusal = target.captured ? '8017' : undefined;
    else if (target.batch !== model.open) refusal = '8016';
    if (refusal) {
      expect(codes, what).toEqual(Array(this.copies).fill(`Rejected ${refusal}`));
      return;
    }
    expect(approved, what).toHaveLength(1);
    expect(codes, what).toEqual(Array(this.copies - 1).fill('Rejected 8017'));
    const voidTx = newTx(expectApproved(approved[0], what), 'Void', 'Approved', target.amount, target.batch);
    voidTx.original = target.id;
    model.txs.push(voidTx);
    target.voided = true;
    const original = model.txs.find((tx) => tx.id === target.original);
    // Voiding a capture puts its authorization back, capturable again; voiding a refund makes its
    // amount refundable again.
    if (target.type === 'Capture' && original) original.captured = false;
    if (target.type === 'Refund' && original) original.refunded -= target.amount;
  }
  toString = () => `VOID x${this.copies} (#${this.pick}${this.anyTx ? ' of any' : ''})`;
}

class RefundCommand implements ModelCommand {
  constructor(
    readonly pick: number,
    readonly anyTx: boolean,
    readonly mode: 'rest' | 'part' | 'over',
    readonly fraction: number,
    readonly copies: number,
  ) {}
  check = (model: Readonly<Model>) => model.txs.length > 0;
  async run(model: Model, t: Real) {
    const original = pickTarget(
      model,
      this.pick,
      this.anyTx,
      (tx) =>
        SALE_TYPES.includes(tx.type) && tx.result === 'Approved' && !tx.voided && tx.batch !== model.open,
    );
    const remaining = original.amount - original.refunded;
    const amount =
      this.mode === 'rest'
        ? Math.max(1, remaining)
        : this.mode === 'part'
          ? Math.max(1, Math.floor(remaining * this.fraction))
          : remaining + 1;
    const answers = await burst(t, this.copies, { type: 'REFUND', id: original.id, amount: dollars(amount) });
    const what = `${this.toString()} of ${original.type} ${original.id} for ${dollars(amount)}: ${JSON.stringify(answers)}`;
    const { approved, codes } = sortAnswers(answers);
    let refusal: string | undefined;
    if (!SALE_TYPES.includes(original.type) || original.result !== 'Approved' || original.voided)
      refusal = '8015';
    else if (original.batch === null || !model.closed.has(original.batch)) refusal = '8013';
    if (refusal) {
      expect(codes, what).toEqual(Array(this.copies).fill(`Rejected ${refusal}`));
      return;
    }
    // Whatever the order, as many refunds pass as fit in what remains, and no more.
    const fitting = Math.min(this.copies, Math.floor(remaining / amount));
    expect(approved, what).toHaveLength(fitting);
    expect(codes, what).toEqual(Array(this.copies - fitting).fill('Rejected 8014'));
    for (const answer of approved) {
      const refund = newTx(expectApproved(answer, what), 'Refund', 'Approved', amount, joinOpenBatch(model));
      refund.original = original.id;
      model.txs.push(refund);
      original.refunded += amount;
    }
  }
  toString = () => `REFUND x${this.copies} (${this.mode}, #${this.pick}${this.anyTx ? ' of any' : ''})`;
}

class CloseCommand implements ModelCommand {
  check = () => true;
  async run(model: Model, t: Real) {
    const closed = await closeBatch(t);
    if (model.open === null) {
      expect(closed, 'no batch was open').toBeUndefined();
      return;
    }
    expect(closed).toMatchObject({ ...modelTotals(model, model.open), status: 'CLOSED' });
    expect(closed?.confirmation_code).toMatch(/^\d{10}$/);
    model.closed.add(model.open);
    model.open = null;
  }
  toString = () => 'CLOSE';
}

/** After every command: the open batch is the model's, with the model's totals, and it is the only one. */
async function checkOpenBatch(model: Model, t: TestGateway) {
  const get = getter(t);
  expect(await openBatchProblems(get)).toEqual([]);
  const open = await get<Batch>('batches/open');
  if (model.open === null) expect(open).toBeUndefined();
  else expect(open).toMatchObject({ ...modelTotals(model, model.open), status: 'OPEN' });
}

/** After a run: every transaction the model knows is in the ledger in the state the model says. */
async function checkAgainstLedger(model: Model, t: TestGateway) {
  const rows = new Map(
    (await listAll<TransactionListItem>(getter(t), 'transactions')).map((row) => [row.id, row]),
  );
  for (const tx of model.txs) {
    const row = rows.get(tx.id);
    expect(row, `transaction ${tx.id}`).toBeDefined();
    expect(row, `transaction ${tx.id}`).toMatchObject({
      type: tx.type,
      result: tx.result,
      amount: dollars(tx.amount),
      batch_id: tx.batch === null ? '' : String(tx.batch),
      original_id: tx.original ?? '',
      ...(tx.type !== 'Void' && { voided: String(tx.voided) }),
      ...(tx.type === 'Auth' && { captured: String(tx.captured) }),
      ...(SALE_TYPES.includes(tx.type) && { refunded_amount: dollars(tx.refunded) }),
    });
  }
  expect(await ledgerProblems(t)).toEqual([]);
}

const amountArb = fc.integer({ min: 1, max: 50_000 });
const copiesArb = fc.integer({ min: 1, max: 6 });
const fractionArb = fc.double({ min: 0, max: 1, noNaN: true });
/** One follow-up in five picks any transaction, not only one it can apply to. */
const anyArb = fc.integer({ min: 0, max: 4 }).map((n) => n === 0);

const chargeArb = fc
  .tuple(
    fc.constantFrom('SALE', 'SALE', 'FORCED SALE', 'AUTH', 'AUTH', 'UNMATCHED REFUND') as fc.Arbitrary<
      ChargeCommand['kind']
    >,
    amountArb,
    fc.constantFrom<CardKind>('ok', 'ok', 'ok', 'ok', 'declined', 'luhn'),
  )
  .map(([kind, amount, card]) => new ChargeCommand(kind, amount, card));

/** Charges come twice as often as each follow-up, so that there is something to follow up. */
const commandArbs = [
  chargeArb,
  chargeArb,
  fc
    .tuple(
      fc.nat(),
      fc.constantFrom('full', 'less', 'less', 'over') as fc.Arbitrary<'full' | 'less' | 'over'>,
      fractionArb,
      copiesArb,
    )
    .map(([pick, mode, fraction, copies]) => new CaptureCommand(pick, mode, fraction, copies)),
  fc.tuple(fc.nat(), anyArb, copiesArb).map(([pick, anyTx, copies]) => new VoidCommand(pick, anyTx, copies)),
  fc
    .tuple(
      fc.nat(),
      anyArb,
      fc.constantFrom('rest', 'part', 'part', 'over') as fc.Arbitrary<'rest' | 'part' | 'over'>,
      fractionArb,
      copiesArb,
    )
    .map(([pick, anyTx, mode, fraction, copies]) => new RefundCommand(pick, anyTx, mode, fraction, copies)),
  fc.constant(new CloseCommand()),
];

/** Every command checks the open batch after it ran. */
function checked(command: ModelCommand): ModelCommand {
  return {
    check: (model) => command.check(model),
    run: async (model, t) => {
      await command.run(model, t);
      await checkOpenBatch(model, t);
    },
    toString: () => command.toString(),
  };
}

describe('a model of the ledger predicts every answer', () => {
  it('for generated sequences of charges, bursts of captures, voids and refunds, and closes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.commands(
          commandArbs.map((arb) => arb.map(checked)),
          { maxCommands: 40, size: 'max' },
        ),
        async (commands) => {
          const t = await startTestGateway();
          try {
            const model: Model = { txs: [], open: null, lastBatch: 0, closed: new Set() };
            await fc.asyncModelRun(() => ({ model, real: t }), commands);
            await checkAgainstLedger(model, t);
          } finally {
            await t.close();
          }
        },
      ),
      { numRuns: 25, interruptAfterTimeLimit: 40_000 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Waves of mixed operations at once

type Operation =
  | { kind: 'sale' | 'auth' | 'forced' | 'unmatched'; amount: number; card: CardKind }
  | { kind: 'capture' | 'refund'; pick: number; fraction: number }
  | { kind: 'void'; pick: number }
  | { kind: 'close' }
  | { kind: 'garbage'; body: Record<string, unknown> };

const operationArb: fc.Arbitrary<Operation> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constantFrom('sale', 'auth', 'forced', 'unmatched') as fc.Arbitrary<
        'sale' | 'auth' | 'forced' | 'unmatched'
      >,
      amount: amountArb,
      card: fc.constantFrom<CardKind>('ok', 'ok', 'ok', 'declined', 'luhn'),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('capture' as const),
      pick: fc.nat({ max: 1200 }),
      fraction: fc.double({ min: 0.2, max: 1.2, noNaN: true }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('refund' as const),
      pick: fc.nat({ max: 1200 }),
      fraction: fc.double({ min: 0.2, max: 1.2, noNaN: true }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('void' as const), pick: fc.nat({ max: 1200 }) }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'close' as const }) },
  {
    weight: 1,
    // Well-formed requests with bad values: Rejected, recorded, never counted.
    arbitrary: fc
      .constantFrom<Record<string, unknown>>(
        { type: 'SALE', amount: '5.00', card: CARDS.ok, exp_date: '1399' },
        { type: 'SALE', amount: '5', card: CARDS.ok, exp_date: '1230' },
        { type: 'SALE', amount: '0.00', card: CARDS.ok, exp_date: '1230' },
        { type: 'SALE', amount: '5.00', card: CARDS.ok, exp_date: '1230', client_ip: '198.51.100.7' },
        { type: 'VOID', id: '999999' },
        { type: 'REFUND', id: '999999', amount: '1.00' },
        { type: 'CAPTURE', id: '1', amount: '1.00', card: CARDS.ok },
        { type: 'PURCHASE', amount: '5.00', card: CARDS.ok, exp_date: '1230' },
      )
      .map((body) => ({ kind: 'garbage' as const, body })),
  },
);

interface Known {
  id: string;
  type: string;
  amount: number;
}

async function runOperation(t: TestGateway, operation: Operation, known: Known[]): Promise<void> {
  /**
   * Captures go to authorizations and refunds to sales, mostly among the latest four so that the
   * operations of a wave collide; a pick above 1000 takes any transaction.
   */
  const pickFrom = (pick: number, types: readonly string[]) => {
    const fitting = known.filter((tx) => types.includes(tx.type)).slice(-4);
    const pool = pick > 1000 || fitting.length === 0 ? known : fitting;
    return pool[pick % Math.max(1, pool.length)];
  };
  let body: Record<string, unknown>;
  switch (operation.kind) {
    case 'close':
      await closeBatch(t);
      return;
    case 'garbage': {
      const answer = await post(t, operation.body);
      expect(answer.result, JSON.stringify(operation.body)).toBe('Rejected');
      return;
    }
    case 'sale':
    case 'auth':
    case 'forced':
    case 'unmatched':
      body = {
        type: { sale: 'SALE', auth: 'AUTH', forced: 'FORCED SALE', unmatched: 'REFUND' }[operation.kind],
        amount: dollars(operation.amount),
        card: CARDS[operation.card],
        exp_date: '1230',
        ...(operation.kind === 'forced' && { authorization_code: 'VOICE1' }),
      };
      break;
    case 'capture':
    case 'refund': {
      const target = pickFrom(
        operation.pick,
        operation.kind === 'capture' ? ['AUTH'] : ['SALE', 'FORCED SALE', 'CAPTURE'],
      );
      if (!target) return;
      body = {
        type: operation.kind.toUpperCase(),
        id: target.id,
        amount: dollars(Math.max(1, Math.floor(target.amount * operation.fraction))),
      };
      break;
    }
    case 'void': {
      const target = pickFrom(operation.pick, ['SALE', 'FORCED SALE', 'CAPTURE', 'REFUND', 'AUTH']);
      if (!target) return;
      body = { type: 'VOID', id: target.id };
      break;
    }
  }
  const answer = await post(t, body);
  if (answer.result === 'Approved' && answer.id !== undefined) {
    known.push({ id: answer.id, type: String(body.type), amount: cents(String(body.amount ?? '0.00')) });
  }
  if (answer.id !== undefined) {
    // Every answer with an id is in the ledger as answered.
    const [row] = (await getter(t)<TransactionListItem[]>(`transactions?id=${answer.id}`)) ?? [];
    expect(row?.result, `${JSON.stringify(body)} answered ${JSON.stringify(answer)}`).toBe(answer.result);
  }
}

describe('waves of mixed operations sent at once', () => {
  it('never break the invariants, whatever order the engine takes them in', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(operationArb, { minLength: 2, maxLength: 16 }), { minLength: 2, maxLength: 8 }),
        async (waves) => {
          const t = await startTestGateway();
          try {
            const known: Known[] = [];
            for (const wave of waves) {
              await Promise.all(wave.map((operation) => runOperation(t, operation, known)));
              expect(await ledgerProblems(t)).toEqual([]);
            }
          } finally {
            await t.close();
          }
        },
      ),
      { numRuns: 25, interruptAfterTimeLimit: 40_000 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Races on one transaction

describe('races on one transaction', () => {
  // A gateway per test, so that one test's failure does not spill into the next.
  let t: TestGateway;
  beforeEach(async () => {
    t = await startTestGateway();
  });
  afterEach(() => t.close());

  it('refunds of different amounts at once: their sum stays within the sale, and every refused one did not fit', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 100, max: 20_000 }),
        fc.array(fc.integer({ min: 1, max: 8_000 }), { minLength: 2, maxLength: 16 }),
        async (saleAmount, refunds) => {
          const sale = await post(t, { type: 'SALE', amount: dollars(saleAmount), ...VISA });
          await closeBatch(t);
          const answers = await Promise.all(
            refunds.map((amount) => post(t, { type: 'REFUND', id: sale.id, amount: dollars(amount) })),
          );
          const approved = refunds.filter((_, i) => answers[i]?.result === 'Approved');
          const total = approved.reduce((sum, amount) => sum + amount, 0);
          expect(total).toBeLessThanOrEqual(saleAmount);
          // Refused only for not fitting: what remained when it was taken is at least what remains now.
          refunds.forEach((amount, i) => {
            if (answers[i]?.result !== 'Approved') {
              expect(answers[i]).toMatchObject({ result: 'Rejected', error_code: '8014' });
              expect(amount).toBeGreaterThan(saleAmount - total);
            }
          });
          const [row] = (await getter(t)<TransactionListItem[]>(`transactions?id=${sale.id}`)) ?? [];
          expect(row?.refunded_amount).toBe(dollars(total));
          await closeBatch(t);
        },
      ),
      { numRuns: 20, interruptAfterTimeLimit: 20_000 },
    );
    expect(await ledgerProblems(t)).toEqual([]);
  });

  it('captures of different amounts at once: exactly one wins when one fits, none when none does', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 100, max: 20_000 }),
        fc.array(fc.integer({ min: 1, max: 25_000 }), { minLength: 2, maxLength: 12 }),
        async (authorized, captures) => {
          const auth = await post(t, { type: 'AUTH', amount: dollars(authorized), ...VISA });
          const answers = await Promise.all(
            captures.map((amount) => post(t, { type: 'CAPTURE', id: auth.id, amount: dollars(amount) })),
          );
          const winners = answers.filter((answer) => answer.result === 'Approved');
          expect(winners).toHaveLength(captures.some((amount) => amount <= authorized) ? 1 : 0);
          captures.forEach((amount, i) => {
            const answer = answers[i];
            if (answer?.result === 'Approved') expect(amount).toBeLessThanOrEqual(authorized);
            // One that fits is refused only as captured already; one that does not, as too large
            // (or as captured already, when the winner came first).
            else if (amount <= authorized)
              expect(answer).toMatchObject({ result: 'Rejected', error_code: '8011' });
            else if (winners.length === 0)
              expect(answer).toMatchObject({ result: 'Rejected', error_code: '8012' });
            else expect(['8011', '8012']).toContain(answer?.error_code);
          });
          const [row] = (await getter(t)<TransactionListItem[]>(`transactions?id=${auth.id}`)) ?? [];
          expect(row?.captured).toBe(String(winners.length === 1));
        },
      ),
      { numRuns: 20, interruptAfterTimeLimit: 20_000 },
    );
    expect(await ledgerProblems(t)).toEqual([]);
  });

  it('a void racing the batch close: either the void wins and the closed batch leaves the sale out, or it is refused as settled', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 9_999 }), { minLength: 1, maxLength: 6 }),
        fc.nat({ max: 5 }),
        fc.nat({ max: 3 }),
        async (amounts, which, voidCopies) => {
          await closeBatch(t);
          const sales = await Promise.all(
            amounts.map((amount) => post(t, { type: 'SALE', amount: dollars(amount), ...VISA })),
          );
          const target = sales[which % sales.length] as TransactionResponse;
          const [closed, ...voids] = await Promise.all([
            closeBatch(t),
            ...Array.from({ length: voidCopies + 1 }, () => post(t, { type: 'VOID', id: target.id })),
          ]);
          const batch = closed as Batch;
          const voidAnswers = voids as TransactionResponse[];
          const won = voidAnswers.filter((answer) => answer.result === 'Approved');
          expect(won.length).toBeLessThanOrEqual(1);
          const total = amounts.reduce((sum, amount) => sum + amount, 0);
          const targetAmount = amounts[which % amounts.length] as number;
          if (won.length === 1) {
            expect(batch.sales_total).toBe(dollars(total - targetAmount));
            expect(batch.sales_count).toBe(String(amounts.length - 1));
          } else {
            for (const answer of voidAnswers)
              expect(answer).toMatchObject({ result: 'Rejected', error_code: '8016' });
            expect(batch.sales_total).toBe(dollars(total));
            expect(batch.sales_count).toBe(String(amounts.length));
          }
          for (const answer of voidAnswers) {
            if (answer.result !== 'Approved') expect(['8016', '8017']).toContain(answer.error_code);
          }
        },
      ),
      { numRuns: 20, interruptAfterTimeLimit: 20_000 },
    );
    expect(await ledgerProblems(t)).toEqual([]);
  });
});
