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

  it('lists every answer an operation can give: 429 everywhere, the close’s 503, counter_locked under 403', () => {
    type Operation = { responses: Record<string, { description: string }> };
    const document = JSON.parse(openApiText()) as { paths: Record<string, Record<string, Operation>> };
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        expect(operation.responses, `${method} ${path}`).toHaveProperty('429');
      }
    }
    const close = document.paths['/batches/open']?.put?.responses ?? {};
    expect(close['503']?.description).toMatch(/store_unreachable/);
    expect(close['409']?.description).toMatch(/batches:read/);
    const sale = document.paths['/transactions']?.post?.responses ?? {};
    expect(sale['403']?.description).toMatch(/counter_locked/);
  });
});
