/**
 * The REST resources of /rest/v1, one zod schema each. Types are inferred from these, the engine
 * validates with them, the client and the renderer reuse them, and the OpenAPI document is generated
 * from them: a shape is described here and nowhere else.
 */
import { z } from 'zod';
import { MAX_AMOUNT_CENTS, parseMoney } from '../money';
import { RESULTS, TRANSACTION_TYPES, TYPE_LABELS } from './transaction-types';

// ---------------------------------------------------------------------------------------------
// Field building blocks. Every message reads after the field name: "amount must be ...".

/**
 * What no text field may hold, whichever characters it allows besides: half of a character (a lone
 * UTF-16 surrogate, which a JSON escape such as \ud800 can send and UTF-8 cannot write) and the
 * noncharacters U+FFFE and U+FFFF. XML can carry none of them, so one kept would make every XML
 * answer that repeats it unreadable.
 */
export const NOT_CHARACTERS = /[\p{Cs}\uFFFE\uFFFF]/u;

const text = (max: number) =>
  z
    .string({ error: 'must be text (a JSON string or XML element text)' })
    .max(max, `must be at most ${max} characters`)
    .refine(
      (value) => !NOT_CHARACTERS.test(value),
      'must hold whole characters only (no lone surrogate, U+FFFE or U+FFFF)',
    );

const pattern = (regex: RegExp, message: string, max: number) => text(max).regex(regex, message);

/**
 * Line breaks, tabs and other control characters: never part of a one-line name or setting, which
 * is printed, sent and listed one to a line.
 */
export function hasControlCharacter(text: string): boolean {
  return [...text].some((character) => {
    const code = character.charCodeAt(0);
    return code < 0x20 || code === 0x7f;
  });
}

/** The control characters no kept text may hold: every C0 one but tab and line breaks, and DEL. */
// eslint-disable-next-line no-control-regex -- finding control characters is what it is for
export const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/**
 * Text a transaction keeps or repeats (an invoice, a name, an address): no control character but
 * tab and line breaks. A NUL cannot be kept on a store server (PostgreSQL text holds none) nor
 * written in XML, and no other one means anything on a receipt.
 */
const keptText = (max: number) =>
  text(max).refine((value) => !CONTROL_CHARACTERS.test(value), 'must not hold control characters');

/**
 * Money as the engine reads it (shared/money.ts): dollars with exactly two decimals, a leading zero
 * only alone before the point ("0.50", never "05.00"), at most 999999.99. The documented pattern of
 * every amount, and the one list filters check, so that what the document allows is what is read.
 */
export const AMOUNT_PATTERN = /^(0|[1-9]\d{0,5})\.\d{2}$/;

/** A batch's net as the closer saw it: signed, and a sum, so larger than one amount may be. */
export const NET_AMOUNT_PATTERN = /^-?(0|[1-9]\d{0,8})\.\d{2}$/;

/** Dollars with exactly two decimals, read into integer cents. */
const money = (options: { allowZero: boolean }) =>
  text(16)
    .transform((value, ctx) => {
      const parsed = parseMoney(value, options);
      if (parsed.ok) return parsed.cents;
      const messages = {
        format: 'must be dollars with exactly two decimals, like 25.00',
        zero: 'must be more than 0.00',
        too_large: `must be at most ${(MAX_AMOUNT_CENTS / 100).toFixed(2)}`,
      } as const;
      ctx.addIssue({ code: 'custom', message: messages[parsed.problem] });
      return z.NEVER;
    })
    .meta({ type: 'string', pattern: AMOUNT_PATTERN.source, examples: ['25.00'] });

/** A transaction id: a positive integer, sent as a string (a JSON integer is accepted too). */
const transactionId = z
  .union([z.string(), z.number()], { error: 'must be a transaction id such as "1042"' })
  .transform((value, ctx) => {
    const textValue = typeof value === 'number' ? String(value) : value;
    if (/^[1-9]\d{0,14}$/.test(textValue)) return Number(textValue);
    ctx.addIssue({ code: 'custom', message: 'must be a transaction id such as "1042"' });
    return z.NEVER;
  })
  .meta({ examples: ['1042'] });

