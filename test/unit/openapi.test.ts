import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OPENAPI_FILE, openApiText } from '../../resources/write-openapi';

describe('the OpenAPI document', () => {
  it('kept in the repo matches the schemas (run npm run openapi after changing them)', () => {
    expect(readFileSync(OPENAPI_FILE, 'utf8')).toBe(openApiText());
  });

  it('is OpenAPI 3.1 with every endpoint of the interface', () => {
    const document = JSON.parse(openApiText()) as {
      openapi: string;
      paths: Record<string, Record<string, unknown>>;
    };
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths['/transactions'] ?? {}).sort()).toEqual(['get', 'post']);
    expect(Object.keys(document.paths['/batches'] ?? {})).toEqual(['get']);
    expect(Object.keys(document.paths['/batches/open'] ?? {}).sort()).toEqual(['get', 'put']);
  });
});
