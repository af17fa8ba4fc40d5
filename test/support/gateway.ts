/**
 * A real engine on loopback HTTPS over a fresh ledger, and clients that trust its certificate. The
 * ledger is the data dir's SQLite file, or, when the run is on PostgreSQL (TENDER_TEST_STORE=postgres,
 * as the api-postgres project sets it), a fresh database of the suite's store server.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, inject } from 'vitest';
import { TenderClient, type FetchLike } from '../../shared/api/client';
import type { Permission } from '../../shared/api/permissions';
import type { Engine } from '../../electron/gateway/engine';
import type { OpenEngineOptions, StoreServerOptions } from '../../electron/gateway/open-store';
import { startGateway, type RunningGateway } from '../../electron/gateway/gateway';
import { KeptAgent } from '../../electron/gateway/processor/kept-agent';
import type { ServerLimits } from '../../electron/gateway/http/server';
import type { AuditEntry } from '../../electron/gateway/store/audit';
import { administer, TEMPLATE_DATABASE } from './postgres-server';

export type TestStore = 'sqlite' | 'postgres';

/** Where this run's test gateways keep their ledger: TENDER_TEST_STORE, SQLite unless it says postgres. */
export const TEST_STORE: TestStore = process.env.TENDER_TEST_STORE === 'postgres' ? 'postgres' : 'sqlite';

/** The lane of a test gateway on the store server. */
export const TEST_LANE = 'counter-1';

/**
 * A describe block about the SQLite file itself (its backups, integrity check, WAL, checkpoints, a
 * damaged file in the data dir): on PostgreSQL it is skipped, and its name says why.
 */
export function describeSqliteOnly(name: string, reason: string, body: () => void): void {
  if (TEST_STORE === 'postgres') describe.skip(`${name} (SQLite only: ${reason})`, body);
  else describe(name, body);
}

/** A database of the suite's store server for one test, and how to remove it after. */
export interface TestDatabase extends StoreServerOptions {
  /** Drops it beside the tests that follow; the end of the test file waits for the drop. */
  drop(): Promise<void>;
}

/**
 * For a test that starts engines or commands of its own: on PostgreSQL, a database of its own on the
 * suite's store server (its ledger, to pass as `store` or with storeArguments); on SQLite, undefined.
 */
export function createTestDatabase(): Promise<TestDatabase | undefined> {
  return TEST_STORE === 'postgres' ? takeStoreDatabase() : Promise.resolve(undefined);
}

/**
 * Making and dropping a database each flush the server's log, up to a second on a busy disk. So they
 * happen beside the tests: the next database is made while the current one serves, drops are not
 * waited for, and the test file's end waits for all of them.
 */
let spare: Promise<TestDatabase> | undefined;
const dropping = new Set<Promise<void>>();

if (TEST_STORE === 'postgres')
  afterAll(async () => {
    const unused = spare;
    spare = undefined;
    await (await unused?.catch(() => undefined))?.drop();
    await Promise.all(dropping);
  });

function takeStoreDatabase(): Promise<TestDatabase> {
  const taken = spare ?? createStoreDatabase();
  spare = createStoreDatabase();
  // A failure to make the spare is reported by the test that takes it.
  spare.catch(() => undefined);
  return taken;
}

/** A database of its own on the suite's store server, copied from the migrated template. */
async function createStoreDatabase(): Promise<TestDatabase> {
  const adminUrl = inject('storeServerAdminUrl');
  if (!adminUrl) throw new Error("TENDER_TEST_STORE=postgres needs the api-postgres project's store server");
  const name = `test_${randomBytes(6).toString('hex')}`;
  await administer(adminUrl, [`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DATABASE}`]);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    lane: TEST_LANE,
    drop: async () => {
      const dropped = administer(adminUrl, [`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`]).finally(() =>
        dropping.delete(dropped),
      );
      dropping.add(dropped);
    },
  };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The body as it came, for the answers that are pictures. */
  bytes: Buffer;
  json<T = Record<string, unknown>>(): T;
}

