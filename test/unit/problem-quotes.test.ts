import { describe, expect, it } from 'vitest';
import { answerable, ApiProblem, quoted, WITHHELD } from '../../electron/gateway/http/problems';

describe('request text a refusal quotes', () => {
  it.each([
    '4111111111111111',
    '/rest/v1/4111%201111%201111%201111',
    '/rest/v1/%34%31%31%31%31%31%31%31%31%31%31%31%31%31%31%31',
    'x-4111.1111.1111.1111',
    '４１１１１１１１１１１１１１１１',
  ])('is withheld when it holds a card number: %s', (sent) => {
    expect(quoted(sent)).toBe(WITHHELD);
  });

  it.each(['page_size', '/rest/v1/receipts/2026-11-20', 'application/json; charset=latin1', '12345678'])(
    'is kept as sent otherwise: %s',
    (sent) => {
      expect(quoted(sent)).toBe(sent);
    },
  );
});

describe('a refusal as it is answered', () => {
  it("says no card number a framework's words repeat from the request, and keeps its status and code", () => {
    const problem = new ApiProblem(400, 'bad_request', "'/x/4111111111111111' is not a valid url component", {
      headers: { connection: 'close' },
    });
    const answered = answerable(problem);
    expect(answered.message).not.toMatch(/4111/);
    expect(answered.message).toMatch(/looks like a card number/);
    expect(answered).toMatchObject({
      status: 400,
      code: 'bad_request',
      extra: { headers: { connection: 'close' } },
    });
  });

  it('is the refusal itself when its words hold no card number', () => {
    const problem = new ApiProblem(404, 'not_found', 'No transaction has id 42.');
    expect(answerable(problem)).toBe(problem);
  });
});
