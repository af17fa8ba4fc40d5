/**
 * A moment after a step appears (an answer, the wait for the card) during which its buttons do
 * nothing: a second tap or Enter meant for the step before (Charge pressed twice, Enter held a beat
 * too long) must not clear an approval the cashier has not read, start a new sale over a decline, or
 * press Key in the card where Charge just was. The buttons say so with aria-disabled meanwhile.
 */
import { useCallback, useEffect, useRef, useState } from 'react';

export const STEP_PAUSE_MS = 1000;

export function useStepPause(): {
  /** True for the first moment after the step appeared. */
  paused: boolean;
  /** The handler, doing nothing while paused. */
  guard: <Args extends unknown[]>(handler: (...args: Args) => void) => (...args: Args) => void;
} {
  const [paused, setPaused] = useState(true);
  const shownAt = useRef(0);
  useEffect(() => {
    shownAt.current = performance.now();
    const timer = setTimeout(() => setPaused(false), STEP_PAUSE_MS);
    return () => clearTimeout(timer);
  }, []);
  const guard = useCallback(
    <Args extends unknown[]>(handler: (...args: Args) => void) =>
      (...args: Args) => {
        if (performance.now() - shownAt.current < STEP_PAUSE_MS) return;
        handler(...args);
      },
    [],
  );
  return { paused, guard };
}