export interface RawRequest {
  method?: string;
  headers?: Record<string, string>;
  /** Sent as given: a string as UTF-8, a Buffer byte for byte, so it need not be UTF-8. */
  body?: string | Buffer;
  /** Overrides the Host header (DNS-rebinding tests). */
  host?: string;
  /** Sends the request on a connection of its own, closed after the answer. */
  newConnection?: boolean;
}

export interface TestGateway {
  gateway: RunningGateway;
  dataDir: string;
  /** The store server database and lane of the ledger; undefined when the ledger is the data dir's file. */
  store: StoreServerOptions | undefined;
  /** An API key with every permission. */
  key: string;
  client: TenderClient;
  /** A request with full control of method, headers and body; path is below /rest/v1 unless absolute. */
  request(path: string, options?: RawRequest): Promise<RawResponse>;
  createKey(permissions: Permission[]): Promise<string>;
  clientWith(key: string): TenderClient;
  close(): Promise<void>;
}

export interface TestGatewayOptions {
  tips?: boolean;
  engine?: OpenEngineOptions;
  allowedOrigins?: string[];
  limits?: Partial<ServerLimits>;
  /**
   * The duplicate check's window (duplicate_window_minutes). The suites charge the same test cards
   * the same amounts again and again, so it is off unless a test sets it; its own tests do.
   */
  duplicateWindowMinutes?: number;
  /** A data dir made beforehand (a copy of another counter's, say); a fresh one by default. Removed at close. */
  dataDir?: string;
  /**
   * Keeps the ledger in the data dir's SQLite file whatever the run's store: for an engine the tests
   * talk to as someone else's system (the merchant's hosted gateway), not the engine under test.
   */
  ownLedger?: boolean;
}

export async function startTestGateway(options: TestGatewayOptions = {}): Promise<TestGateway> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'tender-test-'));
  const ownDatabase =
    TEST_STORE === 'postgres' && !options.engine?.store && !options.ownLedger
      ? await takeStoreDatabase()
      : undefined;
  const store = options.engine?.store ?? (ownDatabase && { url: ownDatabase.url, lane: ownDatabase.lane });
  let gateway: RunningGateway;
  try {
    gateway = await startGateway({
      dataDir,
      port: 0,
      ...((options.engine || store) && { engine: { ...options.engine, ...(store && { store }) } }),
      ...(options.allowedOrigins && { allowedOrigins: options.allowedOrigins }),
      ...(options.limits && { limits: options.limits }),
    });
  } catch (error) {
    await ownDatabase?.drop();
    throw error;
  }
  // Awaited whether the services answer at once or from the store server.
  if (options.tips) await gateway.engine.settings.setFromText('tips_enabled', 'true');
  const duplicateWindow = options.duplicateWindowMinutes ?? 0;
  if ((await gateway.engine.settings.get('duplicate_window_minutes')) !== duplicateWindow)
    await gateway.engine.settings.setFromText('duplicate_window_minutes', String(duplicateWindow));
  const key = (await gateway.engine.keys.create('test suite')).key;
  const agent = new KeptAgent({ ca: gateway.certificatePem });

  const request = (path: string, raw: RawRequest = {}): Promise<RawResponse> =>
    new Promise((resolve, reject) => {
      const fullPath = path.startsWith('/') ? path : `/rest/v1/${path}`;
      const headers: Record<string, string> = {
        host: raw.host ?? `127.0.0.1:${gateway.port}`,
        ...raw.headers,
      };
      if (raw.body !== undefined) headers['content-length'] = String(Buffer.byteLength(raw.body));
      agent.retireExpired();
      const outgoing = httpsRequest(
        {
          host: '127.0.0.1',
          port: gateway.port,
          path: fullPath,
          method: raw.method ?? 'GET',
          headers,
          ...(raw.newConnection ? { agent: false, ca: gateway.certificatePem } : { agent }),
          servername: 'localhost',
        },
        (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
          incoming.on('end', () => {
            const bytes = Buffer.concat(chunks);
            const body = bytes.toString('utf8');
            resolve({
              status: incoming.statusCode ?? 0,
              headers: incoming.headers,
              body,
              bytes,
              json: <T>() => JSON.parse(body) as T,
            });
          });
          incoming.on('error', reject);
        },
      );
      outgoing.on('error', reject);
      outgoing.end(raw.body);
    });

  const fetch: FetchLike = async (url, init) => {
    const { pathname, search } = new URL(url);
    const response = await request(pathname + search, init);
    return {
      status: response.status,
      text: async () => response.body,
      bytes: async () => new Uint8Array(response.bytes),
    };
  };
  const clientWith = (apiKey: string) => new TenderClient({ baseUrl: gateway.url, apiKey, fetch });

  return {
    gateway,
    dataDir,
    store,
    key,
    client: clientWith(key),
    request,
    createKey: async (permissions) => (await gateway.engine.keys.create('limited', permissions)).key,
    clientWith,
    close: async () => {
      agent.destroy();
      await gateway.close();
      rmSync(dataDir, { recursive: true, force: true });
      await ownDatabase?.drop();
    },
  };
}

