/**
 * A request a manager allowed goes through the host, not the API, and is answered as the API answers
 * it: a retry while the first is still being answered is still in progress (the API's 409), kept in
 * the journal for Check again; a key used for another request is said as such (422); only a refusal
 * of the approval is "Nothing was done"; and a close whose ledger read took too long is unavailable
 * (503), never a failure the screens take as refused. Each case goes through the screens' own code,
 * over the bridge and over HTTP, on a real engine.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TenderClient } from '../../shared/api/client';
import type { TransactionRequestBody } from '../../shared/api/schemas';
import type { InvokeChannel, TenderBridge } from '../../shared/ipc/contract';
import { createBridge } from '../../shared/ipc/facade';
import { dispatchInvoke, SCREENS_KEY_REVOKED_MESSAGE } from '../../electron/bridge/dispatch';
import type { Terminal } from '../../electron/bridge/terminal';
import { startTerminal } from '../support/terminal';
import { ReadTimeoutError } from '../../electron/gateway/store/store-errors';
import {
  prepareTransaction,
  sendTransaction,
  type PendingTransaction,
} from '../../renderer/src/payment/run-transaction';
import { startTestGateway, VISA, type TestGateway } from '../support/gateway';

const MANAGER_PIN = '2580';
const CASHIER_PIN = '1470';

let t: TestGateway;
let terminal: Terminal;
/** The screens' client, with the key the host issued them. */
let screens: TenderClient;
/** The bridge as the screens have it, and the channels they called on it. */
let bridge: TenderBridge;
let called: InvokeChannel[];

beforeAll(async () => {
  t = await startTestGateway();
  await t.gateway.engine.staff.create({ name: 'Maya', role: 'manager', pin: MANAGER_PIN }, 'test');
  await t.gateway.engine.staff.create({ name: 'Cole', role: 'cashier', pin: CASHIER_PIN }, 'test');
  terminal = await startTerminal(t, { shell: 'desktop' });
  called = [];
  bridge = createBridge(
    {
      invoke: (channel, input) => {
        called.push(channel);
        return dispatchInvoke(terminal.handlers, channel, input);
      },
      subscribe: () => () => undefined,
    },
    '',
  );
  const { apiKey } = await bridge.invoke('terminal:session');
  screens = t.clientWith(apiKey);
  await bridge.invoke('staff:sign-in', { pin: CASHIER_PIN });
});
afterEach(() => {
  vi.restoreAllMocks();
  called.length = 0;
});
afterAll(async () => {
  await terminal.stop();
  await t.close();
});

async function openSale(amount: string): Promise<string> {
  const sale = await t.client.createTransaction({ type: 'SALE', amount, ...VISA });
  expect(sale.result).toBe('Approved');
  return sale.id ?? '';
}

/** The void of `saleId`, as the screens prepare it with the manager's PIN. */
function voidOf(saleId: string): PendingTransaction {
  return prepareTransaction({ type: 'VOID', id: saleId } as TransactionRequestBody, { pin: MANAGER_PIN });
}

/**
 * Holds the engine's first look for a stored answer, as a card gateway that has not answered yet
 * holds a request: `held` settles once the request is inside, `release` lets it go on.
 */
