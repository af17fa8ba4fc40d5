/**
 * The writes of one group on the store server, in the group's transaction: each in arrival order,
 * each seeing the writes before it. A group first runs without savepoints and commits at once
 * (`runAtOnce`, below); when a statement of it fails, nothing of it is kept and it runs again with
 * each write in a savepoint of its own (write-transaction.ts), each undone alone when it fails.
 *
 * A write is not waited for before the next begins: the statements it sent without waiting are
 * answered while the next one runs, and all of them are checked once, in order, before the group
 * commits. A write seldom fails after it returned (a statement the schema refuses, a row that was
 * not there to update); when one does, it is rolled back to its savepoint together with every write
 * after it, which ran on what it did, and those run again from that point. So each write costs the
 * group only the round trips of its own reads.
 *
 * A serialization failure or a deadlock is not a write's to undo alone: the locks the writes before
 * it hold may be what the other transaction waits for. It fails the group's transaction, which the
 * ledger runs again from the start (ledger.ts).
 */
import type pg from 'pg';
import type { WriteOutcome } from '../sql/write-queue';
import type { LedgerWrite } from '../ledger-store';
import { isConnectionFailure, isRetryable } from './connection';
import { EXPECTED } from './ledger-sql';
import { AnswerStoredMeanwhileError, KeyRevokedError } from '../store-errors';
import { asStoreError } from './transaction';
import { GuessedBatchClosedError, sendHeld, WriteTransaction, type WritePlace } from './write-transaction';

type Work = (ledger: LedgerWrite) => Promise<unknown>;

/** A write as it ran: its value, or the error it threw (already undone in place). */
interface Run {
  write: WriteTransaction;
  value?: unknown;
  thrown?: { error: unknown; undone: Promise<unknown> };
}

/**
 * A write's error as the engine names it: an Idempotency-Key another counter answered first, a lock
 * kept past the time limit (busy), or the error itself.
 */
function writeError(error: unknown): unknown {
  const { code, constraint } = error as { code?: unknown; constraint?: unknown };
  if (code === '23505' && constraint === 'idempotency_keys_pkey') return new AnswerStoredMeanwhileError();
  if (code === EXPECTED.liveKey) return new KeyRevokedError();
  return asStoreError(error);
}

/** An error the database answered a statement with (it carries an SQLSTATE), not one of the engine's. */
function isDatabaseError(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);
}

/** The group could not commit all at once: a statement of it failed. It runs again, each write waited for. */
export class CommitAtOnceFailedError extends Error {
  constructor(readonly reason: unknown) {
    super('a statement of the group failed before its commit');
  }
}

/**
 * Runs the group's writes; each write's outcome, in order. With `commitAtOnce`, and when no write
 * sent a statement whose answer could fail its check, the group does not wait for the answers of
 * what its writes sent: `commitAtOnce` sends COMMIT behind them (with `inserted`, the ids of the new
 * rows), and a statement that failed turns it into a ROLLBACK (CommitAtOnceFailedError), after which
 * the ledger runs the group again with each write waited for. A group thus costs one round trip for
 * its commit, and its writes only the round trips of their own reads.
 */
export async function runGroup(
  client: pg.ClientBase,
  place: WritePlace,
  works: readonly Work[],
  commitAtOnce?: (inserted: number[]) => Promise<void>,
): Promise<{ outcomes: WriteOutcome[]; inserted: number[]; committed: boolean }> {
  if (commitAtOnce) return runAtOnce(client, place, works, commitAtOnce);
  const outcomes: WriteOutcome[] = [];
  const inserted: number[] = [];
  while (outcomes.length < works.length) {
    const from = outcomes.length;
    const runs = await runFrom(client, place, works.slice(from), from);
    // Before any outcome counts: the batch the group began with, guessed, must have been open.
    if (!(await place.batch.confirmed())) throw new GuessedBatchClosedError();
    for (const [index, run] of runs.entries()) {
      if (run.thrown) await run.thrown.undone;
      const error = run.thrown ? run.thrown.error : await run.write.failure();
      if (error === undefined) {
        run.write.done();
        inserted.push(...run.write.inserted);
        outcomes.push({ ok: true, value: run.value });
        continue;
      }
      if (isConnectionFailure(error) || isRetryable(error)) throw error;
      // A write that threw was undone before the next began, so those after it stand; one that
      // failed after it returned is undone now, with every write after it, which run again.
      if (run.thrown) {
        outcomes.push({ ok: false, error: writeError(error) });
        continue;
      }
      await run.write.rollBack();
      for (const after of runs.slice(index + 1)) after.write.abandon();
      outcomes.push({ ok: false, error: writeError(error) });
      break;
    }
  }
  return { outcomes, inserted, committed: false };
}