/**
 * A gateway of its own for the enclosing describe block (or file): started before its first test and
 * closed after its last. The object returned stands for it; a beforeAll registered after this call
 * runs once it has started.
 */
export function useTestGateway(options: TestGatewayOptions = {}): TestGateway {
  let started: TestGateway | undefined;
  const current = (): TestGateway => {
    if (!started) throw new Error('the test gateway is not running');
    return started;
  };
  const close = async () => {
    await started?.close();
    started = undefined;
  };
  beforeAll(async () => {
    started = await startTestGateway(options);
  });
  afterAll(close);
  return {
    get gateway() {
      return current().gateway;
    },
    get dataDir() {
      return current().dataDir;
    },
    get store() {
      return current().store;
    },
    get key() {
      return current().key;
    },
    get client() {
      return current().client;
    },
    request: (path, raw) => current().request(path, raw),
    createKey: (permissions) => current().createKey(permissions),
    clientWith: (key) => current().clientWith(key),
    close,
  };
}

/**
 * For tests that each start a gateway of their own, with options of their own: the function returned
 * starts one, and every gateway it started is closed after the test.
 */
export function useGatewayPerTest(): (options?: TestGatewayOptions) => Promise<TestGateway> {
  const started: TestGateway[] = [];
  afterEach(async () => {
    for (const gateway of started.splice(0)) await gateway.close();
  });
  return async (options) => {
    const gateway = await startTestGateway(options);
    started.push(gateway);
    return gateway;
  };
}

/** The command line's options that put a command on the gateway's store server, when it is on one. */
export function storeArguments(t: Pick<TestGateway, 'store'>): string[] {
  return t.store ? ['--database', t.store.url, '--lane', t.store.lane] : [];
}

/** The audit log as the counter shows it, newest first, wherever its store keeps it. */
export function recentAudit(t: { gateway: { engine: Engine } }, limit = 20): Promise<AuditEntry[]> {
  return t.gateway.engine.reads.recentAudit(limit);
}

/**
 * The words of audit entries (actor, action, subject and detail), one entry a line: what a test
 * searches for a secret that must never be written. An entry's id and time are numbers that may hold
 * any digits, so they are left out.
 */
export function auditWords(entries: readonly AuditEntry[]): string {
  return entries
    .map(({ actor, action, subject, detail }) => [actor, action, subject, detail].join(' '))
    .join('\n');
}

/** A card that approves, with an expiry comfortably in the future. */
export const VISA = { card: '4111111111111111', exp_date: '1230' } as const;
export const MASTERCARD = { card: '5454545454545454', exp_date: '1230' } as const;
export const AMEX = { card: '371449635398431', exp_date: '1230' } as const;
export const DISCOVER = { card: '6011111111111117', exp_date: '1230' } as const;
/** The simulator's test cards: declined (0005), declined for insufficient funds (0051), processor error. */
export const DECLINED_CARD = { card: '4000000000000002', exp_date: '1230' } as const;
export const INSUFFICIENT_FUNDS_CARD = { card: '4000000000009995', exp_date: '1230' } as const;
export const PROCESSOR_ERROR_CARD = { card: '4000000000000119', exp_date: '1230' } as const;