const flag = z
  .union([z.boolean(), z.string()], { error: 'must be true or false' })
  .transform((value, ctx) => {
    if (typeof value === 'boolean') return value;
    const lower = value.toLowerCase();
    if (lower === 'true' || lower === 'false') return lower === 'true';
    ctx.addIssue({ code: 'custom', message: 'must be true or false' });
    return z.NEVER;
  })
  .meta({ type: 'string', enum: ['true', 'false'] });

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const IPV6 = /^(?=.*:)[0-9A-Fa-f:.]{2,45}$/;

// ---------------------------------------------------------------------------------------------
// Transaction request

export const billingSchema = z.object(
  {
    first_name: keptText(64).optional().meta({ description: 'First name on the card.' }),
    last_name: keptText(64).optional().meta({ description: 'Last name on the card.' }),
    company: keptText(100).optional(),
    street: keptText(100).optional().meta({ description: 'Used for address verification.' }),
    street2: keptText(100).optional(),
    city: keptText(64).optional(),
    state: keptText(64).optional(),
    country: keptText(64).optional(),
    zip: pattern(/^[A-Za-z0-9][A-Za-z0-9 -]{1,9}$/, 'must be a postal code such as 30301', 10)
      .optional()
      .meta({ description: 'Address verification zip code. 99999 never matches (avs_result_code N).' }),
    phone: keptText(32).optional(),
  },
  { error: 'must be an object of billing fields (first_name, street, zip, ...)' },
);

export const shippingSchema = z.object(
  {
    first_name: keptText(64).optional(),
    last_name: keptText(64).optional(),
    company: keptText(100).optional(),
    street: keptText(100).optional(),
    street2: keptText(100).optional(),
    city: keptText(64).optional(),
    state: keptText(64).optional(),
    zip: pattern(/^\d{5}(-?\d{4})?$/, 'must be five or nine digits', 10).optional(),
    phone: keptText(32).optional(),
  },
  { error: 'must be an object of shipping fields (first_name, street, zip, ...)' },
);

export const transactionRequestSchema = z.object({
  type: text(16).meta({
    description:
      'One of SALE, FORCED SALE, AUTH, CAPTURE, REFUND, VOID, in any letter case; FORCED_SALE is accepted too.',
    examples: ['SALE'],
  }),
  id: transactionId.optional().meta({ description: 'The transaction to capture, refund or void.' }),
  card: pattern(/^\d{13,19}$/, 'must be 13 to 19 digits', 19)
    .optional()
    .meta({ description: 'Card number. Never stored: only the last four digits and the brand are kept.' }),
  csc: pattern(/^\d{3,4}$/, 'must be 3 digits, or 4 for American Express', 4).optional(),
  exp_date: pattern(/^\d{4}$/, 'must be four digits MMYY, like 0429', 4)
    .optional()
    .meta({ examples: ['1229'] }),
  amount: money({ allowZero: false }).optional(),
  invoice: keptText(64).optional(),
  authorization_code: pattern(/^[A-Za-z0-9]{1,8}$/, 'must be 1 to 8 letters or digits', 8)
    .optional()
    .meta({ description: 'Required for FORCED SALE: the code the issuer gave by voice.' }),
  purchase_order: keptText(25).optional().meta({
    description:
      'Assigned by the engine when absent: PO and the transaction id in ten digits, a form a request without id may not send.',
  }),
  email: pattern(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'must be an e-mail address', 254)
    .refine((value) => !CONTROL_CHARACTERS.test(value), 'must be an e-mail address')
    .optional(),
  customer_id: keptText(64).optional(),
  order_number: pattern(/^[0-9A-Z]{1,18}$/, 'must be 1 to 18 characters 0-9 and A-Z', 18).optional(),
  client_ip: text(45)
    .refine((ip) => IPV4.test(ip) || IPV6.test(ip), 'must be an IPv4 or IPv6 address')
    .optional(),
  description: keptText(255).optional(),
  comments: keptText(1000).optional(),
  tip_amount: money({ allowZero: true })
    .optional()
    .meta({ description: 'CAPTURE and FORCED SALE only, and only when tip support is on.' }),
  server_id: pattern(/^\d{2}$/, 'must be two digits, like 07', 2).optional(),
  encrypted_track_data: text(4096).optional().meta({ description: 'The MagTek encrypted swipe string.' }),
  track_format: text(16).optional().meta({ description: 'MAGTEK when encrypted_track_data is sent.' }),
  billing_is_shipping: flag.optional(),
  duplicate_override: flag.optional().meta({
    description:
      'SALE, AUTH and FORCED SALE: true charges the card even though the same card was charged the same amount within duplicate_window_minutes (error_code 8033 otherwise).',
  }),
  billing: billingSchema.optional(),
  shipping: shippingSchema.optional(),
  api_key: text(256).optional().meta({ description: 'Alternative to the api_key header.' }),
});

