/**
 * The OpenAPI 3.1 document of /rest/v1, generated from the zod schemas in ./schemas so that it can
 * never disagree with what the engine validates. `npm run openapi` writes it to resources/.
 */
import { z } from 'zod';
import { PERMISSIONS } from './permissions';
import {
  batchListQuerySchema,
  batchSchema,
  billingSchema,
  errorSchema,
  shippingSchema,
  transactionListItemSchema,
  transactionListQuerySchema,
  transactionRequestSchema,
  transactionResponseSchema,
} from './schemas';

type JsonObject = Record<string, unknown>;

const COMPONENT_SCHEMAS = {
  TransactionRequest: transactionRequestSchema,
  TransactionResponse: transactionResponseSchema,
  TransactionListItem: transactionListItemSchema,
  Batch: batchSchema,
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

function content(schema: JsonObject, xmlRoot: string): JsonObject {
  return {
    'application/json': { schema },
    'application/xml': { schema: { ...schema, xml: { name: xmlRoot } } },
  };
}

const list = (item: keyof typeof COMPONENT_SCHEMAS, root: string, element: string) =>
  content({ type: 'array', items: { ...ref(item), xml: { name: element } }, xml: { wrapped: true } }, root);

const errorResponse = (description: string) => ({ description, content: content(ref('Error'), 'error') });

/** Lists and the open batch are read with a time limit (the engine's reads never hold up a payment). */
const readTimeout = {
  '503': errorResponse(
    'error query_timeout: reading the ledger took longer than its time limit (5 s) and was stopped. ' +
      'Narrow the filter or try again in a moment.',
  ),
};

const commonErrors = {
  '401': errorResponse('Missing or invalid API key.'),
  '403': errorResponse('The API key lacks the permission, or the request came from a foreign web origin.'),
  '406': errorResponse('Accept allows neither application/json nor application/xml.'),
  '421': errorResponse('The Host header is not 127.0.0.1, localhost or [::1] with the port.'),
};

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
    servers: [{ url: 'https://127.0.0.1:8443/rest/v1' }],
    security: [{ apiKey: [] }],
    components: {
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'api_key' } },
      schemas: componentSchemas(),
    },
    paths: {
      '/transactions': {
        post: {
          operationId: 'createTransaction',
          summary: 'Run a SALE, FORCED SALE, AUTH, CAPTURE, REFUND or VOID',
          description:
            'Required fields by type: SALE and AUTH amount + card and exp_date (or encrypted_track_data and ' +
            'track_format MAGTEK); FORCED SALE also authorization_code; CAPTURE id and amount; REFUND amount and ' +
            'id (matched) or card data (unmatched); VOID id. The api_key may also be sent in the body.',
          parameters: [
            {
              name: 'Idempotency-Key',
              in: 'header',
              required: false,
              description:
                'Makes retries safe: the same key with the same body answers the stored answer again (marked ' +
                'Idempotent-Replayed: true) and charges nothing more. Kept for at least 24 hours, per API key.',
              schema: { type: 'string', minLength: 1, maxLength: 64, pattern: '^[\\x21-\\x7e]+$' },
            },
          ],
          requestBody: { required: true, content: content(ref('TransactionRequest'), 'transaction') },
          responses: {
            '200': {
              description: 'The outcome, in result.',
              headers: {
                'Idempotent-Replayed': {
                  description:
                    'true when this is the stored answer to an earlier request with the same Idempotency-Key.',
                  schema: { type: 'string', enum: ['true'] },
                },
              },
              content: content(ref('TransactionResponse'), 'transaction'),
            },
            '409': errorResponse('A request with the same Idempotency-Key is still being processed.'),
            '422': errorResponse('The Idempotency-Key was already used with a different request body.'),
            '400': errorResponse('The body is not one well-formed JSON object or <transaction> element.'),
            '413': errorResponse('The body is larger than 64 KiB.'),
            '415': errorResponse('Content-Type is not application/json or application/xml.'),
            ...commonErrors,
          },
        },
        get: {
          operationId: 'listTransactions',
          summary: 'List transactions, newest first by default',
          parameters: queryParameters(transactionListQuerySchema),
          responses: {
            '200': {
              description: 'A page of transactions.',
              content: list('TransactionListItem', 'transactions', 'transaction'),
            },
            '204': { description: 'No transaction matches.' },
            '400': errorResponse('A query parameter is unknown or malformed; parameter names it.'),
            ...readTimeout,
            ...commonErrors,
          },
        },
      },
      '/batches': {
        get: {
          operationId: 'listBatches',
          summary: 'List settlement batches',
          description:
            'Transaction filters (amount, type, last_four, ...) select the batches that hold a matching transaction; ' +
            'start_date and end_date select by settled time.',
          parameters: queryParameters(batchListQuerySchema),
          responses: {
            '200': { description: 'A page of batches.', content: list('Batch', 'batches', 'batch') },
            '204': { description: 'No batch matches.' },
            '400': errorResponse('A query parameter is unknown or malformed; parameter names it.'),
            ...readTimeout,
            ...commonErrors,
          },
        },
      },
      '/batches/open': {
        get: {
          operationId: 'getOpenBatch',
          summary: 'The open batch',
          responses: {
            '200': { description: 'The open batch.', content: content(ref('Batch'), 'batch') },
            '204': { description: 'No batch is open.' },
            ...readTimeout,
            ...commonErrors,
          },
        },
        put: {
          operationId: 'closeOpenBatch',
          summary: 'Close the open batch for settlement',
          responses: {
            '200': {
              description: 'The closed batch, with settled and confirmation_code.',
              content: content(ref('Batch'), 'batch'),
            },
            '204': { description: 'No batch is open.' },
            ...commonErrors,
          },
        },
      },
    },
  };
}
