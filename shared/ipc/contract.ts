/**
 * The bridge between the cashier screens and the process that hosts them: the Electron main process
 * over IPC, or the headless `serve` command over a loopback WebSocket. One zod schema per channel;
 * the host validates every input with it, the screens validate every answer and event with it, and
 * the types of both sides are inferred from it.
 *
 * Card data crosses this bridge only as masked display data and the encrypted swipe string, which
 * the screens post to the engine as it is. A full card number never does.
 */
import { z } from 'zod';
import { PERMISSIONS } from '../api/permissions';
import type { CardBrand } from '../cards';
import { attemptChannels } from './attempts-contract';
import { customerCashierChannels, customerEvents, customerScreenChannels } from './customer-contract';
import { staffChannels, staffEvents } from './staff-contract';
import { processorChannels, processorEvents } from './processor-contract';
import { storeServerChannels } from './store-server-contract';

// ---------------------------------------------------------------------------------------------
// Shapes

const CARD_BRANDS = [
  'visa',
  'mastercard',
  'amex',
  'discover',
  'diners',
  'jcb',
  'unionpay',
  'unknown',
] as const satisfies readonly CardBrand[];
// Fails to compile when shared/cards.ts gains a brand this list lacks.
const everyBrandListed: [Exclude<CardBrand, (typeof CARD_BRANDS)[number]>] extends [never] ? true : false =
  true;
void everyBrandListed;

/** The reader's condition as the cashier sees it, always on screen. */
export const readerStatusSchema = z.discriminatedUnion('state', [
  /** The terminal runs without a card reader (the headless engine without --reader). */
  z.object({ state: z.literal('off') }),
  /** Looking for a reader; none is plugged in. */
  z.object({ state: z.literal('waiting') }),
  z.object({
    state: z.literal('connected'),
    product: z.string().max(128),
    /** The swipe simulator stands in for hardware (demos and tests). */
    simulated: z.boolean(),
  }),
  z.object({
    state: z.literal('problem'),
    code: z.string().regex(/^[a-z-]{1,40}$/),
    /** What happened and what to do next, for the cashier. */
    message: z.string().max(500),
  }),
]);
export type ReaderStatus = z.infer<typeof readerStatusSchema>;

/** What the screen may show of a swiped card: never more than the last four digits. */
export const swipedCardSchema = z.object({
  maskedPan: z.string().regex(/^\*{8,15}\d{4}$/),
  lastFour: z.string().regex(/^\d{4}$/),
  brand: z.enum(CARD_BRANDS),
  cardholderName: z.string().max(64).optional(),
});
export type SwipedCard = z.infer<typeof swipedCardSchema>;

export const cardSwipeSchema = z.object({
  /** The MagTek encrypted swipe string: posted as encrypted_track_data, then forgotten. */
  encryptedTrackData: z.string().min(1).max(4096),
  trackFormat: z.literal('MAGTEK'),
  card: swipedCardSchema,
});
export type CardSwipe = z.infer<typeof cardSwipeSchema>;

/** A swipe the reader could not turn into card data (a bad read, a non-payment card). */
export const swipeFailureSchema = z.object({
  code: z.string().regex(/^[a-z-]{1,40}$/),
  message: z.string().max(500),
});
export type SwipeFailure = z.infer<typeof swipeFailureSchema>;

export const terminalSessionSchema = z.object({
  version: z.string().max(32),
  /** Where the screens run: the desktop app, or a browser next to `npm run gateway -- serve`. */
  shell: z.enum(['desktop', 'browser']),
  /** The engine's REST base, https on loopback. */
  engineUrl: z.string().regex(/^https:\/\/(127\.0\.0\.1|localhost|\[::1\]):\d{1,5}\/rest\/v1$/),
  /** The screens' own API key, issued for this run of the host and revoked at the next one. */
  apiKey: z.string().regex(/^tender_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/),
  readerSimulator: z.boolean(),
});
export type TerminalSession = z.infer<typeof terminalSessionSchema>;

/** Tip percentages the tab screen suggests, in the order shown. */
export const tipPercentagesSchema = z
  .array(z.number().int().min(1).max(100))
  .min(1)
  .max(4)
  .refine((list) => new Set(list).size === list.length, 'must not repeat a percentage');

/** One to three fixed tips, in cents, each above zero and above the one before. */
export const smartTipAmountsSchema = z
  .array(z.number().int().min(1).max(99_999_999))
  .min(1)
  .max(3)
  .refine((list) => list.every((cents, i) => i === 0 || cents > (list[i - 1] ?? 0)), 'must rise');

