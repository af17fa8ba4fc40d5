/**
 * Where wrong PINs are counted, and what is done about them besides counting.
 *
 * A scope is one counter and what its PINs were for: signing in (anyone's PIN) or a manager's
 * approval (a manager's PIN). A pause holds only there, so whoever guesses is held up at their own
 * counter and nobody else; and a PIN typed right for one target never forgives guesses at the other.
 * No correct PIN forgives another's wrong ones: the only wrong PINs a correct one takes back are its
 * own typing slips (one digit wrong, two swapped, one missing or extra) typed just before it on the
 * same sign-in keypad, in one go, which stay in memory for a moment and nowhere else, and no more
 * than two an hour at one counter, or slips typed on purpose before one's own PIN would test its
 * neighbours for free. Whether a wrong PIN was near someone's PIN must change nothing that anyone
 * else can see later (the tries left, when the pause comes), or each wrong PIN would test some forty
 * PINs at once.
 */
import type { AuditEntry } from '../store/audit';

export const PIN_TARGETS = ['sign-in', 'approval'] as const;
export type PinTarget = (typeof PIN_TARGETS)[number];

export function pinScope(counter: string, target: PinTarget): string {
  return `${target} at ${counter}`;
}

/** How long a wrong PIN may still turn out to be a slip of the next one typed. */
const SLIP_MS = 120_000;
/** The longest wait between a wrong PIN and the next PIN that retypes it: one person correcting a slip. */
const RETYPE_MS = 30_000;
/** Slips kept per scope, and forgiven by one correct PIN, at most. */
const SLIPS_KEPT = 4;
const SLIPS_FORGIVEN = 2;
/**
 * Slips taken back per scope within an hour, by all correct PINs together. Without a bound, someone
 * could type two guesses one digit from their own PIN, then their own PIN, and again, testing every
 * PIN near theirs (a colleague's, handed out in sequence) without ever counting one.
 */
const SLIPS_FORGIVEN_PER_HOUR = 2;
const HOUR_MS = 3_600_000;

/** Whether `wrong` is `right` with one typing slip: a digit changed, two neighbours swapped, one dropped or doubled. */
export function isSlipOf(wrong: string, right: string): boolean {
  if (wrong === right) return false;
  if (wrong.length === right.length) {
    const differ = [...wrong].flatMap((digit, index) => (digit === right[index] ? [] : [index]));
    if (differ.length === 1) return true;
    const [a = -1, b = -1] = differ;
    return differ.length === 2 && b === a + 1 && wrong[a] === right[b] && wrong[b] === right[a];
  }
  const [longer, shorter] = wrong.length > right.length ? [wrong, right] : [right, wrong];
  if (longer.length !== shorter.length + 1) return false;
  for (let index = 0; index < longer.length; index += 1) {
    if (longer.slice(0, index) + longer.slice(index + 1) === shorter) return true;
  }
  return false;
}

/**
 * The wrong PINs of the last moments, by scope, each with the keypad prompt it was typed in, for the
 * correct PIN that may follow them in that prompt. A prompt is one showing of the sign-in keypad,
 * named by an id its screen makes up; a PIN typed with none (an approval, another program) is never
 * a slip, and no slip is taken back by a PIN typed with none.
 */
export function pinSlips() {
  const recent = new Map<string, { prompt: string; pin: string; at: number }[]>();
  /** When each slip taken back in the last hour was taken back, by scope. */
  const forgiven = new Map<string, number[]>();
  return {
    wrong(scope: string, prompt: string | undefined, pin: string, at: number): void {
      const kept = (recent.get(scope) ?? []).filter((slip) => at - slip.at < SLIP_MS);
      const typed = prompt === undefined ? [] : [{ prompt, pin, at }];
      recent.set(scope, [...kept, ...typed].slice(-SLIPS_KEPT));
    },
    /**
     * How many wrong PINs `pin`, typed right at `at` in `prompt`, takes back: of those typed in the
     * scope just before it, one after another in this same prompt, each within moments of the next,
     * the ones that are slips of it, two at most, and no more in the scope within an hour than
     * SLIPS_FORGIVEN_PER_HOUR. The scope's wrong PINs are then all forgotten. A wrong PIN typed in
     * another prompt, or before a pause long enough to hand the keypad over, is never taken back,
     * whatever it was: so a guess near someone's PIN, followed by them typing it, leaves the count
     * exactly as a guess far from it would.
     */
    typedRight(scope: string, prompt: string | undefined, pin: string, at: number): number {
      const kept = recent.get(scope) ?? [];
      recent.delete(scope);
      if (prompt === undefined) return 0;
      const run: string[] = [];
      let next = at;
      for (const slip of kept.toReversed()) {
        if (slip.prompt !== prompt || next - slip.at > RETYPE_MS || at - slip.at >= SLIP_MS) break;
        run.push(slip.pin);
        next = slip.at;
      }
      const lately = (forgiven.get(scope) ?? []).filter((when) => at - when < HOUR_MS);
      const left = Math.max(0, SLIPS_FORGIVEN_PER_HOUR - lately.length);
      const taken = Math.min(run.filter((wrong) => isSlipOf(wrong, pin)).length, SLIPS_FORGIVEN, left);
      forgiven.set(scope, [...lately, ...Array<number>(taken).fill(at)]);
      return taken;
    },
  };
}

/** A wait in the words a cashier reads: "45 seconds", "8 minutes", "3 hours", "2 days". */
export function waitInWords(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  const units: [number, string][] = [
    [86_400, 'day'],
    [3_600, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, name] of units) {
    if (seconds >= size * 2) {
      const count = Math.ceil(seconds / size);
      return `${count} ${name}s`;
    }
  }
  return `${seconds} ${seconds === 1 ? 'second' : 'seconds'}`;
}

type Burst = { count: number; counter: string; purpose: string; where: string; from: number };

/**
 * PINs refused while a scope is paused, written to the audit log as one entry with their count once
 * the pause is over, rather than one entry each: a script refusing thousands a second would
 * otherwise fill the log and hold up every other write.
 */
export class PinRefusals {
  readonly #bursts = new Map<string, Burst>();
  readonly #timers = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly record: (entry: Omit<AuditEntry, 'id' | 'at'>) => Promise<void>,
    private readonly now: () => number,
  ) {}

  refused(
    scope: string,
    guess: { counter: string; purpose: string; where: string },
    pausedUntil: number,
  ): void {
    const burst = this.#bursts.get(scope);
    if (burst) {
      burst.count += 1;
      return;
    }
    this.#bursts.set(scope, { count: 1, ...guess, from: this.now() });
    const timer = setTimeout(() => void this.flush(scope), Math.max(0, pausedUntil - this.now()));
    this.#timers.set(scope, timer.unref());
  }

  /** Writes every burst still counting: the engine is stopping, and memory goes with it. */
  async flushAll(): Promise<void> {
    await Promise.all([...this.#bursts.keys()].map((scope) => this.flush(scope)));
  }

  /** Writes the scope's burst, if any; the entry is lost only if the log cannot be written. */
  async flush(scope: string): Promise<void> {
    const burst = this.#bursts.get(scope);
    if (!burst) return;
    this.#bursts.delete(scope);
    clearTimeout(this.#timers.get(scope));
    this.#timers.delete(scope);
    await this.record({
      actor: burst.where,
      action: 'pin_failed',
      subject: burst.purpose,
      detail: `${burst.count} ${burst.count === 1 ? 'PIN' : 'PINs'} refused at ${burst.counter} while PIN entry there was paused, from ${new Date(burst.from).toISOString()}`,
    }).catch(() => undefined);
  }
}
