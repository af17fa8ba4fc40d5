/**
 * The OpenAPI 3.1 document of /rest/v1, generated from the route table in ./routes and the zod
 * schemas in ./schemas so that it can never disagree with what the engine serves and validates.
 * `npm run openapi` writes it to resources/.
 */
import { z } from 'zod';
import { PERMISSIONS } from './permissions';
import { API_PREFIX, API_ROUTES, type ApiRoute } from './routes';
import {
  batchSchema,
  billingSchema,
  errorSchema,
  receiptSchema,
  shippingSchema,
  transactionListItemSchema,
  transactionRequestSchema,
  transactionResponseSchema,
} from './schemas';

type JsonObject = Record<string, unknown>;

const COMPONENT_SCHEMAS = {
  TransactionRequest: transactionRequestSchema,
  TransactionResponse: transactionResponseSchema,
  TransactionListItem: transactionListItemSchema,
  Batch: batchSchema,
  Receipt: receiptSchema,
  Billing: billingSchema,
  Shipping: shippingSchema,
  Error: errorSchema,
};

function componentSchemas(): JsonObject {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(COMPONENT_SCHEMAS)) registry.add(schema, { id });
  const converted = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
    uri: (id) => `#/components/schemas/${id}`,
  });
  const schemas: JsonObject = {};
  for (const [id, schema] of Object.entries(converted.schemas)) {
    const { $schema: _dialect, $id: _id, ...rest } = schema as JsonObject;
    schemas[id] = rest;
  }
  return schemas;
}

function queryParameters(schema: z.ZodObject): JsonObject[] {
  return Object.entries(schema.shape).map(([name, field]) => {
    const {
      $schema: _dialect,
      description,
      ...fieldSchema
    } = z.toJSONSchema(field as z.ZodType, {
      io: 'input',
      unrepresentable: 'any',
    }) as JsonObject;
    return {
      name,
      in: 'query',
      required: false,
      ...(typeof description === 'string' && { description }),
      schema: fieldSchema,
    };
  });
}

const ref = (id: keyof typeof COMPONENT_SCHEMAS) => ({ $ref: `#/components/schemas/${id}` });

const COMPONENT_IDS = new Map<z.ZodType, keyof typeof COMPONENT_SCHEMAS>(
  Object.entries(COMPONENT_SCHEMAS).map(([id, schema]) => [schema, id as keyof typeof COMPONENT_SCHEMAS]),
);

/** A route's body or answer is always one of the components, so that it is described once. */
function refTo(schema: z.ZodType): JsonObject {
  const id = COMPONENT_IDS.get(schema);
  if (id === undefined) throw new Error('A route body or answer is not one of the OpenAPI components.');
  return ref(id);
}

function content(schema: JsonObject, xmlRoot: string): JsonObject {
  return {
    'application/json': { schema },
    'application/xml': { schema: { ...schema, xml: { name: xmlRoot } } },
  };
}

const list = (item: z.ZodType, root: string, element: string) =>
  content({ type: 'array', items: { ...refTo(item), xml: { name: element } }, xml: { wrapped: true } }, root);

const errorResponse = (description: string) => ({ description, content: content(ref('Error'), 'error') });

const QUERY_REFUSED = 'A query parameter is unknown or malformed; parameter names it.';

/** Lists and the open batch are read with a time limit (the engine's reads never hold up a payment). */
const READ_TIMEOUT =
  'error query_timeout: reading the ledger took longer than its time limit (5 s) and was stopped. ' +
  'Narrow the filter or try again in a moment.';
const STORE_UNAVAILABLE =
  'On a store server, error store_unreachable (the server cannot be reached) or store_busy (another ' +
  'counter held the ledger past the time limit): nothing was changed; try again in a moment.';

const FORBIDDEN =
  'error forbidden: the API key lacks the permission, or the request came from a foreign web origin.';

const commonErrors = {
  '401': errorResponse('Missing or invalid API key.'),
  '406': errorResponse('Accept allows neither application/json nor application/xml.'),
  '421': errorResponse('The Host header is not 127.0.0.1, localhost or [::1] with the port.'),
  '429': errorResponse(
    'error too_many_failed_keys: too many wrong API keys were sent lately; wrong keys are refused ' +
      'for a while (Retry-After says how long), a valid key still works.',
  ),
};

const idempotencyKeyParameter = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes retries safe: the same key with the same body answers the stored answer again (marked ' +
    'Idempotent-Replayed: true) and charges nothing more. Kept for at least 24 hours, per API key. ' +
    'A key holding a card number is answered Rejected with error_code 8032; a UUID is always accepted.',
  schema: { type: 'string', minLength: 1, maxLength: 64, pattern: '^[\\x21-\\x7e]+$' },
};

