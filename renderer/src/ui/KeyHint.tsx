import type { ReactNode } from 'react';

/** The keyboard shortcut of a control, shown on it; hidden from its accessible name. */
export function KeyHint({ children }: { children: ReactNode }) {
  return (
    <kbd className="key-hint" aria-hidden="true">
      {children}
    </kbd>
  );
}
