/**
 * The writes of one group on the store server, in the group's transaction: each in arrival order,
 * each seeing the writes before it, each in a savepoint of its own (write-transaction.ts), and each
 * undone alone when it fails.
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
import { asStoreError } from './transaction';
import { WriteTransaction, type WritePlace } from './write-transaction';

type Work = (ledger: LedgerWrite) => Promise<unknown>;

/** A write as it ran: its value, or the error it threw (already undone in place). */
interface Run {
  write: WriteTransaction;
  value?: unknown;
  thrown?: { error: unknown; undone: Promise<unknown> };
}

/** Each write's outcome, in order, and the ids of the rows the group's kept writes inserted. */
export async function runGroup(
  client: pg.ClientBase,
  place: WritePlace,
  works: readonly Work[],
): Promise<{ outcomes: WriteOutcome[]; inserted: number[] }> {
  const outcomes: WriteOutcome[] = [];
  const inserted: number[] = [];
  while (outcomes.length < works.length) {
    const from = outcomes.length;
    const runs = await runFrom(client, place, works.slice(from), from);
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
      // A lock another write kept past the time limit fails this write alone, as busy.
      if (run.thrown) {
        outcomes.push({ ok: false, error: asStoreError(error) });
        continue;
      }
      await run.write.rollBack();
      for (const after of runs.slice(index + 1)) after.write.abandon();
      outcomes.push({ ok: false, error: asStoreError(error) });
      break;
    }
  }
  return { outcomes, inserted };
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
      runs.push({ write, value: await work(write) });
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
