/**
 * The long crash test: the scenario of test/api/crash.test.ts with hundreds of SIGKILLs.
 *
 *   node --import tsx test/bench/crash-soak.ts --kills 300 [--workers 16] [--seed <n>] [--keep] [--quiet]
 *
 * Prints a line per kill (unless --quiet) and a summary; exits 1 when anything was lost, recorded
 * twice, miscounted, or SQLite found the file damaged, 0 when the engine held.
 */
import { parseArgs } from 'node:util';
import { runCrashScenario } from '../support/crash-harness';
import { percentile } from './stats';

const { values } = parseArgs({
  options: {
    kills: { type: 'string', default: '300' },
    workers: { type: 'string', default: '16' },
    seed: { type: 'string' },
    'min-answers': { type: 'string', default: '10' },
    'max-answers': { type: 'string', default: '600' },
    'max-delay': { type: 'string', default: '25' },
    keep: { type: 'boolean', default: false },
    quiet: { type: 'boolean', default: false },
  },
});

const number = (name: string, text: string | undefined): number => {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) {
    console.error(`--${name} takes a whole number, not "${text}"`);
    process.exit(2);
  }
  return value;
};

const seed = values.seed === undefined ? Date.now() % 2 ** 31 : number('seed', values.seed);
const kills = number('kills', values.kills);
const started = performance.now();
console.log(`crash soak: ${kills} kills, ${values.workers} workers, seed ${seed}`);

const report = await runCrashScenario({
  kills,
  workers: number('workers', values.workers),
  killAfterAnswers: [
    number('min-answers', values['min-answers']),
    number('max-answers', values['max-answers']),
  ],
  maxKillDelayMs: number('max-delay', values['max-delay']),
  seed,
  audit: 'recent',
  keepDataDir: values.keep,
  log: (line) => {
    if (!values.quiet || line.startsWith('PROBLEM')) console.log(line);
  },
});

const sorted = [...report.startupMs].sort((a, b) => a - b);
const seconds = ((performance.now() - started) / 1000).toFixed(1);

console.log(`
Crash soak summary (seed ${report.seed}, ${seconds} s)
  kills (SIGKILL mid-load)          ${report.kills}
  requests sent                     ${report.requestsSent}
  answers received                  ${report.answered} (${report.approvedAnswered} approved), each checked in the ledger after a restart
  requests cut off by a kill        ${report.cutOff}
    with Idempotency-Key, retried   ${report.retriedReplayed} replayed (had committed), ${report.retriedFresh} done on retry
    without a key                   ${report.unkeyedCommitted} had committed, ${report.unkeyedAbsent} had not
  restarts to ready (ms)            median ${percentile(sorted, 50)}, p95 ${percentile(sorted, 95)}, max ${sorted.at(-1) ?? 0}
  idle connections closed, resent   ${report.staleConnections} (GETs and keyed retries only)
  ledger at the end                 ${report.transactionsInLedger} transactions, ${report.batchesInLedger} batches
  integrity_check after last stop   ${report.integrity.length === 0 ? 'ok' : report.integrity.join('; ')}
  problems                          ${report.problems.length}${values.keep ? `\n  data dir kept at                  ${report.dataDir}` : ''}`);
for (const text of report.problems.slice(0, 50)) console.log(`  - ${text}`);
if (report.problems.length > 50) console.log(`  ... and ${report.problems.length - 50} more`);
process.exit(report.problems.length === 0 ? 0 : 1);
