import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODE_MEANINGS, RESULT_CODE_MEANINGS } from '../../electron/gateway/domain/codes';
import { holdsCardNumber } from '../../electron/gateway/card-number-search';

const apiGuide = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'api.md'), 'utf8');

/** The rows of the API guide's error_code table: code → meaning, as the cells read without padding. */
function catalogue(): Map<string, string> {
  const rows = [...apiGuide.matchAll(/^\| (\d{4}) +\| (.*?) *\|$/gm)];
  const meanings = new Map(rows.map((row) => [row[1] ?? '', row[2] ?? '']));
  expect(meanings.size, 'a code listed twice in docs/api.md').toBe(rows.length);
  return meanings;
}

it("the API guide's code catalogue lists every error code the engine answers, and no other", () => {
  expect([...catalogue().keys()].sort()).toEqual(Object.keys(ERROR_CODE_MEANINGS).sort());
});

it("the API guide's code catalogue gives each error code the engine's meaning, word for word", () => {
  // Integrators read docs/api.md; the engine's ERROR_CODE_MEANINGS is where a meaning is changed. A
  // code whose meaning drifts in one place and not the other would promise what the engine does not do.
  expect(Object.fromEntries(catalogue())).toEqual(ERROR_CODE_MEANINGS);
});

it("the API guide's code catalogue names every result code", () => {
  const line = /^`result_code`: (.+?)\n\n/ms.exec(apiGuide)?.[1] ?? '';
  const named = [...line.matchAll(/\b(\d{4})\b/g)].map((match) => match[1]);
  expect(named.sort()).toEqual(Object.keys(RESULT_CODE_MEANINGS).sort());
});

describe('the meaning of 8032', () => {
  const meaning = ERROR_CODE_MEANINGS['8032'];
  /** Punctuation a person might type between groups of digits, spaces and dashes aside. */
  const MARKS = [...'./_,+:;|\\*#~=!?\'"()[]{}<>@$%&^`'];
  const written = (mark: string) => ['4111', '1111', '1111', '1111'].join(mark);

  it('says any one same mark joins groups, as the detector reads them, and a letter never does', () => {
    expect(MARKS.filter((mark) => !holdsCardNumber(written(mark)))).toEqual([]);
    expect(holdsCardNumber(written('x'))).toBe(false);
    for (const mark of meaning.matchAll(/`([^\s\p{L}\d`])`/gu)) expect(MARKS).toContain(mark[1]);
    expect(meaning).toMatch(/one same other mark/);
    expect(meaning).toMatch(/A letter between digits always breaks them/);
  });

  it('says that digits of any script count, as the detector reads them', () => {
    expect(holdsCardNumber('٤١١١١١١١١١١١١١١١')).toBe(true);
    expect(meaning).toMatch(/any script's digits/);
  });

  it('says spaces, dashes and line breaks join groups, and that other marks join groups of 3-8 digits', () => {
    expect(holdsCardNumber('4111 1111 1111 1111')).toBe(true);
    expect(holdsCardNumber('4111-1111-1111-1111')).toBe(true);
    expect(holdsCardNumber('4111\n1111\n1111\n1111')).toBe(true);
    // Groups of two joined by a dot are not read together; by a space they are.
    expect(holdsCardNumber('41.11.11.11.11.11.11.11')).toBe(false);
    expect(holdsCardNumber('41 11 11 11 11 11 11 11')).toBe(true);
    expect(holdsCardNumber('41111111.11111111')).toBe(true);
    expect(meaning).toMatch(/spaces, dashes or line breaks/);
    expect(meaning).toMatch(/groups of 3-8 digits joined by one same other mark/);
  });

  it("says when a card brand's first digits matter, as the detector reads them", () => {
    expect(holdsCardNumber('4111.1111/1111-1111')).toBe(true);
    expect(holdsCardNumber('1111.1111/1111-1117')).toBe(false);
    expect(holdsCardNumber('41111111111111111230')).toBe(true);
    expect(holdsCardNumber('41111111111111111230123')).toBe(true);
    expect(meaning).toMatch(/begin as a card brand's numbers do/);
    expect(meaning).toMatch(/with 3 to 8 more digits typed right after them/);
  });
});
