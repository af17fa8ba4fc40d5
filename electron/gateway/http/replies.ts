/** Answers in the format the request asked for: JSON, XML, or text where a route offers it. */
import type { FastifyReply } from 'fastify';
import { contentTypeOf, serialize } from './formats';
import { answerable, type ApiProblem } from './problems';

export const PLAIN_TEXT = 'text/plain; charset=utf-8';

export function send(
  reply: FastifyReply,
  status: number,
  root: string,
  payload: object | object[],
  item?: string,
) {
  if (reply.request.plainText && root === 'error') {
    const problem = payload as { error?: string; message?: string };
    return reply.code(status).type(PLAIN_TEXT).send(`${status} ${problem.error}: ${problem.message}\n`);
  }
  return reply
    .code(status)
    .type(contentTypeOf(reply.request.answerType))
    .send(serialize(reply.request.format, root, payload, item));
}

export function sendProblem(reply: FastifyReply, refused: ApiProblem) {
  const problem = answerable(refused);
  for (const [name, value] of Object.entries(problem.extra.headers ?? {})) reply.header(name, value);
  return send(reply, problem.status, 'error', {
    status: String(problem.status),
    error: problem.code,
    message: problem.message,
    ...(problem.extra.parameter !== undefined && { parameter: problem.extra.parameter }),
    ...(problem.extra.batch !== undefined && { batch: problem.extra.batch }),
  });
}
