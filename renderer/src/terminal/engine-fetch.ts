import type { FetchLike } from '../../../shared/api/client';

/**
 * How long a request may take before the screen stops waiting. The simulated processor answers at
 * once; a real one can take several seconds, and the screen must not give up on a charge too early.
 */
export const ENGINE_TIMEOUT_MS = 45_000;

/** The engine over the page's fetch. Trust of its certificate is the host's business (docs/operations.md). */
export const engineFetch: FetchLike = async (url, init) => {
  const response = await fetch(url, {
    method: init.method,
    headers: init.headers,
    ...(init.body !== undefined && { body: init.body }),
    cache: 'no-store',
    credentials: 'omit',
    redirect: 'error',
    referrerPolicy: 'no-referrer',
    signal: AbortSignal.timeout(ENGINE_TIMEOUT_MS),
  });
  return {
    status: response.status,
    text: () => response.text(),
    bytes: async () => new Uint8Array(await response.arrayBuffer()),
  };
};
