/**
 * The bridge channels of the payment processor setting: the built-in simulator or the merchant's
 * hosted gateway, its address, key, CA file and time limit, the offline (store-and-forward) limits,
 * and a test of the connection. The gateway's key goes one way only: the screens learn whether one
 * is set, never the key.
 */
import { z } from 'zod';

const pinSchema = z.string().regex(/^\d{4,8}$/, 'must be 4 to 8 digits');
const centsSchema = z.number().int().min(1).max(99_999_999);

export const processorSettingsSchema = z.object({
  processor: z.enum(['simulator', 'upstream']),
  /** https://…/rest/v1, or empty. */
  upstreamUrl: z.string().max(2000),
  /** Whether a gateway key is kept; the key itself never crosses the bridge back. */
  apiKeySet: z.boolean(),
  /** The PEM file trusted besides the system's CAs, or empty. */
  caFile: z.string().max(4096),
  timeoutSeconds: z.number().int().min(2).max(120),
  offlineEnabled: z.boolean(),
  offlineMaxAmountCents: centsSchema,
  offlineMaxTotalCents: centsSchema,
  offlineMaxHours: z.number().int().min(1).max(168),
});
export type ProcessorSettings = z.infer<typeof processorSettingsSchema>;

/** What a connection test found, in words a manager can act on. */
export const connectionTestSchema = z.object({
  ok: z.boolean(),
  problem: z
    .enum([
      'unreachable',
      'certificate',
      'key refused',
      'not permitted',
      'no answer',
      'unexpected',
      'not set',
    ])
    .optional(),
  message: z.string().max(1000),
});
export type ConnectionTest = z.infer<typeof connectionTestSchema>;

/** An ISO 8601 instant, as the host writes times for the screens. */
const instant = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/);

/** An offline sale the gateway declined once it was forwarded: money the shop may not get. */
export const declinedOfflineSaleSchema = z.object({
  /** The engine's id of the offline sale. */
  id: z.string().regex(/^\d{1,15}$/),
  amountCents: z.number().int().min(0),
  /** When it was approved offline. */
  at: instant,
  lastFour: z.string().max(4),
  /** The receipt email the customer gave, or empty. */
  email: z.string().max(254),
  /** The gateway's words. */
  message: z.string().max(500),
});
export type DeclinedOfflineSale = z.infer<typeof declinedOfflineSaleSchema>;

/**
 * The line to the gateway as every screen shows it: whether the last try reached it, what waits to
 * be forwarded (store-wide on a store server), and the declined offline sales no manager has
 * acknowledged yet.
 */
export const processorLineSchema = z.object({
  processor: z.enum(['simulator', 'upstream']),
  /** online: the gateway answered the last request; offline: no connection could be made. */
  line: z.enum(['online', 'offline']),
  offlineEnabled: z.boolean(),
  offlineMaxAmountCents: centsSchema,
  waiting: z.object({
    count: z.number().int().min(0),
    cents: z.number().int().min(0),
    /** When the oldest waiting one was made; null when none waits. */
    oldest: instant.nullable(),
  }),
  declined: z.array(declinedOfflineSaleSchema).max(100),
});
export type ProcessorLine = z.infer<typeof processorLineSchema>;

/** The gateway's fields as a form sends them; what is left out stays as it is. */
const gatewayFields = {
  upstreamUrl: z.string().max(2000).optional(),
  /** A new key; an empty one removes the kept key. */
  apiKey: z.string().max(256).optional(),
  caFile: z.string().max(4096).optional(),
  timeoutSeconds: z.number().int().min(2).max(120).optional(),
};

export const processorChannels = {
  'processor:get': { input: z.undefined(), output: processorSettingsSchema },
  /** Changes what is given, all or nothing, each change in the audit log. */
  'processor:update': {
    input: z.strictObject({
      processor: z.enum(['simulator', 'upstream']).optional(),
      ...gatewayFields,
      offlineEnabled: z.boolean().optional(),
      offlineMaxAmountCents: centsSchema.optional(),
      offlineMaxTotalCents: centsSchema.optional(),
      offlineMaxHours: z.number().int().min(1).max(168).optional(),
      pin: pinSchema.optional(),
    }),
    output: processorSettingsSchema,
  },
  /**
   * Calls the gateway with the key, as entered or as kept, and says what is wrong. A kept key is
   * only ever sent to the kept address: testing another address needs its key typed in.
   */
  'processor:test': {
    input: z.strictObject({ ...gatewayFields, pin: pinSchema.optional() }),
    output: connectionTestSchema,
  },
  'processor:line': { input: z.undefined(), output: processorLineSchema },
  /** A manager has seen a declined offline sale: it leaves the alert. */
  'processor:acknowledge': {
    input: z.strictObject({ id: z.string().regex(/^\d{1,15}$/), pin: pinSchema.optional() }),
    output: processorLineSchema,
  },
} as const;

export const processorEvents = {
  /** The line went down or came back, or what waits or was declined changed. */
  'processor:line-changed': processorLineSchema,
} as const;
