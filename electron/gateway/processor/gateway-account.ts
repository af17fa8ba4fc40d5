/**
 * The merchant's account at its hosted gateway, in the interface's own terms: post a transaction,
 * find one again by its reference, read and close the open batch, and check the connection. Every
 * answer is read leniently (the interface's values are strings, its results in any letter case) and
 * every failure is one of the client's three kinds, or a refusal the gateway answered.
 */
import { z } from 'zod';
import { UpstreamClient, type UpstreamEndpoint, type UpstreamExchange } from './upstream-client';

const RESULTS = ['Approved', 'Declined', 'Rejected', 'Error'] as const;
export type GatewayResult = (typeof RESULTS)[number];

/** Any value the interface sends, read as the string it is meant to be. */
const wire = z.union([z.string(), z.number(), z.boolean()]).transform(String);
const result = z
  .string()
  .transform((text) => RESULTS.find((each) => each.toLowerCase() === text.trim().toLowerCase()))
  .pipe(z.enum(RESULTS));

/** A transaction answer (POST /transactions). */
const answerSchema = z.object({
  id: wire.optional(),
  result,
  result_code: wire.optional(),
  display_message: wire.optional(),
  authorization_code: wire.optional(),
  avs_result_code: wire.optional(),
  csc_result_code: wire.optional(),
  error_code: wire.optional(),
  /** With a possible duplicate (8033): the gateway's id of the earlier charge. */
  duplicate_of: wire.optional(),
});
export type GatewayAnswer = z.output<typeof answerSchema>;

/** A transaction list item: the fields the lookup reads. */
const listItemSchema = z.object({
  id: wire,
  type: wire.optional(),
  result,
  result_code: wire.optional(),
  error_code: wire.optional(),
  display_message: wire.optional(),
  amount: wire.optional(),
  authorization_code: wire.optional(),
  order_number: wire.optional(),
  invoice: wire.optional(),
  created: wire.optional(),
});
export type GatewayListItem = z.output<typeof listItemSchema>;

/** A batch, in either set of the interface's names for its amounts. */
const batchSchema = z
  .object({
    id: wire,
    status: wire.optional(),
    sales_count: wire.optional(),
    sales_total: wire.optional(),
    sales_amount: wire.optional(),
    refund_count: wire.optional(),
    refund_total: wire.optional(),
    refund_amount: wire.optional(),
    total_count: wire.optional(),
    net_amount: wire.optional(),
    total_amount: wire.optional(),
    settled: wire.optional(),
    confirmation_code: wire.optional(),
  })
  .transform((batch) => ({
    id: batch.id,
    status: batch.status,
    salesCount: batch.sales_count,
    salesTotal: batch.sales_total ?? batch.sales_amount,
    refundCount: batch.refund_count,
    refundTotal: batch.refund_total ?? batch.refund_amount,
    totalCount: batch.total_count,
    netAmount: batch.net_amount ?? batch.total_amount,
    settled: batch.settled,
    confirmationCode: batch.confirmation_code,
  }));
export type GatewayBatch = z.output<typeof batchSchema>;

/** The failures every call can end in, besides its answer. */
export type GatewayFailure =
  | {
      kind: 'unreachable';
      cause: Extract<UpstreamExchange, { kind: 'unreachable' }>['cause'];
      detail: string;
    }
  | { kind: 'no answer'; cause: 'timeout' | 'cut' | 'unreadable'; detail: string }
  /** The gateway answered with a status that says it did not act on the request (401, 403, 4xx). */
  | { kind: 'refused'; status: number; detail: string };

export type GatewayCall<T> = { kind: 'answered'; value: T } | GatewayFailure;

/** A request's reference as found in the gateway's list: there, or not (yet). */
export type Lookup = { found: GatewayListItem } | { found: undefined };

const REFUSAL_WORDS: Partial<Record<number, string>> = {
  401: 'the gateway refused the API key (401)',
  403: 'the API key may not do this at the gateway (403)',
  429: 'the gateway asked Tender to slow down (429)',
};

/** The words for a status that means the gateway did not act on the request. */
function refusal(status: number, host: string): GatewayFailure {
  return {
    kind: 'refused',
    status,
    detail: REFUSAL_WORDS[status] ?? `${host} refused the request (HTTP ${status})`,
  };
}

/**
 * An answer read with `schema`. A 4xx is a refusal (nothing was done, as HTTP has it); any other
 * status but the expected ones, or a body that is not what the interface sends, leaves the outcome
 * unknown, as if no answer had come.
 */
function readAnswer<T>(
  exchange: UpstreamExchange,
  host: string,
  read: (status: number, body: string) => T | undefined,
): GatewayCall<T> {
  if (exchange.kind === 'unreachable') return exchange;
  if (exchange.kind === 'no answer') return exchange;
  if (exchange.status >= 400 && exchange.status < 500) return refusal(exchange.status, host);
  let value: T | undefined;
  try {
    value = read(exchange.status, exchange.body);
  } catch {
    value = undefined;
  }
  if (value === undefined) {
    return {
      kind: 'no answer',
      cause: 'unreadable',
      detail: `${host} answered with something Tender could not read (HTTP ${exchange.status})`,
    };
  }
  return { kind: 'answered', value };
}

function json<S extends z.ZodType>(schema: S, body: string): z.output<S> | undefined {
  const parsed = schema.safeParse(JSON.parse(body));
  return parsed.success ? parsed.data : undefined;
}

