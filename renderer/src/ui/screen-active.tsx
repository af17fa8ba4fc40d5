/**
 * Screens stay mounted once opened, so a sale being charged or a tip half typed survives a look at
 * another screen. Only the screen in view may take the keyboard and the card reader: the others read
 * this and stand still.
 */
import { createContext, useContext, useEffect, useRef, type RefObject } from 'react';

export const ScreenActiveContext = createContext(true);

export function useScreenActive(): boolean {
  return useContext(ScreenActiveContext);
}

/** The same, as a ref for event handlers registered once. */
export function useScreenActiveRef(): RefObject<boolean> {
  const active = useScreenActive();
  const ref = useRef(active);
  useEffect(() => {
    ref.current = active;
  }, [active]);
  return ref;
}
