/**
 * Hostile input, generated (fast-check): JSON bodies, XML bodies and query strings with wrong types,
 * huge strings, deep nesting, unicode, duplicate keys, `__proto__` and `constructor` keys, entities,
 * DOCTYPEs, CDATA and numbers in every notation. Whatever arrives, the engine:
 *
 * - answers 2xx or 4xx, never 5xx, in the format asked for (JSON that parses, or XML that is
 *   well-formed with the right root: the resource, or `error`);
 * - changes nothing in the ledger when it answers 4xx;
 * - approves only what the request's own fields ask for: an Approved answer must be explained by the
 *   body's own `type`, `amount`, `card` and `id` (JSON), or by a document that was valid before its
 *   harmless changes (XML); and it authenticates only with a key the request itself carries;
 * - keeps serving: a valid sale is approved afterwards.
 *
 * A well-formed transaction with bad values is a 200 Rejected by design (the attempt is recorded).
 */
import fc from 'fast-check';
import { once } from 'node:events';
import { connect as tlsConnect } from 'node:tls';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Batch, TransactionListItem } from '../../shared/api/schemas';
import { errorSchema, transactionResponseSchema } from '../../shared/api/schemas';
import { parseTransactionType, TYPE_LABELS } from '../../shared/api/transaction-types';
import { parseMoney } from '../../shared/money';
import { useTestGateway, VISA, type RawResponse } from '../support/gateway';
import { auditBatches, listAll, rowProblems } from '../support/ledger-audit';

const t = useTestGateway();
beforeAll(async () => {
  // A batch is open, so that a change to it would show.
  await t.client.createTransaction({ type: 'SALE', amount: '3.00', ...VISA });
});

const xmlParser = new XMLParser({ ignoreAttributes: true, parseTagValue: false });

