/**
 * The customer's screen as the cashier's sale sees it: whether one is connected (and switched on),
 * what it shows and what the customer chose, and the requests that move it along the sale. Moving it
 * never holds up a sale: a request that fails is logged and the sale goes on, as it would without a
 * customer's screen. Skip and Cancel, which the cashier presses, say why they were refused.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { CustomerStep, CustomerView } from '../../../shared/ipc/customer-contract';
import { BridgeCallError } from '../../../shared/ipc/facade';
import { useTerminal } from '../terminal/terminal-context';
import { useCounterOpen } from '../ui/counter-open';

/**
 * How the customer's screen took a request about a sale: `shown`; `elsewhere`, when that sale is no
 * longer on it (called off, or another cashier's page put its own sale there); `failed`, when the
 * host could not be asked (logged; the sale goes on without the customer's screen).
 */
export type CustomerTold = 'shown' | 'elsewhere' | 'failed';

export type CustomerAnswer =
  { outcome: 'approved'; transactionId: number; totalCents: number } | { outcome: 'declined' | 'other' };

export interface CustomerScreen {
  view: CustomerView | undefined;
  /** A customer's screen is connected and switched on: the sale runs on it. */
  present: boolean;
  start(amountCents: number, askTip: boolean): Promise<CustomerView | undefined>;
  /**
   * Each names its sale by the `saleSequence` its start was answered with. `charging` is asked
   * before the charge is sent: once it is `shown`, the sale can no longer be cancelled there.
   */
  charging(saleSequence: number): Promise<CustomerTold>;
  answered(saleSequence: number, answer: CustomerAnswer): Promise<CustomerTold>;
  tryAgain(saleSequence: number): void;
  /** The next sale: this one leaves the customer's screen, unless another page's is there since. */
  finish(saleSequence: number): void;
  /** Resolves with why the customer's screen refused, or nothing once it went on. */
  skip(): Promise<string | undefined>;
  /** Calls the sale off there; a sale no longer on it needs nothing more, and is answered so. */
  cancel(saleSequence: number): Promise<string | undefined>;
}

/**
 * The sale this tab put on the customer's screen, by its `saleSequence`: session storage is the tab's
 * own and outlives a reload, so a reloaded page (which starts with no sale) knows the sale it left
 * there, and takes it off while it still waits for the cashier. No other page's sale is ever touched.
 */
const SALE_STORAGE_KEY = 'tender.customer-screen-sale';
/** Steps at which a sale left on the customer's screen waits for a cashier's page that is gone. */
const WAITING_FOR_THE_CASHIER: ReadonlySet<CustomerStep['step']> = new Set([
  'tip',
  'swipe',
  'declined',
  'see-cashier',
  'processing',
]);

function saleLeftBehind(): number | undefined {
  const kept = Number(window.sessionStorage.getItem(SALE_STORAGE_KEY) ?? Number.NaN);
  return Number.isSafeInteger(kept) ? kept : undefined;
}

function logged(what: string) {
  return (error: unknown) => console.error(`Tender: the customer screen did not follow: ${what}.`, error);
}

/**
 * `hostForgot` is called when the bridge is back to a host that restarted: it counts its views again
 * from the start, and knows nothing of a sale that was on the customer's screen. It is given the view
 * from before.
 */
export function useCustomerScreen(hostForgot?: (before: CustomerView) => void): CustomerScreen {
  const { bridge, link } = useTerminal();
  const open = useCounterOpen();
  const [view, setView] = useState<CustomerView>();
  const latest = useRef<CustomerView>(undefined);
  const forgot = useRef(hostForgot);
  useEffect(() => {
    forgot.current = hostForgot;
  }, [hostForgot]);

  const show = useCallback((next: CustomerView) => {
    const current = latest.current;
    if (current && current.sequence > next.sequence) return;
    latest.current = next;
    setView(next);
  }, []);

  useEffect(() => bridge.on('customer:changed', show), [bridge, show]);
  // Read at start and again whenever the bridge is back (events sent meanwhile are lost; a restarted
  // host counts again from the start, so what it says now replaces what was on screen).
  useEffect(() => {
    if (link !== 'up' || !open) return;
    bridge.invoke('customer:view').then((next) => {
      const before = latest.current;
      latest.current = next;
      setView(next);
      if (before && next.sequence < before.sequence) forgot.current?.(before);
    }, logged('reading it'));
  }, [bridge, link, open]);

  // Once, at the first view after the page loaded: a sale of this tab's before a reload goes.
  const [leftBehind] = useState(saleLeftBehind);
  const leftBehindHandled = useRef(false);
  useEffect(() => {
    if (leftBehind === undefined || !view || leftBehindHandled.current) return;
    leftBehindHandled.current = true;
    window.sessionStorage.removeItem(SALE_STORAGE_KEY);
    if (view.saleSequence !== leftBehind || !WAITING_FOR_THE_CASHIER.has(view.step.step)) return;
    bridge
      .invoke('customer:finish', { saleSequence: leftBehind })
      .then(show, logged('taking off the sale of the page before a reload'));
  }, [bridge, leftBehind, show, view]);

  return useMemo(() => {
    const tell = (request: () => Promise<CustomerView>, what: string) =>
      request().then(show, (error: unknown) => {
        logged(what)(error);
        return undefined;
      });
    const told = async (request: () => Promise<CustomerView>, what: string): Promise<CustomerTold> => {
      try {
        show(await request());
        return 'shown';
      } catch (error) {
        if (error instanceof BridgeCallError && error.code === 'refused') return 'elsewhere';
        logged(what)(error);
        return 'failed';
      }
    };
    const refusal = async (request: () => Promise<CustomerView>) => {
      try {
        show(await request());
        return undefined;
      } catch (error) {
        return error instanceof Error ? error.message : String(error);
      }
    };
    return {
      view,
      present: view !== undefined && view.screen.connected && view.screen.enabled,
      start: async (amountCents, askTip) => {
        try {
          const next = await bridge.invoke('customer:start', { amountCents, askTip });
          if (next.saleSequence !== undefined)
            window.sessionStorage.setItem(SALE_STORAGE_KEY, String(next.saleSequence));
          show(next);
          return next;
        } catch (error) {
          logged('a new sale')(error);
          return undefined;
        }
      },
      charging: (saleSequence) =>
        told(() => bridge.invoke('customer:charging', { saleSequence }), 'the charge'),
      answered: (saleSequence, answer) =>
        told(() => bridge.invoke('customer:answered', { ...answer, saleSequence }), 'the answer'),
      tryAgain: (saleSequence) =>
        void tell(() => bridge.invoke('customer:try-again', { saleSequence }), 'another card'),
      finish: (saleSequence) =>
        void tell(() => bridge.invoke('customer:finish', { saleSequence }), 'the next sale'),
      skip: () => refusal(() => bridge.invoke('customer:skip', { sequence: view?.sequence ?? 0 })),
      cancel: (saleSequence) => refusal(() => bridge.invoke('customer:cancel', { saleSequence })),
    };
  }, [bridge, show, view]);
}
