import { createContext, useContext } from 'react';

/**
 * Whether the manager's PIN is being asked for: a confirmation waiting on it steps aside meanwhile.
 * The manager approval provides it; dialogs only read it.
 */
export const ManagerAskingContext = createContext(false);

export function useManagerAsking(): boolean {
  return useContext(ManagerAskingContext);
}