export type TransactionRequest = z.output<typeof transactionRequestSchema>;
export type TransactionRequestBody = z.input<typeof transactionRequestSchema>;

// ---------------------------------------------------------------------------------------------
// Answers. Every value is a string on the wire.

const wireText = z.string();
/** A yes or no, written as the interface writes every value: a string. */
const flagText = z.enum(['true', 'false']);

export const transactionResponseSchema = z.object({
  id: wireText.optional().meta({ description: 'Absent on Rejected answers.' }),
  result: z.enum(RESULTS),
  result_code: wireText.optional(),
  display_message: wireText,
  authorization_code: wireText.optional(),
  avs_result_code: wireText.optional(),
  csc_result_code: wireText.optional(),
  error_code: wireText.optional().meta({ description: 'Present on Rejected and Error answers.' }),
  duplicate_of: wireText.optional().meta({
    description:
      'On a possible duplicate (error_code 8033): the id of the earlier transaction on the same card for the same amount.',
  }),
  offline: z.literal('true').optional().meta({
    description:
      "Present, true, on an approval given while the merchant's gateway could not be reached (store and forward): the sale is sent to the gateway when it is back, which may still decline it. Its authorization_code starts with OFL.",
  }),
});
export type TransactionResponse = z.infer<typeof transactionResponseSchema>;

export const transactionListItemSchema = z.object({
  id: wireText,
  type: z.enum([...Object.values(TYPE_LABELS), '']).meta({
    description: 'In mixed case. Empty on a Rejected item whose request named no valid type.',
  }),
  result: z.enum(RESULTS),
  result_code: wireText,
  error_code: wireText.optional().meta({ description: 'Present on Rejected and Error items.' }),
  display_message: wireText,
  amount: wireText.meta({ description: 'Total amount, tip included.' }),
  tip_amount: wireText,
  authorization_code: wireText,
  card: wireText.meta({
    description: 'Masked: only the last four digits are visible.',
    examples: ['************1111'],
  }),
  card_brand: wireText,
  billing_is_shipping: wireText,
  created: wireText.meta({ examples: ['2026-11-20T14:05:09.042-05:00'] }),
  invoice: wireText,
  order_number: wireText,
  purchase_order: wireText,
  customer_id: wireText,
  first_name: wireText,
  last_name: wireText,
  server_id: wireText,
  cashier: wireText.meta({
    description:
      'Who made it: the staff member signed in at the counter, or the name of the API key another program used.',
  }),
  lane: wireText.optional().meta({
    description:
      'The counter that made it: its lane name on a store server (--lane), `local` on a counter that keeps its own ledger. Always sent.',
    examples: ['front', 'local'],
  }),
  batch_id: wireText.meta({ description: 'The settlement batch, empty when in none.' }),
  original_id: wireText.meta({ description: 'For CAPTURE, REFUND and VOID: the transaction it refers to.' }),
  voided: wireText.meta({ description: 'true once a VOID reversed it.' }),
  captured: wireText.meta({ description: 'For AUTH: true once captured.' }),
  refunded_amount: wireText.meta({ description: 'For SALE, FORCED SALE and CAPTURE: refunds so far.' }),
  expires: wireText.meta({
    description:
      'For an approved AUTH not yet captured or voided: when it can no longer be captured (auth_expiry_days after approval).',
  }),
  voidable: flagText.meta({
    description:
      'true when a VOID of it would be accepted now: an approved SALE, FORCED SALE, CAPTURE or REFUND not voided and still in the open batch, or an approved AUTH neither captured nor voided (expired or not). As of the list: the engine checks again when the VOID arrives.',
  }),
  refundable_amount: wireText.meta({
    pattern: AMOUNT_PATTERN.source,
    description:
      'The most a REFUND of it would be accepted for now: the amount less refunds so far, for an approved SALE, FORCED SALE or CAPTURE not voided whose batch has closed. 0.00 on every other item, whatever its type (while its batch is open, void it instead).',
    examples: ['25.00', '0.00'],
  }),
  capturable: flagText.meta({
    description:
      'true when a CAPTURE of it would be accepted now: an approved AUTH not captured, voided or expired (auth_expiry_days).',
  }),
  counter_sale: flagText.meta({
    description:
      'true on the AUTH and the CAPTURE of a sale tipped at the counter before the card (both with the description "Counter sale with tip"): the customer made a sale and opened no tab. false on every other item.',
  }),
  upstream_id: wireText.meta({
    description:
      "The merchant's gateway's id of this transaction, when the gateway decided it (processor upstream); empty otherwise, or while it waits to be forwarded.",
  }),
  offline: flagText.meta({
    description:
      'true when it was approved (or, for a CAPTURE, REFUND or VOID, accepted) while the gateway could not be reached, to be forwarded when it is back.',
  }),
  forward_state: z.enum(['', 'waiting', 'forwarded', 'declined', 'cancelled']).meta({
    description:
      'For a transaction made offline: waiting to be forwarded, forwarded (the gateway approved it), declined (the gateway refused it once forwarded: it left the batch), or cancelled (voided before it was forwarded, never sent). Empty for every other transaction.',
  }),
});
export type TransactionListItem = z.infer<typeof transactionListItemSchema>;

