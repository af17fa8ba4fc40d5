/**
 * What the cashier's screens may ask of the host while nobody is signed in at the counter (after
 * Lock, the idle lock, or at start): only what the lock screen and the sign-in need. Every other
 * request is refused by the host, as a money move is at a locked counter, so that a page left on the
 * lock screen (or its developer tools) reads nothing of the counter's and does nothing. The same
 * goes for what the host sends them (a swipe, the customer's screen, the settings), and for the
 * customer's screen, which shows its welcome and takes no answer while the counter is locked.
 *
 * The channels answered while locked are an allow-list, here and nowhere else: a channel missing
 * from it is refused while the counter is locked. Every channel of the contract is also named in one
 * of the two lists, and every event in the list of events, so a new channel or event does not
 * compile until someone has decided which it is.
 */
import {
  eventChannels,
  type EventName,
  type EventPayload,
  type InvokeChannel,
} from '../../shared/ipc/contract';
import type { CustomerScreenChannel } from '../../shared/ipc/customer-contract';
import { COUNTER_LOCKED_MESSAGE } from '../gateway/staff/staff';
import { BridgeError } from './dispatch';
import type { BridgeEventListener, BridgeEvents } from './events';

/** The channels answered while the counter is locked, each with what needs it then. */
export const OPEN_WHILE_LOCKED = {
  'terminal:session':
    'the engine address and key the screens are built with, read before anyone signs in; the engine ' +
    "answers nothing to the counter's key while the counter is locked",
  'reader:status': 'the reader line of the startup and lock screens; no data of the counter',
  'settings:get': 'read with the session at start, before the counter is known to be locked',
  'staff:session': 'whether someone is signed in, and whether the first manager is still to be created',
  'staff:sign-in': 'the lock screen itself',
  'staff:first-manager': 'the first start, before there is anyone to sign in',
  'staff:lock': 'a second Lock, or the page’s own idle timer, at a counter already locked',
  'attempts:resolve':
    'a charge sent while signed in and answered after the lock is forgotten by the journal, so the ' +
    'next start does not report it as interrupted; it reads and moves nothing',
} as const satisfies Partial<Record<InvokeChannel, string>>;

/** Every other channel: refused while the counter is locked. */
export const CLOSED_WHILE_LOCKED = [
  'terminal:connection',
  'settings:update',
  'settings:set-swipe-key',
  'manager:set-pin',
  'manager:verify',
  'keys:list',
  'keys:create',
  'keys:revoke',
  'audit:recent',
  'report:save-pdf',
  'receipts:settings',
  'receipts:update-settings',
  'receipts:preview',
  'receipts:print',
  'receipts:after-approval',
  'receipts:test-print',
  'receipts:customer-kept',
  'receipts:print-report',
  'receipts:email',
  'simulator:swipe',
  'simulator:plug',
  'staff:active',
  'staff:list',
  'staff:create',
  'staff:change',
  'staff:retire',
  'staff:set-lock-minutes',
  'counter:approved-transaction',
  'counter:approved-close',
  'attempts:begin',
  'attempts:interrupted',
  'attempts:earlier-answer',
  'attempts:dismiss',
  'store-server:get',
  'store-server:set',
  'store-server:clear',
  'processor:get',
  'processor:update',
  'processor:test',
  'processor:line',
  'processor:acknowledge',
  'customer:view',
  'customer:choose-tip',
  'customer:sign',
  'customer:choose-receipt',
  'customer:still-here',
  'customer:start',
  'customer:skip',
  'customer:cancel',
  'customer:charging',
  'customer:answered',
  'customer:try-again',
  'customer:finish',
  'customer:open-screen',
] as const satisfies readonly InvokeChannel[];

// Fails to compile when the contract gains a channel neither list names.
const everyChannelDecided: [
  Exclude<InvokeChannel, keyof typeof OPEN_WHILE_LOCKED | (typeof CLOSED_WHILE_LOCKED)[number]>,
] extends [never]
  ? true
  : false = true;
void everyChannelDecided;

/** Whether the host answers `channel` while nobody is signed in at the counter. */
export function openWhileLocked(channel: string): boolean {
  return Object.hasOwn(OPEN_WHILE_LOCKED, channel);
}

/** The refusal of a request at a locked counter: the words a money move is refused with there. */
export function counterLockedRefusal(): BridgeError {
  return new BridgeError('refused', COUNTER_LOCKED_MESSAGE);
}

/** What the customer's screen may still ask while the counter is locked, each with why. */
export const OPEN_TO_THE_CUSTOMER_WHILE_LOCKED = {
  'customer:view':
    'the welcome it shows while the counter is locked: the merchant’s name, nothing of a sale ' +
    '(CustomerDisplay.view)',
} as const satisfies Partial<Record<CustomerScreenChannel, string>>;

/**
 * The customer's answers, refused while the counter is locked: a tip, a signature or a receipt is
 * never taken for a sale whose cashier is not there, nor sent anywhere by whoever stands at the
 * customer's screen then.
 */
