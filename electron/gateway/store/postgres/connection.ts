/**
 * Connections to the store server: a pool per use (writes, reads), each connection with durable
 * commits and bounded waits, so that a server that cannot be reached is an answer within seconds
 * rather than a request that hangs. This folder is the only place that imports the pg driver.
 */
import { createRequire } from 'node:module';
import type pg from 'pg';
import { StoreBusyError, StoreUnreachableError } from '../store-errors';

export { StoreBusyError, StoreUnreachableError };

/** Waiting for a connection: long enough for TLS to a server on the shop's network, no longer. */
export const CONNECT_TIMEOUT_MS = 3000;
/** How long one statement may run, waiting for the ledger's write lock included. */
export const STATEMENT_TIMEOUT_MS = 5000;

export interface PostgresConnectionOptions {
  /** `postgresql://user@host:port/database?sslmode=verify-full&sslrootcert=...` */
  url: string;
  /** Connections this pool may hold. */
  max?: number;
  connectTimeoutMs?: number;
  statementTimeoutMs?: number;
  /** How the server's activity view names these connections: the counter's lane, for whoever looks. */
  applicationName?: string;
}

/** A statement stopped past statement_timeout, or past lock_timeout while waiting for a lock. */
export function isPastTimeLimit(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === '57014' || code === '55P03';
}

/**
 * bigint columns (ids, cents, epoch milliseconds) arrive as numbers. Every value the ledger keeps in
 * one fits a double exactly; one that did not would be refused rather than rounded.
 */
function parseBigint(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new RangeError(`${text} does not fit a JavaScript number`);
  return value;
}

/**
 * The driver, loaded when a counter first opens a pool: an engine on its own SQLite file never
 * does, and the driver would otherwise be three megabytes of its live heap from its start.
 */
let driver: typeof pg | undefined;
function pgDriver(): typeof pg {
  driver ??= createRequire(import.meta.url)('pg') as typeof pg;
  return driver;
}

const INT8_OID = 20;

const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID && format !== 'binary'
      ? parseBigint
      : pgDriver().types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

export function openPool(options: PostgresConnectionOptions): pg.Pool {
  const statementTimeout = options.statementTimeoutMs ?? STATEMENT_TIMEOUT_MS;
  const pool = new (pgDriver().Pool)({
    connectionString: options.url,
    max: options.max ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
    idleTimeoutMillis: 30_000,
    keepAlive: true,
    types,
    // Durable commits whatever the server's default: COMMIT returns once the WAL is flushed (and,
    // with a synchronous standby, once the standby has it).
    options: '-c synchronous_commit=on',
    statement_timeout: statementTimeout,
    lock_timeout: statementTimeout,
    // A counter that stops answering mid-transaction must not keep the ledger's lock.
    idle_in_transaction_session_timeout: statementTimeout * 2,
    // The server's own timeout cannot fire when the network is gone: the driver gives up a little later.
    query_timeout: statementTimeout + 1000,
    application_name: options.applicationName ?? 'tender',
    // Statements are sent without waiting for the answer to the one before (write-transaction.ts);
    // the server still runs them one after another, in the order sent.
    pipeline: true,
  });
  // A connection that breaks while idle in the pool is dropped by the pool; the next request makes a
  // new one. Without a listener the event would end the process.
  pool.on('error', () => undefined);
  return pool;
}

/** SQLSTATE classes and driver errors that mean the server, or the way to it, is gone. */
export function isConnectionFailure(error: unknown): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    // 08: connection exception; 57P01-57P03: the server is shutting down or starting.
    if (code.startsWith('08') || ['57P01', '57P02', '57P03'].includes(code)) return true;
    if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE'].includes(code))
      return true;
  }
  return (
    typeof message === 'string' &&
    /timeout exceeded when trying to connect|Connection terminated|Query read timeout|Client has encountered a connection error/i.test(
      message,
    )
  );
}

/** Serialization failures and deadlocks: the transaction did nothing and may run again. */
export function isRetryable(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === '40001' || code === '40P01';
}

/** The socket of a connection, which the driver keeps on a property its types leave out. */
interface DriverConnection {
  connection?: { stream?: { cork?(): void; uncork?(): void } };
}

const corkedThisTurn = new WeakSet<object>();

/**
 * Holds what is sent on `client` until the end of this turn of the event loop, and then sends it in
 * one write. The driver writes each statement as it is given one, a system call each; a group sends
 * several statements in a turn (its writes' rows, counters, answers and savepoints, its COMMIT), so
 * held together they cost one. Nothing waits for longer than the turn: every answer comes after it.
 */
export function sendTogether(client: pg.ClientBase): void {
  if (corkedThisTurn.has(client)) return;
  const stream = (client as unknown as DriverConnection).connection?.stream;
  if (!stream?.cork || !stream.uncork) return;
  stream.cork();
  corkedThisTurn.add(client);
  process.nextTick(() => {
    corkedThisTurn.delete(client);
    stream.uncork?.();
  });
}