export const batchLaneSchema = z.object({
  lane: wireText.meta({ description: 'The counter (lane) whose transactions these are.' }),
  sales_count: wireText,
  sales_total: wireText,
  refund_count: wireText,
  refund_total: wireText,
  total_count: wireText,
  net_amount: wireText,
  tip_total: wireText,
});
export type BatchLane = z.infer<typeof batchLaneSchema>;

export const batchSchema = z.object({
  id: wireText,
  status: z.enum(['OPEN', 'CLOSED']),
  sales_count: wireText,
  sales_total: wireText,
  refund_count: wireText,
  refund_total: wireText,
  total_count: wireText.meta({ description: 'Sales and refunds; voided transactions are not counted.' }),
  net_amount: wireText.meta({ description: 'sales_total minus refund_total.' }),
  tip_total: wireText,
  opened: wireText,
  settled: wireText.optional().meta({ description: 'Closed batches only.' }),
  confirmation_code: wireText.optional().meta({ description: 'Closed batches only.' }),
  upstream_batch_id: wireText.optional().meta({
    description:
      "Closed batches closed with the merchant's gateway (processor upstream): the gateway's id of the batch it closed with this one. confirmation_code is then the gateway's.",
  }),
  upstream_sales_count: wireText.optional().meta({ description: "The gateway's sales_count of its batch." }),
  upstream_sales_total: wireText.optional().meta({ description: "The gateway's sales_total of its batch." }),
  upstream_refund_count: wireText
    .optional()
    .meta({ description: "The gateway's refund_count of its batch." }),
  upstream_refund_total: wireText
    .optional()
    .meta({ description: "The gateway's refund_total of its batch." }),
  upstream_total_count: wireText.optional().meta({ description: "The gateway's total_count of its batch." }),
  upstream_net_amount: wireText.optional().meta({ description: "The gateway's net_amount of its batch." }),
  reconciled: flagText.optional().meta({
    description:
      "Closed with the gateway: true when the gateway's counts and totals are the batch's own, false when any differs (the audit log records it).",
  }),
  lanes: z.array(batchLaneSchema).optional().meta({
    description:
      "Each counter's share of the batch, in lane order: the transactions made at that counter (a void takes a sale back from the counter that made it). The shares add up to the batch's own counts and totals. One `local` lane on a counter that keeps its own ledger; in XML, one `<lanes>` element per lane. Always sent, except in the answer to a close when reading the shares ran past the read time limit: the batch is closed, and listing it (GET /batches?id=) shows them.",
  }),
});
export type Batch = z.infer<typeof batchSchema>;

/** PUT /batches/open: what the manager saw, so that the close closes only that. */
export const closeBatchQuerySchema = z.strictObject({
  expected_total_count: z
    .string()
    .regex(/^\d{1,9}$/, 'must be a whole number of transactions, like 12')
    .optional()
    .meta({
      description: 'The total_count the closer saw: the close happens only if the open batch still has it.',
    }),
  expected_net_amount: z
    .string()
    .regex(NET_AMOUNT_PATTERN, 'must be dollars with two decimals, like 240.50, 0.50 or -12.00')
    .optional()
    .meta({
      description: 'The net_amount the closer saw: the close happens only if the open batch still has it.',
    }),
});
export type CloseBatchQuery = z.infer<typeof closeBatchQuerySchema>;

