/**
 * The crash scenario, shared by the CI crash test and the long soak (test/bench/crash-soak.ts):
 * the headless engine in its own process takes concurrent sales, authorizations, captures, voids,
 * refunds and batch closes; it is SIGKILLed at a random moment mid-load, started again on the same
 * data dir, and checked:
 *
 * - every answer that reached the client is in the ledger as answered (same id, type, result,
 *   amount, invoice, authorization code), and what it did to its original (captured, voided,
 *   refunded) is there too; every batch close that was answered left its batch closed;
 * - requests cut off by the kill that carried an Idempotency-Key, sent again after the restart, are
 *   answered (replayed when they had committed), and no request is ever in the ledger twice;
 * - every batch's counts and totals equal the sum of its rows, and at most one batch is open;
 * - after the last, clean stop, SQLite's integrity_check and foreign_key_check pass, and the batch
 *   table agrees with the transactions table in SQL, independently of the API.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seededRandom } from '../bench/seed-ledger';
import type { Batch, TransactionListItem, TransactionResponse } from '../../shared/api/schemas';
import {
  createKeyWithCli,
  runCli,
  EngineClient,
  freePort,
  startEngineProcess,
  type EngineProcess,
} from './engine-process';
import { auditBatches, listAll, rowProblems, transactionsAfter, type GetJson } from './ledger-audit';

export interface CrashOptions {
  /** How many times the engine is SIGKILLed mid-load. */
  kills: number;
  /** Clients sending requests at the same time. */
  workers: number;
  /** The kill comes once this many answers (a random number in the range) arrived in the round... */
  killAfterAnswers: readonly [number, number];
  /** ...and then after a random delay of up to this many milliseconds. */
  maxKillDelayMs: number;
  /** Seed of the random choices, to replay a failing run. */
  seed: number;
  /**
   * 'full': every check over the whole ledger after every restart (the CI test).
   * 'recent': after each restart only what the last round touched; everything once at the end (the soak).
   */
  audit: 'full' | 'recent';
  /** Progress lines. */
  log?: (line: string) => void;
  /** Keeps the data dir for inspection instead of removing it. */
  keepDataDir?: boolean;
}

export interface CrashReport {
  seed: number;
  dataDir: string;
  kills: number;
  requestsSent: number;
  answered: number;
  approvedAnswered: number;
  /** Requests that had no answer when the engine died. */
  cutOff: number;
  /** Cut-off requests with an Idempotency-Key, sent again after the restart: replayed (they had committed) or done now. */
  retriedReplayed: number;
  retriedFresh: number;
  /** Cut-off requests without a key: found committed in the ledger, or absent. */
  unkeyedCommitted: number;
  unkeyedAbsent: number;
  startupMs: number[];
  /** Checks after a restart that met a kept-alive connection the engine had closed, and were sent again on a new one. */
  staleConnections: number;
  transactionsInLedger: number;
  batchesInLedger: number;
  /** Everything found wrong; empty when the engine held. */
  problems: string[];
  /** integrity_check and foreign_key_check findings after the last stop; empty when sound. */
  integrity: string[];
}

type Kind = 'SALE' | 'DECLINED SALE' | 'AUTH' | 'CAPTURE' | 'VOID' | 'REFUND' | 'UNMATCHED REFUND' | 'CLOSE';

interface Sent {
  seq: number;
  round: number;
  kind: Kind;
  body?: Record<string, string>;
  idempotencyKey?: string;
  /** For CAPTURE, VOID and REFUND: the transaction it refers to. */
  target?: Known;
}

interface Known {
  id: string;
  type: 'Sale' | 'Auth' | 'Capture' | 'Refund';
  amountCents: number;
}

const TYPE_OF: Partial<Record<Kind, string>> = {
  SALE: 'Sale',
  'DECLINED SALE': 'Sale',
  AUTH: 'Auth',
  CAPTURE: 'Capture',
  VOID: 'Void',
  REFUND: 'Refund',
  'UNMATCHED REFUND': 'Refund',
};

const CARDS = { ok: '4111111111111111', declined: '4000000000000002' };

const moneyText = (value: number) => `${Math.trunc(value / 100)}.${String(value % 100).padStart(2, '0')}`;

