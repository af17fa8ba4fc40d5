/** HTTP failures, each with a stable code for programs and a sentence for people. */
import type { Batch } from '../../../shared/api/schemas';

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

export const problems = {
  badRequest: (message: string) => new ApiProblem(400, 'bad_request', message),
  badParameter: (parameter: string, message: string) =>
    new ApiProblem(400, 'bad_parameter', `${parameter} ${message}`, { parameter }),
  unauthorized: (message: string) =>
    new ApiProblem(401, 'unauthorized', message, {
      headers: { 'www-authenticate': 'ApiKey header="api_key"' },
    }),
  forbidden: (message: string) => new ApiProblem(403, 'forbidden', message),
  notFound: (path: string) =>
    new ApiProblem(
      404,
      'not_found',
      `No resource at ${path}. The API lives under /rest/v1; see /rest/v1/openapi.json.`,
    ),
  methodNotAllowed: (method: string, path: string, allowed: readonly string[]) =>
    new ApiProblem(
      405,
      'method_not_allowed',
      `${method} is not allowed on ${path}. Allowed: ${allowed.join(', ')}.`,
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
      `Host "${host}" is not served here. Address the engine as 127.0.0.1, localhost or [::1] with its port.`,
    ),
  payloadTooLarge: (limit: number) =>
    new ApiProblem(413, 'payload_too_large', `The request body is larger than the ${limit} bytes allowed.`),
  unsupportedMediaType: (contentType: string | undefined) =>
    new ApiProblem(
      415,
      'unsupported_media_type',
      `Content-Type ${contentType ? `"${contentType}"` : '(none)'} is not supported. Send application/json or application/xml.`,
    ),
} as const;