export const CLOSED_TO_THE_CUSTOMER_WHILE_LOCKED = [
  'customer:choose-tip',
  'customer:sign',
  'customer:choose-receipt',
  'customer:still-here',
] as const satisfies readonly CustomerScreenChannel[];

// Fails to compile when the customer's screen gains a channel neither list names.
const everyCustomerChannelDecided: [
  Exclude<
    CustomerScreenChannel,
    keyof typeof OPEN_TO_THE_CUSTOMER_WHILE_LOCKED | (typeof CLOSED_TO_THE_CUSTOMER_WHILE_LOCKED)[number]
  >,
] extends [never]
  ? true
  : false = true;
void everyCustomerChannelDecided;

/** Whether the host answers the customer's screen `channel` while nobody is signed in at the counter. */
export function openToTheCustomerWhileLocked(channel: string): boolean {
  return Object.hasOwn(OPEN_TO_THE_CUSTOMER_WHILE_LOCKED, channel);
}

/** What the customer reads when they answer a step at a locked counter. */
export const CUSTOMER_WAITS_MESSAGE = 'The counter is locked. Please wait for the cashier.';

export function customerLockedRefusal(): BridgeError {
  return new BridgeError('refused', CUSTOMER_WAITS_MESSAGE);
}

/**
 * What the cashier's pages are sent of an event while the counter is locked:
 * - `sent`: as it happens, since the lock screen shows it;
 * - `dropped`: never sent, nor kept for later: it was meant for whoever was at the counter then;
 * - `at-sign-in`: not sent; once someone signs in, the state it carries is sent as it is then.
 */
export type EventWhileLocked = 'sent' | 'dropped' | 'at-sign-in';

/** Every event of the contract, with what a locked counter's pages are sent of it, and why. */
export const EVENTS_WHILE_LOCKED = {
  'staff:session-changed': { whileLocked: 'sent', why: 'the lock screen itself: the lock, and who signs in' },
  'reader:status-changed': {
    whileLocked: 'sent',
    why: 'the reader line of the lock screen, as `reader:status` answers it; nothing of a card',
  },
  'reader:swipe': {
    whileLocked: 'dropped',
    why:
      'the masked card of whoever swiped at a locked counter; kept, it would be charged by the next ' +
      'person to sign in, for a customer who may have gone',
  },
  'reader:swipe-failed': { whileLocked: 'dropped', why: 'a read that failed for a swipe nobody takes' },
  'settings:changed': {
    whileLocked: 'at-sign-in',
    why: 'the settings the screens behind the lock follow; the lock screen reads them with the session',
  },
  'processor:line-changed': {
    whileLocked: 'at-sign-in',
    why: 'the payments waiting for the processor, and those it declined since: the day’s sales',
  },
  'customer:changed': {
    whileLocked: 'at-sign-in',
    why: 'the sale on the customer’s screen, its amount and what the customer chose',
  },
} as const satisfies Record<EventName, { whileLocked: EventWhileLocked; why: string }>;

/** The events whose state a page is sent at sign-in, when it was held back while locked. */
export type EventSentAtSignIn = {
  [E in EventName]: (typeof EVENTS_WHILE_LOCKED)[E]['whileLocked'] extends 'at-sign-in' ? E : never;
}[EventName];

/** The state each of those events carries, as it is now; undefined when there is none to tell yet. */
export type CurrentStates = { [E in EventSentAtSignIn]: () => EventPayload<E> | undefined };

/**
 * The host's events as a cashier's page is sent them: all of them while someone is signed in; while
 * the counter is locked only those the lock screen shows. The first event sent after the lock (the
 * sign-in's) is followed by the state of each event held back meanwhile, as it is then, so the page
 * behind the lock catches up; nothing dropped is ever sent. `locked` is asked at each event, so the
 * idle lock counts from the moment it fell.
 */
export function cashierPageEvents(
  events: BridgeEvents,
  locked: () => boolean,
  current: CurrentStates,
): BridgeEvents {
  return {
    subscribe(listener: BridgeEventListener) {
      const heldBack = new Set<EventSentAtSignIn>();
      const sendCurrent = <E extends EventSentAtSignIn>(event: E) => {
        const state = current[event]();
        if (state !== undefined) listener(event, eventChannels[event].parse(state) as EventPayload<E>);
      };
      return events.subscribe((event, payload) => {
        const { whileLocked } = EVENTS_WHILE_LOCKED[event];
        if (locked()) {
          if (whileLocked === 'sent') listener(event, payload);
          else if (whileLocked === 'at-sign-in') heldBack.add(event as EventSentAtSignIn);
          return;
        }
        listener(event, payload);
        heldBack.delete(event as EventSentAtSignIn);
        for (const held of [...heldBack]) {
          heldBack.delete(held);
          sendCurrent(held);
        }
      });
    },
  };
}
