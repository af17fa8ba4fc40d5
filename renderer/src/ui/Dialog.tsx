/**
 * A modal dialog on the native <dialog> element: it keeps the keyboard inside while open, Esc
 * cancels, and the page behind is inert to touch and to screen readers alike. The control marked
 * data-autofocus takes the focus when it opens.
 */
import { useEffect, useId, useRef, type ReactNode } from 'react';

type Props = {
  title: string;
  /** Called for Esc, a tap on the backdrop and the Cancel buttons the caller renders. */
  onCancel: () => void;
  children: ReactNode;
  tone?: 'neutral' | 'danger';
  /** While true, Esc and the backdrop do nothing: a request is on its way. */
  busy?: boolean;
  className?: string;
  testId?: string;
};

export function Dialog({
  title,
  onCancel,
  children,
  tone = 'neutral',
  busy = false,
  className,
  testId,
}: Props) {
  const element = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const cancel = useRef(onCancel);
  const waiting = useRef(busy);
  useEffect(() => {
    cancel.current = onCancel;
    waiting.current = busy;
  });

  useEffect(() => {
    const dialog = element.current;
    if (!dialog) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    dialog.showModal();
    // React's autoFocus runs before the dialog is open, when nothing inside can take focus.
    dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    const onCancelEvent = (event: Event) => {
      event.preventDefault();
      if (!waiting.current) cancel.current();
    };
    dialog.addEventListener('cancel', onCancelEvent);
    return () => {
      dialog.removeEventListener('cancel', onCancelEvent);
      dialog.close();
      // Back to where the cashier was, if that is still on screen.
      if (previous?.isConnected) previous.focus({ preventScroll: true });
    };
  }, []);

  return (
    <dialog
      ref={element}
      className={['dialog', `dialog-${tone}`, className].filter(Boolean).join(' ')}
      aria-labelledby={titleId}
      data-testid={testId}
      onMouseDown={(event) => {
        // A tap on the backdrop (the dialog element itself, outside its box) cancels.
        if (event.target === element.current && !waiting.current) cancel.current();
      }}
    >
      <div className="dialog-box">
        <h2 className="dialog-title" id={titleId}>
          {title}
        </h2>
        {children}
      </div>
    </dialog>
  );
}
