/**
 * The bridge channels of the customer's screen: the screen turned to the customer at the counter
 * (a second window on a second display, or /customer in a browser). The host keeps what it shows,
 * one step at a time; the cashier's screens move it along the sale, and the customer's screen only
 * answers the step it shows: a tip, a signature, a receipt. It never reaches the engine itself.
 *
 * Nothing of a card crosses here: amounts, the tip, strokes of a signature, an email address.
 */
import { z } from 'zod';
import { MAX_AMOUNT_CENTS } from '../money';
import { signatureStrokesSchema } from '../signature';

const cents = z.number().int().min(0).max(MAX_AMOUNT_CENTS);
const positiveCents = z.number().int().min(1).max(MAX_AMOUNT_CENTS);

/** What the customer is told when the card is declined, whatever the issuer's reason. */
export const CUSTOMER_DECLINE_WORDS = 'Declined: please use another card';

export const tipSuggestionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('percent'), percent: z.number().int().min(1).max(100), cents }),
  z.object({ kind: z.literal('fixed'), cents: positiveCents }),
]);

/** The step the customer's screen is on. */
export const customerStepSchema = z.discriminatedUnion('step', [
  /** The merchant's name and a welcome line. */
  z.object({ step: z.literal('idle') }),
  /** The amount, and the tip to choose: suggestions, Custom, No tip. */
  z.object({
    step: z.literal('tip'),
    amountCents: positiveCents,
    suggestions: z.array(tipSuggestionSchema).max(3),
    /** A tip above this share of the amount, or above the amount, is confirmed (tip_warn_percent). */
    warnPercent: z.number().int().min(1).max(1000),
  }),
  /** The amount (and tip) to pay, and "Swipe your card". */
  z.object({
    step: z.literal('swipe'),
    amountCents: positiveCents,
    tipCents: cents,
    totalCents: positiveCents,
  }),
  z.object({ step: z.literal('processing'), totalCents: positiveCents }),
  z.object({ step: z.literal('approved'), totalCents: positiveCents }),
  /** "Declined: please use another card", until the cashier takes another card or cancels. */
  z.object({ step: z.literal('declined'), totalCents: positiveCents }),
  /** Anything else went wrong: the cashier will help. */
  z.object({ step: z.literal('see-cashier'), totalCents: positiveCents }),
  z.object({ step: z.literal('signature'), totalCents: positiveCents }),
  z.object({
    step: z.literal('receipt'),
    totalCents: positiveCents,
    /** Which choices there are besides No receipt: a printer, a mail server. */
    print: z.boolean(),
    email: z.boolean(),
    /** What went wrong with the last choice, to choose again. */
    problem: z.string().max(300).optional(),
  }),
  z.object({ step: z.literal('thanks') }),
]);
export type CustomerStep = z.infer<typeof customerStepSchema>;
export type CustomerStepName = CustomerStep['step'];

export const RECEIPT_CHOICES = ['print', 'email', 'none'] as const;
export type ReceiptChoice = (typeof RECEIPT_CHOICES)[number];

/** What the customer chose in this sale, shown on the cashier's screen too. */
export const customerChoicesSchema = z.object({
  /** The tip chosen, 0 for No tip; absent until chosen (or skipped by the cashier). */
  tipCents: cents.optional(),
  /** How the tip was chosen: "20%", "$2.00", "Custom", "No tip", or "Skipped" by the cashier. */
  tipLabel: z.string().max(20).optional(),
  /** The charge the sale became, once approved. */
  transactionId: z.number().int().positive().optional(),
  /** Signed on screen; false when the cashier skipped it; absent when not asked. */
  signed: z.boolean().optional(),
  receipt: z.enum(RECEIPT_CHOICES).optional(),
  receiptEmail: z.string().max(254).optional(),
  /** What became of the receipts (printed, emailed, a printer problem), in the cashier's words. */
  receiptNotices: z.array(z.object({ ok: z.boolean(), message: z.string().max(500) })).max(4),
});
export type CustomerChoices = z.infer<typeof customerChoicesSchema>;

export const customerViewSchema = z.object({
  /** Goes up at every change: an answer names the step it answers, so a late tap cannot answer the next. */
  sequence: z.number().int().nonnegative(),
  /** The sequence the sale on screen started at, which names that sale; none while idle. */
  saleSequence: z.number().int().nonnegative().optional(),
  merchantName: z.string().max(48),
  step: customerStepSchema,
  choices: customerChoicesSchema,
  /** Whether a customer's screen is connected now, and whether this counter shows one at all. */
  screen: z.object({ connected: z.boolean(), enabled: z.boolean() }),
});
export type CustomerView = z.infer<typeof customerViewSchema>;

