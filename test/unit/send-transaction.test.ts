/**
 * Check again across a restart of the engine: the screens' key changes at each start, and the
 * engine keeps answers per key, so a request last sent with an earlier key is answered from what
 * the engine kept under that key, and sent again only when the engine never received it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TenderClient, type FetchLike } from '../../shared/api/client';
import { createBridge } from '../../shared/ipc/facade';
import type { TenderBridge } from '../../shared/ipc/contract';
import { AttemptJournal } from '../../electron/bridge/attempt-journal';
import { dispatchInvoke, type BridgeHandlers } from '../../electron/bridge/dispatch';
import type { StoredAnswer } from '../../electron/gateway/store/ledger-store';
import { prepareTransaction, sendTransaction } from '../../renderer/src/payment/run-transaction';

const EARLIER_KEY = 'tender_aaaaaaaaaaaaaaa1_' + 'e'.repeat(43);
const CURRENT_KEY = 'tender_aaaaaaaaaaaaaaa2_' + 'c'.repeat(43);
const EARLIER_RECORD = 1;
const CURRENT_RECORD = 2;

let dir: string;
/** What the engine kept, by API key record and Idempotency-Key. */
let kept: Map<string, StoredAnswer>;
/** The requests that reached the engine, with the key they carried. */
let sent: { apiKey: string; idempotencyKey: string }[];
let bridge: TenderBridge;
let journalHandlers: BridgeHandlers;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tender-send-'));
  kept = new Map();
  sent = [];
  const options = {
    file: join(dir, 'unanswered-payments.json'),
    ledger: { findAnswer: async (apiKeyId: number, key: string) => kept.get(`${apiKeyId} ${key}`) },
  };
  // The run before this one, which issued its screens the earlier key.
  new AttemptJournal({ ...options, apiKeyId: () => EARLIER_RECORD, keyRecordId: () => undefined });
  const journal = new AttemptJournal({
    ...options,
    apiKeyId: () => CURRENT_RECORD,
    keyRecordId: (publicId) => (publicId === 'aaaaaaaaaaaaaaa1' ? EARLIER_RECORD : undefined),
  });
  const handlers = journal.handlers() as unknown as BridgeHandlers;
  journalHandlers = handlers;
  bridge = createBridge(
    {
      invoke: (channel, input) => dispatchInvoke(handlers, channel, input),
      subscribe: () => () => undefined,
    },
    '',
  );
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The restarted engine: it approves what carries the current key, and answers 401 to any other. */
const restartedEngine: FetchLike = async (_url, init) => {
  if (init.headers.api_key !== CURRENT_KEY) {
    return {
      status: 401,
      text: async () => JSON.stringify({ error: 'unauthorized', message: 'Unknown API key.' }),
    };
  }
  sent.push({ apiKey: init.headers.api_key, idempotencyKey: init.headers['idempotency-key'] ?? '' });
  return {
    status: 200,
    text: async () =>
      JSON.stringify({
        id: '77',
        result: 'Approved',
        display_message: 'Approved',
        authorization_code: 'NEW777',
      }),
  };
};

/** The screens' client with `apiKey`: the new key, or the earlier one not yet replaced. */
function clientWith(apiKey: string): TenderClient {
  return new TenderClient({ baseUrl: 'https://127.0.0.1:8443/rest/v1', apiKey, fetch: restartedEngine });
}

const SALE = { type: 'SALE', amount: '31.00', card: '4111111111111111', expiration_date: '1230' } as const;

describe('Check again after the engine restarted', () => {
  it('shows the answer kept under the earlier key, and sends nothing', async () => {
    const pending = { ...prepareTransaction(SALE), sentWith: 'aaaaaaaaaaaaaaa1' };
    kept.set(`${EARLIER_RECORD} ${pending.idempotencyKey}`, {
      fingerprint: 'f',
      response: JSON.stringify({
        id: '41',
        result: 'Approved',
        display_message: 'Approved',
        authorization_code: 'OLD411',
      }),
    });
    const outcome = await sendTransaction(clientWith(CURRENT_KEY), pending, 'sale', { bridge });
    expect(outcome).toMatchObject({ kind: 'approved' });
    expect(JSON.stringify(outcome)).toContain('OLD411');
    expect(sent).toEqual([]);
  });

  it('sends it under the new key when the engine never received it', async () => {
    const pending = { ...prepareTransaction(SALE), sentWith: 'aaaaaaaaaaaaaaa1' };
    const outcome = await sendTransaction(clientWith(CURRENT_KEY), pending, 'sale', { bridge });
    expect(outcome).toMatchObject({ kind: 'approved' });
    expect(sent).toEqual([{ apiKey: CURRENT_KEY, idempotencyKey: pending.idempotencyKey }]);
    expect(pending.sentWith).toBe('aaaaaaaaaaaaaaa2');
  });

  it('keeps the payment unknown when the resend is refused for its key: the first sending may have been done', async () => {
    const pending = { ...prepareTransaction(SALE), sentWith: 'aaaaaaaaaaaaaaa1' };
    // The page has not read its new key yet: it still sends with the earlier one, which is revoked.
    const outcome = await sendTransaction(clientWith(EARLIER_KEY), pending, 'sale', { bridge });
    expect(outcome).toMatchObject({ kind: 'unknown', reason: 'no-answer' });
    expect(sent).toEqual([]);
  });

  it('still refuses a first sending with an unknown key as not done', async () => {
    const pending = prepareTransaction(SALE);
    expect(await sendTransaction(clientWith(EARLIER_KEY), pending, 'sale', { bridge })).toMatchObject({
      kind: 'refused',
      status: 401,
    });
  });
});

describe('a sale rung up while the engine restarts', () => {
  it('refused for the stopped run’s key while reconnecting, is unreachable with Check again, and then sent once', async () => {
    const pending = prepareTransaction(SALE);
    const first = await sendTransaction(clientWith(EARLIER_KEY), pending, 'sale', {
      bridge,
      reconnecting: () => true,
    });
    expect(first).toMatchObject({ kind: 'unknown', reason: 'unreachable' });
    expect(JSON.stringify(first)).not.toMatch(/API key/);
    expect(sent).toEqual([]);

    const again = await sendTransaction(clientWith(CURRENT_KEY), pending, 'sale', { bridge });
    expect(again).toMatchObject({ kind: 'approved', transactionId: '77' });
    expect(sent).toEqual([{ apiKey: CURRENT_KEY, idempotencyKey: pending.idempotencyKey }]);
  });

  it('carries the key the screens hold when it leaves, not the one they held when it was started', async () => {
    let current = clientWith(EARLIER_KEY);
    const journalled = createBridge(
      {
        invoke: (channel, input) => {
          // The screens take the restarted engine's key while the journal is written.
          if (channel === 'attempts:begin') current = clientWith(CURRENT_KEY);
          return dispatchInvoke(journalHandlers, channel, input);
        },
        subscribe: () => () => undefined,
      },
      '',
    );
    const pending = prepareTransaction(SALE);
    const outcome = await sendTransaction(() => current, pending, 'sale', { bridge: journalled });
    expect(outcome).toMatchObject({ kind: 'approved' });
    expect(sent).toEqual([{ apiKey: CURRENT_KEY, idempotencyKey: pending.idempotencyKey }]);
  });
});
