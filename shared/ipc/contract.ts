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
import type { CardBrand } from '../cards';

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

export const appSettingsSchema = z.object({
  /** Tips on CAPTURE and FORCED SALE (the engine's tips_enabled). */
  tipsEnabled: z.boolean(),
});
export type AppSettings = z.infer<typeof appSettingsSchema>;

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

// ---------------------------------------------------------------------------------------------
// Channels

/** Requests from the screens, each with its input and answer. */
export const invokeChannels = {
  'terminal:session': { input: z.undefined(), output: terminalSessionSchema },
  'reader:status': { input: z.undefined(), output: readerStatusSchema },
  'settings:get': { input: z.undefined(), output: appSettingsSchema },
  'settings:update': {
    input: z.strictObject({ tipsEnabled: z.boolean().optional() }),
    output: appSettingsSchema,
  },
  /** Only when the simulator is the reader; swipes go through the real report parsing. */
  'simulator:swipe': { input: z.strictObject({ card: z.enum(SIMULATED_SWIPES) }), output: z.null() },
  'simulator:plug': { input: z.strictObject({ plugged: z.boolean() }), output: z.null() },
} as const;

/** Events from the host to the screens. */
export const eventChannels = {
  'reader:status-changed': readerStatusSchema,
  'reader:swipe': cardSwipeSchema,
  'reader:swipe-failed': swipeFailureSchema,
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
