/**
 * Where an on-screen keypad types: into the field of its panel that has the focus, or that had it
 * last, exactly as the keyboard would there. A panel with two fields (a tip amount and a percentage,
 * a check amount and a server number) never gets a tap in the field the cashier is not looking at.
 *
 * Each field the pad may type into carries `data-pad-field` with its name; the pad shows that name,
 * and the field it types into is marked `data-pad-current` for the eye.
 */
import { useCallback, useEffect, useRef, useState, type FocusEvent } from 'react';
import type { PadKey } from './DigitPad';
import { isMoneyField, keepTypingAtTheEnd } from './MoneyInput';

export type PadTarget = {
  /** The ref callback of the panel that holds the pad and its fields. */
  attach: (panel: HTMLElement | null) => void;
  onFocus: (event: FocusEvent<HTMLElement>) => void;
  /** The name of the field the keys type into. */
  typingInto: string | undefined;
  press: (key: PadKey) => void;
};

const MARK = 'data-pad-current';

export function usePadTarget(): PadTarget {
  const [scope, attach] = useState<HTMLElement | null>(null);
  const fieldRef = useRef<HTMLInputElement | null>(null);
  const [typingInto, setTypingInto] = useState<string>();

  const choose = useCallback((field: HTMLInputElement) => {
    if (fieldRef.current === field) return;
    fieldRef.current?.removeAttribute(MARK);
    field.setAttribute(MARK, '');
    fieldRef.current = field;
    setTypingInto(field.dataset.padField);
  }, []);

  const target = useCallback((): HTMLInputElement | null => {
    if (!scope) return null;
    const last = fieldRef.current;
    if (last && scope.contains(last) && !last.disabled && !last.readOnly) return last;
    return scope.querySelector<HTMLInputElement>('input[data-pad-field]:not([disabled]):not([readonly])');
  }, [scope]);

  // Before any field was touched (or once the one touched has gone), the keys go to the panel's first
  // field, and say so.
  useEffect(() => {
    const field = target();
    if (field) choose(field);
  });

  const onFocus = useCallback(
    (event: FocusEvent<HTMLElement>) => {
      const field = event.target;
      if (field instanceof HTMLInputElement && field.dataset.padField !== undefined) choose(field);
    },
    [choose],
  );

  const press = useCallback(
    (key: PadKey) => {
      const field = target();
      if (!field) return;
      choose(field);
      if (document.activeElement !== field) {
        // Entering the field as a tap would: an amount field selects its whole amount, so the first
        // key replaces it; any other field goes on from its end.
        field.focus();
        if (field.selectionStart === field.selectionEnd) {
          field.setSelectionRange(field.value.length, field.value.length);
        }
      }
      // An amount takes the key over its whole amount or after its last digit, never in front of the
      // "$" or between two digits, wherever a tap left the caret.
      if (isMoneyField(field)) keepTypingAtTheEnd(field);
      typeKey(field, key);
    },
    [target, choose],
  );

  return { attach, onFocus, typingInto, press };
}

/**
 * For a pad whose own value is not a field (the sale's amount): the field with `data-pad-field` that
 * has the focus now, which the pad types into instead, as the keyboard would; null otherwise.
 */
export function useFocusedPadField(): HTMLInputElement | null {
  const [field, setField] = useState<HTMLInputElement | null>(() => padField(document.activeElement));
  useEffect(() => {
    const focusIn = (event: Event) => setField(padField(event.target));
    // Where the focus goes next; nowhere (a tap on the page) gives the keys back to the pad's value.
    const focusOut = (event: Event) => setField(padField((event as globalThis.FocusEvent).relatedTarget));
    document.addEventListener('focusin', focusIn);
    document.addEventListener('focusout', focusOut);
    return () => {
      document.removeEventListener('focusin', focusIn);
      document.removeEventListener('focusout', focusOut);
    };
  }, []);
  return field;
}

function padField(node: EventTarget | null): HTMLInputElement | null {
  return node instanceof HTMLInputElement && node.dataset.padField !== undefined && !node.readOnly
    ? node
    : null;
}

/**
 * Types one key into a field as the keyboard does, at its caret or over its selection, through the
 * field's own input event so the screen's rules for that field (digits only, money pushed in from the
 * right, a limit) apply unchanged.
 */
export function typeKey(field: HTMLInputElement, key: PadKey): void {
  const { value } = field;
  const start = field.selectionStart ?? value.length;
  const end = field.selectionEnd ?? value.length;
  let next: string;
  let caret: number;
  if (key === 'clear') {
    next = '';
    caret = 0;
  } else if (key === 'back') {
    if (start !== end) {
      next = value.slice(0, start) + value.slice(end);
      caret = start;
    } else if (start > 0) {
      next = value.slice(0, start - 1) + value.slice(start);
      caret = start - 1;
    } else return;
  } else {
    next = value.slice(0, start) + key + value.slice(end);
    caret = start + key.length;
  }
  // React tracks the value a field had; setting it through the prototype's setter makes the input
  // event below read as a change, as a keystroke would.
  const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
  setValue?.call(field, next);
  field.dispatchEvent(new Event('input', { bubbles: true }));
  // A field that rewrote what was typed (money shown as $0.05) goes on from its end.
  const at = field.value === next ? caret : field.value.length;
  field.setSelectionRange(at, at);
}
