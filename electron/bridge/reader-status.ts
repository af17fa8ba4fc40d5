/**
 * Turns the reader module's events into the one status line the cashier always sees. Problems that
 * belong to a single swipe (a bad read, a library card) are not a state of the reader: they are
 * passed on as swipe failures and the status stays as it was.
 */
import type { ReaderStatus } from '../../shared/ipc/contract';
import type { ReaderInfo, ReaderProblem, ReaderProblemCode } from '../reader/reader';

const SWIPE_PROBLEMS: ReadonlySet<ReaderProblemCode> = new Set([
  'bad-read',
  'not-payment-card',
  'unexpected-report',
]);

export function isSwipeProblem(problem: ReaderProblem): boolean {
  return SWIPE_PROBLEMS.has(problem.code);
}

interface TrackedReader {
  info: ReaderInfo;
  problem?: ReaderProblem;
}

export class ReaderStatusTracker {
  readonly #readers = new Map<string, TrackedReader>();
  /** A problem not tied to one reader: USB HID itself is unavailable. */
  #hostProblem: ReaderProblem | undefined;

  constructor(private readonly simulated: boolean) {}

  attached(info: ReaderInfo): void {
    this.#hostProblem = undefined;
    this.#readers.set(info.id, { info });
  }

  detached(info: ReaderInfo): void {
    this.#readers.delete(info.id);
  }

  /** Records a reader problem; swipe problems leave the status alone. */
  problem(problem: ReaderProblem): void {
    if (isSwipeProblem(problem)) return;
    const reader = problem.reader && this.#readers.get(problem.reader.id);
    if (reader) reader.problem = problem;
    else if (problem.reader) this.#readers.set(problem.reader.id, { info: problem.reader, problem });
    else this.#hostProblem = problem;
  }

  /** A good swipe proves the reader works again (its keys were loaded, encryption switched on). */
  swiped(info: ReaderInfo): void {
    const reader = this.#readers.get(info.id);
    if (reader) reader.problem = undefined;
  }

  get status(): ReaderStatus {
    const readers = [...this.#readers.values()];
    const working = readers.find((reader) => reader.problem === undefined);
    if (working) {
      return {
        state: 'connected',
        product: working.info.product ?? 'MagTek card reader',
        simulated: this.simulated,
      };
    }
    const problem = readers.find((reader) => reader.problem)?.problem ?? this.#hostProblem;
    if (problem) return { state: 'problem', code: problem.code, message: problem.message };
    return { state: 'waiting' };
  }
}
