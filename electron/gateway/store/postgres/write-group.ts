/**
 * The writes of one group on the store server, in the group's transaction, which holds the ledger
 * head's lock: each in arrival order, each seeing the writes before it, each in a savepoint of its
 * own (write-transaction.ts), and each undone alone when it fails.
 *
 * A write is not waited for before the next begins: the statements it sent without waiting are
 * answered while the next one runs, and all of them are checked once, in order, before the group
 * commits. A write seldom fails after it returned (a statement the schema refuses, a row that was
 * not there to update); when one does, it is rolled back to its savepoint together with every write
 * after it, which ran on what it did, and those run again from that point. So each write costs the
 * group only the round trips of its own reads, while the head is locked for every counter.
 */
import type pg from 'pg';
import type { LedgerWrite } from '../ledger-store';
import { isConnectionFailure, isRetryable } from './connection';
import { GroupBatch, WriteTransaction } from './write-transaction';

export type WriteOutcome = { ok: true; value: unknown; head: number } | { ok: false; error: unknown };

type Work = (ledger: LedgerWrite) => Promise<unknown>;

/** A write as it ran: its value, or the error it threw (already undone in place). */
interface Run {
  write: WriteTransaction;
  value?: unknown;
  thrown?: { error: unknown; undone: Promise<unknown> };
}

/**
 * Runs the group's writes after the last id `start`; each write's outcome, in order. A write that
 * meets a serialization failure or a deadlock runs again, up to `attempts` times in all.
 */
export async function runGroup(
  client: pg.ClientBase,
  lane: string,
  start: number,
  works: readonly Work[],
  attempts: number,
): Promise<{ outcomes: WriteOutcome[]; retries: number }> {
  const outcomes: WriteOutcome[] = [];
  const tries = works.map(() => 0);
  const batch = new GroupBatch();
  let retries = 0;
  while (outcomes.length < works.length) {
    const from = outcomes.length;
    const runs = await runFrom(
      client,
      lane,
      headAfter(start, outcomes),
      works.slice(from),
      from,
      tries,
      batch,
    );
    for (const [offset, run] of runs.entries()) {
      const index = from + offset;
      if (run.thrown) await run.thrown.undone;
      const error = run.thrown ? run.thrown.error : await run.write.failure();
      if (error === undefined) {
        outcomes.push({ ok: true, value: run.value, head: run.write.lastTransactionId });
        continue;
      }
      if (isConnectionFailure(error)) throw error;
      const again = isRetryable(error) && (tries[index] ?? 0) < attempts;
      // A write that threw was undone before the next began, so those after it stand; one that
      // failed after it returned is undone now, with every write after it, which run again.
      if (run.thrown && !again) {
        outcomes.push({ ok: false, error });
        continue;
      }
      await run.write.rollBack();
      if (again) retries += 1;
      else outcomes.push({ ok: false, error });
      break;
    }
  }
  return { outcomes, retries };
}

/** The last id taken by the writes that succeeded so far. */
function headAfter(start: number, outcomes: readonly WriteOutcome[]): number {
  return outcomes.reduce((head, outcome) => (outcome.ok ? outcome.head : head), start);
}

/** Runs writes one after another from the group's `from`-th, without waiting for what each sent. */
async function runFrom(
  client: pg.ClientBase,
  lane: string,
  head: number,
  works: readonly Work[],
  from: number,
  tries: number[],
  batch: GroupBatch,
): Promise<Run[]> {
  const runs: Run[] = [];
  for (const [offset, work] of works.entries()) {
    const index = from + offset;
    tries[index] = (tries[index] ?? 0) + 1;
    const write = WriteTransaction.begin(client, lane, head, `write_${index}`, batch);
    try {
      runs.push({ write, value: await work(write) });
      head = write.lastTransactionId;
    } catch (thrown) {
      // The first of its statements that failed is its error, as if it had failed at once.
      const error = (await write.failure()) ?? thrown;
      if (isConnectionFailure(error)) throw error;
      // Undone before the next write begins. When an earlier write's statement had failed, this
      // rollback fails too, and that earlier write is undone instead, with this one after it.
      const undone = write.rollBack();
      undone.catch(() => undefined);
      runs.push({ write, thrown: { error, undone } });
    }
  }
  return runs;
}
