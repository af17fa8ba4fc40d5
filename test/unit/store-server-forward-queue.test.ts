/**
 * The store-and-forward queue on a store server that cannot be reached: its reads, its erasure and its
 * forwarder's lock fail as the store's own error, which every route answers 503 store_unreachable,
 * never as a raw error of the driver (a 500); and the forwarder's drain before a batch close with the
 * gateway says so too.
 */
import { EventEmitter } from 'node:events';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Forwarder } from '../../electron/gateway/forwarder';
import type { UpstreamProcessor } from '../../electron/gateway/processor/upstream';
import { PostgresLedger } from '../../electron/gateway/store/postgres/ledger';
import { StoreUnreachableError } from '../../electron/gateway/store/store-errors';
import { startPostgresServer, type PostgresServer } from '../support/postgres-server';

let server: PostgresServer;
beforeAll(async () => {
  server = await startPostgresServer();
});
afterAll(() => server?.close());

let ledger: PostgresLedger | undefined;
afterEach(async () => {
  await ledger?.close();
  ledger = undefined;
});

/** A ledger on a database of its own, with the server stopped for the length of `during`. */
async function withServerStopped(during: (ledger: PostgresLedger) => Promise<void>): Promise<void> {
  ledger = await PostgresLedger.open({ url: await server.createDatabase(), lane: 'lane-1' });
  // Read once with the server up, so that the pool holds connections the stop then breaks.
  expect((await ledger.forwards.summary()).count).toBe(0);
  await server.stop();
  try {
    await during(ledger);
  } finally {
    await server.start();
  }
}

describe('the forward queue on a store server that cannot be reached', () => {
  // Each failure is waited for, never timed: a read that hung would run into the test's limit.
  it('reads, erases and takes the forwarder’s lock failing as store_unreachable', async () => {
    await withServerStopped(async ({ forwards }) => {
      await expect(forwards.summary()).rejects.toThrow(StoreUnreachableError);
      await expect(forwards.waiting(10)).rejects.toThrow(StoreUnreachableError);
      await expect(forwards.declined()).rejects.toThrow(StoreUnreachableError);
      await expect(forwards.pendingChecks(10)).rejects.toThrow(StoreUnreachableError);
      await expect(forwards.eraseSwipeRemnants()).rejects.toThrow(StoreUnreachableError);
      await expect(forwards.asOnlyForwarder(async () => 'ran')).rejects.toThrow(StoreUnreachableError);
    });
    // Back by itself once the server is.
    expect((await ledger?.forwards.summary())?.count).toBe(0);
  });

  it('a server lost while the forwarder holds its lock fails the round as store_unreachable', async () => {
    ledger = await PostgresLedger.open({ url: await server.createDatabase(), lane: 'lane-1' });
    const { forwards } = ledger;
    try {
      await expect(
        forwards.asOnlyForwarder(async () => {
          await server.stop();
          return forwards.waiting(10);
        }),
      ).rejects.toThrow(StoreUnreachableError);
    } finally {
      await server.start();
    }
    expect(await forwards.asOnlyForwarder(async () => 'ran')).toBe('ran');
  });

  it('the drain before a batch close with the gateway fails as store_unreachable', async () => {
    await withServerStopped(async (stopped) => {
      // The store fails before the gateway is ever asked: a line that never changes is all it needs.
      const upstream = { line: new EventEmitter() } as unknown as UpstreamProcessor;
      const forwarder = new Forwarder(stopped, upstream);
      await expect(forwarder.drain()).rejects.toThrow(StoreUnreachableError);
    });
  });
});