export const errorSchema = z.object({
  status: wireText,
  error: wireText.meta({ description: 'A stable code, such as unauthorized or bad_parameter.' }),
  message: wireText,
  parameter: wireText.optional().meta({ description: 'The query parameter at fault, for bad_parameter.' }),
  batch: batchSchema.optional().meta({
    description: 'For batch_changed: the open batch as it is now, which was not closed.',
  }),
});
export type ApiError = z.infer<typeof errorSchema>;

// ---------------------------------------------------------------------------------------------
// List queries. Every value arrives as query-string text.

export const PAGE_SIZE_DEFAULT = 25;
export const PAGE_SIZE_MAX = 100;

const positiveInteger = (max: number, what: string) =>
  text(12).refine((v) => /^[1-9]\d*$/.test(v) && Number(v) <= max, `must be ${what}`);

/**
 * A text filter: what the items show, exactly. An empty one is refused rather than read as "any" or
 * as "none": it is most often a client's empty variable.
 */
const textFilter = (max: number) => text(max).min(1, 'must not be empty; leave it out to match any');

/** Filters and paging shared by both lists. */
const listQueryShape = {
  page_size: positiveInteger(PAGE_SIZE_MAX, `a whole number from 1 to ${PAGE_SIZE_MAX}`)
    .optional()
    .meta({ description: `Items per page, default ${PAGE_SIZE_DEFAULT}.` }),
  page: positiveInteger(1_000_000_000, 'a whole number from 1').optional().meta({ description: 'From 1.' }),
  descending: text(5)
    .refine((v) => /^(true|false)$/i.test(v), 'must be true or false')
    .optional()
    .meta({ description: 'Default true.' }),
  start_date: text(64).optional().meta({ description: 'Inclusive.' }),
  end_date: text(64).optional().meta({ description: 'Exclusive.' }),
  id: positiveInteger(Number.MAX_SAFE_INTEGER, 'a positive whole number').optional(),
  amount: pattern(AMOUNT_PATTERN, 'must be dollars with two decimals, like 25.00 or 0.50', 16).optional(),
  type: text(16).optional(),
  result: text(16).optional(),
  last_four: pattern(/^\d{4}$/, 'must be four digits', 4).optional(),
  authorization_code: textFilter(16).optional(),
  invoice: textFilter(64).optional(),
  order_id: textFilter(18).optional(),
  order_number: textFilter(18)
    .optional()
    .meta({ description: "The same filter as order_id, by the request field's name." }),
  first_name: textFilter(64).optional(),
  last_name: textFilter(64).optional(),
  server_id: pattern(/^\d{2}$/, 'must be two digits', 2).optional(),
};

export const TRANSACTION_ORDER_FIELDS = [
  'id',
  'created',
  'amount',
  'type',
  'result',
  'last_four',
  'authorization_code',
  'invoice',
  'order_id',
  'first_name',
  'last_name',
  'server_id',
] as const;
export type TransactionOrderField = (typeof TRANSACTION_ORDER_FIELDS)[number];

export const transactionListQuerySchema = z.strictObject({
  ...listQueryShape,
  order_by: z
    .enum(TRANSACTION_ORDER_FIELDS, { error: `must be one of ${TRANSACTION_ORDER_FIELDS.join(', ')}` })
    .optional(),
  batch_id: positiveInteger(Number.MAX_SAFE_INTEGER, 'a positive whole number').optional(),
  cashier: textFilter(100)
    .optional()
    .meta({ description: 'Exactly as the cashier field of the items shows it (a person or an API key).' }),
  lane: pattern(/^[A-Za-z0-9-]{1,16}$/, 'must be 1 to 16 letters, digits or hyphens', 16)
    .optional()
    .meta({
      description: 'Only the transactions made at this counter, as the lane field of the items shows it.',
    }),
  offline: text(5)
    .refine((v) => /^(true|false)$/i.test(v), 'must be true or false')
    .optional()
    .meta({
      description:
        'true: only the transactions made while the gateway could not be reached (store and forward); false: only the others.',
    }),
});
export type TransactionListQuery = z.infer<typeof transactionListQuerySchema>;