export async function runCrashScenario(options: CrashOptions): Promise<CrashReport> {
  const random = seededRandom(options.seed);
  const between = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));
  const log = options.log ?? (() => undefined);
  const dataDir = mkdtempSync(join(tmpdir(), 'tender-crash-'));
  let key: string;
  try {
    key = createKeyWithCli(dataDir, 'crash');
    // The scenario charges a few cards the same amounts over and over: the duplicate check would
    // refuse most of them, and it has tests of its own.
    const off = runCli('settings', 'set', 'duplicate_window_minutes', '0', '--data-dir', dataDir);
    if (off.status !== 0) throw new Error(`settings set failed: ${off.stderr}`);
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }

  const report: CrashReport = {
    seed: options.seed,
    dataDir,
    kills: 0,
    requestsSent: 0,
    answered: 0,
    approvedAnswered: 0,
    cutOff: 0,
    retriedReplayed: 0,
    retriedFresh: 0,
    unkeyedCommitted: 0,
    unkeyedAbsent: 0,
    startupMs: [],
    staleConnections: 0,
    transactionsInLedger: 0,
    batchesInLedger: 0,
    problems: [],
    integrity: [],
  };
  const problem = (text: string) => {
    report.problems.push(text);
    log(`PROBLEM: ${text}`);
  };

  // What the clients know: answers to check after the next restart, and transactions to follow up.
  let toVerify: { sent: Sent; answer: TransactionResponse }[] = [];
  let closesToVerify: Batch[] = [];
  let cutOff: Sent[] = [];
  const pools = { sales: [] as Known[], auths: [] as Known[], refunds: [] as Known[] };
  let seq = 0;
  let lastSeenId = 0;
  let lowestTouchedBatch = 1;

  const pick = <T>(list: T[], remove: boolean): T | undefined => {
    if (list.length === 0) return undefined;
    const index = Math.floor(random() * list.length);
    const item = list[index] as T;
    if (remove) list.splice(index, 1);
    return item;
  };

  /** The next request a client sends: mostly sales, with follow-ups of what earlier answers approved. */
  const nextRequest = (round: number): Sent => {
    const n = ++seq;
    const invoice = `c${round}-${n}`;
    const roll = random();
    // A letter between the seed and the count: digits joined by a dash read as one number, and one in
    // ten such numbers passes the card number check, which refuses the key (8032, stored under no key,
    // so a retry is refused and recorded again, as it must be).
    const keyed = random() < 0.75 ? { idempotencyKey: `crash-${options.seed}-n${n}` } : {};
    const amount = between(100, 9999);
    const card = { card: CARDS.ok, exp_date: '1230' };
    const base = { seq: n, round, ...keyed };
    if (roll < 0.05) {
      return {
        ...base,
        kind: 'DECLINED SALE',
        body: { type: 'SALE', amount: moneyText(amount), card: CARDS.declined, exp_date: '1230', invoice },
      };
    }
    if (roll < 0.6)
      return { ...base, kind: 'SALE', body: { type: 'SALE', amount: moneyText(amount), ...card, invoice } };
    if (roll < 0.7)
      return { ...base, kind: 'AUTH', body: { type: 'AUTH', amount: moneyText(amount), ...card, invoice } };
    if (roll < 0.78) {
      // Now and then an authorization is captured twice: the second must be refused.
      const auth = pick(pools.auths, random() < 0.9);
      if (auth) {
        const captured = between(1, auth.amountCents);
        return {
          ...base,
          kind: 'CAPTURE',
          target: auth,
          body: { type: 'CAPTURE', id: auth.id, amount: moneyText(captured), invoice },
        };
      }
    }
    if (roll < 0.86) {
      const pool = random() < 0.7 ? pools.sales : random() < 0.5 ? pools.auths : pools.refunds;
      const target = pick(pool, false);
      if (target) return { ...base, kind: 'VOID', target, body: { type: 'VOID', id: target.id, invoice } };
    }
    if (roll < 0.95) {
      const sale = pick(pools.sales, false);
      if (sale) {
        const refund = between(1, Math.max(1, Math.floor(sale.amountCents / 2)));
        return {
          ...base,
          kind: 'REFUND',
          target: sale,
          body: { type: 'REFUND', id: sale.id, amount: moneyText(refund), invoice },
        };
      }
    }
    if (roll < 0.975) {
      return {
        ...base,
        kind: 'UNMATCHED REFUND',
        body: { type: 'REFUND', amount: moneyText(amount), ...card, invoice },
      };
    }
    return { seq: n, round, kind: 'CLOSE' };
  };

  /** Sends a request; `again` marks the retry of a keyed request after a restart, which may be sent twice. */
  const send = (client: EngineClient, sent: Sent, again = false) =>
    sent.kind === 'CLOSE'
      ? client.request('PUT', 'batches/open')
      : (again ? client.requestSafely.bind(client) : client.request.bind(client))('POST', 'transactions', {
          body: JSON.stringify(sent.body),
          headers: sent.idempotencyKey ? { 'idempotency-key': sent.idempotencyKey } : {},
        });

  /** Books an answer: to check after the next restart, and its transaction as a follow-up target. */
  const book = (sent: Sent, status: number, text: string) => {
    report.answered += 1;
    if (sent.kind === 'CLOSE') {
      if (status === 200) closesToVerify.push(JSON.parse(text) as Batch);
      else if (status !== 204) problem(`PUT /batches/open answered ${status}: ${text}`);
      return;
    }
    if (status !== 200) {
      problem(`POST ${sent.kind} (invoice ${sent.body?.invoice}) answered ${status}: ${text}`);
      return;
    }
    const answer = JSON.parse(text) as TransactionResponse;
    if (answer.id !== undefined) toVerify.push({ sent, answer });
    if (answer.result !== 'Approved' || answer.id === undefined) return;
    report.approvedAnswered += 1;
    const amountCents = Math.round(Number(sent.body?.amount ?? '0') * 100);
    if (sent.kind === 'SALE') pools.sales.push({ id: answer.id, type: 'Sale', amountCents });
    if (sent.kind === 'CAPTURE') pools.sales.push({ id: answer.id, type: 'Capture', amountCents });
    if (sent.kind === 'AUTH') pools.auths.push({ id: answer.id, type: 'Auth', amountCents });
    if (sent.kind === 'REFUND' || sent.kind === 'UNMATCHED REFUND') {
      pools.refunds.push({ id: answer.id, type: 'Refund', amountCents });
    }
    for (const pool of Object.values(pools)) if (pool.length > 400) pool.splice(0, pool.length - 400);
  };

  /** One round of load: workers send until the engine is killed, then the round's requests are sorted out. */
  const loadUntilKilled = async (engine: EngineProcess, client: EngineClient, round: number) => {
    const killAt = between(options.killAfterAnswers[0], options.killAfterAnswers[1]);
    const delay = between(0, options.maxKillDelayMs);
    let answeredThisRound = 0;
    let killed = false;
    // The round ends when the engine is gone: killed by us, or (a problem) by itself.
    void engine.exited.then(() => (killed = true));
    const kill = () => {
      killed = true;
      void engine.kill();
    };
    const worker = async () => {
      while (!killed) {
        const sent = nextRequest(round);
        report.requestsSent += 1;
        try {
          const answer = await send(client, sent);
          book(sent, answer.status, answer.body);
          answeredThisRound += 1;
          if (answeredThisRound === killAt) {
            if (delay === 0) kill();
            else setTimeout(kill, delay);
          }
        } catch (error) {
          if (!killed) {
            problem(`request failed while the engine was up: ${(error as Error).message}`);
            kill();
          }
          cutOff.push(sent);
          report.cutOff += 1;
        }
      }
    };
    await Promise.all(Array.from({ length: options.workers }, worker));
    const status = await engine.exited;
    if (status.signal !== 'SIGKILL')
      problem(`the engine ended with ${JSON.stringify(status)}, not by SIGKILL`);
    report.kills += 1;
    log(
      `round ${round}: SIGKILL at answer ${killAt} (+${delay} ms); ${answeredThisRound} answered, ${cutOff.length} cut off`,
    );
  };

  /** After a restart: resolve what the kill cut off, check every answer against the ledger, audit. */
  const verifyAfterRestart = async (client: EngineClient) => {
    const get: GetJson = (path) => client.getJson(path);

    const unresolved = cutOff;
    cutOff = [];
    for (const sent of unresolved) {
      if (sent.kind === 'CLOSE') continue;
      if (sent.idempotencyKey) {
        const answer = await send(client, sent, true);
        if (answer.headers['idempotent-replayed'] === 'true') report.retriedReplayed += 1;
        else report.retriedFresh += 1;
        book(sent, answer.status, answer.body);
      } else {
        const found = (await get<TransactionListItem[]>(`transactions?invoice=${sent.body?.invoice}`)) ?? [];
        if (found.length > 0) report.unkeyedCommitted += 1;
        else report.unkeyedAbsent += 1;
      }
    }

    const checking = toVerify;
    toVerify = [];
    for (const { sent, answer } of checking) {
      const [row, ...more] = (await get<TransactionListItem[]>(`transactions?id=${answer.id}`)) ?? [];
      const what = `${sent.kind} answered ${answer.result} with id ${answer.id} (invoice ${sent.body?.invoice})`;
      if (!row) {
        problem(`${what} is not in the ledger after the restart`);
        continue;
      }
      if (more.length > 0) problem(`${what}: id ${answer.id} lists ${more.length + 1} rows`);
      const mismatches: string[] = [];
      const expect = (field: string, actual: string, expected: string | undefined) => {
        if (expected !== undefined && actual !== expected)
          mismatches.push(`${field} ${actual}, expected ${expected}`);
      };
      expect('result', row.result, answer.result);
      expect('type', row.type, TYPE_OF[sent.kind]);
      expect('invoice', row.invoice, sent.body?.invoice);
      if (sent.kind !== 'VOID') expect('amount', row.amount, sent.body?.amount);
      if (answer.result === 'Approved')
        expect('authorization_code', row.authorization_code, answer.authorization_code);
      if (sent.target) expect('original_id', row.original_id, sent.target.id);
      if (mismatches.length > 0) problem(`${what} is in the ledger with ${mismatches.join('; ')}`);

      if (answer.result === 'Approved' && sent.target) {
        const [original] = (await get<TransactionListItem[]>(`transactions?id=${sent.target.id}`)) ?? [];
        if (sent.kind === 'VOID' && original?.voided !== 'true') {
          problem(`${what}: its original ${sent.target.id} is not voided`);
        }
        // A void of the capture since puts its AUTH back among the open tabs, uncaptured.
        if (sent.kind === 'CAPTURE' && row.voided !== 'true' && original?.captured !== 'true') {
          problem(`${what}: authorization ${sent.target.id} is not captured`);
        }
      }
    }

    const closes = closesToVerify;
    closesToVerify = [];
    for (const closed of closes) {
      const [batch] = (await get<Batch[]>(`batches?id=${closed.id}`)) ?? [];
      if (batch?.status !== 'CLOSED' || batch.confirmation_code !== closed.confirmation_code) {
        problem(
          `batch ${closed.id} was answered closed (${closed.confirmation_code}), the ledger has ${JSON.stringify(batch)}`,
        );
      }
    }

    // No request is in the ledger twice (each carries its own invoice), whatever was retried.
    const recent =
      options.audit === 'full'
        ? await listAll<TransactionListItem>(get, 'transactions')
        : await transactionsAfter(get, lastSeenId);
    const seen = new Map<string, string>();
    for (const row of recent) {
      if (row.invoice === '') continue;
      const earlier = seen.get(row.invoice);
      if (earlier !== undefined)
        problem(`invoice ${row.invoice} is in the ledger twice: ids ${earlier} and ${row.id}`);
      seen.set(row.invoice, row.id);
    }
    lastSeenId = Math.max(lastSeenId, ...recent.map((row) => Number(row.id)));

    if (options.audit === 'full') {
      for (const text of rowProblems(recent)) problem(text);
      for (const text of await auditBatches(get)) problem(text);
    } else {
      for (const text of await auditBatches(get, lowestTouchedBatch)) problem(text);
    }
    const open = await get<Batch>('batches/open');
    const newest = (await get<Batch[]>('batches?page_size=1')) ?? [];
    lowestTouchedBatch = Number(open?.id ?? (newest[0] ? Number(newest[0].id) + 1 : 1));
  };

  const start = async () => {
    const port = await freePort();
    const engine = await startEngineProcess(dataDir, port);
    report.startupMs.push(Math.round(engine.startupMs));
    return { engine, client: EngineClient.forDataDir(dataDir, port, key, options.workers) };
  };

  /** A failure of the scenario itself (a request the engine did not answer, a start that failed): reported, and the run ends. */
  const abandon = (stage: string, error: unknown, engine?: EngineProcess) => {
    const state = engine
      ? ` The engine ${engine.child.exitCode !== null || engine.child.signalCode !== null ? `had exited (${engine.child.exitCode ?? engine.child.signalCode})` : 'was running'}; its output ended:\n${engine.output().slice(-3000)}`
      : '';
    problem(`${stage}: ${(error as Error).message}.${state}`);
  };

  try {
    for (let round = 1; round <= options.kills; round++) {
      let started: Awaited<ReturnType<typeof start>>;
      try {
        started = await start();
      } catch (error) {
        abandon(`start before round ${round}`, error);
        return report;
      }
      const { engine, client } = started;
      try {
        if (round > 1) await verifyAfterRestart(client);
        await loadUntilKilled(engine, client, round);
      } catch (error) {
        abandon(`round ${round}`, error, engine);
        return report;
      } finally {
        report.staleConnections += client.staleConnections;
        client.close();
        await engine.kill();
      }
    }

    let last: Awaited<ReturnType<typeof start>>;
    try {
      last = await start();
    } catch (error) {
      abandon('the last start', error);
      return report;
    }
    const { engine, client } = last;
    try {
      await verifyAfterRestart(client);
      const get: GetJson = (path) => client.getJson(path);
      if (options.audit === 'recent') {
        const all = await listAll<TransactionListItem>(get, 'transactions');
        for (const text of rowProblems(all)) problem(text);
        for (const text of await auditBatches(get)) problem(text);
      }
      report.transactionsInLedger = (await listAll<TransactionListItem>(get, 'transactions')).length;
      report.batchesInLedger = (await listAll<Batch>(get, 'batches')).length;
    } catch (error) {
      abandon('the last check', error, engine);
    } finally {
      report.staleConnections += client.staleConnections;
      client.close();
      const stopped = await engine.stop();
      if (stopped.code !== 0) {
        problem(
          `the engine's clean stop ended with ${JSON.stringify(stopped)}:\n${engine.output().slice(-3000)}`,
        );
      }
    }

    report.integrity = checkLedgerFile(join(dataDir, 'tender.db'));
    for (const text of report.integrity) problem(`after the last stop: ${text}`);
    return report;
  } finally {
    if (!options.keepDataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Opens the ledger read-only, as nothing but SQLite sees it: integrity_check, foreign_key_check, and
 * every batch's columns against the sum of its transactions, in SQL.
 */
export function checkLedgerFile(file: string): string[] {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const problems: string[] = [];
    const integrity = db.pragma('integrity_check') as { integrity_check: string }[];
    problems.push(...integrity.map((row) => row.integrity_check).filter((line) => line !== 'ok'));
    const foreign = db.pragma('foreign_key_check') as { table: string; rowid: number }[];
    problems.push(...foreign.map((row) => `foreign key broken in ${row.table} row ${row.rowid}`));
    const mismatched = db
      .prepare(
        `SELECT b.id, b.sales_count, b.sales_total, b.refund_count, b.refund_total, b.tip_total, r.* FROM batches b
         LEFT JOIN (
           SELECT batch_id,
             SUM(type IN ('Sale', 'Forced Sale', 'Capture')) AS rows_sales_count,
             SUM(CASE WHEN type IN ('Sale', 'Forced Sale', 'Capture') THEN amount ELSE 0 END) AS rows_sales_total,
             SUM(type = 'Refund') AS rows_refund_count,
             SUM(CASE WHEN type = 'Refund' THEN amount ELSE 0 END) AS rows_refund_total,
             SUM(CASE WHEN type IN ('Sale', 'Forced Sale', 'Capture') THEN tip_amount ELSE 0 END) AS rows_tip_total
           FROM transactions
           WHERE result = 'Approved' AND voided_by IS NULL AND batch_id IS NOT NULL
           GROUP BY batch_id
         ) r ON r.batch_id = b.id
         WHERE b.sales_count != COALESCE(r.rows_sales_count, 0) OR b.sales_total != COALESCE(r.rows_sales_total, 0)
            OR b.refund_count != COALESCE(r.rows_refund_count, 0) OR b.refund_total != COALESCE(r.rows_refund_total, 0)
            OR b.tip_total != COALESCE(r.rows_tip_total, 0)`,
      )
      .all();
    problems.push(
      ...mismatched.map((row) => `batch row disagrees with its transactions in SQL: ${JSON.stringify(row)}`),
    );
    const open = db.prepare("SELECT count(*) AS n FROM batches WHERE status = 'OPEN'").get() as { n: number };
    if (open.n > 1) problems.push(`${open.n} batches are OPEN in the file`);
    return problems;
  } finally {
    db.close();
  }
}
