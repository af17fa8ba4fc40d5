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
} as const;
