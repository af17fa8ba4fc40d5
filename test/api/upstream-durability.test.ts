/**
 * Store and forward across a crash, and what stays on disk: the queue lives in the ledger, so an
 * engine SIGKILLed with sales waiting forwards each of them once after its restart; once forwarded,
 * no file of the data dir (or, on a store server, of the database server) holds the card number,
 * the track data or the reader's ciphertext of a swipe; and the gateway's key shows in no output.
 */
import { readdirSync, readFileSync, rmSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine } from '../../electron/gateway/open-store';
import { parseSwipeString } from '../../electron/gateway/swipe/format';
import { EngineClient, freePort, runCli, startEngineProcess } from '../support/engine-process';
import {
  createTestDatabase,
  startTestGateway,
  TEST_STORE,
  type TestDatabase,
  type TestGateway,
} from '../support/gateway';
import { relaySettings, startRelay, swipe } from '../support/relay';
import { startUpstreamGateway, type UpstreamGateway } from '../support/upstream-gateway';

let upstream: UpstreamGateway;
beforeAll(async () => {
  upstream = await startUpstreamGateway();
});
afterAll(async () => {
  await upstream?.close();
});

const CARD = { pan: '4556737586899855', expMmyy: '1230', firstName: 'Rae', lastName: 'Holm' };

/** Every file below `dir`, read whole (files that vanish or cannot be read meanwhile are skipped). */
function filesBelow(dir: string): { path: string; bytes: Buffer }[] {
  const found: { path: string; bytes: Buffer }[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    try {
      const stat = statSync(path);
      if (stat.isDirectory()) found.push(...filesBelow(path));
      else if (stat.isFile()) found.push({ path, bytes: readFileSync(path) });
    } catch {
      // A file the server removed while it was walked (a log segment, a temporary file).
    }
  }
  return found;
}

/** The files that hold any of `needles`, as text (latin1, so binary pages are searched byte for byte). */
function holding(files: { path: string; bytes: Buffer }[], needles: string[]): string[] {
  return files
    .filter(({ bytes }) => {
      const text = bytes.toString('latin1');
      return needles.some((needle) => text.includes(needle));
    })
    .map(({ path }) => path);
}

/** What of a swipe must never be found: the card number, and the reader's encrypted tracks. */
function tracesOf(encrypted: string): string[] {
  const parsed = parseSwipeString(encrypted);
  if (!parsed.ok) throw new Error('not a swipe');
  return [
    CARD.pan,
    encrypted,
    ...parsed.fields.encryptedTracks
      .filter((track) => track.length > 0)
      .map((track) => track.toString('hex').toUpperCase()),
  ];
}

/** The database server's own directory, when the ledger is on a store server. */
async function storeServerDirectory(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (
      (await client.query<{ data_directory: string }>('SHOW data_directory')).rows[0]?.data_directory ?? ''
    );
  } finally {
    await client.end();
  }
}

/**
 * `path` of the store server's directory, with the relation it belongs to when it is one: a failure
 * then says which table, index or log holds what should be gone, and in which database.
 */
async function nameOf(url: string, serverDir: string, path: string): Promise<string> {
  const relative = path.slice(serverDir.length + 1);
  const match = /^base\/(\d+)\/(\d+)/.exec(relative);
  if (!match) return relative;
  const server = new pg.Client({ connectionString: url });
  await server.connect();
  try {
    const database = (
      await server.query<{ datname: string }>('SELECT datname FROM pg_database WHERE oid = $1', [match[1]])
    ).rows[0]?.datname;
    if (!database) return `${relative} (a database since dropped)`;
    const databaseUrl = new URL(url);
    databaseUrl.pathname = `/${database}`;
    const inDatabase = new pg.Client({ connectionString: databaseUrl.toString() });
    await inDatabase.connect();
    try {
      const relation = (
        await inDatabase.query<{ relname: string }>(
          'SELECT relname FROM pg_class WHERE pg_relation_filenode(oid) = $1',
          [match[2]],
        )
      ).rows[0]?.relname;
      return `${relative} (${relation ?? 'no relation'} in ${database})`;
    } finally {
      await inDatabase.end();
    }
  } finally {
    await server.end();
  }
}

