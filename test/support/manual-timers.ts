/**
 * Timers that run only when a test moves their clock on: a time limit is reached by saying so, never
 * by waiting for it.
 */
export interface ManualTimers {
  set(callback: () => void, ms: number): unknown;
  clear(timer: unknown): void;
  /** Moves the clock on by `ms`, running each timer that comes due, in the order they come due. */
  advance(ms: number): void;
  /** How many timers are waiting. */
  readonly waiting: number;
}

export function manualTimers(): ManualTimers {
  let now = 0;
  let next = 0;
  const pending = new Map<number, { callback: () => void; at: number }>();
  return {
    set(callback, ms) {
      next += 1;
      pending.set(next, { callback, at: now + ms });
      return next;
    },
    clear(timer) {
      if (typeof timer === 'number') pending.delete(timer);
    },
    advance(ms) {
      const until = now + ms;
      for (;;) {
        const due = [...pending]
          .filter(([, timer]) => timer.at <= until)
          .sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        const [id, timer] = due;
        pending.delete(id);
        now = timer.at;
        timer.callback();
      }
      now = until;
    },
    get waiting() {
      return pending.size;
    },
  };
}