export const appSettingsSchema = z.object({
  /** Tips on CAPTURE and FORCED SALE (the engine's tips_enabled). */
  tipsEnabled: z.boolean(),
  tipPercentages: tipPercentagesSchema,
  /** How many days an open tab (an AUTH) can still be captured (the engine's auth_expiry_days). */
  authExpiryDays: z.number().int().min(1).max(999),
  /** A tip above this share of the check, in percent, or above the check, asks to be confirmed (tip_warn_percent). */
  tipWarnPercent: z.number().int().min(1).max(1000),
  /** Minutes within which the same card and amount is a possible duplicate; 0 is off (duplicate_window_minutes). */
  duplicateWindowMinutes: z.number().int().min(0).max(1440),
  /** An amount above this, in cents, is said back in words and digits and confirmed (confirm_amount_above). */
  confirmAmountAboveCents: z.number().int().min(0).max(99_999_999),
  /** Tips offered to the customer at a counter sale (counter_tips); offered only with tipsEnabled too. */
  counterTips: z.boolean(),
  /** Below this sale amount, in cents, the counter tips are fixed amounts (smart_tip_below); 0 never. */
  smartTipBelowCents: z.number().int().min(0).max(99_999_999),
  /** The fixed tips offered below it, in cents, rising (smart_tip_amounts). */
  smartTipAmountsCents: smartTipAmountsSchema,
  /** A counter sale of this total or more, in cents, is signed for on the customer's screen; null never (signature_above). */
  signatureAboveCents: z.number().int().min(1).max(99_999_999).nullable(),
  /** Whether this counter shows the customer's screen (a second window, or /customer in a browser). */
  customerScreen: z.boolean(),
  /** Whether voids, refunds, the batch close and these settings need a manager: always, now that staff sign in. */
  managerPin: z.boolean(),
  /**
   * The swipe BDK, described and never shown: whether it is still the public test key, and its check
   * value. None is held while the processor is the merchant's gateway, which gets each swipe as the
   * reader encrypted it (then `kcv` is empty and `testKey` false).
   */
  swipeKey: z.object({
    held: z.boolean(),
    testKey: z.boolean(),
    kcv: z.string().regex(/^(?:[0-9A-F]{6})?$/),
    description: z.string().max(300),
  }),
});
export type AppSettings = z.infer<typeof appSettingsSchema>;

/** A manager's PIN: four to eight digits. */
export const managerPinSchema = z.string().regex(/^\d{4,8}$/, 'must be 4 to 8 digits');

/** What a manager's approval is asked for. */
export const MANAGER_ACTIONS = [
  'void',
  'refund',
  'batch-close',
  'settings',
  'duplicate',
  'offline-decline',
] as const;
export type ManagerAction = (typeof MANAGER_ACTIONS)[number];

/** An ISO 8601 instant, as the host writes times for the screens. */
const instant = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/);

const apiKeyIdSchema = z.string().regex(/^[0-9a-f]{16}$/);

/** An API key as the settings screen lists it: never the key itself. */
export const apiKeyInfoSchema = z.object({
  id: apiKeyIdSchema,
  name: z.string().min(1).max(100),
  permissions: z.array(z.enum(PERMISSIONS)),
  created: instant,
  lastUsed: instant.nullable(),
  revoked: instant.nullable(),
  /** The key these screens use themselves: revoking it would cut them off. */
  current: z.boolean(),
  /**
   * Made for a counter's screens (these, or another counter's of the store): revoking another
   * counter's stops that counter until Tender restarts there.
   */
  counterScreens: z.boolean(),
});
export type ApiKeyInfo = z.infer<typeof apiKeyInfoSchema>;

export const apiKeyListSchema = z.object({
  active: z.array(apiKeyInfoSchema).max(1000),
  /** The most recently revoked keys, newest first. */
  revoked: z.array(apiKeyInfoSchema).max(50),
  revokedTotal: z.number().int().nonnegative(),
});
export type ApiKeyList = z.infer<typeof apiKeyListSchema>;

export const createdApiKeySchema = z.object({
  /** Shown once: only its hash is kept. */
  key: z.string().regex(/^tender_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/),
  info: apiKeyInfoSchema,
});
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;

/** What an integrator needs to reach the engine from another program on this computer. */
export const connectionInfoSchema = z.object({
  engineUrl: z.string().regex(/^https:\/\/(127\.0\.0\.1|localhost|\[::1\]):\d{1,5}\/rest\/v1$/),
  certificate: z.object({
    /** SHA-256 of the certificate, as colon-separated hex pairs. */
    sha256: z.string().regex(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/),
    validFrom: instant,
    validTo: instant,
    /** The PEM file other programs trust. */
    file: z.string().max(4096),
  }),
  /** The host's operating system, for instructions such as the Linux udev rule. */
  platform: z.enum(['linux', 'darwin', 'win32', 'other']),
});
export type ConnectionInfo = z.infer<typeof connectionInfoSchema>;