describe('store and forward, durably', () => {
  it('an engine killed with sales waiting forwards each once after its restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tender-forward-crash-'));
    const database: TestDatabase | undefined = await createTestDatabase();
    const storeArgs = database ? ['--database', database.url, '--lane', database.lane] : [];
    try {
      const engine = await openEngine(dataDir, database ? { store: database } : {});
      const key = (await engine.keys.create('till')).key;
      await engine.settings.change(
        relaySettings(upstream, { offline: true, settings: [['duplicate_window_minutes', '0']] }),
      );
      await engine.close();

      const port = await freePort();
      let serving = await startEngineProcess(dataDir, port, { args: storeArgs });
      const client = EngineClient.forDataDir(dataDir, port, key);
      await upstream.proxy.line('refuse');
      const ids: string[] = [];
      for (const amount of ['1.01', '2.02', '3.03']) {
        const answer = await client.request('POST', 'transactions', {
          body: JSON.stringify({ type: 'SALE', amount, ...swipe(CARD) }),
        });
        const body = JSON.parse(answer.body) as { id: string; offline?: string };
        expect(body.offline).toBe('true');
        ids.push(body.id);
      }
      expect((await serving.kill()).signal).toBe('SIGKILL');
      const seen = upstream.proxy.seen.length;
      await upstream.proxy.line('up');
      serving = await startEngineProcess(dataDir, port, { args: storeArgs });
      try {
        const forwardStates = async () => {
          const listed = JSON.parse(
            (await client.requestSafely('GET', 'transactions?offline=true')).body,
          ) as {
            id: string;
            forward_state: string;
            upstream_id: string;
          }[];
          return ids.map((id) => listed.find((each) => each.id === id)?.forward_state);
        };
        await expect.poll(forwardStates).toEqual(['forwarded', 'forwarded', 'forwarded']);
        const posts = upstream.proxy.seen
          .slice(seen)
          .filter((request) => request.method === 'POST')
          .map((request) => JSON.parse(request.body) as { amount: string; order_number: string });
        expect(posts.map((body) => body.amount)).toEqual(['1.01', '2.02', '3.03']);
        for (const body of posts)
          expect(
            await upstream.gateway.client.listTransactions({ order_id: body.order_number }),
          ).toHaveLength(1);
        // The key of the gateway account never went to the engine's output.
        expect(serving.output()).not.toContain(upstream.key);
      } finally {
        await serving.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
      await database?.drop();
    }
  });
});

/**
 * Another session of the ledger, in a transaction that stays open until `end`: `'snapshot'`, one that
 * keeps the snapshot it took, as a report or a backup would; `'queue'` (store server) one that read
 * the queue's swipes and so holds their table, as a support query left open would.
 */
async function holdReader(t: TestGateway, kind: 'snapshot' | 'queue'): Promise<{ end: () => Promise<void> }> {
  if (t.store) {
    const reader = new pg.Client({ connectionString: t.store.url });
    await reader.connect();
    if (kind === 'snapshot') {
      await reader.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
      await reader.query('SELECT count(*) FROM transactions');
    } else {
      await reader.query('BEGIN');
      await reader.query('SELECT count(*) FROM forward_swipes');
    }
    return {
      end: async () => {
        await reader.query('COMMIT');
        await reader.end();
      },
    };
  }
  const reader = new Database(join(t.dataDir, 'tender.db'), { readonly: true });
  reader.exec('BEGIN');
  reader.prepare('SELECT count(*) FROM forward_swipes').get();
  return {
    end: async () => {
      reader.exec('COMMIT');
      reader.close();
    },
  };
}

/**
 * Sells offline with a swipe of CARD, and gives the sale and a scan for what must be gone once it is
 * forwarded: every file of the data dir and, on a store server, of the database server, by name.
 */
async function sellOffline(t: TestGateway, amount: string) {
  await upstream.proxy.line('refuse');
  const swiped = swipe(CARD);
  const answer = await t.client.createTransaction({ type: 'SALE', amount, ...swiped });
  expect(answer.offline).toBe('true');
  const traces = tracesOf(swiped.encrypted_track_data);
  const store = t.store;
  const serverDir = store ? await storeServerDirectory(store.url) : undefined;
  const scan = async () => [
    ...holding(filesBelow(t.dataDir), traces),
    ...(store && serverDir
      ? await Promise.all(
          holding(filesBelow(serverDir), traces).map((path) => nameOf(store.url, serverDir, path)),
        )
      : []),
  ];
  // While it waits, the reader's encryption is kept (and the scan finds it: it looks where it must).
  expect((await scan()).length).toBeGreaterThan(0);
  return { id: answer.id ?? '', scan };
}

