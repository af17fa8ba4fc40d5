/** A button whose request is on its way: it spins, and cannot be pressed again until the answer comes. */
import type { ComponentProps } from 'react';
import { Spinner } from './icons';

export function BusyButton({
  busy,
  disabled,
  children,
  ...button
}: ComponentProps<'button'> & { busy: boolean }) {
  return (
    <button {...button} disabled={busy || disabled}>
      {busy && <Spinner className="spinner button-spinner" />}
      {children}
    </button>
  );
}