export const BATCH_ORDER_FIELDS = [
  'id',
  'settled',
  'opened',
  'status',
  'amount',
  'net_amount',
  'sales_total',
  'refund_total',
  'total_count',
  // The interface names these order_by values for both lists; a batch has no single value for
  // them, so they keep batches in id order.
  'type',
  'result',
  'last_four',
  'authorization_code',
  'invoice',
  'order_id',
  'first_name',
  'last_name',
] as const;
export type BatchOrderField = (typeof BATCH_ORDER_FIELDS)[number];

export const batchListQuerySchema = z.strictObject({
  ...listQueryShape,
  order_by: z
    .enum(BATCH_ORDER_FIELDS, { error: `must be one of ${BATCH_ORDER_FIELDS.join(', ')}` })
    .optional(),
  status: text(6)
    .refine((v) => /^(open|closed)$/i.test(v), 'must be OPEN or CLOSED')
    .optional(),
});
export type BatchListQuery = z.infer<typeof batchListQuerySchema>;

export { TRANSACTION_TYPES };

// ---------------------------------------------------------------------------------------------
// Receipts

export const RECEIPT_API_COPIES = ['customer', 'merchant', 'check'] as const;
export const RECEIPT_API_WIDTHS = ['32', '42', '48'] as const;

export const receiptQuerySchema = z.strictObject({
  copy: z
    .enum(RECEIPT_API_COPIES, { error: 'must be customer, merchant or check' })
    .optional()
    .meta({
      description:
        'customer (default); merchant, which has a signature line; or check: the check of a tab (an approved ' +
        'AUTH) that the guest pays from, with blank TIP and TOTAL lines and suggested tips only when ' +
        'tips_enabled is true.',
    }),
  width: z
    .enum(RECEIPT_API_WIDTHS, { error: 'must be 32, 42 or 48' })
    .optional()
    .meta({ description: 'Characters per line: 32 (58 mm paper), 42 (default) or 48 (80 mm paper).' }),
});
export type ReceiptQuery = z.infer<typeof receiptQuerySchema>;

/** The query of a route that takes no parameter: any one sent is refused, as on every other route. */
export const noQuerySchema = z.strictObject({});

const receiptFieldSchema = z.object({ label: wireText, value: wireText });

export const receiptSchema = z.object({
  id: wireText.meta({ description: 'The transaction id.' }),
  copy: z.enum(RECEIPT_API_COPIES),
  width: z.enum(RECEIPT_API_WIDTHS),
  merchant: z.object({
    name: wireText,
    address_lines: z.array(wireText),
    phone: wireText,
  }),
  title: wireText.meta({
    description:
      "The type in words: SALE, FORCED SALE, AUTH (TAB), CAPTURE (TAB), REFUND or VOID; a tab's AUTH and CAPTURE say TAB.",
  }),
  fields: z.array(receiptFieldSchema).meta({
    description:
      'Date, Time, Transaction (Tab on a check), Refund of / Void of / Tab (the original id), Invoice, Order, Server, ' +
      'the card (brand and last four digits only) labelled with how it was taken, Swiped or Typed in (Card when not ' +
      'known), Name, Auth code: those that apply, in this order.',
  }),
  amounts: z.array(receiptFieldSchema).meta({
    description:
      'AMOUNT, TIP (when there is one) and TOTAL; on a check, AMOUNT with TIP and TOTAL left blank to fill in when ' +
      'tips_enabled is true, else AMOUNT and TOTAL.',
  }),
  result: wireText.meta({ description: 'APPROVED, DECLINED, REJECTED or ERROR.' }),
  message: wireText.optional().meta({ description: 'Why a transaction that was not approved was not.' }),
  signature: flagText.meta({ description: 'true when the copy has a signature line.' }),
  signed: flagText.meta({
    description:
      'true when the customer signed on screen: the copy to sign is printed with their signature ' +
      '(GET /transactions/{id}/signature) in place of the line, and lines show [signature] there.',
  }),
  copy_label: wireText,
  footer: wireText,
  lines: z.array(z.string()).meta({
    description:
      'The receipt as printed: lines of at most width characters, the same as the text/plain answer.',
  }),
});
export type Receipt = z.infer<typeof receiptSchema>;