export const auditEntrySchema = z.object({
  id: z.number().int().positive(),
  at: instant,
  actor: z.string().max(200),
  action: z.string().max(40),
  subject: z.string().max(300),
  detail: z.string().max(1000),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditPageSchema = z.object({
  entries: z.array(auditEntrySchema).max(100),
  /** Whether older entries follow. */
  more: z.boolean(),
});
export type AuditPage = z.infer<typeof auditPageSchema>;

/** Test cards the swipe simulator can swipe, by what the engine will answer. No card number crosses. */
export const SIMULATED_SWIPES = [
  'approved-visa',
  'approved-mastercard',
  'approved-amex',
  'declined',
  'insufficient-funds',
  'processor-error',
  'expired',
  'bad-read',
] as const;
export type SimulatedSwipe = (typeof SIMULATED_SWIPES)[number];

/** The receipt copies: the customer's, the merchant's to sign, and the check a tab's guest writes the tip on. */
export const RECEIPT_COPIES = ['customer', 'merchant', 'check'] as const;
export type ReceiptCopyName = (typeof RECEIPT_COPIES)[number];

const receiptWidthSchema = z.union([z.literal(32), z.literal(42), z.literal(48)]);
const printedTextLine = z.string().max(200);

/** Receipt and printer settings as the screens show them: the mail password only as whether one is set. */
export const receiptSettingsSchema = z.object({
  merchantName: z.string().max(48),
  /** Up to four address lines. */
  merchantAddress: z.array(printedTextLine).max(4),
  merchantPhone: z.string().max(32),
  /** Up to four closing lines. */
  footer: z.array(printedTextLine).max(4),
  /** tcp://<host>:<port>, a print queue's name, or empty for none. */
  printer: z.string().max(270),
  width: receiptWidthSchema,
  customerCopy: z.enum(['always', 'ask', 'never']),
  merchantCopy: z.enum(['always', 'above', 'never']),
  /** With merchantCopy above: totals above this many cents print a copy to sign. */
  merchantCopyAboveCents: z.number().int().min(0).max(99_999_999),
  checkAtAuth: z.enum(['always', 'never']),
  smtp: z.object({
    host: z.string().max(253),
    port: z.number().int().min(1).max(65535),
    security: z.enum(['starttls', 'tls', 'none']),
    user: z.string().max(256),
    from: z.string().max(254),
    /** The password is never sent back, only whether one is kept. */
    passwordSet: z.boolean(),
  }),
});
export type ReceiptSettings = z.infer<typeof receiptSettingsSchema>;

const transactionIdInput = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** A receipt as the preview shows it: the printed lines, with the card as brand and last four only. */
export const receiptPreviewSchema = z.object({
  id: z.number().int().positive(),
  copy: z.enum(RECEIPT_COPIES),
  width: receiptWidthSchema,
  title: z.string().max(20),
  lines: z.array(printedTextLine).max(200),
});
export type ReceiptPreview = z.infer<typeof receiptPreviewSchema>;

/** What happened to a print or an email, in the cashier's words. */
const deliverySchema = z.object({ message: z.string().max(500) });

// ---------------------------------------------------------------------------------------------
// Channels

/** A manager's PIN for this change, unless a manager is signed in; the host checks it. */
const withPin = { pin: managerPinSchema.optional() };

/** Requests from the screens, each with its input and answer. */
export const invokeChannels = {
  'terminal:session': { input: z.undefined(), output: terminalSessionSchema },
  'terminal:connection': { input: z.undefined(), output: connectionInfoSchema },
  'reader:status': { input: z.undefined(), output: readerStatusSchema },
  'settings:get': { input: z.undefined(), output: appSettingsSchema },
  'settings:update': {
    input: z.strictObject({
      tipsEnabled: z.boolean().optional(),
      tipPercentages: tipPercentagesSchema.optional(),
      authExpiryDays: z.number().int().min(1).max(999).optional(),
      tipWarnPercent: z.number().int().min(1).max(1000).optional(),
      duplicateWindowMinutes: z.number().int().min(0).max(1440).optional(),
      confirmAmountAboveCents: z.number().int().min(0).max(99_999_999).optional(),
      counterTips: z.boolean().optional(),
      smartTipBelowCents: z.number().int().min(0).max(99_999_999).optional(),
      smartTipAmountsCents: smartTipAmountsSchema.optional(),
      signatureAboveCents: z.number().int().min(1).max(99_999_999).nullable().optional(),
      customerScreen: z.boolean().optional(),
      ...withPin,
    }),
    output: appSettingsSchema,
  },
  /** The BDK goes one way only: it is never sent back, only its check value. */
  'settings:set-swipe-key': {
    input: z.strictObject({
      bdk: z.string().regex(/^[0-9A-Fa-f]{32}$/, 'must be 32 hex digits'),
      ...withPin,
    }),
    output: appSettingsSchema,
  },
  /** Refused: the counter-wide PIN of earlier versions gave way to each manager's own (staff:change). */
  'manager:set-pin': {
    input: z.strictObject({ newPin: managerPinSchema.nullable(), ...withPin }),
    output: appSettingsSchema,
  },
  /** Checks a manager's PIN (or a signed-in manager) before an action that needs one; refused when wrong. */
  'manager:verify': {
    input: z.strictObject({ pin: managerPinSchema, action: z.enum(MANAGER_ACTIONS) }),
    output: z.null(),
  },
  'keys:list': { input: z.undefined(), output: apiKeyListSchema },
  'keys:create': {
    input: z.strictObject({
      name: z.string().trim().min(1, 'must not be empty').max(100),
      permissions: z
        .array(z.enum(PERMISSIONS))
        .min(1, 'must name at least one permission')
        .refine((list) => new Set(list).size === list.length, 'must not repeat a permission'),
      ...withPin,
    }),
    output: createdApiKeySchema,
  },
  'keys:revoke': { input: z.strictObject({ id: apiKeyIdSchema, ...withPin }), output: apiKeyInfoSchema },
  'audit:recent': {
    input: z.strictObject({
      limit: z.number().int().min(1).max(100),
      offset: z.number().int().min(0).max(1_000_000_000),
    }),
    output: auditPageSchema,
  },
  /** The desktop app writes the shown report to a PDF file the manager picks; browsers print to PDF themselves. */
  'report:save-pdf': {
    input: z.strictObject({ fileName: z.string().regex(/^[A-Za-z0-9 ._-]{1,96}\.pdf$/) }),
    output: z.object({ saved: z.boolean() }),
  },
  'receipts:settings': { input: z.undefined(), output: receiptSettingsSchema },
  /** Changes what is given; the mail password goes one way only, and an empty one removes it. */
  'receipts:update-settings': {
    input: z.strictObject({
      merchantName: z.string().max(48).optional(),
      merchantAddress: z.array(printedTextLine).max(4).optional(),
      merchantPhone: z.string().max(32).optional(),
      footer: z.array(printedTextLine).max(4).optional(),
      printer: z.string().max(270).optional(),
      width: receiptWidthSchema.optional(),
      customerCopy: z.enum(['always', 'ask', 'never']).optional(),
      merchantCopy: z.enum(['always', 'above', 'never']).optional(),
      merchantCopyAboveCents: z.number().int().min(0).max(99_999_999).optional(),
      checkAtAuth: z.enum(['always', 'never']).optional(),
      smtpHost: z.string().max(253).optional(),
      smtpPort: z.number().int().min(1).max(65535).optional(),
      smtpSecurity: z.enum(['starttls', 'tls', 'none']).optional(),
      smtpUser: z.string().max(256).optional(),
      smtpFrom: z.string().max(254).optional(),
      smtpPassword: z.string().max(256).optional(),
      ...withPin,
    }),
    output: receiptSettingsSchema,
  },
  'receipts:preview': {
    input: z.strictObject({
      id: transactionIdInput,
      copy: z.enum(RECEIPT_COPIES),
      width: receiptWidthSchema.optional(),
    }),
    output: receiptPreviewSchema,
  },
  /** Prints copies of any transaction on the receipt printer, each cut apart. */
  'receipts:print': {
    input: z.strictObject({
      id: transactionIdInput,
      copies: z.array(z.enum(RECEIPT_COPIES)).min(1).max(3),
    }),
    output: deliverySchema,
  },
  /**
   * After an approval: prints what the settings print by themselves (the customer copy, the merchant
   * copy to sign, the check of a new tab) and says whether to offer the customer copy.
   */
  'receipts:after-approval': {
    input: z.strictObject({ id: transactionIdInput }),
    output: z.object({
      printed: z.array(z.enum(RECEIPT_COPIES)),
      offerCustomerCopy: z.boolean(),
      /** What went wrong with the printer, when it did; the transaction stands all the same. */
      problem: z.string().max(500).optional(),
    }),
  },
  'receipts:test-print': { input: z.undefined(), output: deliverySchema },
  /**
   * What the customer left with a transaction: whether they signed on screen (the picture is the
   * engine's, at GET /transactions/{id}/signature), and the address its receipt was last emailed to.
   */
  'receipts:customer-kept': {
    input: z.strictObject({ id: transactionIdInput }),
    output: z.object({ signed: z.boolean(), address: z.string().max(254).nullable() }),
  },
  /**
   * Prints the end-of-day report on the receipt printer, as the screens laid it out at the paper's
   * width: printable text only, so nothing in it can be taken for a printer command.
   */
  'receipts:print-report': {
    input: z.strictObject({
      lines: z
        .array(
          z
            .string()
            .max(48)
            .regex(/^[^\p{Cc}]*$/u, 'must be printable text'),
        )
        .min(1)
        .max(5000),
    }),
    output: deliverySchema,
  },
  /** Emails the customer copy to `to`, or to the email the transaction was sent with. */
  'receipts:email': {
    input: z.strictObject({
      id: transactionIdInput,
      to: z.string().trim().max(254).optional(),
    }),
    output: deliverySchema,
  },
  /** Only when the simulator is the reader; swipes go through the real report parsing. */
  'simulator:swipe': { input: z.strictObject({ card: z.enum(SIMULATED_SWIPES) }), output: z.null() },
  'simulator:plug': { input: z.strictObject({ plugged: z.boolean() }), output: z.null() },
  ...staffChannels,
  ...attemptChannels,
  ...storeServerChannels,
  ...processorChannels,
  ...customerScreenChannels,
  ...customerCashierChannels,
} as const;

/** Events from the host to the screens. */
export const eventChannels = {
  'reader:status-changed': readerStatusSchema,
  'reader:swipe': cardSwipeSchema,
  'reader:swipe-failed': swipeFailureSchema,
  /** Any settings change, from any screen, so every open screen shows the same settings. */
  'settings:changed': appSettingsSchema,
  ...staffEvents,
  ...processorEvents,
  ...customerEvents,
} as const;

export type InvokeChannel = keyof typeof invokeChannels;
export type InvokeInput<C extends InvokeChannel> = z.input<(typeof invokeChannels)[C]['input']>;
export type InvokeOutput<C extends InvokeChannel> = z.output<(typeof invokeChannels)[C]['output']>;
export type EventName = keyof typeof eventChannels;
export type EventPayload<E extends EventName> = z.output<(typeof eventChannels)[E]>;
/** Channels without input are called with the channel name alone. */
export type InvokeArgs<C extends InvokeChannel> =
  undefined extends InvokeInput<C> ? [input?: InvokeInput<C>] : [input: InvokeInput<C>];

export function isInvokeChannel(name: unknown): name is InvokeChannel {
  return typeof name === 'string' && Object.hasOwn(invokeChannels, name);
}

export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.hasOwn(eventChannels, name);
}

// ---------------------------------------------------------------------------------------------
// Answers

export const BRIDGE_ERROR_CODES = [
  'unknown-channel',
  'invalid-input',
  'forbidden',
  'unavailable',
  /** The request is understood but not done, with the reason (revoking the screens' own key). */
  'refused',
  /** A manager must allow this request, and it carried no manager's PIN. */
  'pin-required',
  /** The PIN was wrong or not a manager's, or too many wrong PINs were tried just now. */
  'wrong-pin',
  /**
   * The engine is still answering the first request with this idempotency key (the API's 409
   * idempotency_key_in_flight): it may yet be done, so the same request is sent again once it is answered.
   */
  'in-progress',
  /**
   * The idempotency key was used for another request (the API's 422 idempotency_key_reused): this one
   * was not done.
   */
  'key-reused',
  'failed',
] as const;
export type BridgeErrorCode = (typeof BRIDGE_ERROR_CODES)[number];

/**
 * Every request is answered with this envelope rather than a thrown error, so the message reaches
 * the screens as written whichever transport carried it.
 */
export const invokeResultSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({
    ok: z.literal(false),
    error: z.object({ code: z.enum(BRIDGE_ERROR_CODES), message: z.string().max(1000) }),
  }),
]);
export type InvokeResult = z.infer<typeof invokeResultSchema>;

/** The facade `window.tender`: the screens' only way to reach the process that hosts them. */
export interface TenderBridge {
  readonly version: string;
  invoke<C extends InvokeChannel>(channel: C, ...args: InvokeArgs<C>): Promise<InvokeOutput<C>>;
  /** Subscribes to an event; returns the unsubscribe function. */
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
}
