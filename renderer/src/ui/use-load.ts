/**
 * Data a screen reads from the engine or the host: loading, the data, or why it failed. A failed
 * reload keeps what was shown before, with the problem beside it, so nothing on screen disappears.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useCounterOpen } from './counter-open';

export interface Loaded<T> {
  data: T | undefined;
  loading: boolean;
  problem: string | undefined;
  reload: () => void;
}

export function problemText(error: unknown): string {
  if (error instanceof TypeError) {
    return 'Tender could not reach its payment engine. Check that Tender is still running, then try again.';
  }
  return error instanceof Error ? error.message : String(error);
}

interface Result<T> {
  /** The request this answers; a newer request makes it stale. */
  request?: object;
  data?: T;
  problem?: string;
}

/**
 * Runs `load` when a key in `keys` changes, or on reload(); answers of an older run are dropped. `when`
 * false holds it back (a screen out of view), as a locked counter does; the next sign-in runs it again.
 */
export function useLoad<T>(load: () => Promise<T>, given: readonly unknown[], shown = true): Loaded<T> {
  const open = useCounterOpen();
  const when = shown && open;
  const keys = [...given, open];
  // A new request object whenever a key changes or a reload is asked for: it names the run in flight.
  const [tracked, setTracked] = useState(() => ({ keys, request: {} as object }));
  if (!sameKeys(tracked.keys, keys)) setTracked({ keys, request: {} });
  const { request } = tracked;
  const [result, setResult] = useState<Result<T>>({});
  const latest = useRef(load);
  useEffect(() => {
    latest.current = load;
  });

  useEffect(() => {
    if (!when) return;
    let current = true;
    latest.current().then(
      (data) => {
        if (current) setResult({ request, data });
      },
      (error: unknown) => {
        if (current) setResult((previous) => ({ ...previous, request, problem: problemText(error) }));
      },
    );
    return () => {
      current = false;
    };
  }, [request, when]);

  const reload = useCallback(() => setTracked((previous) => ({ ...previous, request: {} })), []);
  return { data: result.data, loading: when && result.request !== request, problem: result.problem, reload };
}

function sameKeys(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((key, index) => Object.is(key, b[index]));
}