const sequenceInput = { sequence: z.number().int().nonnegative() };
/**
 * The sale a cashier's request is about, by the `saleSequence` its `customer:start` was answered
 * with: a request for a sale no longer on the customer's screen is refused, so one cashier's page
 * never moves another's sale.
 */
const saleInput = { saleSequence: z.number().int().nonnegative() };

/** What the customer's screen may ask; nothing else is answered for it. */
export const customerScreenChannels = {
  'customer:view': { input: z.undefined(), output: customerViewSchema },
  /** The tip of the tip step; one above tip_warn_percent must say the customer confirmed it. */
  'customer:choose-tip': {
    input: z.strictObject({ ...sequenceInput, tipCents: cents, confirmed: z.boolean() }),
    output: customerViewSchema,
  },
  'customer:sign': {
    input: z.strictObject({ ...sequenceInput, strokes: signatureStrokesSchema }),
    output: customerViewSchema,
  },
  'customer:choose-receipt': {
    input: z.strictObject({
      ...sequenceInput,
      choice: z.enum(RECEIPT_CHOICES),
      email: z.string().trim().max(254).optional(),
    }),
    output: customerViewSchema,
  },
  /**
   * The customer is at work on the step on screen (typing an address, signing): the time it waits
   * untouched starts again. About any other step, nothing happens.
   */
  'customer:still-here': { input: z.strictObject(sequenceInput), output: customerViewSchema },
} as const;

/** What the cashier's screens ask, to move the customer's screen along the sale. */
export const customerCashierChannels = {
  /** A sale is being charged: the tip step when tips are asked for and on, else the swipe step. */
  'customer:start': {
    input: z.strictObject({ amountCents: positiveCents, askTip: z.boolean() }),
    output: customerViewSchema,
  },
  /** The cashier goes past the tip (no tip) or the signature (none taken) for the customer. */
  'customer:skip': { input: z.strictObject(sequenceInput), output: customerViewSchema },
  /** The sale is called off before the card was read: back to idle. Refused once it is being charged. */
  'customer:cancel': { input: z.strictObject(saleInput), output: customerViewSchema },
  /**
   * The card is about to be charged: asked, and answered, before the charge is sent. From then on
   * the sale cannot be cancelled here; a sale already called off is refused, and is not charged.
   */
  'customer:charging': { input: z.strictObject(saleInput), output: customerViewSchema },
  /** The charge's answer, as the customer is told it. */
  'customer:answered': {
    input: z.discriminatedUnion('outcome', [
      z.strictObject({
        ...saleInput,
        outcome: z.literal('approved'),
        transactionId: z.number().int().positive(),
        totalCents: positiveCents,
      }),
      z.strictObject({ ...saleInput, outcome: z.literal('declined') }),
      z.strictObject({ ...saleInput, outcome: z.literal('other') }),
    ]),
    output: customerViewSchema,
  },
  /** Another card after a decline: the swipe step again. */
  'customer:try-again': { input: z.strictObject(saleInput), output: customerViewSchema },
  /**
   * The cashier starts the next sale: the sale named goes, and the screen is back to idle. A sale no
   * longer on screen (another page of the counter's has started one since) is left as it is.
   */
  'customer:finish': { input: z.strictObject(saleInput), output: customerViewSchema },
  /**
   * In a browser: the address that pairs one customer's page, with a ticket of its own, for the
   * cashier's screen to open in a new window. The desktop app opens its own on a second display.
   */
  'customer:open-screen': {
    input: z.undefined(),
    output: z.object({ address: z.string().regex(/^https:\/\/[^#\s]+\/customer#pair=[A-Za-z0-9_-]{43}$/) }),
  },
} as const;

export const customerEvents = {
  /** Every change of the customer's screen, to the customer's screen and the cashier's. */
  'customer:changed': customerViewSchema,
} as const;

export type CustomerScreenChannel = keyof typeof customerScreenChannels;

/** The events a customer's screen receives: its own view, nothing of the counter's. */
export const CUSTOMER_SCREEN_EVENTS: readonly string[] = Object.keys(customerEvents);