async function getJson<T>(path: string): Promise<T | undefined> {
  const response = await t.request(path, { headers: { api_key: t.key, accept: 'application/json' } });
  if (response.status === 204) return undefined;
  if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}: ${response.body}`);
  return response.json<T>();
}

/** What a refused request must leave untouched: the newest row, the open batch, the newest batch. */
async function ledgerState(): Promise<string> {
  const [newest] = (await getJson<TransactionListItem[]>('transactions?page_size=1')) ?? [];
  const open = await getJson<Batch>('batches/open');
  const [lastBatch] = (await getJson<Batch[]>('batches?page_size=1')) ?? [];
  return JSON.stringify({ newest, open, lastBatch });
}

type Format = 'json' | 'xml';

/** Checks status and format of any answer; returns the parsed body (undefined for 204). */
function checkAnswer(response: RawResponse, format: Format, resourceRoots: readonly string[], what: string) {
  const context = `${what}\n→ ${response.status} ${response.body.slice(0, 500)}`;
  expect(response.status, `5xx: ${context}`).toBeLessThan(500);
  expect(response.status < 300 || response.status >= 400, context).toBe(true);
  expect(response.status, context).toBeGreaterThanOrEqual(200);
  if (response.status === 204) {
    expect(response.body, context).toBe('');
    return undefined;
  }
  // 406 answers in JSON: the client allowed neither format.
  const answeredIn: Format = response.status === 406 ? 'json' : format;
  const contentType = String(response.headers['content-type']);
  if (answeredIn === 'json') {
    expect(contentType, context).toMatch(/^application\/json/);
    let parsed: unknown;
    expect(() => (parsed = JSON.parse(response.body)), context).not.toThrow();
    if (response.status >= 400) {
      const error = errorSchema.safeParse(parsed);
      expect(error.success, context).toBe(true);
      expect(error.data?.status, context).toBe(String(response.status));
    }
    return parsed;
  }
  // application/xml, or text/xml when that is what was asked for.
  expect(contentType, context).toMatch(/^(application|text)\/xml; charset=utf-8$/);
  expect(XMLValidator.validate(response.body), context).toBe(true);
  const document = xmlParser.parse(response.body) as Record<string, unknown>;
  const roots = Object.keys(document).filter((key) => key !== '?xml');
  expect(roots, context).toHaveLength(1);
  const root = roots[0] as string;
  if (response.status >= 400) expect(root, context).toBe('error');
  else expect(resourceRoots, context).toContain(root);
  return document[root];
}

/** A generated body, shown abbreviated in fast-check's reports (some are 60 KiB). */
interface Body {
  text: string;
  [fc.toStringMethod]: () => string;
}

function abbreviate(text: string): string {
  return text.length > 400 ? `${text.slice(0, 200)}…(${text.length} chars)…${text.slice(-100)}` : text;
}

const asBody = (text: string): Body => ({
  text,
  [fc.toStringMethod]: () => JSON.stringify(abbreviate(text)),
});

// ---------------------------------------------------------------------------------------------
// Pieces of hostile text

/** Numbers as JSON tokens, in every notation; several are not JSON at all. */
const NUMBER_TOKENS = [
  '1e2',
  '-0',
  '0x10',
  'NaN',
  '25.000',
  '.5',
  '25.00',
  '1E400',
  '-1e-400',
  '0.1e1',
  '00025.00',
  '2.5e1',
  '9007199254740993',
  '1_000',
  'Infinity',
  '-Infinity',
  '+1',
  '1.',
  '25,00',
  '0',
  '-25.00',
  '1e-7',
  '123456789012345678901234567890',
  '5',
  '0.0',
  '1E+2',
];
/** The same as text, for string values, XML elements and query parameters. */
const NUMBER_TEXTS = [
  ...NUMBER_TOKENS,
  '٢٥.٠٠',
  '２５.００',
  '25.00.00',
  '$25.00',
  '25.00 USD',
  '1,000.00',
  '25.0',
  '25.',
];

const NASTY_TEXTS = [
  '',
  ' ',
  '\u0000',
  '\u202e',
  '😀',
  'ＳＡＬＥ',
  'sale\u0000',
  'SALE\nVOID',
  'ſale',
  'SALE\u200b',
  '<script>alert(1)</script>',
  "'; DROP TABLE transactions; --",
  '%00',
  '\\',
  '"',
  '4111 1111 1111 1111',
  '４１１１１１１１１１１１１１１１',
  '\ud800',
  '\udfff',
  'constructor',
  '__proto__',
  'null',
  'undefined',
  'true',
  '[object Object]',
  '&amp;',
  '&#0;',
  ']]>',
  '<![CDATA[x]]>',
  '\r\n\r\n',
  'Ä'.repeat(300),
];

const HOSTILE_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'api_key',
  '',
  ' ',
  'type ',
  'TYPE',
  'amount\u0000',
  '😀',
];
const FIELD_NAMES = [
  'type',
  'amount',
  'card',
  'exp_date',
  'csc',
  'id',
  'invoice',
  'billing',
  'shipping',
  'tip_amount',
  'order_number',
  'client_ip',
  'server_id',
  'billing_is_shipping',
  'encrypted_track_data',
  'track_format',
  'authorization_code',
];

const textArb = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_TEXTS, ...NUMBER_TEXTS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 70_000 }).map((n) => 'x'.repeat(n)) },
);

/** Deep nesting: small, or deep enough to exhaust a recursive reader's stack. */
const depthArb = fc.oneof(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 2_000, max: 12_000 }));

function nestedJson(depth: number, kind: 'object' | 'array' | 'mixed'): string {
  let open = '';
  let close = '';
  for (let level = 0; level < depth; level++) {
    const array = kind === 'array' || (kind === 'mixed' && level % 2 === 1);
    open += array ? '[' : '{"a":';
    close = (array ? ']' : '}') + close;
  }
  return `${open}1${close}`;
}

const nestedJsonArb = fc
  .tuple(depthArb, fc.constantFrom('object', 'array', 'mixed') as fc.Arbitrary<'object' | 'array' | 'mixed'>)
  .map(([depth, kind]) => nestedJson(depth, kind));

/** A JSON value as text: scalars of every kind, numbers in every notation, containers, deep nests. */
const jsonValueText: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(...NUMBER_TOKENS),
    textArb.map((text) => JSON.stringify(text)),
    fc.constantFrom('true', 'false', 'null', '{}', '[]'),
    nestedJsonArb,
    fc.array(tie('value'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
    fc
      .array(fc.tuple(fc.constantFrom(...FIELD_NAMES, ...HOSTILE_KEYS), tie('value')), { maxLength: 4 })
      .map((entries) => `{${entries.map(([key, value]) => `${JSON.stringify(key)}:${value}`).join(',')}}`),
  ),
})).value;

// ---------------------------------------------------------------------------------------------
// JSON bodies

const VALID_JSON_FIELDS: readonly (readonly [string, string])[] = [
  ['type', '"SALE"'],
  ['amount', '"5.00"'],
  ['card', `"${VISA.card}"`],
  ['exp_date', `"${VISA.exp_date}"`],
];

type Entries = [string, string][];

/** Changes to a valid sale's fields, as JSON text entries; duplicate keys are kept as sent. */
const jsonMutationArb: fc.Arbitrary<(entries: Entries) => Entries> = fc.oneof(
  fc.tuple(fc.nat(), jsonValueText).map(([n, value]) => (entries: Entries) => {
    const copy = [...entries];
    const index = n % Math.max(1, copy.length);
    if (copy[index]) copy[index] = [copy[index][0], value];
    return copy;
  }),
  fc.nat().map((n) => (entries: Entries) => entries.filter((_, i) => i !== n % Math.max(1, entries.length))),
  fc
    .tuple(fc.constantFrom(...FIELD_NAMES, ...HOSTILE_KEYS), jsonValueText)
    .map(([key, value]) => (entries: Entries): Entries => [...entries, [key, value]]),
  // The same key twice, the second differently.
  fc.tuple(fc.nat(), jsonValueText).map(([n, value]) => (entries: Entries): Entries => {
    const entry = entries[n % Math.max(1, entries.length)];
    return entry ? [...entries, [entry[0], value]] : entries;
  }),
  // Fields moved under __proto__, constructor or another wrapper: present only through the prototype.
  fc
    .tuple(fc.constantFrom('__proto__', 'constructor', 'transaction', 'prototype'), fc.nat())
    .map(([wrapper, n]) => (entries: Entries): Entries => {
      const moved = entries.filter((_, i) => (n >> i) & 1);
      const kept = entries.filter((_, i) => !((n >> i) & 1));
      return [...kept, [wrapper, `{${moved.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`]];
    }),
  // Money and ids as JSON numbers in every notation.
  fc
    .tuple(fc.constantFrom('amount', 'id', 'exp_date', 'card', 'csc'), fc.constantFrom(...NUMBER_TOKENS))
    .map(([key, token]) => (entries: Entries): Entries => [
      ...entries.filter(([k]) => k !== key),
      [key, token],
    ]),
);

const jsonBodyArb: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc
      .tuple(
        fc.constantFrom('SALE', 'AUTH', 'FORCED SALE', 'REFUND', 'VOID', 'CAPTURE'),
        fc.array(jsonMutationArb, { minLength: 1, maxLength: 4 }),
      )
      .map(([type, mutations]) => {
        let entries: Entries = VALID_JSON_FIELDS.map(([k, v]) => [
          k,
          k === 'type' ? JSON.stringify(type) : v,
        ]);
        if (type === 'FORCED SALE') entries.push(['authorization_code', '"VOICE1"']);
        if (type === 'VOID' || type === 'CAPTURE')
          entries = [
            ['type', JSON.stringify(type)],
            ['id', '"1"'],
            ['amount', '"1.00"'],
          ];
        for (const mutate of mutations) entries = mutate(entries);
        return `{${entries.map(([key, value]) => `${JSON.stringify(key)}:${value}`).join(',')}}`;
      }),
  },
  { weight: 2, arbitrary: jsonValueText },
  { weight: 1, arbitrary: nestedJsonArb },
  {
    weight: 1,
    // Not JSON at all, or not one object.
    arbitrary: fc.oneof(
      fc.constantFrom(
        '',
        ' ',
        '\ufeff{}',
        '{}{}',
        '{"type":"SALE",}',
        "{'type':'SALE'}",
        '{"type":"SALE" // c\n}',
        '{"a":1',
        'null',
        '[]',
        '"SALE"',
        '123',
        '{"a":undefined}',
        '{"\\ud800":1}',
        '{"a":"\\u0000"}',
      ),
      fc.tuple(fc.constantFrom(...VALID_JSON_FIELDS), fc.nat()).map(([[k, v], cut]) => {
        const text = `{"${k}":${v},"amount":"5.00"}`;
        return text.slice(0, cut % text.length);
      }),
    ),
  },
);

const JSON_CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/json;charset=latin1',
  'application/json; foo=bar',
];
/** Accept headers, and the format each must get (406 for neither). */
const ACCEPTS: readonly (readonly [string | undefined, Format | 'none'])[] = [
  [undefined, 'json'],
  ['application/json', 'json'],
  ['application/xml', 'xml'],
  ['text/xml', 'xml'],
  ['*/*', 'json'],
  ['application/json;q=0.1, application/xml;q=0.9', 'xml'],
  ['text/html', 'none'],
];

const headersArb = fc.record({
  contentType: fc.constantFrom(...JSON_CONTENT_TYPES),
  accept: fc.constantFrom(...ACCEPTS),
  // Mostly the key in the header; sometimes none, leaving the body's api_key (if any) to decide.
  keyInHeader: fc.constantFrom(true, true, true, true, false),
  idempotencyKey: fc.oneof(
    { weight: 6, arbitrary: fc.constant(undefined) },
    { weight: 3, arbitrary: fc.uuid() },
    { weight: 1, arbitrary: fc.constantFrom('reused-key', 'x'.repeat(65), 'has space', '') },
  ),
});

/**
 * Why an Approved answer to a JSON body is wrong, or undefined when the body's own fields explain
 * it: the type it was approved as, its amount, the card's last four, the transaction it refers to.
 */
function unexplainedApproval(
  body: Record<string, unknown>,
  row: TransactionListItem | undefined,
): string | undefined {
  // As the API reads a body: strings trimmed, and null or an empty string counts as absent.
  const own = (key: string) => {
    const value = Object.hasOwn(body, key) ? body[key] : undefined;
    const trimmed = typeof value === 'string' ? value.trim() : value;
    return trimmed === null || trimmed === '' ? undefined : trimmed;
  };
  if (!row) return 'the approved id is not in the ledger';
  const typeText = own('type');
  const type = typeof typeText === 'string' ? parseTransactionType(typeText) : undefined;
  if (!type) return `approved as ${row.type} with no own type field`;
  if (TYPE_LABELS[type] !== row.type) return `approved as ${row.type}, the own type is ${type}`;
  if (type !== 'VOID' && own('amount') !== row.amount)
    return `approved for ${row.amount}, the own amount is ${JSON.stringify(own('amount'))}`;
  const card = own('card');
  if (['SALE', 'AUTH', 'FORCED SALE'].includes(type) || (type === 'REFUND' && own('id') === undefined)) {
    if (typeof card !== 'string' || !card.endsWith(row.card.slice(-4)))
      return `approved card ${row.card}, the own card is ${JSON.stringify(card)}`;
  }
  if (own('id') === undefined && row.original_id !== '') {
    return `approved as a follow-up of ${row.original_id}, with no own id`;
  }
  if (['VOID', 'CAPTURE'].includes(type) || (type === 'REFUND' && own('id') !== undefined)) {
    const id = own('id');
    if ((typeof id !== 'string' && typeof id !== 'number') || String(Number(id)) !== row.original_id) {
      return `approved against ${row.original_id}, the own id is ${JSON.stringify(id)}`;
    }
  }
  return undefined;
}

interface PostHeaders {
  contentType: string;
  accept: readonly [string | undefined, Format | 'none'];
  keyInHeader: boolean;
  idempotencyKey: string | undefined;
}

async function postJson({ text: body }: Body, headers: PostHeaders) {
  const before = await ledgerState();
  const response = await t.request('transactions', {
    method: 'POST',
    headers: {
      'content-type': headers.contentType,
      ...(headers.accept[0] !== undefined && { accept: headers.accept[0] }),
      ...(headers.keyInHeader && { api_key: t.key }),
      ...(headers.idempotencyKey !== undefined && { 'idempotency-key': headers.idempotencyKey }),
    },
    body,
  });
  const what = `POST ${headers.contentType} accept ${headers.accept[0]} key ${headers.keyInHeader ? 'in header' : 'not in header'} idempotency ${JSON.stringify(headers.idempotencyKey)}: ${abbreviate(body)}`;
  const format: Format = headers.accept[1] === 'xml' ? 'xml' : 'json';
  const answer = checkAnswer(response, format, ['transaction'], what);
  if (headers.accept[1] === 'none') expect(response.status, what).toBe(406);
  if (response.status >= 400) {
    expect(await ledgerState(), `a ${response.status} changed the ledger: ${what}`).toBe(before);
    return;
  }
  const result = transactionResponseSchema.safeParse(answer);
  expect(result.success, `${what}\n→ ${response.body}`).toBe(true);
  // Only JSON.parse of an object gets a 200: the body is an object here.
  const parsed = JSON.parse(body) as Record<string, unknown>;
  if (!headers.keyInHeader) {
    expect(
      Object.hasOwn(parsed, 'api_key') ? String(parsed.api_key).trim() : undefined,
      `authenticated by a key the body does not carry: ${what}`,
    ).toBe(t.key);
  }
  if (result.data?.result === 'Approved') {
    const [row] = (await getJson<TransactionListItem[]>(`transactions?id=${result.data.id}`)) ?? [];
    expect(unexplainedApproval(parsed, row), `${what}\n→ ${response.body}`).toBeUndefined();
  }
}

describe('generated JSON bodies', () => {
  it('are answered 2xx or 4xx in the format asked for, change nothing when refused, and approve nothing the body does not ask for', async () => {
    await fc.assert(
      fc.asyncProperty(jsonBodyArb.map(asBody), headersArb, async (body, headers) => postJson(body, headers)),
      {
        numRuns: 500,
        interruptAfterTimeLimit: 40_000,
        // A refund whose id is null names no original: approved unlinked, against the card it sends.
        examples: [
          [
            asBody(JSON.stringify({ type: 'REFUND', amount: '5.00', ...VISA, id: null })),
            {
              contentType: 'application/json',
              accept: [undefined, 'json'],
              keyInHeader: true,
              idempotencyKey: undefined,
            },
          ],
        ],
      },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// XML bodies

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

interface XmlDoc {
  prolog: string;
  beforeRoot: string;
  root: string;
  rootAttributes: string;
  elements: [string, string][];
  afterRoot: string;
  /** False once a change makes the document unable to approve (a field broken, a DOCTYPE, ...). */
  mayApprove: boolean;
  changes: string[];
}

const render = (doc: XmlDoc) =>
  `${doc.prolog}${doc.beforeRoot}<${doc.root}${doc.rootAttributes}>${doc.elements
    .map(([name, content]) => (name.startsWith('<') ? name : `<${name}>${content}</${name.split(' ')[0]}>`))
    .join('')}</${doc.root.split(' ')[0]}>${doc.afterRoot}`;

const REQUIRED_XML = ['type', 'amount', 'card', 'exp_date'] as const;

/** Values that can never be valid for a field, however they are trimmed or cased. */
const BROKEN_VALUES: Record<(typeof REQUIRED_XML)[number], readonly string[]> = {
  type: ['PURCHASE', 'ＳＡＬＥ', 'SALE VOID', 'SALES', '1e2', '-0', '0x10', 'S&amp;ALE', '&foo;', '&#0;'],
  amount: NUMBER_TEXTS.filter((text) => !parseMoney(text.trim()).ok).map(escapeXml),
  card: [
    '4111111111111112',
    '4111',
    '４１１１１１１１１１１１１１１１',
    '4111 1111 1111 1111',
    '4111-1111-1111-1111',
    '1e15',
    '0x10',
    '41111111111111111111',
  ],
  exp_date: ['1399', '0000', '123', '12300', '1e2', '٠١٢٣', '12/30', '-0', '0x10'],
};

type XmlChange = (doc: XmlDoc) => void;

/** Where a field's element is; throws when a change already renamed or removed it. */
function requiredIndex(doc: XmlDoc, field: string): number {
  const index = doc.elements.findIndex(([name]) => name === field);
  if (index < 0) throw new Error(`no <${field}> left`);
  return index;
}

/** Sets what a field's element holds. */
function setContent(doc: XmlDoc, field: string, content: string): void {
  const index = requiredIndex(doc, field);
  doc.elements[index] = [field, content];
}

/** Renames a field's element (or gives it attributes: `amount currency="EUR"`). */
function rename(doc: XmlDoc, field: string, name: string): void {
  const index = requiredIndex(doc, field);
  doc.elements[index] = [name, (doc.elements[index] as [string, string])[1]];
}

/** Changes that leave the fields as they were meant: a valid document stays valid. */
const harmlessXmlChange: fc.Arbitrary<[string, XmlChange]> = fc.oneof(
  fc.constantFrom<[string, XmlChange]>(
    ['prolog', (doc) => void (doc.prolog = '<?xml version="1.0" encoding="UTF-8"?>\n')],
    ['comment', (doc) => void doc.elements.splice(1, 0, ['<!-- a comment, <not> an element -->', ''])],
    ['processing instruction', (doc) => void doc.elements.splice(2, 0, ['<?pi some data?>', ''])],
    ['CDATA type', (doc) => setContent(doc, 'type', '<![CDATA[SALE]]>')],
    ['character reference', (doc) => setContent(doc, 'type', '&#83;&#x41;LE')],
    ['padded value', (doc) => setContent(doc, 'amount', ' \n\t5.00 ')],
    ['lower-case type', (doc) => setContent(doc, 'type', 'sale')],
    // A comment is not character data: the type still reads SALE.
    ['comment inside type', (doc) => setContent(doc, 'type', 'SA<!-- x -->LE')],
    ['namespace attribute', (doc) => void (doc.rootAttributes = ' xmlns="urn:evil" id="7"')],
    ['attribute on amount', (doc) => rename(doc, 'amount', 'amount currency="EUR"')],
    [
      'entities in invoice',
      (doc) => void doc.elements.push(['invoice', '&amp;&lt;&gt;&quot;&apos;&#x1F600;']),
    ],
    ['whitespace between', (doc) => void doc.elements.splice(1, 0, ['\n\t  \n', ''])],
  ),
  fc
    .tuple(fc.constantFrom('notes', 'x-extra', 'Type', 'amount2', 'billing'), textArb)
    .map(([name, text]): [string, XmlChange] => [
      `unknown element ${name}`,
      (doc) => void doc.elements.push([name, escapeXml(text)]),
    ]),
  fc
    .tuple(fc.constantFrom('notes', 'billing'), depthArb)
    .map(([name, depth]): [string, XmlChange] => [
      `${depth} levels inside ${name}`,
      (doc) => void doc.elements.push([name, `${'<a>'.repeat(depth)}x${'</a>'.repeat(depth)}`]),
    ]),
);

/** Changes after which the document must not approve anything. */
const breakingXmlChange: fc.Arbitrary<[string, XmlChange]> = fc.oneof(
  fc.tuple(fc.constantFrom(...REQUIRED_XML), fc.nat()).map(([field, n]): [string, XmlChange] => {
    const value = BROKEN_VALUES[field][n % BROKEN_VALUES[field].length] as string;
    return [`${field} = ${value}`, (doc) => setContent(doc, field, value)];
  }),
  fc
    .constantFrom(...REQUIRED_XML)
    .map((field): [string, XmlChange] => [
      `without ${field}`,
      (doc) => void doc.elements.splice(requiredIndex(doc, field), 1),
    ]),
  fc.tuple(fc.constantFrom(...REQUIRED_XML), fc.boolean()).map(([field, same]): [string, XmlChange] => [
    `${field} twice`,
    (doc) => {
      const [name, content] = doc.elements[requiredIndex(doc, field)] as [string, string];
      doc.elements.push([name, same ? content : 'X']);
    },
  ]),
  fc
    .tuple(
      fc.constantFrom(...REQUIRED_XML),
      fc.constantFrom('__proto__', 'constructor', 'prototype', 'x:type', 'TYPE', 'type2'),
    )
    .map(([field, name]): [string, XmlChange] => [
      `${field} renamed ${name}`,
      (doc) => rename(doc, field, name),
    ]),
  fc.constantFrom('__proto__', 'constructor').map((name): [string, XmlChange] => [
    `fields inside <${name}>`,
    (doc) => {
      const inner = doc.elements.map(([n, c]) => `<${n}>${c}</${n}>`).join('');
      doc.elements = [[name, inner]];
    },
  ]),
  fc.constantFrom<[string, XmlChange]>(
    ['root transactions', (doc) => void (doc.root = 'transactions')],
    ['root Transaction', (doc) => void (doc.root = 'Transaction')],
    [
      'prefixed root',
      (doc) => void ((doc.root = 'x:transaction'), (doc.rootAttributes = ' xmlns:x="urn:x"')),
    ],
    ['root __proto__', (doc) => void (doc.root = '__proto__')],
    ['second root', (doc) => void (doc.afterRoot = '<transaction><type>VOID</type></transaction>')],
    ['text after root', (doc) => void (doc.afterRoot = 'trailing')],
    ['text before root', (doc) => void (doc.beforeRoot = 'leading')],
    ['unclosed element', (doc) => void doc.elements.push(['<invoice>open', ''])],
    ['mismatched tags', (doc) => void doc.elements.push(['<invoice>x</notes>', ''])],
    ['mixed content amount', (doc) => setContent(doc, 'amount', '5.00<b>1</b>')],
    ['invoice too long', (doc) => void doc.elements.push(['invoice', 'I'.repeat(65)])],
    ['body over 64 KiB', (doc) => void doc.elements.push(['notes', 'x'.repeat(70_000)])],
    ['DOCTYPE', (doc) => void (doc.beforeRoot = '<!DOCTYPE transaction>')],
    ['lower-case doctype', (doc) => void (doc.beforeRoot = '<!doctype transaction [<!ENTITY t "SALE">]>')],
    [
      'internal entities',
      (doc) => {
        doc.beforeRoot =
          '<!DOCTYPE transaction [<!ENTITY a "aaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>';
        doc.elements.push(['invoice', '&b;']);
      },
    ],
    [
      'external entity',
      (doc) => {
        doc.beforeRoot = '<!DOCTYPE transaction [<!ENTITY x SYSTEM "file:///etc/passwd">]>';
        doc.elements.push(['invoice', '&x;']);
      },
    ],
    [
      'parameter entity',
      (doc) => void (doc.beforeRoot = '<!DOCTYPE t [<!ENTITY % p SYSTEM "http://127.0.0.1:1/x"> %p;]>'),
    ],
    ['entity without doctype', (doc) => void doc.elements.push(['<!ENTITY x "y">', ''])],
    [
      'deep nesting as type',
      (doc) => setContent(doc, 'type', `${'<a>'.repeat(5000)}SALE${'</a>'.repeat(5000)}`),
    ],
    ['not XML', (doc) => void ((doc.prolog = '{"type":"SALE"}'), (doc.root = 'transaction'))],
  ),
);

const xmlDocArb = fc
  .tuple(
    fc.constantFrom('SALE', 'AUTH', 'FORCED SALE', 'REFUND'),
    fc.array(harmlessXmlChange, { maxLength: 3 }),
    // At most one breaking change: two could cancel out (a field doubled, then removed).
    fc.option(breakingXmlChange, { nil: undefined }).map((change) => (change ? [change] : [])),
  )
  .map(([type, harmless, breaking]) => {
    const doc: XmlDoc = {
      prolog: '',
      beforeRoot: '',
      root: 'transaction',
      rootAttributes: '',
      elements: [
        ['type', type],
        ['amount', '5.00'],
        ['card', VISA.card],
        ['exp_date', VISA.exp_date],
        ...(type === 'FORCED SALE' ? ([['authorization_code', 'VOICE1']] as [string, string][]) : []),
      ],
      afterRoot: '',
      mayApprove: true,
      changes: [],
    };
    // Harmless changes first, so that none of them can repair what a breaking one broke.
    const apply = ([name, change]: [string, XmlChange]) => {
      try {
        change(doc);
        doc.changes.push(name);
        return true;
      } catch {
        // A change to a field an earlier change renamed does nothing.
        doc.changes.push(`(${name}: nothing to change)`);
        return false;
      }
    };
    harmless.forEach(apply);
    doc.mayApprove = !breaking.map(apply).includes(true);
    return doc;
  });

const XML_CONTENT_TYPES = ['application/xml', 'text/xml', 'application/xml; charset=utf-8', 'TEXT/XML'];
const XML_ACCEPTS: readonly (readonly [string | undefined, Format])[] = [
  [undefined, 'xml'],
  ['application/xml', 'xml'],
  ['text/xml', 'xml'],
  ['*/*', 'xml'],
  ['application/json', 'json'],
];

describe('generated XML bodies', () => {
  it('are answered 2xx or 4xx in the format asked for, change nothing when refused, and approve only intact documents', async () => {
    await fc.assert(
      fc.asyncProperty(
        xmlDocArb,
        fc.constantFrom(...XML_CONTENT_TYPES),
        fc.constantFrom(...XML_ACCEPTS),
        async (doc, contentType, [accept, format]) => {
          const body = render(doc);
          const before = await ledgerState();
          const response = await t.request('transactions', {
            method: 'POST',
            headers: { api_key: t.key, 'content-type': contentType, ...(accept !== undefined && { accept }) },
            body,
          });
          const what = `POST ${contentType} accept ${accept} [${doc.changes.join(', ')}]: ${abbreviate(body)}`;
          const answer = checkAnswer(response, format, ['transaction'], what);
          if (response.status >= 400) {
            expect(await ledgerState(), `a ${response.status} changed the ledger: ${what}`).toBe(before);
            return;
          }
          const result = transactionResponseSchema.safeParse(answer);
          expect(result.success, `${what}\n→ ${response.body}`).toBe(true);
          if (result.data?.result === 'Approved') {
            expect(doc.mayApprove, `approved a broken document: ${what}\n→ ${response.body}`).toBe(true);
            const [row] = (await getJson<TransactionListItem[]>(`transactions?id=${result.data.id}`)) ?? [];
            expect(row, what).toMatchObject({ amount: '5.00', card: `************${VISA.card.slice(-4)}` });
          }
        },
      ),
      { numRuns: 500, interruptAfterTimeLimit: 40_000 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Query strings

const QUERY_NAMES = [
  'page_size',
  'page',
  'order_by',
  'descending',
  'start_date',
  'end_date',
  'id',
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
  'batch_id',
  'status',
  'api_key',
];
const QUERY_VALUES = [
  '1',
  '25',
  '100',
  '101',
  'true',
  'FALSE',
  'OPEN',
  'closed',
  'Sale',
  'forced_sale',
  'APPROVED',
  'id',
  'amount',
  '2026-11-20 14:05',
  '11-20-2026 02:05 PM',
  '11-20-26 14:05 EST',
  '2026-11-20T14:05:09.042-05:00',
  '2026-02-30 10:00',
  '2026-11-20 24:00',
  '9999-12-31 23:59 +18:00',
  '0000-01-01 00:00 -18:00',
  '2026-03-08 02:30 America/New_York',
  '2026-01-01 00:00 Foo/Bar',
  '2026-01-01 00:00 Etc/GMT+99',
  '2026-11-20T14:05:09.0424242424-05:00',
  '+275760-09-13T00:00:00.000Z',
  '1111',
  '07',
  'x'.repeat(5000),
];

/** Percent-encodes a character as UTF-8; a lone surrogate as the three bytes WTF-8 gives it. */
function percent(char: string): string {
  const code = char.charCodeAt(0);
  if (char.length === 1 && code >= 0xd800 && code <= 0xdfff) {
    return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
      .map((byte) => `%${byte.toString(16).toUpperCase()}`)
      .join('');
  }
  return encodeURIComponent(char);
}

/** A query value as the client wrote it: encoded properly, or raw with whatever survives the wire. */
const wireEncode = (text: string, proper: boolean) =>
  [...text]
    .map((char) =>
      // Node refuses to send controls, spaces and characters above U+00FF in a path: only those are escaped.
      proper || char <= ' ' || char === '#' || (char.codePointAt(0) ?? 0) > 0xff ? percent(char) : char,
    )
    .join('');

const queryArb = fc
  .tuple(
    fc.array(
      fc.tuple(
        fc.oneof(
          fc.constantFrom(...QUERY_NAMES),
          fc.constantFrom(...HOSTILE_KEYS, 'page_size[]', 'a[b]', 'id[0]', 'amount.x', ''),
        ),
        fc.oneof(
          fc.constantFrom(...QUERY_VALUES, ...NUMBER_TEXTS),
          textArb.map((text) => text.slice(0, 3000)),
        ),
        fc.boolean(),
      ),
      { maxLength: 5 },
    ),
    fc.constantFrom('', '', '&', '&&', '=', '%', '%zz', '%C0%AF', '%00', ';', '#frag', '&page=1&page=2'),
  )
  .map(
    ([pairs, tail]) =>
      pairs
        .map(([name, value, proper]) => `${wireEncode(name, proper)}=${wireEncode(value, proper)}`)
        .join('&') + tail,
  );

describe('generated query strings', () => {
  it('are answered 2xx or 4xx in the format asked for, and change nothing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('transactions', 'batches', 'batches/open'),
        queryArb.map(asBody),
        fc.constantFrom<Format>('json', 'xml'),
        async (path, { text: query }, format) => {
          const before = await ledgerState();
          // A connection of its own: an answer that closes it must not fail the next request.
          const response = await t.request(`${path}?${query}`, {
            headers: { api_key: t.key, accept: `application/${format}` },
            newConnection: true,
          });
          const what = `GET ${path}?${abbreviate(query)} (${format})`;
          const roots =
            { transactions: ['transactions'], batches: ['batches'], 'batches/open': ['batch'] }[path] ?? [];
          const answer = checkAnswer(response, format, roots, what);
          if (response.status === 200 && format === 'json' && path !== 'batches/open') {
            expect(Array.isArray(answer), what).toBe(true);
          }
          const error = answer as { error?: string; parameter?: string } | undefined;
          if (response.status === 400 && error?.error === 'bad_parameter') {
            expect(typeof error.parameter, `a bad_parameter names it: ${what}`).toBe('string');
          }
          expect(await ledgerState(), what).toBe(before);
        },
      ),
      { numRuns: 500, interruptAfterTimeLimit: 40_000 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Shapes found by the generators, kept as examples

describe('hostile JSON shapes', () => {
  const headers = {
    contentType: 'application/json',
    accept: ACCEPTS[0] as PostHeaders['accept'],
    keyInHeader: true,
    idempotencyKey: undefined,
  };
  const sale = JSON.stringify({ type: 'SALE', amount: '5.00', ...VISA });

  it('a body whose only property is __proto__ asks for nothing, and is not approved', async () => {
    await postJson(asBody(`{"__proto__":${sale}}`), headers);
  });

  it('an api_key present only under __proto__ does not authenticate', async () => {
    await postJson(asBody(`${sale.slice(0, -1)},"__proto__":{"api_key":"${t.key}"}}`), {
      ...headers,
      keyInHeader: false,
    });
  });

  it('objects nested 10,000 deep (under 64 KiB) are refused with a 4xx, not a 500', async () => {
    await postJson(asBody(`{"type":"SALE","a":${nestedJson(10_000, 'object')}}`), headers);
  });

  // Found by the generated bodies above on a store server, whose text holds no NUL: the refusal was
  // kept with the raw character and the write failed.
  it('a NUL in the type or the invoice is refused as Rejected on either store, kept written out', async () => {
    for (const body of [
      { type: '\u0000', amount: '5.00', ...VISA },
      { type: 'SALE', amount: '5.00', ...VISA, invoice: 'A\u0000B' },
      { type: 'SALE\u0000', amount: '5.00', ...VISA, invoice: '\u0000' },
    ]) {
      for (const accept of ['application/json', 'application/xml']) {
        const response = await t.request('transactions', {
          method: 'POST',
          headers: { api_key: t.key, 'content-type': 'application/json', accept },
          body: JSON.stringify(body),
        });
        expect(response.status, response.body).toBe(200);
        expect(response.body).toContain('Rejected');
        // No NUL in the answer, as read: JSON would write one out as an escape, so it is parsed first.
        const text =
          accept === 'application/json'
            ? String(response.json<{ display_message: string }>().display_message)
            : response.body;
        expect(text).not.toContain('\0');
      }
      const [kept] = (await getJson<TransactionListItem[]>('transactions?page_size=1')) ?? [];
      expect(kept?.result).toBe('Rejected');
      expect(Object.values(kept ?? {}).filter((value) => String(value).includes('\0'))).toEqual([]);
    }
  });

  it('half a character, U+FFFE or U+FFFF in a text field is refused, and every XML list stays readable', async () => {
    // The type's refusal says it is no known type (8005); every other field's, that it has the wrong form.
    const bodies: [Record<string, unknown>, string][] = [
      [{ type: 'SALE', amount: '5.00', ...VISA, invoice: 'bad\uffffx' }, '8004'],
      [{ type: 'SALE', amount: '5.00', ...VISA, description: 'caf\ud800' }, '8004'],
      [{ type: 'SALE', amount: '5.00', ...VISA, billing: { city: '\udc00Oslo' } }, '8004'],
      [{ type: 'SALE\ufffe', amount: '5.00', ...VISA, invoice: '\ufffe' }, '8005'],
    ];
    for (const [body, code] of bodies) {
      const response = await t.request('transactions', {
        method: 'POST',
        headers: { api_key: t.key, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
      });
      expect(response.json()).toMatchObject({ result: 'Rejected', error_code: code });
      expect(response.json<{ display_message: string }>().display_message).toMatch(/whole characters only/);
    }
    // A character from beyond the Basic Multilingual Plane, sent as its two surrogates, is whole.
    const whole = await t.request('transactions', {
      method: 'POST',
      headers: { api_key: t.key, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ type: 'SALE', amount: '5.01', ...VISA, invoice: 'Caf\u00e9 \ud83c\udf70' }),
    });
    expect(whole.json()).toMatchObject({ result: 'Approved' });
    const listed = await t.request(`transactions?page_size=${bodies.length + 1}`, {
      headers: { api_key: t.key, accept: 'application/xml' },
    });
    expect(listed.body).not.toMatch(/[\p{Cs}\uFFFE\uFFFF]/u);
    expect(XMLValidator.validate(listed.body)).toBe(true);
    expect(listed.body).toContain('<invoice>Café 🍰</invoice>');
  });

  it('arrays nested 30,000 deep with an Idempotency-Key are refused with a 4xx, not a 500', async () => {
    await postJson(asBody(`{"type":"SALE","a":${nestedJson(30_000, 'array')}}`), {
      ...headers,
      idempotencyKey: 'deep-arrays',
    });
  });
});

describe('a JSON list where one value belongs', () => {
  it.each([
    ['[]', []],
    ['one value in a list', ['23.01']],
  ])('is refused with 8004 saying so, not as a field given twice: %s', async (_what, amount) => {
    const response = await t.request('transactions', {
      method: 'POST',
      headers: { api_key: t.key, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ type: 'SALE', amount, ...VISA }),
    });
    expect(response.json()).toMatchObject({
      result: 'Rejected',
      error_code: '8004',
      display_message:
        'Field Validation: amount must be one value (a JSON string or XML element text), not a list',
    });
  });
});

describe('references in XML', () => {
  const send = (elements: string, prolog = '') =>
    t.request('transactions', {
      method: 'POST',
      headers: { api_key: t.key, 'content-type': 'application/xml', accept: 'application/json' },
      body: `${prolog}<transaction><type>SALE</type><amount>5.02</amount><card>${VISA.card}</card><exp_date>${VISA.exp_date}</exp_date>${elements}</transaction>`,
    });

  it.each([
    ['an entity XML does not define', '<invoice>a&undefined;b</invoice>'],
    ['an HTML entity, which XML without a DTD does not define', '<invoice>a&nbsp;b</invoice>'],
    ['a reference to NUL', '<invoice>a&#0;b</invoice>'],
    ['a reference to a control character', '<invoice>a&#x1B;b</invoice>'],
    ['a reference to U+FFFF', '<invoice>a&#xFFFF;b</invoice>'],
  ])('is refused with 400 when it is %s, and nothing is recorded', async (_what, elements) => {
    const before = await t.client.listTransactions({ page_size: 1 });
    const response = await send(elements);
    expect(response.status, response.body).toBe(400);
    expect(response.json()).toMatchObject({ error: 'bad_request' });
    expect(response.json<{ message: string }>().message).toMatch(
      /^The body is not well-formed XML \(line 1, column \d+\)/,
    );
    expect(await t.client.listTransactions({ page_size: 1 })).toEqual(before);
  });

  it('reads the five entities XML defines and references to characters it allows, and leaves CDATA as written', async () => {
    const response = await send(
      '<invoice>&lt;&amp;&gt;&#233;&#x1F370;</invoice><description><![CDATA[a&nbsp;b]]></description>',
    );
    expect(response.json()).toMatchObject({ result: 'Approved' });
    const [listed] = await t.client.listTransactions({ id: response.json<{ id: string }>().id });
    expect(listed?.invoice).toBe('<&>é🍰');
  });

  it('refuses a body declared in another encoding than UTF-8', async () => {
    const response = await send('<invoice>café</invoice>', '<?xml version="1.0" encoding="ISO-8859-1"?>');
    expect(response.status, response.body).toBe(400);
    expect(response.json<{ message: string }>().message).toBe(
      'The body declares an encoding other than UTF-8. Send XML as UTF-8.',
    );
  });

  it('refuses two <transaction> elements as two, not as one without fields', async () => {
    const response = await t.request('transactions', {
      method: 'POST',
      headers: { api_key: t.key, 'content-type': 'application/xml', accept: 'application/json' },
      body: '<transaction><type>VOID</type><id>1</id></transaction><transaction/>',
    });
    expect(response.status, response.body).toBe(400);
    expect(response.json<{ message: string }>().message).toBe(
      'The body must hold one <transaction> element.',
    );
  });
});

describe('an unknown XML element named like a JavaScript prototype', () => {
  it.each(['constructor', 'prototype', '__proto__'])(
    'is ignored as the same unknown field is in JSON: <%s>',
    async (name) => {
      const response = await t.request('transactions', {
        method: 'POST',
        headers: { api_key: t.key, 'content-type': 'application/xml', accept: 'application/json' },
        body:
          `<transaction><type>SALE</type><amount>5.00</amount><card>${VISA.card}</card>` +
          `<exp_date>${VISA.exp_date}</exp_date><${name}><amount>900.00</amount></${name}></transaction>`,
      });
      expect(response.status, response.body).toBe(200);
      const answer = response.json() as { result: string; id: string };
      expect(answer.result).toBe('Approved');
      const [row] = (await getJson<TransactionListItem[]>(`transactions?id=${answer.id}`)) ?? [];
      expect(row).toMatchObject({ amount: '5.00' });
      expect(({} as Record<string, unknown>).amount).toBeUndefined();
    },
  );
});

describe('an XML element given twice', () => {
  const fields: [string, string][] = [
    ['type', 'SALE'],
    ['amount', '5.00'],
    ['card', VISA.card],
    ['exp_date', VISA.exp_date],
    ['csc', '123'],
    ['invoice', 'TWICE'],
  ];

  it.each(fields.map(([name]) => name))(
    'is refused with 8004 (a field of the wrong form) when it is <%s>, as docs/api.md says',
    async (twice) => {
      const elements = [...fields, fields.find(([name]) => name === twice) as [string, string]]
        .map(([name, text]) => `<${name}>${text}</${name}>`)
        .join('');
      const response = await t.request('transactions', {
        method: 'POST',
        headers: { api_key: t.key, 'content-type': 'application/xml', accept: 'application/json' },
        body: `<transaction>${elements}</transaction>`,
      });
      expect(response.status, response.body).toBe(200);
      expect(response.json()).toEqual({
        result: 'Rejected',
        error_code: '8004',
        display_message: `Field Validation: ${twice} is given more than once`,
      });
    },
  );
});

describe('hostile request lines', () => {
  const what = 'GET /rest/v1/transactions?invoice=<the raw byte 0xC4>';

  it('a raw byte above ASCII in the query is refused in the engine’s error format, as asked', async () => {
    const response = await t.request('transactions?invoice=\u00c4', {
      headers: { api_key: t.key, accept: 'application/xml' },
      newConnection: true,
    });
    checkAnswer(response, 'xml', ['transactions'], what);
  });

  it('after refusing it, the engine serves the next request on the same connection, or says it closes it', async () => {
    const socket = tlsConnect({
      host: '127.0.0.1',
      port: t.gateway.port,
      ca: t.gateway.certificatePem,
      servername: 'localhost',
    });
    await once(socket, 'secureConnect');
    let received = Buffer.alloc(0);
    let ended = false;
    socket.on('data', (chunk: Buffer) => (received = Buffer.concat([received, chunk])));
    socket.on('close', () => (ended = true));
    socket.on('error', () => (ended = true));
    /** Resolves with the next complete answer on the socket, or undefined once it is closed without one. */
    const nextAnswer = async (): Promise<{ head: string; body: string } | undefined> => {
      await expect
        .poll(() => {
          const text = received.toString('latin1');
          const headEnd = text.indexOf('\r\n\r\n');
          const length = Number(/content-length: *(\d+)/i.exec(text.slice(0, headEnd))?.[1] ?? 0);
          return ended || (headEnd >= 0 && received.length >= headEnd + 4 + length);
        })
        .toBe(true);
      const text = received.toString('latin1');
      const headEnd = text.indexOf('\r\n\r\n');
      if (headEnd < 0) return undefined;
      const length = Number(/content-length: *(\d+)/i.exec(text.slice(0, headEnd))?.[1] ?? 0);
      received = received.subarray(headEnd + 4 + length);
      return { head: text.slice(0, headEnd), body: text.slice(headEnd + 4, headEnd + 4 + length) };
    };
    const request = (target: string) =>
      socket.write(
        Buffer.from(
          `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${t.gateway.port}\r\napi_key: ${t.key}\r\naccept: application/json\r\n\r\n`,
          'latin1',
        ),
      );
    request('/rest/v1/transactions?invoice=\u00c4');
    const refused = await nextAnswer();
    expect(refused?.head ?? '(the connection closed without an answer)', what).toMatch(/^HTTP\/1\.1 400/);
    if (!/^connection: *close/im.test(refused?.head ?? '')) {
      // The answer promised a persistent connection: the next request on it must be answered.
      request('/rest/v1/batches/open');
      const next = await nextAnswer();
      expect(next?.head ?? `(the connection closed after: ${refused?.head})`).toMatch(/^HTTP\/1\.1 200/);
    }
    socket.destroy();
  });
});

describe('after all of it', () => {
  it('the engine still approves a valid sale, in JSON and in XML, and its batch adds up', async () => {
    const json = await t.client.createTransaction({ type: 'SALE', amount: '7.00', ...VISA });
    expect(json.result).toBe('Approved');
    const xml = await t.request('transactions', {
      method: 'POST',
      headers: { api_key: t.key, 'content-type': 'application/xml' },
      body: `<transaction><type>SALE</type><amount>8.00</amount><card>${VISA.card}</card><exp_date>${VISA.exp_date}</exp_date></transaction>`,
    });
    expect(xml.status).toBe(200);
    expect((xmlParser.parse(xml.body) as { transaction: { result: string } }).transaction.result).toBe(
      'Approved',
    );
    const get = <T>(path: string) => getJson<T>(path);
    expect(await auditBatches(get)).toEqual([]);
    expect(rowProblems(await listAll<TransactionListItem>(get, 'transactions'))).toEqual([]);
  });
});
