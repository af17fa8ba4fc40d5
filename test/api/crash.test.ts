/**
 * Durability: the headless engine, in its own process, is SIGKILLed at random moments while clients
 * send it concurrent sales, authorizations, captures, voids, refunds and batch closes, and started
 * again on the same data dir each time. Nothing it answered may be lost, nothing may be recorded
 * twice, every batch must add up, and SQLite must find the file sound. The long version of the same
 * scenario, with hundreds of kills, is test/bench/crash-soak.ts.
 */
import { expect, it } from 'vitest';
import { runCrashScenario } from '../support/crash-harness';
import { describeSqliteOnly } from '../support/gateway';

const seed = Number(process.env.TENDER_CRASH_SEED ?? Date.now() % 2 ** 31);

describeSqliteOnly(
  'a SIGKILL mid-load',
  "kills an engine on the data dir's SQLite file; store-server-crash.test.ts kills engines and the server of a store",
  () => {
    it('loses no answered transaction, records none twice, keeps batches equal to their rows and the file sound', async () => {
      const report = await runCrashScenario({
        kills: 6,
        workers: 12,
        killAfterAnswers: [20, 300],
        maxKillDelayMs: 15,
        seed,
        audit: 'full',
      });
      const context = `seed ${seed} (replay with TENDER_CRASH_SEED=${seed}): ${JSON.stringify({ ...report, problems: undefined })}`;
      expect(report.problems, context).toEqual([]);
      expect(report.integrity, context).toEqual([]);
      expect(report.kills).toBe(6);
      // The kills really came mid-load: answers were checked, and requests were cut off.
      expect(report.approvedAnswered, context).toBeGreaterThan(50);
      expect(report.cutOff, context).toBeGreaterThan(0);
    });
  },
);
