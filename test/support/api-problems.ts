/**
 * What the engine's HTTP layer makes of a piece of work, in a line a test can compare: the status
 * and message of the ApiProblem it throws, or "no problem".
 */
import { ApiProblem } from '../../electron/gateway/http/problems';

export function problemOf(work: () => unknown): string {
  try {
    work();
  } catch (error) {
    return error instanceof ApiProblem ? `${error.status} ${error.message}` : String(error);
  }
  return 'no problem';
}
