/**
 * What the cashier's screens may ask of the host while nobody is signed in at the counter (after
 * Lock, the idle lock, or at start): only what the lock screen and the sign-in need. Every other
 * request is refused by the host, as a money move is at a locked counter, so that a page left on the
 * lock screen (or its developer tools) reads nothing of the counter's and does nothing.
 *
 * The channels answered while locked are an allow-list, here and nowhere else: a channel missing
 * from it is refused while the counter is locked. Every channel of the contract is also named in one
 * of the two lists, so a new channel does not compile until someone has decided which it is.
 */
import type { InvokeChannel } from '../../shared/ipc/contract';
import { COUNTER_LOCKED_MESSAGE } from '../gateway/staff/staff';
import { BridgeError } from './dispatch';

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
