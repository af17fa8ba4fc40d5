/**
 * Whether someone is signed in at the counter. While it is locked the host answers the screens only
 * what the lock screen needs, and the engine none of their reads: the screens behind the lock stay as
 * they were and ask nothing, and read again once someone signs in.
 */
import { createContext, useContext } from 'react';

export const CounterOpenContext = createContext(true);

export function useCounterOpen(): boolean {
  return useContext(CounterOpenContext);
}