/** What a connection check found, in words a manager can act on. */
export type ConnectionCheck =
  | { ok: true; message: string }
  | {
      ok: false;
      problem: 'unreachable' | 'certificate' | 'key refused' | 'not permitted' | 'no answer' | 'unexpected';
      message: string;
    };

export class GatewayAccount {
  readonly client: UpstreamClient;

  constructor(endpoint: UpstreamEndpoint | UpstreamClient) {
    this.client = endpoint instanceof UpstreamClient ? endpoint : new UpstreamClient(endpoint);
  }

  get host(): string {
    return this.client.host;
  }

  /** POST /transactions: the gateway's decision, or why none came. */
  async postTransaction(form: Record<string, unknown>): Promise<GatewayCall<GatewayAnswer>> {
    const exchange = await this.client.exchange('POST', '/transactions', form);
    return readAnswer(exchange, this.host, (status, body) =>
      status === 200 ? json(answerSchema, body) : undefined,
    );
  }

  /**
   * The transaction sent with this reference in `order_number`, found through the list's `order_id`
   * filter. Only an item that names the reference counts, so a gateway that ignored the filter
   * cannot pass another transaction off as this one.
   */
  async findByReference(
    reference: string,
    options: { timeoutMs?: number } = {},
  ): Promise<GatewayCall<Lookup>> {
    const query = new URLSearchParams({ order_id: reference, page_size: '100' });
    const exchange = await this.client.exchange(
      'GET',
      `/transactions?${query.toString()}`,
      undefined,
      options,
    );
    return readAnswer(exchange, this.host, (status, body) => {
      if (status === 204) return { found: undefined };
      if (status !== 200) return undefined;
      const items = json(z.array(z.unknown()), body);
      if (items === undefined) return undefined;
      const matching = items
        .map((item) => listItemSchema.safeParse(item))
        .flatMap((parsed) => (parsed.success && parsed.data.order_number === reference ? [parsed.data] : []));
      // A request sent again after the gateway answered it with an Error shows more than once: the
      // one that charged, if any, is what it did.
      return { found: matching.find((item) => item.result === 'Approved') ?? matching[0] };
    });
  }

  /** GET /batches/open: the gateway's open batch, or undefined when none is open. */
  async openBatch(): Promise<GatewayCall<GatewayBatch | undefined>> {
    return this.#readBatch(await this.client.exchange('GET', '/batches/open'));
  }

  /** PUT /batches/open: the batch the gateway closed, or undefined when it had none open. */
  async closeOpenBatch(): Promise<GatewayCall<GatewayBatch | undefined>> {
    return this.#readBatch(await this.client.exchange('PUT', '/batches/open'));
  }

  /** A batch, or none (204), boxed so that "none" is told apart from an unreadable answer. */
  #readBatch(exchange: UpstreamExchange): GatewayCall<GatewayBatch | undefined> {
    const call = readAnswer(exchange, this.host, (status, body) => {
      if (status === 204) return { batch: undefined };
      const batch = status === 200 ? json(batchSchema, body) : undefined;
      return batch === undefined ? undefined : { batch };
    });
    return call.kind === 'answered' ? { kind: 'answered', value: call.value.batch } : call;
  }

  /**
   * Whether Tender can work with the gateway: reaches it, trusts its certificate, and its key may
   * read the open batch and the transaction list (what the lookups need). Says what is wrong in
   * words, and changes nothing at the gateway.
   */
  async check(): Promise<ConnectionCheck> {
    const batch = await this.openBatch();
    if (batch.kind !== 'answered') return this.#checkFailure(batch);
    const list = await this.client.exchange('GET', '/transactions?page_size=1');
    const listed = readAnswer(list, this.host, (status) =>
      status === 200 || status === 204 ? true : undefined,
    );
    if (listed.kind !== 'answered') return this.#checkFailure(listed);
    const open = batch.value;
    return {
      ok: true,
      message:
        `Connected: ${this.host} answered over a verified connection and accepted the key. ` +
        (open ? `Its open batch is ${open.id}.` : 'It has no open batch.'),
    };
  }

  #checkFailure(failure: GatewayFailure): ConnectionCheck {
    switch (failure.kind) {
      case 'unreachable':
        if (failure.cause === 'certificate') {
          return {
            ok: false,
            problem: 'certificate',
            message:
              `Certificate not trusted: ${failure.detail}. For a private gateway, set the CA file to the ` +
              'certificate that issued it.',
          };
        }
        return {
          ok: false,
          problem: 'unreachable',
          message: `Unreachable: ${failure.detail}. Check the address and the network.`,
        };
      case 'refused':
        if (failure.status === 401) {
          return {
            ok: false,
            problem: 'key refused',
            message:
              'Key refused (401): the gateway does not accept this API key. Check it in the gateway account and type it again.',
          };
        }
        if (failure.status === 403) {
          return {
            ok: false,
            problem: 'not permitted',
            message:
              'The gateway accepted the key but it may not read batches or transactions (403). Give the key ' +
              'permission to run transactions, list them, and read and close batches.',
          };
        }
        return {
          ok: false,
          problem: 'unexpected',
          message: `The gateway refused the check: ${failure.detail}.`,
        };
      case 'no answer':
        return {
          ok: false,
          problem: 'no answer',
          message: `No answer: ${failure.detail}. Check that the address is the gateway's, ending in /rest/v1.`,
        };
    }
  }

  close(): void {
    this.client.close();
  }
}
