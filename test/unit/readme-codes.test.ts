import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ERROR_CODE_MEANINGS, RESULT_CODE_MEANINGS } from '../../electron/gateway/domain/codes';

const readme = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');

it("the README's code catalogue lists every error code the engine answers, and no other", () => {
  const listed = [...readme.matchAll(/^\| (\d{4}) +\|/gm)].map((match) => match[1]);
  expect(listed.sort()).toEqual(Object.keys(ERROR_CODE_MEANINGS).sort());
});

it("the README's code catalogue names every result code", () => {
  const line = /^`result_code`: (.+?)\n\n/ms.exec(readme)?.[1] ?? '';
  const named = [...line.matchAll(/\b(\d{4})\b/g)].map((match) => match[1]);
  expect(named.sort()).toEqual(Object.keys(RESULT_CODE_MEANINGS).sort());
});
