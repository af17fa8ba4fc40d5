/**
 * The bridge channels of the attempt journal: the host keeps each payment the screens send until its
 * answer is known, so that after a restart (of the app or the engine) every attempt whose answer was
 * lost is shown with its outcome from the ledger. Never card data: the card as brand and last four.
 */
import { z } from 'zod';
import { transactionResponseSchema } from '../api/schemas';
import { TRANSACTION_TYPES } from '../api/transaction-types';

const idempotencyKeySchema = z.string().regex(/^[\x21-\x7e]{1,64}$/, 'must be 1 to 64 visible characters');

/**
 * How the card is named: "Visa •••• 1111", "Swiped card", "Tab #12". Never a card number: fewer than
 * 13 digits in all, in any script and however they are grouped.
 */
const cardTextSchema = z
  .string()
  .max(40)
  .refine(
    (text) => (text.normalize('NFKC').match(/\p{Nd}/gu) ?? []).length < 13,
    'must not hold a card number',
  );

export const attemptSchema = z.strictObject({
  idempotencyKey: idempotencyKeySchema,
  type: z.enum(TRANSACTION_TYPES),
  /** Dollars with two decimals, as sent; absent for a VOID. */
  amount: z
    .string()
    .regex(/^\d{1,6}\.\d{2}$/)
    .optional(),
  card: cardTextSchema,
});
export type Attempt = z.infer<typeof attemptSchema>;

/** What became of an attempt whose answer the screens never got. */
export const attemptOutcomeSchema = z.discriminatedUnion('state', [
  z.object({
    state: z.literal('answered'),
    result: z.enum(['Approved', 'Declined', 'Rejected', 'Error']),
    id: z.string().max(20).optional(),
    message: z.string().max(500),
  }),
  /** The engine has no answer under its key: it never reached the engine, and nothing was done. */
  z.object({ state: z.literal('never-reached') }),
]);
export type AttemptOutcome = z.infer<typeof attemptOutcomeSchema>;

export const interruptedAttemptSchema = attemptSchema.extend({
  /** When it was sent (ISO 8601). */
  at: z.string().max(40),
  outcome: attemptOutcomeSchema,
});
export type InterruptedAttempt = z.infer<typeof interruptedAttemptSchema>;

/**
 * The engine's answer to a request sent with the screens' key of an earlier run. A restart of the
 * engine issues the screens a new key, and answers are kept per key: Check again after a restart
 * asks the host for the answer under the key the request went with, and sends it again only when
 * it never reached the engine.
 */
export const earlierAnswerSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('answered'), response: transactionResponseSchema }),
  z.object({ state: z.literal('never-reached') }),
]);
export type EarlierAnswer = z.infer<typeof earlierAnswerSchema>;

export const attemptChannels = {
  /** Kept before the request leaves the screens. */
  'attempts:begin': { input: attemptSchema, output: z.null() },
  /** Its answer reached the screens: forgotten. */
  'attempts:resolve': { input: z.strictObject({ idempotencyKey: idempotencyKeySchema }), output: z.null() },
  /** The attempts of earlier runs that were never resolved, each with its outcome from the ledger. */
  'attempts:interrupted': { input: z.undefined(), output: z.array(interruptedAttemptSchema) },
  /** What the engine answered to a key sent with an earlier run's screens key (its public id). */
  'attempts:earlier-answer': {
    input: z.strictObject({
      idempotencyKey: idempotencyKeySchema,
      keyId: z.string().regex(/^[0-9a-f]{16}$/),
    }),
    output: earlierAnswerSchema,
  },
  /** The cashier has seen them. */
  'attempts:dismiss': {
    input: z.strictObject({ idempotencyKeys: z.array(idempotencyKeySchema).max(1000) }),
    output: z.null(),
  },
} as const;
