/**
 * A transaction's fields in the one form the engine reads them in, whichever way they came: the API's
 * JSON or XML, or the counter's approved requests over the bridge.
 */

/**
 * Drops null and empty-string values and trims text, the same for JSON as XML already does, so a
 * field left blank counts as absent in both formats.
 */
export function normalizeFields(body: Record<string, unknown>): Record<string, unknown> {
  // Object.fromEntries defines a key named "__proto__" as a plain property; assigning it would
  // replace the object's prototype and let a body lend itself fields it never sent.
  return Object.fromEntries(
    Object.entries(body)
      .map(([key, value]) => [key, typeof value === 'string' ? value.trim() : value] as const)
      .filter(([, value]) => value !== null && value !== '')
      .map(([key, value]) => [
        key,
        typeof value === 'object' && !Array.isArray(value)
          ? normalizeFields(value as Record<string, unknown>)
          : value,
      ]),
  );
}