function holdFirstRequest() {
  const ledger = t.gateway.engine.ledger;
  const findAnswer = ledger.findAnswer.bind(ledger);
  let inside!: () => void;
  const held = new Promise<void>((resolve) => (inside = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  vi.spyOn(ledger, 'findAnswer').mockImplementationOnce(async (...args) => {
    inside();
    await released;
    return findAnswer(...args);
  });
  return { held, release };
}

/** Sends `pending` twice, the second while the engine still answers the first; both outcomes. */
async function retriedInFlight(send: () => ReturnType<typeof sendTransaction>) {
  const { held, release } = holdFirstRequest();
  const first = send();
  try {
    await held;
    const retried = await send();
    release();
    return { retried, first: await first };
  } finally {
    release();
  }
}

describe('Check again while the first try is still being answered', () => {
  it('is still in progress over the bridge, as over HTTP, and the attempt stays in the journal', async () => {
    const overHttp = voidOf(await openSale('4.10'));
    const http = await retriedInFlight(() => sendTransaction(t.client, overHttp, 'void'));
    expect(http.first).toMatchObject({ kind: 'approved' });

    const pending = voidOf(await openSale('4.20'));
    const approved = await retriedInFlight(() => sendTransaction(screens, pending, 'void', { bridge }));
    expect(approved.retried).toEqual(http.retried);
    expect(approved.retried).toMatchObject({
      kind: 'unknown',
      reason: 'in-progress',
      message: 'The payment engine is still working on this sale.',
      nextStep: expect.stringMatching(/^It may or may not have been voided\. Press Check again/),
    });
    // Resolved once, by the first try's answer; the retry left the attempt for Check again.
    expect(called.filter((channel) => channel === 'attempts:resolve')).toHaveLength(1);
    expect(approved.first).toMatchObject({ kind: 'approved' });

    // Check again once it is answered: the first try's answer, and it is voided once.
    const again = await sendTransaction(screens, pending, 'void', { bridge });
    expect(again).toEqual(approved.first);
  });

  it('is told the same from the host as from the API', async () => {
    const outcomes = await Promise.all(
      (['in-progress', 'key-reused'] as const).map(async (code) => {
        const failing = createBridge(
          {
            invoke: async (channel, input) =>
              channel === 'counter:approved-transaction'
                ? { ok: false, error: { code, message: `The engine said ${code}.` } }
                : dispatchInvoke(terminal.handlers, channel, input),
            subscribe: () => () => undefined,
          },
          '',
        );
        return sendTransaction(screens, voidOf('1'), 'void', { bridge: failing });
      }),
    );
    expect(outcomes).toMatchObject([
      { kind: 'unknown', reason: 'in-progress' },
      { kind: 'refused', status: 422, message: 'The engine said key-reused.' },
    ]);
  });
});

describe('an idempotency key used for another request', () => {
  it('is said as such over the bridge, as over HTTP, and not as a manager’s refusal', async () => {
    const reuse = async (send: (pending: PendingTransaction) => ReturnType<typeof sendTransaction>) => {
      const first = voidOf(await openSale('5.10'));
      expect(await send(first)).toMatchObject({ kind: 'approved' });
      // Another void under the same key: the engine keeps the first one's answer for that key.
      const other = { ...voidOf(await openSale('5.20')), idempotencyKey: first.idempotencyKey };
      return send(other);
    };
    const http = await reuse((pending) => sendTransaction(t.client, pending, 'void'));
    const approved = await reuse((pending) => sendTransaction(screens, pending, 'void', { bridge }));
    expect(approved).toEqual(http);
    expect(approved).toMatchObject({
      kind: 'refused',
      status: 422,
      message:
        'This Idempotency-Key was already used for a different request. Use a new key for a new transaction.',
      nextStep: 'Nothing was voided. If this repeats, contact support.',
    });
  });
});

describe('a request with blank or padded fields', () => {
  it('is read the same over the bridge as over HTTP: blank fields absent, text trimmed', async () => {
    const voidWith = async (send: (pending: PendingTransaction) => ReturnType<typeof sendTransaction>) => {
      const body = { type: 'VOID', id: await openSale('7.10'), invoice: null, comments: '  counted twice  ' };
      return send(prepareTransaction(body as unknown as TransactionRequestBody, { pin: MANAGER_PIN }));
    };
    const http = await voidWith((pending) => sendTransaction(t.client, pending, 'void'));
    const approved = await voidWith((pending) => sendTransaction(screens, pending, 'void', { bridge }));
    expect(http).toMatchObject({ kind: 'approved' });
    expect(approved).toMatchObject({ kind: 'approved' });
  });
});

describe('a refusal of the approval', () => {
  it('is still "Nothing was done", and the attempt is resolved', async () => {
    const pending = prepareTransaction({
      type: 'VOID',
      id: await openSale('6.10'),
    } as TransactionRequestBody);
    const outcome = await sendTransaction(screens, pending, 'void', { bridge });
    expect(outcome).toMatchObject({
      kind: 'refused',
      status: 403,
      nextStep: 'Nothing was done. Ask a manager to allow it, then try again.',
    });
    expect(called).toContain('attempts:resolve');
  });
});

describe('a close whose shares by lane take too long to read once it has closed', () => {
  it('is answered closed, without the shares, over HTTP as over the bridge', async () => {
    const timedOut = () =>
      vi.spyOn(t.gateway.engine.reads, 'batchWithLanes').mockRejectedValueOnce(new ReadTimeoutError(5000));

    await openSale('7.10');
    const first = await t.client.openBatch();
    timedOut();
    const overHttp = await t.client.closeOpenBatch();
    expect(overHttp).toMatchObject({ id: first?.id, status: 'CLOSED' });
    expect(overHttp).not.toHaveProperty('lanes');

    await openSale('7.20');
    const open = await t.client.openBatch();
    if (!open) throw new Error('no open batch');
    timedOut();
    const overBridge = await bridge.invoke('counter:approved-close', {
      expectedTotalCount: Number(open.total_count),
      expectedNetAmount: open.net_amount,
      pin: MANAGER_PIN,
    });
    expect(overBridge).toMatchObject({ outcome: 'closed', batch: { id: open.id, status: 'CLOSED' } });
    // Listed, the closed batch has its shares.
    const [listed] = await t.client.listBatches({ id: open.id, page_size: 1 });
    expect(listed?.lanes).toHaveLength(1);
  });
});

describe('a screens key revoked while the counter runs', () => {
  it('is refused as such over the bridge, as over HTTP, and nothing is done', async () => {
    const own = await startTestGateway();
    const counter = await startTerminal(own, { shell: 'desktop' });
    try {
      await own.gateway.engine.staff.create({ name: 'Maya', role: 'manager', pin: MANAGER_PIN }, 'test');
      const call = (channel: InvokeChannel, input?: unknown) =>
        dispatchInvoke(counter.handlers, channel, input, { onUnexpectedError: unexpected });
      const unexpected = vi.fn();
      expect(await call('staff:sign-in', { pin: MANAGER_PIN })).toMatchObject({ ok: true });
      const sale = await own.client.createTransaction({ type: 'SALE', amount: '8.10', ...VISA });
      const session = await call('terminal:session');
      if (!session.ok) throw new Error(session.error.message);
      const { apiKey } = session.value as { apiKey: string };
      // Revoked from elsewhere (another counter of the store, or the command line).
      await own.gateway.engine.keys.revoke(apiKey, 'test');

      const refused = await call('counter:approved-transaction', {
        request: { type: 'VOID', id: sale.id },
        idempotencyKey: 'void-after-revocation',
      });
      expect(refused).toEqual({
        ok: false,
        error: { code: 'refused', message: SCREENS_KEY_REVOKED_MESSAGE },
      });
      expect(unexpected).not.toHaveBeenCalled();
      const [kept] = await own.client.listTransactions({ id: sale.id });
      expect(kept).toMatchObject({ type: 'Sale', result: 'Approved' });
      expect(await own.client.listTransactions({ type: 'VOID' })).toEqual([]);
      const overHttp = await own.request('transactions', {
        headers: { api_key: apiKey, accept: 'application/json' },
      });
      expect(overHttp.status).toBe(401);
    } finally {
      await counter.stop();
      await own.close();
    }
  });
});
