/** Writes the OpenAPI document generated from the zod schemas to resources/openapi.json. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildOpenApiDocument } from '../shared/api/openapi';

export const OPENAPI_FILE = join(import.meta.dirname, 'openapi.json');

export function openApiText(): string {
  return `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
}

if (process.argv[1] === import.meta.filename) {
  writeFileSync(OPENAPI_FILE, openApiText());
  console.log(`Wrote ${OPENAPI_FILE}`);
}