/**
 * The group's writes without savepoints, committed behind them without waiting for their answers:
 * the way a group goes when nothing fails, which is nearly always. A write that throws having changed
 * nothing is simply left out; anything else that goes wrong (a write that throws after changing
 * something, a check that could fail, a statement the database refused) has the ledger run the group
 * again, each write in a savepoint and waited for.
 */
async function runAtOnce(
  client: pg.ClientBase,
  place: WritePlace,
  works: readonly Work[],
  commitAtOnce: (inserted: number[]) => Promise<void>,
): Promise<{ outcomes: WriteOutcome[]; inserted: number[]; committed: boolean }> {
  const runs: Run[] = [];
  for (const [index, work] of works.entries()) {
    const write = WriteTransaction.begin(client, place, `write_${index}`);
    try {
      const value = await work(write);
      write.flush();
      runs.push({ write, value });
      if (write.risky) throw new CommitAtOnceFailedError('a check that could fail');
    } catch (thrown) {
      if (thrown instanceof CommitAtOnceFailedError) throw thrown;
      const failed = await write.failure();
      const error = failed ?? thrown;
      if (isConnectionFailure(error) || isRetryable(error)) throw error;
      // Without a savepoint, a statement the database refused has failed the whole transaction.
      if (failed !== undefined || write.changed || isDatabaseError(thrown))
        throw new CommitAtOnceFailedError(error);
      write.forget();
      runs.push({ write, thrown: { error, undone: Promise.resolve() } });
    }
  }
  const inserted = runs.flatMap((run) => (run.thrown ? [] : run.write.inserted));
  // What the writes kept back goes first: a statement of it that fails turns the COMMIT into ROLLBACK.
  sendHeld(client, place.held);
  try {
    await commitAtOnce(inserted);
  } catch (error) {
    if (isConnectionFailure(error)) throw error;
    if (!(await place.batch.confirmed())) throw new GuessedBatchClosedError();
    throw new CommitAtOnceFailedError(error);
  }
  // Committed: every statement sent succeeded, so every check of an answer is a safe one.
  const outcomes: WriteOutcome[] = [];
  for (const run of runs) {
    if (run.thrown) {
      outcomes.push({ ok: false, error: writeError(run.thrown.error) });
      continue;
    }
    const failed = await run.write.failure().catch((error: unknown) => error);
    outcomes.push(failed === undefined ? { ok: true, value: run.value } : { ok: false, error: failed });
  }
  return { outcomes, inserted, committed: true };
}

/** Runs writes one after another from the group's `from`-th, without waiting for what each sent. */
async function runFrom(
  client: pg.ClientBase,
  place: WritePlace,
  works: readonly Work[],
  from: number,
): Promise<Run[]> {
  const runs: Run[] = [];
  for (const [offset, work] of works.entries()) {
    const write = WriteTransaction.begin(client, place, `write_${from + offset}`);
    try {
      const value = await work(write);
      write.flush();
      runs.push({ write, value });
    } catch (thrown) {
      // The first of its statements that failed is its error, as if it had failed at once.
      const error = (await write.failure()) ?? thrown;
      if (isConnectionFailure(error) || isRetryable(error)) throw error;
      // Undone before the next write begins. When an earlier write's statement had failed, this
      // rollback fails too, and that earlier write is undone instead, with this one after it.
      const undone = write.rollBack();
      undone.catch(() => undefined);
      runs.push({ write, thrown: { error, undone } });
    }
  }
  return runs;
}