/** Forwards what waits, and checks that `id` went. */
async function forward(t: TestGateway, id: string): Promise<void> {
  await upstream.proxy.line('up');
  await t.gateway.engine.forwarder.drain();
  const [listed] = await t.client.listTransactions({ id });
  expect(listed?.forward_state).toBe('forwarded');
}

/** Forwarding rounds until `scan` finds nothing; the erasure runs with them. */
async function expectErased(t: TestGateway, scan: () => Promise<string[]>): Promise<void> {
  await expect
    .poll(async () => {
      await t.gateway.engine.forwarder.round();
      return await scan();
    })
    .toEqual([]);
}

/**
 * Sells offline, forwards once the line is back, with another session of the ledger holding on across
 * the forwarding when `reader` says which, and expects every trace of the swipe gone.
 */
async function expectSwipeErased(amount: string, reader?: 'snapshot' | 'queue'): Promise<void> {
  const t = await startRelay(upstream, { offline: true });
  try {
    const { id, scan } = await sellOffline(t, amount);
    const held = reader && (await holdReader(t, reader));
    try {
      await forward(t, id);
    } finally {
      await held?.end();
    }
    await expectErased(t, scan);
  } finally {
    await upstream.proxy.line('up');
    await t.close();
  }
}

describe('card data once forwarded', () => {
  it("no file holds the card number, the track data or the swipe's ciphertext", async () => {
    await expectSwipeErased('4.21');
  });

  it('a reader that still sees the swipe when it is deleted delays its erasure, which ends once it has gone', async () => {
    await expectSwipeErased('4.22', 'snapshot');
  });

  it.runIf(TEST_STORE === 'postgres')(
    "a session holding the swipes' table delays their erasure without failing the forwarding",
    async () => {
      await expectSwipeErased('4.23', 'queue');
    },
  );

  it('an erasure still owed when the engine stops is done by the engine that starts next, with nothing waiting', async () => {
    const t = await startRelay(upstream, { offline: true });
    let restarted: TestGateway | undefined;
    try {
      const { id, scan } = await sellOffline(t, '4.24');
      // A reader keeps the older pages (or snapshot) across the forwarding and past the engine's stop,
      // so the erasure cannot be done before the engine stops.
      const held = await holdReader(t, 'snapshot');
      try {
        await forward(t, id);
        expect((await scan()).length).toBeGreaterThan(0);
        await t.gateway.close();
      } finally {
        await held.end();
      }
      // The same ledger, opened again: nothing waits to be forwarded, and the forwarder runs by itself.
      restarted = await startTestGateway({
        dataDir: t.dataDir,
        ...(t.store && { engine: { store: t.store } }),
      });
      expect((await restarted.gateway.engine.ledger.forwards.summary()).count).toBe(0);
      await expect.poll(scan).toEqual([]);
    } finally {
      await upstream.proxy.line('up');
      await restarted?.close();
      await t.close();
    }
  });

  it("the gateway's key is in no list, audit entry, setting shown or command output", async () => {
    const t = await startRelay(upstream);
    try {
      await t.client.createTransaction({
        type: 'SALE',
        amount: '1.50',
        card: '4111111111111111',
        exp_date: '1230',
      });
      const store = t.store ? ['--database', t.store.url, '--lane', t.store.lane] : [];
      const outputs = [
        JSON.stringify(await t.client.listTransactions({ page_size: 100 })),
        JSON.stringify(await t.gateway.engine.reads.recentAudit(100)),
        t.gateway.engine.settings.display('upstream_api_key'),
        ...['settings', 'audit'].map((command) => {
          const result = runCli(
            command,
            ...(command === 'settings' ? ['get'] : []),
            '--data-dir',
            t.dataDir,
            ...store,
          );
          return result.stdout + result.stderr;
        }),
      ];
      for (const output of outputs) expect(output).not.toContain(upstream.key);
      expect(outputs[2]).toBe('set (hidden)');
    } finally {
      await t.close();
    }
  });
});
