/**
 * Reads never hold up a payment: on a seeded ledger, a list query that steps over every row runs
 * beside SALEs rather than in front of them, and a read past its time limit gets a clear answer.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { ApiError, Batch, TransactionListItem, TransactionResponse } from '../../shared/api/schemas';
import type { OpenEngineOptions } from '../../electron/gateway/open-store';
import { startGateway, type RunningGateway } from '../../electron/gateway/gateway';
import { dataDirLayout } from '../../electron/gateway/paths';
import { seedLedger } from '../bench/seed-ledger';
import { describeSqliteOnly, VISA } from '../support/gateway';

const SEEDED = 200_000;
/**
 * Sorted by amount but filtered by type, no index serves both: SQLite steps over every sale of the
 * ledger in amount order to find that this page is past the end. No page can be cheap here.
 */
const SLOW_LIST = '/rest/v1/transactions?order_by=amount&type=SALE&page=4000000';

interface Answer {
  status: number;
  body: string;
  contentType: string;
}

interface ServedLedger {
  get(path: string, accept?: string): Promise<Answer>;
  sale(): Promise<TransactionResponse>;
  close(): Promise<void>;
}

let dataDir: string;
const served: ServedLedger[] = [];

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'tender-reads-'));
  seedLedger(dataDirLayout(dataDir).database, {
    settledTransactions: SEEDED - 5_000,
    openTransactions: 5_000,
    endAt: Date.now(),
    days: 200,
  });
});
/** Sales made on the shared ledger so far, so that each has an amount of its own. */
let sales = 0;
afterEach(async () => {
  for (const ledger of served.splice(0)) await ledger.close();
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** The seeded data dir served by a real engine, with a client that trusts it. */
async function serve(
  options: { engine?: OpenEngineOptions; extend?: (app: FastifyInstance) => void } = {},
): Promise<ServedLedger> {
  const gateway: RunningGateway = await startGateway({
    dataDir,
    port: 0,
    ...(options.engine && { engine: options.engine }),
    ...(options.extend && { extend: options.extend }),
  });
  const key = (await gateway.engine.keys.create('read isolation')).key;
  const agent = new Agent({ ca: gateway.certificatePem, keepAlive: true });
  const send = (method: string, path: string, accept: string, body?: string) =>
    new Promise<Answer>((resolve, reject) => {
      const outgoing = httpsRequest(
        {
          host: '127.0.0.1',
          port: gateway.port,
          path,
          method,
          agent,
          servername: 'localhost',
          headers: {
            host: `127.0.0.1:${gateway.port}`,
            api_key: key,
            accept,
            ...(body !== undefined && {
              'content-type': 'application/json',
              'content-length': String(Buffer.byteLength(body)),
            }),
          },
        },
        (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
          incoming.on('end', () =>
            resolve({
              status: incoming.statusCode ?? 0,
              body: Buffer.concat(chunks).toString('utf8'),
              contentType: String(incoming.headers['content-type']),
            }),
          );
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  const ledger: ServedLedger = {
    get: (path, accept = 'application/json') => send('GET', path, accept),
    sale: async () => {
      const answer = await send(
        'POST',
        '/rest/v1/transactions',
        'application/json',
        // Another amount each time: the same card for the same amount would be a possible duplicate.
        JSON.stringify({ type: 'SALE', amount: `4.${String(20 + (sales += 1))}`, ...VISA }),
      );
      expect(answer.status, answer.body).toBe(200);
      return JSON.parse(answer.body) as TransactionResponse;
    },
    close: async () => {
      agent.destroy();
      await gateway.close();
    },
  };
  served.push(ledger);
  return ledger;
}

describeSqliteOnly(
  'reads beside payments',
  "the reader threads over the data dir's SQLite file; store-server-lists.test.ts holds the store server's reads",
  () => {
    it('a SALE is answered while a list query that steps over the whole ledger is still being read', async () => {
      let listReached!: () => void;
      const reached = new Promise<void>((resolve) => (listReached = resolve));
      const ledger = await serve({
        extend: (app) =>
          app.addHook('preHandler', async (request) => {
            if (request.method === 'GET' && request.url === SLOW_LIST) listReached();
          }),
      });
      await ledger.sale();
      const finished: string[] = [];
      const list = ledger.get(SLOW_LIST).then((answer) => {
        finished.push('list');
        return answer;
      });
      await reached;
      expect((await ledger.sale()).result).toBe('Approved');
      finished.push('sale');
      const answer = await list;
      expect(answer.status, answer.body).toBe(200);
      expect(JSON.parse(answer.body)).toEqual([]);
      expect(finished).toEqual(['sale', 'list']);
    });

    it('every answered SALE is in the very next list and in the open batch', async () => {
      const ledger = await serve();
      const before = JSON.parse((await ledger.get('/rest/v1/batches/open')).body) as Batch;
      for (let i = 1; i <= 10; i++) {
        const sale = await ledger.sale();
        const [newest] = JSON.parse(
          (await ledger.get('/rest/v1/transactions?page_size=1')).body,
        ) as TransactionListItem[];
        expect(newest?.id).toBe(sale.id);
        const open = JSON.parse((await ledger.get('/rest/v1/batches/open')).body) as Batch;
        expect(Number(open.sales_count)).toBe(Number(before.sales_count) + i);
      }
    });
  },
);

describeSqliteOnly(
  'the time limit of a read',
  "the reader threads over the data dir's SQLite file; store-server-lists.test.ts holds the store server's reads",
  () => {
    const xml = new XMLParser({ parseTagValue: false });

    it('a list read past its time limit is answered 503 query_timeout, in the format asked for', async () => {
      const ledger = await serve({ engine: { reads: { timeoutMs: 40 } } });
      const json = await ledger.get(SLOW_LIST);
      expect(json.status).toBe(503);
      expect(json.contentType).toMatch(/^application\/json/);
      const body = JSON.parse(json.body) as ApiError;
      expect(body).toMatchObject({ status: '503', error: 'query_timeout' });
      expect(body.message).toMatch(/narrow the filter/i);
      expect(body.message).toMatch(/try again/i);

      const inXml = await ledger.get(SLOW_LIST, 'application/xml');
      expect(inXml.status).toBe(503);
      expect(inXml.contentType).toMatch(/^application\/xml/);
      expect(xml.parse(inXml.body)).toMatchObject({ error: { status: '503', error: 'query_timeout' } });
    });

    it('reads are answered again once the reader stopped past its limit is replaced', async () => {
      const ledger = await serve({ engine: { reads: { timeoutMs: 40 } } });
      expect((await ledger.get(SLOW_LIST)).status).toBe(503);
      // The stopped reader's statement runs on inside SQLite until it returns; reads wait for its place.
      // On a busy machine one read may still overrun 40 ms now and then, so each path is asked again
      // until it is answered; nothing but a 503 for the time limit is allowed meanwhile.
      const answered = async (path: string): Promise<Answer | undefined> => {
        let answer: Answer | undefined;
        const giveUpAt = Date.now() + 30_000;
        while (answer?.status !== 200 && Date.now() < giveUpAt) {
          answer = await ledger.get(path);
          if (answer.status !== 200) expect(answer.status, answer.body).toBe(503);
        }
        return answer;
      };
      expect((await answered('/rest/v1/transactions?page_size=1'))?.status).toBe(200);
      expect((await answered('/rest/v1/batches/open'))?.status).toBe(200);
    });
  },
);
