/**
 * The bridge channels of the people at the counter: signing in and locking, the first manager,
 * staff accounts, and the requests only a manager may allow, which the host runs in the engine for
 * that one request once it has checked the manager.
 */
import { z } from 'zod';
import { batchSchema, NET_AMOUNT_PATTERN, NOT_CHARACTERS, transactionResponseSchema } from '../api/schemas';

export const STAFF_ROLES = ['cashier', 'manager'] as const;
export type StaffRoleName = (typeof STAFF_ROLES)[number];

/** A staff PIN: four to eight digits. */
export const staffPinSchema = z.string().regex(/^\d{4,8}$/, 'must be 4 to 8 digits');
/** One showing of the sign-in keypad, as its screen names it. */
export const pinPromptSchema = z.string().regex(/^[\w-]{8,64}$/, 'must be 8 to 64 letters, digits, - or _');
const staffNameSchema = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(40, 'must be at most 40 characters')
  .refine((name) => !/\p{Cc}/u.test(name) && !NOT_CHARACTERS.test(name), 'must not hold control characters');
const serverNumberSchema = z.string().regex(/^(\d{2})?$/, 'must be two digits, like 07');

/** A staff member as the screens show them: never their PIN. */
export const staffMemberSchema = z.object({
  id: z.number().int().positive(),
  name: z.string().max(40),
  role: z.enum(STAFF_ROLES),
  /** Two digits, or empty. */
  serverId: z.string().max(2),
  retired: z.boolean(),
});
export type StaffMemberShown = z.infer<typeof staffMemberSchema>;

/** Who the counter works for now. */
export const counterSessionSchema = z.object({
  /** Signed in; null while the counter is locked. */
  signedIn: staffMemberSchema.nullable(),
  /** No one has an account yet: the owner creates the first manager. */
  needsFirstManager: z.boolean(),
  /** Minutes without a touch after which the counter locks itself; 0 never. */
  lockAfterMinutes: z.number().int().min(0).max(240),
});
export type CounterSession = z.infer<typeof counterSessionSchema>;

/** A signed-in manager approves by being signed in; otherwise a manager's PIN for this one request. */
const approval = { pin: staffPinSchema.optional() };

/** The outcome of a batch close the host ran for a manager. */
export const approvedCloseSchema = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('closed'), batch: batchSchema }),
  z.object({ outcome: z.literal('none-open') }),
  /** The open batch no longer has what the manager saw: nothing was closed. */
  z.object({ outcome: z.literal('changed'), batch: batchSchema }),
]);
export type ApprovedClose = z.infer<typeof approvedCloseSchema>;

export const staffChannels = {
  'staff:session': { input: z.undefined(), output: counterSessionSchema },
  /**
   * Signs in whoever this PIN belongs to; switching cashier is the same single PIN. `prompt` names
   * this showing of the keypad (made up by the screen, new each time it is shown): a PIN typed right
   * takes back its own typing slips only when they were typed just before it under the same prompt.
   */
  'staff:sign-in': {
    input: z.strictObject({ pin: staffPinSchema, prompt: pinPromptSchema.optional() }),
    output: counterSessionSchema,
  },
  'staff:lock': { input: z.undefined(), output: counterSessionSchema },
  /**
   * Someone is using the screen: the host locks the counter itself once nobody has for
   * lock_after_minutes, so a page that went away leaves no one signed in for the next one to act as.
   */
  'staff:active': { input: z.undefined(), output: z.null() },
  /** Only while no one has an account: creates the first manager and signs them in. */
  'staff:first-manager': {
    input: z.strictObject({
      name: staffNameSchema,
      newPin: staffPinSchema,
      serverId: serverNumberSchema.optional(),
      /** Whether this counter takes tips (tips_enabled), asked once with the first manager. */
      takesTips: z.boolean().optional(),
      /** With takesTips, whether the customer adds one when paying at the counter too (counter_tips). */
      counterTips: z.boolean().optional(),
    }),
    output: counterSessionSchema,
  },
  'staff:list': { input: z.undefined(), output: z.object({ staff: z.array(staffMemberSchema).max(1000) }) },
  'staff:create': {
    input: z.strictObject({
      name: staffNameSchema,
      role: z.enum(STAFF_ROLES),
      newPin: staffPinSchema,
      serverId: serverNumberSchema.optional(),
      ...approval,
    }),
    output: staffMemberSchema,
  },
  'staff:change': {
    input: z.strictObject({
      id: z.number().int().positive(),
      name: staffNameSchema.optional(),
      role: z.enum(STAFF_ROLES).optional(),
      newPin: staffPinSchema.optional(),
      serverId: serverNumberSchema.optional(),
      ...approval,
    }),
    output: staffMemberSchema,
  },
  'staff:retire': {
    input: z.strictObject({ id: z.number().int().positive(), ...approval }),
    output: staffMemberSchema,
  },
  'staff:set-lock-minutes': {
    input: z.strictObject({ minutes: z.number().int().min(0).max(240), ...approval }),
    output: counterSessionSchema,
  },
  /**
   * A REFUND, a VOID, or a charge with duplicate_override: the screens' own key may not send these,
   * so the host runs this one request in the engine once a manager has allowed it. The request is
   * the transaction body as the API takes it, with its Idempotency-Key.
   */
  'counter:approved-transaction': {
    input: z.strictObject({
      request: z.record(z.string(), z.unknown()),
      idempotencyKey: z.string().regex(/^[\x21-\x7e]{1,64}$/),
      ...approval,
    }),
    output: transactionResponseSchema,
  },
  /**
   * Closes the open batch when it still has what the manager saw. The net is written as
   * PUT /batches/open's expected_net_amount is, so "05.00" is refused here as it is there.
   */
  'counter:approved-close': {
    input: z.strictObject({
      expectedTotalCount: z.number().int().min(0).max(999_999_999),
      expectedNetAmount: z
        .string()
        .regex(NET_AMOUNT_PATTERN, 'must be dollars with two decimals, like 240.50, 0.50 or -12.00'),
      ...approval,
    }),
    output: approvedCloseSchema,
  },
} as const;

export const staffEvents = {
  /** Someone signed in, switched or the counter locked, on any screen of this counter. */
  'staff:session-changed': counterSessionSchema,
} as const;
