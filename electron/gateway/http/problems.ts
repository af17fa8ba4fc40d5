/** HTTP failures, each with a stable code for programs and a sentence for people. */
import type { Batch } from '../../../shared/api/schemas';
import { mightHoldCardNumber } from '../card-number-search';

export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: { parameter?: string; headers?: Record<string, string>; batch?: Batch } = {},
  ) {
    super(message);
  }
}

/** Said in place of request text that holds what looks like a card number. */
export const WITHHELD = '[withheld: looks like a card number]';

/** The text with each run of percent-encoded bytes decoded as a URL's, where it decodes. */
function percentDecoded(text: string): string {
  return text.replace(/(?:%[\dA-Fa-f]{2})+/g, (encoded) => {
    try {
      return decodeURIComponent(encoded);
    } catch {
      return encoded;
    }
  });
}

/**
 * Whether text the client sent might hold a card number (by the rule of error code 8032, or 13 digits
 * in a row in any form), as it came or percent-decoded: a path or a header is never stored, but an
 * answer that repeats it could be.
 */
export function sentCardNumber(text: string): boolean {
  return mightHoldCardNumber(text) || mightHoldCardNumber(percentDecoded(text));
}

/**
 * Request text (a name, a value, a path, a header) as an answer quotes it: as sent, or WITHHELD in
 * its place when it holds what looks like a card number.
 */
export function quoted(sent: string): string {
  return sentCardNumber(sent) ? WITHHELD : sent;
}

/**
 * A problem as it is answered: one whose words still hold a card number (a framework's message
 * quoting the request) says so instead of saying them.
 */
export function answerable(problem: ApiProblem): ApiProblem {
  if (!sentCardNumber(problem.message)) return problem;
  return new ApiProblem(
    problem.status,
    problem.code,
    'The request was refused; its text is not repeated, as it holds what looks like a card number.',
    {
      ...problem.extra,
      ...(problem.extra.parameter !== undefined && { parameter: quoted(problem.extra.parameter) }),
    },
  );
}

export const problems = {
  badRequest: (message: string) => new ApiProblem(400, 'bad_request', message),
  /** A query parameter refused, by its name as sent or WITHHELD. */
  badParameter: (parameter: string, message: string) =>
    new ApiProblem(400, 'bad_parameter', `${quoted(parameter)} ${message}`, {
      parameter: quoted(parameter),
    }),
  unauthorized: (message: string) =>
    new ApiProblem(401, 'unauthorized', message, {
      headers: { 'www-authenticate': 'ApiKey header="api_key"' },
    }),
  forbidden: (message: string) => new ApiProblem(403, 'forbidden', message),
  foreignOrigin: (origin: string) =>
    new ApiProblem(403, 'forbidden', `Requests from the web origin ${quoted(origin)} are not allowed.`),
  /** A transaction id in a path that the ledger does not have. */
  noTransaction: (id: number) =>
    new ApiProblem(404, 'not_found', `No transaction has id ${quoted(String(id))}.`),
  notFound: (path: string) =>
    new ApiProblem(
      404,
      'not_found',
      `No resource at ${quoted(path)}. The API lives under /rest/v1; see /rest/v1/openapi.json.`,
    ),
  methodNotAllowed: (method: string, path: string, allowed: readonly string[]) =>
    new ApiProblem(
      405,
      'method_not_allowed',
      `${method} is not allowed on ${quoted(path)}. Allowed: ${allowed.join(', ')}.`,
      {
        headers: { allow: allowed.join(', ') },
      },
    ),
  notAcceptable: () =>
    new ApiProblem(406, 'not_acceptable', 'Accept must allow application/json or application/xml.'),
  misdirected: (host: string) =>
    new ApiProblem(
      421,
      'host_not_allowed',
      `Host "${quoted(host)}" is not served here. Address the engine as 127.0.0.1, localhost or [::1] with its port.`,
    ),
  payloadTooLarge: (limit: number) =>
    new ApiProblem(413, 'payload_too_large', `The request body is larger than the ${limit} bytes allowed.`),
  unsupportedMediaType: (contentType: string | undefined) =>
    new ApiProblem(
      415,
      'unsupported_media_type',
      `Content-Type ${contentType ? `"${quoted(contentType)}"` : '(none)'} is not supported. Send application/json or application/xml.`,
    ),
} as const;