const idempotentReplayedHeader = {
  'Idempotent-Replayed': {
    description: 'true when this is the stored answer to an earlier request with the same Idempotency-Key.',
    schema: { type: 'string', enum: ['true'] },
  },
};

function answerContent({ schema, xmlRoot, xmlItem }: NonNullable<ApiRoute['answer']>): JsonObject {
  if (schema instanceof z.ZodArray) return list(schema.element as z.ZodType, xmlRoot, xmlItem ?? xmlRoot);
  return content(refTo(schema), xmlRoot);
}

const transactionIdParameter = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'A transaction id, as POST /transactions answered it.',
  schema: { type: 'string', pattern: '^[1-9]\\d{0,14}$', examples: ['1042'] },
};

function operation(operationId: string, route: ApiRoute): JsonObject {
  const parameters = [
    ...(route.path.includes('{id}') ? [transactionIdParameter] : []),
    ...(route.idempotent ? [idempotencyKeyParameter] : []),
    ...(route.query ? queryParameters(route.query) : []),
  ];
  return {
    operationId,
    summary: route.summary,
    ...(route.description !== undefined && { description: route.description }),
    ...(parameters.length > 0 && { parameters }),
    ...(route.body && {
      requestBody: { required: true, content: content(refTo(route.body.schema), route.body.xmlRoot) },
    }),
    responses: {
      '200': {
        description: route.answer?.description ?? route.image?.description ?? '',
        ...(route.idempotent && { headers: idempotentReplayedHeader }),
        content: {
          ...(route.answer && answerContent(route.answer)),
          ...(route.image && {
            [route.image.mediaType]: { schema: { type: 'string', contentMediaType: route.image.mediaType } },
          }),
          ...(route.plainText !== undefined && {
            'text/plain': { schema: { type: 'string', description: route.plainText } },
          }),
        },
      },
      ...(route.noContent !== undefined && { '204': { description: route.noContent } }),
      ...(route.query &&
        !route.body && {
          '400': errorResponse(
            route.method === 'PUT'
              ? `${QUERY_REFUSED} Or the request has a body, which it does not take.`
              : QUERY_REFUSED,
          ),
        }),
      ...(route.notFound !== undefined && { '404': errorResponse(route.notFound) }),
      ...(route.conflict !== undefined && { '409': errorResponse(route.conflict) }),
      ...(route.badGateway !== undefined && { '502': errorResponse(route.badGateway) }),
      ...(route.idempotent && {
        '409': errorResponse('A request with the same Idempotency-Key is still being processed.'),
        '422': errorResponse('The Idempotency-Key was already used with a different request body.'),
      }),
      ...(route.body && {
        '400': errorResponse(
          [
            `The body is not one well-formed JSON object or <${route.body.xmlRoot}> element, is not ` +
              'valid UTF-8 (or, labelled US-ASCII, has a byte of 0x80 or above), or nests deeper than 8 levels.',
            route.query && QUERY_REFUSED,
          ]
            .filter(Boolean)
            .join(' '),
        ),
        '413': errorResponse('The body is larger than 64 KiB.'),
        '415': errorResponse(
          'Content-Type is not application/json, application/xml or text/xml, or names a charset other than UTF-8 or US-ASCII.',
        ),
      }),
      ...((route.timedRead || route.writes) && {
        '503': errorResponse(
          [route.timedRead && READ_TIMEOUT, route.writes && STORE_UNAVAILABLE].filter(Boolean).join(' '),
        ),
      }),
      '403': errorResponse([FORBIDDEN, route.forbidden].filter(Boolean).join(' ')),
      ...commonErrors,
    },
  };
}

function paths(): Record<string, JsonObject> {
  const described: Record<string, JsonObject> = {};
  for (const [operationId, route] of Object.entries<ApiRoute>(API_ROUTES)) {
    described[route.path] = {
      ...described[route.path],
      [route.method.toLowerCase()]: operation(operationId, route),
    };
  }
  return described;
}

export function buildOpenApiDocument(): JsonObject {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tender payment gateway',
      version: '1.0.0',
      description:
        'The loopback payment gateway of the Tender point-of-sale terminal. Every request needs an API key ' +
        `(header api_key) with the right permission (${PERMISSIONS.join(', ')}). Bodies are JSON or XML, ` +
        'chosen by Content-Type; answers follow Accept, or the request format when Accept leaves it open. ' +
        'A transaction outcome (Approved, Declined, Rejected, Error) is always HTTP 200: read result.',
    },
    servers: [{ url: `https://127.0.0.1:8443${API_PREFIX}` }],
    security: [{ apiKey: [] }],
    components: {
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'api_key' } },
      schemas: componentSchemas(),
    },
    paths: paths(),
  };
}
